// Payments and plans (issue 18, decision 017): whether this server takes payments (public), what a user
// may use, buying a premium template, starting or managing a subscription, and Stripe's webhook.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Entitlements, type PaymentsConfig, subscriptionCheckoutSchema } from '../../../shared/payments';
import { users } from '../../db/schema';
import { forbidden, notFound, parseId, parseInput } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import { idField } from '../people/access';
import { appOrigin, createPaymentIntent, entitlementsOf, openSubscriptionPortal, requireStripe, startSubscriptionCheckout } from './service';
import { stripeWebhookRoutes } from './webhook';

/** `{ templateId }`: the amount is the server's; an `amount` sent along is not read. */
const paymentIntentSchema = z.object({ templateId: idField });

export async function paymentRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db, sessions, payments } = deps;

  app.get('/payments/config', async (): Promise<PaymentsConfig> => ({
    configured: payments.stripe !== null,
    publishableKey: payments.publishableKey,
    subscriptions: payments.prices !== null,
  }));

  /** The user themself or an admin, like GET /api/users/:id/usage. */
  app.get('/users/:id/entitlements', async (request): Promise<Entitlements> => {
    const caller = await requireUser(sessions, request);
    const id = parseId((request.params as { id: string }).id);
    if (id !== caller.id && caller.role !== 'admin') throw forbidden();
    const [user] = id === caller.id ? [caller] : await db.select().from(users).where(eq(users.id, id)).limit(1);
    if (!user) throw notFound('User not found');
    return entitlementsOf(db, user);
  });

  app.post('/create-payment-intent', async (request) => {
    const user = await requireUser(sessions, request);
    requireStripe(payments);
    const { templateId } = parseInput(paymentIntentSchema, request.body);
    return createPaymentIntent({ db, payments, log: request.log }, user, templateId);
  });

  app.post('/subscriptions/checkout', async (request) => {
    const user = await requireUser(sessions, request);
    requireStripe(payments);
    const { plan } = parseInput(subscriptionCheckoutSchema, request.body);
    return startSubscriptionCheckout({ db, payments, log: request.log }, user, plan, appOrigin(payments, request));
  });

  app.post('/subscriptions/portal', async (request) => {
    const user = await requireUser(sessions, request);
    return openSubscriptionPortal({ db, payments, log: request.log }, user, appOrigin(payments, request));
  });

  await app.register(stripeWebhookRoutes, deps);
}
