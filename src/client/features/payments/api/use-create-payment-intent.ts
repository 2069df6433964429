import { useMutation } from '@tanstack/react-query';
import { PAYMENT_MESSAGES, type PaymentIntentResponse } from '@shared/payments';
import { apiRequest } from '@client/lib/api';
import { toast } from '@client/components/ui/use-toast';

/**
 * POST /api/create-payment-intent: the server prices the template from its own records and answers the
 * PaymentIntent's client secret; asked again while unpaid, it answers the same intent.
 */
export function createPaymentIntent(templateId: number): Promise<PaymentIntentResponse> {
  return apiRequest<PaymentIntentResponse>('POST', '/api/create-payment-intent', { templateId });
}

/** A refusal raises 'Failed to create payment intent' with the server's words (spec 02 §8). */
export function useCreatePaymentIntent() {
  return useMutation({
    mutationFn: createPaymentIntent,
    onError: (error) => toast({ variant: 'destructive', title: PAYMENT_MESSAGES.createIntentFailed, description: error.message }),
  });
}
