// Buying premium templates and starting subscriptions (decision 017). Nothing here grants anything: a
// purchase is written `pending` with its PaymentIntent, and only Stripe's signed confirmation
// (webhook.ts) completes it or changes a plan.
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import Stripe from 'stripe';
import {
  type Entitlements,
  PAYMENT_MESSAGES,
  type PaidPlanId,
  type PaymentIntentResponse,
  SUBSCRIPTION_RETURN_PATHS,
  type StripeRedirect,
} from '../../../shared/payments';
import { planById } from '../../../shared/plans';
import { centsToDollars } from '../../../shared/prices';
import type { Db } from '../../db/open';
import { type UserRow, purchases, users, videoTemplates } from '../../db/schema';
import { HttpError, badRequest, conflict, notFound, unauthorized } from '../../http/errors';
import type { Payments } from './stripe';

export interface PaymentDeps {
  db: Db;
  payments: Payments;
  log: FastifyBaseLogger;
}

const CURRENCY = 'usd';

/** The decisions page's rule: Premium and Family Pack subscribers on an active or trial subscription use every premium template. */
export function includesEveryPremiumTemplate(user: Pick<UserRow, 'plan' | 'subscriptionStatus'>): boolean {
  return planById(user.plan).premiumTemplates && (user.subscriptionStatus === 'active' || user.subscriptionStatus === 'trial');
}

export async function entitlementsOf(db: Db, user: UserRow): Promise<Entitlements> {
  const reason = user.role === 'admin' ? 'admin' : includesEveryPremiumTemplate(user) ? 'subscription' : null;
  const bought = await db
    .selectDistinct({ templateId: purchases.templateId })
    .from(purchases)
    .where(and(eq(purchases.userId, user.id), eq(purchases.status, 'completed')))
    .orderBy(asc(purchases.templateId));
  return { allPremium: reason !== null, purchasedTemplateIds: bought.map((row) => row.templateId), reason };
}

/** The Stripe client, or 503 'Payments are not configured on this server.' before anything is read or written. */
export function requireStripe(payments: Payments): Stripe {
  if (!payments.stripe) throw new HttpError(503, PAYMENT_MESSAGES.notConfigured);
  return payments.stripe;
}

/** Where Stripe sends the browser back: APP_URL, else the address the browser used to reach us. */
export function appOrigin(payments: Payments, request: FastifyRequest): string {
  return payments.appUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * A call to Stripe; its failure is logged with Stripe's words and answered 502 in ours (the parent
 * cannot act on 'api_key_expired').
 */
async function callStripe<T>(log: FastifyBaseLogger, what: string, message: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    log.error({ stripeError: { type: error.type, code: error.code, statusCode: error.statusCode, message: error.message, requestId: error.requestId } }, `Stripe: ${what} failed`);
    throw new HttpError(502, message);
  }
}

/**
 * POST /api/create-payment-intent: a PaymentIntent for the template's price from the database, with its
 * purchase `pending`. The purchase is chosen with the user's row locked, so two requests at once pay the
 * same purchase; its PaymentIntent is made with the purchase's idempotency key, so they get the same one.
 * Stripe is called outside the transaction: the embedded database would wait on the network with it.
 */
export async function createPaymentIntent(deps: PaymentDeps, user: UserRow, templateId: number): Promise<PaymentIntentResponse> {
  const stripe = requireStripe(deps.payments);
  const { db, log } = deps;
  const [template] = await db.select().from(videoTemplates).where(eq(videoTemplates.id, templateId)).limit(1);
  if (!template) throw notFound(PAYMENT_MESSAGES.templateNotFound);
  // A premium template always has a price (template-rules.ts); one without is not for sale either.
  if (!template.isPremium || !template.priceCents) throw badRequest(PAYMENT_MESSAGES.freeTemplate);
  const amountCents = template.priceCents;

  const purchase = await db.transaction(async (tx) => {
    const [owner] = await tx.select().from(users).where(eq(users.id, user.id)).for('update');
    if (!owner) throw unauthorized();
    if (owner.role === 'admin' || includesEveryPremiumTemplate(owner)) throw conflict(PAYMENT_MESSAGES.planIncludesPremium);
    const earlier = await tx
      .select()
      .from(purchases)
      .where(and(eq(purchases.userId, owner.id), eq(purchases.templateId, template.id), inArray(purchases.status, ['pending', 'completed'])))
      .orderBy(asc(purchases.id));
    if (earlier.some((row) => row.status === 'completed')) throw conflict(PAYMENT_MESSAGES.alreadyOwned);
    const pending = earlier.find((row) => row.amountCents === amountCents);
    // Pending at an old price: superseded. Should it be paid after all, the webhook still completes it.
    const superseded = earlier.filter((row) => row !== pending).map((row) => row.id);
    if (superseded.length > 0) await tx.update(purchases).set({ status: 'failed' }).where(inArray(purchases.id, superseded));
    if (pending) return pending;
    const [created] = await tx.insert(purchases).values({ userId: owner.id, templateId: template.id, amountCents, currency: CURRENCY, status: 'pending' }).returning();
    return created!;
  });

  if (purchase.stripePaymentIntentId) {
    const intent = await callStripe(log, 'reading a payment intent', PAYMENT_MESSAGES.createIntentFailed, () =>
      stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId!),
    );
    // Paid, and the webhook is on its way: a second payment would charge the parent twice.
    if (intent.status === 'succeeded' || intent.status === 'processing') throw conflict(PAYMENT_MESSAGES.paymentBeingConfirmed);
    if (intent.status !== 'canceled' && intent.client_secret) return answer(purchase, intent.client_secret);
    // Cancelled at Stripe: this purchase cannot be paid any more; the next try makes a new one.
    await db.update(purchases).set({ status: 'failed' }).where(and(eq(purchases.id, purchase.id), eq(purchases.status, 'pending')));
    return createPaymentIntent(deps, user, templateId);
  }

  let intent: Stripe.PaymentIntent;
  try {
    intent = await callStripe(log, 'creating a payment intent', PAYMENT_MESSAGES.createIntentFailed, () =>
      stripe.paymentIntents.create(
        {
          amount: purchase.amountCents,
          currency: purchase.currency,
          automatic_payment_methods: { enabled: true },
          metadata: { purchaseId: String(purchase.id), userId: String(purchase.userId), templateId: String(purchase.templateId) },
        },
        // One PaymentIntent per purchase, whoever asks and however often the SDK retries.
        { idempotencyKey: `familystar-purchase-${purchase.id}` },
      ),
    );
  } catch (error) {
    // Nothing to pay: the purchase goes (another request for it may have its intent by now, then it stays).
    await db.delete(purchases).where(and(eq(purchases.id, purchase.id), isNull(purchases.stripePaymentIntentId)));
    throw error;
  }
  await db.update(purchases).set({ stripePaymentIntentId: intent.id }).where(eq(purchases.id, purchase.id));
  log.info({ purchaseId: purchase.id, templateId: purchase.templateId, paymentIntentId: intent.id, amountCents: purchase.amountCents }, 'purchase started');
  return answer(purchase, intent.client_secret!);
}

const answer = (purchase: typeof purchases.$inferSelect, clientSecret: string): PaymentIntentResponse => ({
  clientSecret,
  amount: centsToDollars(purchase.amountCents)!,
  currency: CURRENCY,
  purchaseId: purchase.id,
});

/** A Premium or Family Pack subscription in good standing: changing or cancelling it is the portal's job. */
function hasPaidSubscription(user: UserRow): boolean {
  return user.plan !== 'free' && (user.subscriptionStatus === 'active' || user.subscriptionStatus === 'trial');
}

/**
 * The user's Stripe customer, made once with their e-mail and kept on the user at once, so the
 * subscription's events find them in whatever order they come. Two tabs at once send the same
 * idempotency key and get the same customer.
 */
async function customerOf(deps: PaymentDeps, stripe: Stripe, user: UserRow): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const emailKey = createHash('sha256').update(user.email.toLowerCase()).digest('hex').slice(0, 16);
  const customer = await callStripe(deps.log, 'creating a customer', PAYMENT_MESSAGES.providerUnavailable, () =>
    stripe.customers.create({ email: user.email, metadata: { userId: String(user.id) } }, { idempotencyKey: `familystar-customer-${user.id}-${emailKey}` }),
  );
  const [kept] = await deps.db
    .update(users)
    .set({ stripeCustomerId: customer.id })
    .where(and(eq(users.id, user.id), isNull(users.stripeCustomerId)))
    .returning({ id: users.stripeCustomerId });
  if (kept) return customer.id;
  const [owner] = await deps.db.select({ id: users.stripeCustomerId }).from(users).where(eq(users.id, user.id));
  if (!owner?.id) throw unauthorized();
  return owner.id;
}

/** POST /api/subscriptions/checkout: a Stripe Checkout Session in subscription mode for the plan's monthly price. */
export async function startSubscriptionCheckout(deps: PaymentDeps, user: UserRow, plan: PaidPlanId, origin: string): Promise<StripeRedirect> {
  const stripe = requireStripe(deps.payments);
  const prices = deps.payments.prices;
  if (!prices) throw new HttpError(503, PAYMENT_MESSAGES.subscriptionsNotConfigured);
  if (hasPaidSubscription(user)) throw conflict(PAYMENT_MESSAGES.alreadySubscribed);
  const customer = await customerOf(deps, stripe, user);
  const session = await callStripe(deps.log, 'creating a checkout session', PAYMENT_MESSAGES.providerUnavailable, () =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: String(user.id),
      line_items: [{ price: prices[plan], quantity: 1 }],
      success_url: `${origin}${SUBSCRIPTION_RETURN_PATHS.success}`,
      cancel_url: `${origin}${SUBSCRIPTION_RETURN_PATHS.cancel}`,
      metadata: { userId: String(user.id), plan },
      subscription_data: { metadata: { userId: String(user.id), plan } },
    }),
  );
  if (!session.url) throw new HttpError(502, PAYMENT_MESSAGES.providerUnavailable);
  deps.log.info({ plan, checkoutSessionId: session.id }, 'subscription checkout started');
  return { url: session.url };
}

/** POST /api/subscriptions/portal: Stripe's customer portal, to change or cancel the subscription. */
export async function openSubscriptionPortal(deps: PaymentDeps, user: UserRow, origin: string): Promise<StripeRedirect> {
  const stripe = requireStripe(deps.payments);
  if (!user.stripeCustomerId) throw conflict(PAYMENT_MESSAGES.noSubscriptionToManage);
  const session = await callStripe(deps.log, 'creating a portal session', PAYMENT_MESSAGES.providerUnavailable, () =>
    stripe.billingPortal.sessions.create({ customer: user.stripeCustomerId!, return_url: `${origin}${SUBSCRIPTION_RETURN_PATHS.portal}` }),
  );
  return { url: session.url };
}
