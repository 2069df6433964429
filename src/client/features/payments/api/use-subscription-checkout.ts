import { useMutation } from '@tanstack/react-query';
import type { PaidPlanId, StripeRedirect } from '@shared/payments';
import { apiRequest } from '@client/lib/api';
import { notifyError } from '@client/lib/notify';

export function startSubscriptionCheckout(plan: PaidPlanId): Promise<StripeRedirect> {
  return apiRequest<StripeRedirect>('POST', '/api/subscriptions/checkout', { plan });
}

/** POST /api/subscriptions/checkout, then on to Stripe Checkout, which comes back to /profile#plan. */
export function useSubscriptionCheckout() {
  return useMutation({
    mutationFn: startSubscriptionCheckout,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => notifyError(error.message, 'Upgrade failed'),
  });
}
