// Payments and plans (issue 18, decision 017): what the checkout page, the plan section and the routes
// say, and the shapes the payment calls return. Spec 02 §8 for the checkout messages.
import { z } from 'zod';
import type { PlanId } from './plans';

export const PAYMENT_MESSAGES = {
  notConfigured: 'Payments are not configured on this server.',
  subscriptionsNotConfigured: 'Subscriptions are not configured on this server.',
  // Spec 02 §8, the checkout page.
  createIntentFailed: 'Failed to create payment intent',
  initializeFailed: 'Failed to initialize payment',
  fetchTemplateFailed: 'Failed to fetch template',
  paymentFailed: 'Payment Failed',
  unexpectedError: 'An unexpected error occurred.',
  paymentError: 'Payment Error',
  templateNotFound: 'Template not found',
  // Refusals.
  freeTemplate: 'This template is free: there is nothing to buy.',
  alreadyOwned: 'You already own this template.',
  planIncludesPremium: 'Your plan already includes every premium template.',
  paymentBeingConfirmed: 'Your payment for this template is being confirmed. It will be ready in a moment.',
  choosePlan: 'Choose Premium or Family Pack.',
  alreadySubscribed: 'You already have a subscription. Use "Manage subscription" to change or cancel it.',
  noSubscriptionToManage: 'You have no subscription to manage yet.',
  providerUnavailable: 'The payment provider could not be reached. Please try again in a moment.',
  // The premium rule (decisions page), 403 with code plan_limit.
  premiumRequired: 'This is a premium template. Purchase it, or upgrade to Premium or Family Pack to use every premium template.',
  // The webhook's answers (read by Stripe's dashboard, not by a parent).
  invalidSignature: 'The webhook signature could not be verified.',
} as const;

/** GET /api/payments/config: what the browser may offer. */
export interface PaymentsConfig {
  /** The secret and publishable keys are set: premium templates can be bought. */
  configured: boolean;
  publishableKey: string | null;
  /** Both subscription prices are set too: Premium and Family Pack can be subscribed to. */
  subscriptions: boolean;
}

/** GET /api/users/:id/entitlements: which premium templates the user may use. */
export interface Entitlements {
  /** Every premium template: admins, and Premium or Family Pack subscribers whose subscription is active or on trial. */
  allPremium: boolean;
  /** Templates bought (completed purchases). */
  purchasedTemplateIds: number[];
  reason: 'admin' | 'subscription' | null;
}

/** POST /api/create-payment-intent. */
export interface PaymentIntentResponse {
  clientSecret: string;
  /** Dollars, from the database. */
  amount: number;
  currency: 'usd';
  purchaseId: number;
}

/** POST /api/subscriptions/checkout and /api/subscriptions/portal: where the browser goes next. */
export interface StripeRedirect {
  url: string;
}

/** The plans sold as subscriptions. */
export const PAID_PLAN_IDS = ['premium', 'family'] as const satisfies readonly PlanId[];
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];

export const subscriptionCheckoutSchema = z.object({ plan: z.enum(PAID_PLAN_IDS, { error: PAYMENT_MESSAGES.choosePlan }) });

/** Where Stripe Checkout and the customer portal send the parent back (the profile's plan section). */
export const SUBSCRIPTION_RETURN_PATHS = {
  success: '/profile?checkout=success#plan',
  cancel: '/profile#plan',
  portal: '/profile#plan',
} as const;

/** Where a paid premium template's checkout returns (it redirects to /process/{templateId}). */
export const paymentReturnPath = (templateId: number) => `/video-processor/${templateId}`;
