// Stripe.js is loaded from js.stripe.com only when a checkout needs it (the `pure` entry has no import side
// effect), and a load that neither succeeds nor fails is given up after a while rather than waited on forever.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';

export const STRIPE_LOAD_TIMEOUT_MS = 20_000;

/** Stripe.js for this publishable key; rejects when the script cannot load (offline, blocked, too slow). */
export async function loadStripeJs(publishableKey: string, timeoutMs = STRIPE_LOAD_TIMEOUT_MS): Promise<Stripe> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Stripe.js did not load in time')), timeoutMs);
  });
  try {
    const stripe = await Promise.race([loadStripe(publishableKey), timeout]);
    if (!stripe) throw new Error('Stripe.js is not available');
    return stripe;
  } finally {
    clearTimeout(timer);
  }
}
