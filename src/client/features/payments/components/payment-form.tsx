// The card form inside Stripe's <Elements>: the Payment Element and 'Pay $x.xx'. A successful confirmation
// leaves for the return address (/video-processor/{id}); only errors come back here (spec 02 §8).
import { Lock } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Appearance } from '@stripe/stripe-js';
import { PAYMENT_MESSAGES, paymentReturnPath } from '@shared/payments';
import { formatPrice } from '@shared/prices';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/components/ui/use-toast';
import { forgetPayment, rememberPayment } from '../lib/recent-payment';

/** Stripe's iframe cannot read our stylesheet: the theme's colour and corners, read from it. */
export function stripeAppearance(): Appearance {
  const styles = getComputedStyle(document.documentElement);
  const primary = styles.getPropertyValue('--primary').trim();
  return {
    theme: 'stripe',
    variables: { ...(primary.startsWith('#') ? { colorPrimary: primary } : {}), borderRadius: '10px' },
  };
}

interface PaymentFormProps {
  templateId: number;
  /** Dollars, as the server priced the payment intent. */
  amount: number;
  /** The Payment Element could not load (Stripe unreachable once Stripe.js is here). */
  onLoadError: () => void;
}

export function PaymentForm({ templateId, amount, onLoadError }: PaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [paying, setPaying] = useState(false);

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setPaying(true);
    // Kept for the Create page, which waits for Stripe's webhook instead of offering the purchase again.
    rememberPayment(templateId);
    try {
      const { error } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: window.location.origin + paymentReturnPath(templateId) },
      });
      forgetPayment();
      toast({ variant: 'destructive', title: PAYMENT_MESSAGES.paymentFailed, description: error.message || PAYMENT_MESSAGES.unexpectedError });
    } catch (error) {
      forgetPayment();
      toast({
        variant: 'destructive',
        title: PAYMENT_MESSAGES.paymentError,
        description: error instanceof Error && error.message ? error.message : PAYMENT_MESSAGES.unexpectedError,
      });
    } finally {
      setPaying(false);
    }
  }

  const price = formatPrice(amount);
  return (
    <form noValidate className="grid gap-5" onSubmit={(event) => void pay(event)}>
      <PaymentElement onReady={() => setReady(true)} onLoadError={onLoadError} />
      <Button type="submit" size="lg" disabled={!stripe || !elements || !ready || paying}>
        {paying ? (
          <>
            <Spinner className="size-4 text-current" label="Paying" /> Processing...
          </>
        ) : (
          <>
            <Lock aria-hidden="true" /> Pay {price}
          </>
        )}
      </Button>
      <p className="text-center text-xs text-muted-foreground">Card details go straight to Stripe; FamilyStar never sees them.</p>
    </form>
  );
}
