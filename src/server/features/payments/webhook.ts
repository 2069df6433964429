// POST /api/stripe/webhook (decision 017): the only place a purchase completes or a plan changes. The
// signature is checked on the raw body with the SDK; each event is applied once (stripe_events) in the
// transaction that records it; whatever does not match what we asked Stripe for is logged and grants
// nothing. Every verified event is answered 200, handled or not, so Stripe does not retry it forever.
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { PAYMENT_MESSAGES } from '../../../shared/payments';
import type { PlanId } from '../../../shared/plans';
import type { SubscriptionStatus } from '../../../shared/api-types';
import type { Tx } from '../../db/open';
import { type UserRow, purchases, stripeEvents, users } from '../../db/schema';
import { HttpError, badRequest } from '../../http/errors';
import type { RouteDeps } from '../../http/route-deps';
import type { PaymentDeps } from './service';
import { planOfPrice } from './stripe';

/** The route, in a scope of its own whose only body parser keeps the bytes: the signature is over them. */
export async function stripeWebhookRoutes(app: FastifyInstance, { db, payments }: RouteDeps) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // Public: Stripe has no session; its signature is the proof. No Origin header either (same-site.ts).
  app.post('/stripe/webhook', { config: { public: true } }, async (request) => {
    const { stripe, webhookSecret } = payments;
    if (!stripe || !webhookSecret) {
      request.log.warn('Stripe webhook refused: payments or STRIPE_WEBHOOK_SECRET are not configured');
      throw new HttpError(503, PAYMENT_MESSAGES.notConfigured);
    }
    const signature = request.headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw new Error('No Stripe-Signature header or no body');
      // The default tolerance (300 s) refuses an old event replayed.
      event = stripe.webhooks.constructEvent(request.body, signature, webhookSecret);
    } catch (error) {
      request.log.warn({ reason: (error as Error).message }, 'Stripe webhook refused: signature not verified');
      throw badRequest(PAYMENT_MESSAGES.invalidSignature);
    }
    await handleStripeEvent({ db, payments, log: request.log.child({ stripeEventId: event.id, stripeEventType: event.type }) }, event);
    return { received: true };
  });
}

const HANDLED = new Set<Stripe.Event.Type>([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
]);

/** Applies one verified event, at most once. */
export async function handleStripeEvent(deps: PaymentDeps, event: Stripe.Event): Promise<void> {
  const { db, log } = deps;
  if (!HANDLED.has(event.type)) {
    log.debug('Stripe event ignored');
    return;
  }
  // Read from Stripe before the transaction: the embedded database would wait on the network with it.
  const checkoutSubscription = event.type === 'checkout.session.completed' ? await subscriptionOfCheckout(deps, event.data.object) : undefined;
  await db.transaction(async (tx) => {
    const [fresh] = await tx.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().returning({ id: stripeEvents.id });
    if (!fresh) {
      log.info('Stripe event already handled; nothing changes');
      return;
    }
    switch (event.type) {
      case 'payment_intent.succeeded':
        return paymentSucceeded(tx, deps, event.data.object);
      case 'payment_intent.payment_failed':
        return paymentFailed(tx, deps, event.data.object);
      case 'checkout.session.completed':
        return checkoutCompleted(tx, deps, event.data.object, checkoutSubscription);
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
        return subscriptionChanged(tx, deps, event.data.object, false);
      case 'customer.subscription.deleted':
        return subscriptionChanged(tx, deps, event.data.object, true);
      case 'invoice.payment_failed':
        return renewalFailed(tx, deps, event.data.object);
    }
  });
}

const idOf = (value: string | { id: string } | null | undefined): string | undefined => (typeof value === 'string' ? value : (value?.id ?? undefined));

/** The purchase with this PaymentIntent completes, when what was paid is what the purchase asked for. */
async function paymentSucceeded(tx: Tx, { log }: PaymentDeps, intent: Stripe.PaymentIntent): Promise<void> {
  const [purchase] = await tx.select().from(purchases).where(eq(purchases.stripePaymentIntentId, intent.id)).for('update');
  if (!purchase) {
    log.warn({ paymentIntentId: intent.id, metadata: intent.metadata }, 'Stripe payment for an unknown payment intent; nothing granted');
    return;
  }
  if (purchase.status === 'completed') {
    log.info({ purchaseId: purchase.id }, 'purchase already completed');
    return;
  }
  const metadata = intent.metadata ?? {};
  const mismatches = [
    intent.status !== 'succeeded' && 'status',
    intent.amount !== purchase.amountCents && 'amount',
    intent.currency !== purchase.currency && 'currency',
    metadata.userId !== String(purchase.userId) && 'userId',
    metadata.purchaseId !== String(purchase.id) && 'purchaseId',
    metadata.templateId !== String(purchase.templateId) && 'templateId',
  ].filter(Boolean);
  if (mismatches.length > 0) {
    log.warn(
      { purchaseId: purchase.id, paymentIntentId: intent.id, mismatches, paid: { amount: intent.amount, currency: intent.currency, metadata } },
      'Stripe payment does not match its purchase; nothing granted',
    );
    return;
  }
  await tx.update(purchases).set({ status: 'completed', completedAt: new Date() }).where(eq(purchases.id, purchase.id));
  log.info({ purchaseId: purchase.id, userId: purchase.userId, templateId: purchase.templateId }, 'purchase completed');
}

async function paymentFailed(tx: Tx, { log }: PaymentDeps, intent: Stripe.PaymentIntent): Promise<void> {
  const [failed] = await tx
    .update(purchases)
    .set({ status: 'failed' })
    .where(and(eq(purchases.stripePaymentIntentId, intent.id), eq(purchases.status, 'pending')))
    .returning({ id: purchases.id });
  if (failed) log.info({ purchaseId: failed.id, reason: intent.last_payment_error?.message }, 'purchase payment failed');
  else log.warn({ paymentIntentId: intent.id }, 'Stripe payment failure for no pending purchase; nothing changes');
}

/** The subscription a completed Checkout Session started, read from Stripe (the event carries only its id). */
async function subscriptionOfCheckout({ payments }: PaymentDeps, session: Stripe.Checkout.Session): Promise<Stripe.Subscription | undefined> {
  const id = idOf(session.subscription);
  if (session.mode !== 'subscription' || !id || !payments.stripe) return undefined;
  // A failure here answers 500, and Stripe sends the event again later.
  return typeof session.subscription === 'object' && session.subscription ? session.subscription : payments.stripe.subscriptions.retrieve(id);
}

/** Checkout in subscription mode: the user named by client_reference_id gets the customer and the subscription's state. */
async function checkoutCompleted(tx: Tx, deps: PaymentDeps, session: Stripe.Checkout.Session, subscription: Stripe.Subscription | undefined): Promise<void> {
  const { log } = deps;
  if (session.mode !== 'subscription') {
    log.debug({ mode: session.mode }, 'Stripe checkout that is not a subscription; ignored');
    return;
  }
  const userId = Number(session.client_reference_id);
  const customerId = idOf(session.customer);
  const context = { checkoutSessionId: session.id, clientReferenceId: session.client_reference_id, customerId };
  if (!Number.isInteger(userId) || userId < 1 || !customerId || !subscription) {
    log.warn(context, 'Stripe checkout without a user, a customer or a subscription; nothing changes');
    return;
  }
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user) {
    log.warn(context, 'Stripe checkout for an unknown user; nothing changes');
    return;
  }
  if (user.stripeCustomerId && user.stripeCustomerId !== customerId) {
    log.warn({ ...context, usersCustomerId: user.stripeCustomerId }, "Stripe checkout's customer is not the user's; nothing changes");
    return;
  }
  const [holder] = await tx.select({ id: users.id }).from(users).where(and(eq(users.stripeCustomerId, customerId), ne(users.id, userId)));
  if (holder) {
    log.warn({ ...context, holderId: holder.id }, "Stripe checkout's customer belongs to another user; nothing changes");
    return;
  }
  if (idOf(subscription.customer) !== customerId) {
    log.warn({ ...context, subscriptionId: subscription.id }, "Stripe checkout's subscription belongs to another customer; nothing changes");
    return;
  }
  await applySubscription(tx, deps, { ...user, stripeCustomerId: customerId }, subscription, false);
}

/** customer.subscription.*: the user is found by their Stripe customer. */
async function subscriptionChanged(tx: Tx, deps: PaymentDeps, subscription: Stripe.Subscription, deleted: boolean): Promise<void> {
  const customerId = idOf(subscription.customer);
  const [user] = customerId ? await tx.select().from(users).where(eq(users.stripeCustomerId, customerId)).for('update') : [];
  if (!user) {
    deps.log.warn({ customerId, subscriptionId: subscription.id }, 'Stripe subscription of an unknown customer; nothing changes');
    return;
  }
  await applySubscription(tx, deps, user, subscription, deleted);
}

/**
 * Stripe's subscription status in ours; undefined leaves the user's as it is (`incomplete`: the first
 * payment is under way). A paused subscription (a trial ended without a card) is not paid for either.
 */
export function statusOfSubscription(status: Stripe.Subscription.Status): SubscriptionStatus | undefined {
  switch (status) {
    case 'trialing':
      return 'trial';
    case 'active':
      return 'active';
    case 'past_due':
    case 'unpaid':
    case 'canceled':
    case 'incomplete_expired':
    case 'paused':
      return 'expired';
    default:
      return undefined;
  }
}

/** The user's plan, status and Stripe ids as the subscription says; an ended one takes the user back to Free. */
async function applySubscription(tx: Tx, { payments, log }: PaymentDeps, user: UserRow, subscription: Stripe.Subscription, deleted: boolean): Promise<void> {
  const status = deleted ? 'expired' : statusOfSubscription(subscription.status);
  const context = { userId: user.id, subscriptionId: subscription.id, stripeStatus: subscription.status, deleted };
  // Another subscription than the user's current one ending (replaced earlier) does not end the current one.
  if (user.stripeSubscriptionId && user.stripeSubscriptionId !== subscription.id && status !== 'active' && status !== 'trial') {
    log.info({ ...context, currentSubscriptionId: user.stripeSubscriptionId }, 'Stripe event about a former subscription; nothing changes');
    return;
  }
  const ids = { stripeCustomerId: user.stripeCustomerId, stripeSubscriptionId: deleted ? null : subscription.id };
  if (status === undefined) {
    await tx.update(users).set(ids).where(eq(users.id, user.id));
    log.info(context, 'Stripe subscription not paid yet; plan unchanged');
    return;
  }
  const priceId = subscription.items?.data[0]?.price?.id;
  const paidPlan = planOfPrice(payments, priceId);
  let plan: PlanId = user.plan;
  if (status === 'expired') plan = 'free';
  else if (paidPlan) plan = paidPlan;
  else log.warn({ ...context, priceId }, 'Stripe subscription for a price this server does not sell; plan unchanged');
  await tx.update(users).set({ ...ids, subscriptionStatus: status, plan }).where(eq(users.id, user.id));
  log.info({ ...context, plan, subscriptionStatus: status }, 'subscription updated');
}

/** A renewal not paid: the subscription is no longer in good standing (the plan stays until Stripe says it ended). */
async function renewalFailed(tx: Tx, { log }: PaymentDeps, invoice: Stripe.Invoice): Promise<void> {
  const customerId = idOf(invoice.customer);
  const [user] = customerId
    ? await tx.update(users).set({ subscriptionStatus: 'expired' }).where(eq(users.stripeCustomerId, customerId)).returning({ id: users.id })
    : [];
  if (user) log.info({ userId: user.id, invoiceId: invoice.id }, 'subscription renewal failed; status expired');
  else log.warn({ customerId, invoiceId: invoice.id }, 'Stripe invoice of an unknown customer; nothing changes');
}
