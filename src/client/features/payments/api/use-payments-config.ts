import { useQuery } from '@tanstack/react-query';
import type { PaymentsConfig } from '@shared/payments';

export const paymentsConfigQueryKey = ['/api/payments/config'] as const;

/** GET /api/payments/config (public): whether this server takes payments, and Stripe's publishable key. */
export function usePaymentsConfig() {
  return useQuery<PaymentsConfig>({ queryKey: paymentsConfigQueryKey });
}
