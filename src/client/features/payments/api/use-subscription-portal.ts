import { useMutation } from '@tanstack/react-query';
import type { StripeRedirect } from '@shared/payments';
import { apiRequest } from '@client/lib/api';
import { notifyError } from '@client/lib/notify';

export function openSubscriptionPortal(): Promise<StripeRedirect> {
  return apiRequest<StripeRedirect>('POST', '/api/subscriptions/portal');
}

/** POST /api/subscriptions/portal, then on to Stripe's customer portal to change or cancel the plan. */
export function useSubscriptionPortal() {
  return useMutation({
    mutationFn: openSubscriptionPortal,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => notifyError(error.message, 'Could not open the subscription page'),
  });
}
