// The Stripe client and what the settings allow (decision 017): payments are configured when both keys
// are set; STRIPE_API_URL points the official SDK elsewhere (stripe-mock, a test's stand-in).
import Stripe from 'stripe';
import type { PaidPlanId } from '../../../shared/payments';
import type { StripeSettings } from '../../config';

export interface Payments {
  /** null when payments are not configured: nothing can be bought, and no call leaves the server. */
  stripe: Stripe | null;
  publishableKey: string | null;
  /** Verifies webhooks; null refuses them all (503). */
  webhookSecret: string | null;
  /** The monthly Price id of each paid plan; null when subscriptions are not offered. */
  prices: Record<PaidPlanId, string> | null;
  /** The public address for Stripe's return URLs; null = the request's own. */
  appUrl: string | null;
}

/** Calls to Stripe give up after this long: a parent is waiting on the other side. */
const STRIPE_TIMEOUT_MS = 20_000;

export function createPayments(settings: Partial<StripeSettings> | undefined, appUrl: string | undefined): Payments {
  const { secretKey, publishableKey, webhookSecret, pricePremium, priceFamily, apiUrl } = settings ?? {};
  const configured = Boolean(secretKey && publishableKey);
  return {
    stripe: configured ? new Stripe(secretKey!, { ...apiAddress(apiUrl), timeout: STRIPE_TIMEOUT_MS, maxNetworkRetries: 2 }) : null,
    publishableKey: configured ? publishableKey! : null,
    webhookSecret: configured && webhookSecret ? webhookSecret : null,
    prices: configured && pricePremium && priceFamily ? { premium: pricePremium, family: priceFamily } : null,
    appUrl: appUrl ?? null,
  };
}

/** The SDK's host, port and protocol for STRIPE_API_URL; nothing (api.stripe.com) when unset. */
function apiAddress(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** Which paid plan a subscription's Price id is, or undefined for a price this server does not sell. */
export function planOfPrice(payments: Payments, priceId: string | undefined): PaidPlanId | undefined {
  if (!payments.prices || !priceId) return undefined;
  if (priceId === payments.prices.premium) return 'premium';
  if (priceId === payments.prices.family) return 'family';
  return undefined;
}
