// Stripe's webhook through the real route: events signed with the SDK's own test helper and verified by
// the real check. A payment completes its purchase once (then the premium template can be used); forged,
// replayed, altered or unknown events are refused or ignored, logged, and grant nothing; subscriptions
// keep the plan and status true through their whole life.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanUsage } from '../../../shared/api-types';
import { type Entitlements, PAYMENT_MESSAGES, type PaymentIntentResponse } from '../../../shared/payments';
import { PRIVACY_MESSAGES } from '../../../shared/privacy';
import { VIDEO_MESSAGES } from '../../../shared/video-rules';
import { purchases, stripeEvents, users, videoTemplates } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { STRIPE_TEST_SETTINGS, type StripeObject, type StripeStandIn, signWebhook, startStripeStandIn, stripeEvent, stripeSettings } from '../../testing/stripe-stand-in';
import { type TestApp, TestClient, anotherApp, createTestApp, json } from '../../testing/test-app';

const databases = await testDatabases();

describe.each(databases)('Stripe webhook on $name', (testDatabase) => {
  let t: TestApp;
  let standIn: StripeStandIn;
  let paid: FastifyInstance;
  const logLines: string[] = [];
  let premiumId: number;

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    standIn = await startStripeStandIn();
    paid = await anotherApp(t, { config: { stripe: stripeSettings(standIn), appUrl: 'https://familystar.example' }, logStream: { write: (line) => void logLines.push(line) } });
    await new TestClient(paid).register(); // the first account is the admin: out of the way
    premiumId = (await t.database.db.insert(videoTemplates).values({ title: 'Letters', description: 'ABC', duration: 30, isPremium: true, priceCents: 299 }).returning())[0]!.id;
  });
  afterAll(async () => {
    await paid?.close();
    await standIn?.close();
    await t?.close();
  });

  async function parent() {
    const client = new TestClient(paid);
    const account = await client.register();
    return { client, userId: account.user.id, account };
  }

  /** Posts an event as Stripe does; `sign` changes how (another secret, an old time, another body). */
  async function deliver(event: unknown, sign: { secret?: string; timestamp?: number; body?: string } = {}, app = paid) {
    const payload = JSON.stringify(event);
    const signature = signWebhook(payload, sign);
    return new TestClient(app).request('POST', '/api/stripe/webhook', sign.body ?? payload, { 'stripe-signature': signature, 'content-type': 'application/json; charset=utf-8' });
  }

  const purchaseOf = async (id: number) => (await t.database.db.select().from(purchases).where(eq(purchases.id, id)))[0]!;
  const userRow = async (id: number) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;
  const recorded = async (eventId: string) => (await t.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, eventId))).length;
  const logged = (text: string) => logLines.some((line) => line.includes(text));
  const createPremium = async (client: TestClient) => {
    const response = await client.post('/api/processedVideos', { templateId: premiumId, title: 'My version', useVoiceSwap: false });
    return [response.statusCode, json(response).message];
  };

  /** A parent who started paying for the premium template: their purchase and its PaymentIntent at Stripe. */
  async function buyer() {
    const m = await parent();
    const response = await m.client.post('/api/create-payment-intent', { templateId: premiumId });
    expect(response.statusCode, response.body).toBe(200);
    const { purchaseId } = json<PaymentIntentResponse>(response);
    const intent = standIn.paymentIntents.get((await purchaseOf(purchaseId)).stripePaymentIntentId!)!;
    return { ...m, purchaseId, intent };
  }

  const succeeded = (intent: StripeObject, changes: Record<string, unknown> = {}) =>
    stripeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded', amount_received: intent.amount, ...changes });

  it('completes the purchase from payment_intent.succeeded once, and then the template can be used', async () => {
    const m = await buyer();
    expect(await createPremium(m.client)).toEqual([403, PAYMENT_MESSAGES.premiumRequired]);
    const event = succeeded(m.intent);
    const response = await deliver(event);
    expect([response.statusCode, json(response)]).toEqual([200, { received: true }]);
    const completed = await purchaseOf(m.purchaseId);
    expect(completed).toMatchObject({ status: 'completed', amountCents: 299 });
    expect(completed.completedAt).toBeInstanceOf(Date);
    expect(json<Entitlements>(await m.client.get(`/api/users/${m.userId}/entitlements`))).toEqual({ allPremium: false, purchasedTemplateIds: [premiumId], reason: null });
    // Past the premium rule: the next thing missing is the face.
    expect(await createPremium(m.client)).toEqual([400, VIDEO_MESSAGES.faceRequired]);
    const again = await m.client.post('/api/create-payment-intent', { templateId: premiumId });
    expect([again.statusCode, json(again).message]).toEqual([409, PAYMENT_MESSAGES.alreadyOwned]);

    // The same event twice (Stripe retries), even signed anew: nothing changes.
    const twice = await deliver(event);
    expect([twice.statusCode, json(twice)]).toEqual([200, { received: true }]);
    expect(await purchaseOf(m.purchaseId)).toEqual(completed);
    expect(await recorded(event.id)).toBe(1);
    expect(logged('Stripe event already handled')).toBe(true);
    // Another event for the same payment: still one purchase, completed when it first was.
    expect((await deliver(succeeded(m.intent))).statusCode).toBe(200);
    expect(await purchaseOf(m.purchaseId)).toEqual(completed);
  });

  it('refuses forged and replayed webhooks (bad signature, old timestamp, altered body) with 400, logged, nothing granted', async () => {
    const m = await buyer();
    const event = succeeded(m.intent);
    const payload = JSON.stringify(event);
    const cases: [string, Parameters<typeof deliver>[1]][] = [
      ['another secret', { secret: 'whsec_forged' }],
      ['signed ten minutes ago', { timestamp: Math.floor(Date.now() / 1000) - 600 }],
      ['body changed after signing', { body: payload.replace('"amount":299', '"amount":1') }],
    ];
    for (const [name, sign] of cases) {
      const before = logLines.length;
      const response = await deliver(event, sign);
      expect([response.statusCode, json(response).message], name).toEqual([400, PAYMENT_MESSAGES.invalidSignature]);
      expect(logLines.slice(before).some((line) => line.includes('signature not verified')), name).toBe(true);
    }
    const unsigned = await new TestClient(paid).request('POST', '/api/stripe/webhook', payload);
    expect(unsigned.statusCode).toBe(400);
    const garbage = await new TestClient(paid).request('POST', '/api/stripe/webhook', payload, { 'stripe-signature': 't=1,v1=abc' });
    expect(garbage.statusCode).toBe(400);
    expect((await purchaseOf(m.purchaseId)).status).toBe('pending');
    expect(await recorded(event.id)).toBe(0);
    // The genuine one still works afterwards.
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await purchaseOf(m.purchaseId)).status).toBe('completed');
  });

  it("grants nothing for a changed amount or currency, an unknown intent, or another user's purchase (logged, 200)", async () => {
    const m = await buyer();
    const stranger = await buyer();
    const cases: [string, ReturnType<typeof succeeded>, string][] = [
      ['a changed amount', succeeded(m.intent, { amount: 1, amount_received: 1 }), 'does not match its purchase'],
      ['another currency', succeeded(m.intent, { currency: 'eur' }), 'does not match its purchase'],
      ['not succeeded after all', succeeded(m.intent, { status: 'requires_payment_method' }), 'does not match its purchase'],
      ["the stranger's user id on this purchase's intent", succeeded(m.intent, { metadata: { ...(m.intent.metadata as object), userId: String(stranger.userId) } }), 'does not match its purchase'],
      ["this purchase's intent claimed for the stranger's purchase", succeeded(m.intent, { metadata: { ...(stranger.intent.metadata as object) } }), 'does not match its purchase'],
      ['an unknown intent', succeeded({ ...m.intent, id: 'pi_unknown_to_us' }), 'unknown payment intent'],
    ];
    for (const [name, event, words] of cases) {
      const before = logLines.length;
      const response = await deliver(event);
      expect([response.statusCode, json(response)], name).toEqual([200, { received: true }]);
      expect(logLines.slice(before).some((line) => line.includes(words)), name).toBe(true);
    }
    expect((await purchaseOf(m.purchaseId)).status).toBe('pending');
    expect((await purchaseOf(stranger.purchaseId)).status).toBe('pending');
    for (const who of [m, stranger]) {
      expect(json<Entitlements>(await who.client.get(`/api/users/${who.userId}/entitlements`)).purchasedTemplateIds).toEqual([]);
      expect(await createPremium(who.client)).toEqual([403, PAYMENT_MESSAGES.premiumRequired]);
    }
  });

  it('marks a failed payment failed; the next try is a new purchase', async () => {
    const m = await buyer();
    const response = await deliver(stripeEvent('payment_intent.payment_failed', { ...m.intent, status: 'requires_payment_method', last_payment_error: { message: 'Your card was declined.' } }));
    expect(response.statusCode).toBe(200);
    expect((await purchaseOf(m.purchaseId)).status).toBe('failed');
    const retry = json<PaymentIntentResponse>(await m.client.post('/api/create-payment-intent', { templateId: premiumId }));
    expect(retry.purchaseId).not.toBe(m.purchaseId);
    expect(retry.clientSecret).not.toBe(m.intent.client_secret);
  });

  it('keeps a subscription true through its life: checkout, past due, renewal failed, family, cancelled', async () => {
    const m = await parent();
    expect((await m.client.post('/api/subscriptions/checkout', { plan: 'premium' })).statusCode).toBe(200);
    const customer = (await userRow(m.userId)).stripeCustomerId!;
    const subscription = standIn.addSubscription({ customer, price: 'price_premium_monthly', status: 'active' });
    const session = [...standIn.checkoutSessions.values()].find((candidate) => candidate.customer === customer)!;
    const state = async () => {
      const row = await userRow(m.userId);
      return { plan: row.plan, status: row.subscriptionStatus, customer: row.stripeCustomerId, subscription: row.stripeSubscriptionId };
    };
    const usage = async () => json<PlanUsage>(await m.client.get(`/api/users/${m.userId}/usage`));
    const changed = (status: string, price = 'price_premium_monthly', type = 'customer.subscription.updated') =>
      deliver(stripeEvent(type, { ...subscription, status, items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item', price: { id: price, object: 'price' } }] } }));

    const completed = await deliver(stripeEvent('checkout.session.completed', { ...session, status: 'complete', subscription: subscription.id }));
    expect(completed.statusCode).toBe(200);
    expect(await state()).toEqual({ plan: 'premium', status: 'active', customer, subscription: subscription.id });
    expect(standIn.requestsTo('GET /v1/subscriptions/:id').some((request) => request.path.endsWith(subscription.id))).toBe(true);
    expect(await createPremium(m.client)).toEqual([400, VIDEO_MESSAGES.faceRequired]);
    expect(json<Entitlements>(await m.client.get(`/api/users/${m.userId}/entitlements`))).toMatchObject({ allPremium: true, reason: 'subscription' });
    expect((await usage()).people.limit).toBe(5);

    expect((await changed('past_due')).statusCode).toBe(200);
    expect(await state()).toMatchObject({ plan: 'free', status: 'expired' });
    expect(await createPremium(m.client)).toEqual([403, PAYMENT_MESSAGES.premiumRequired]);

    expect((await changed('active')).statusCode).toBe(200);
    expect(await state()).toMatchObject({ plan: 'premium', status: 'active' });
    // A renewal not paid: expired at once; the plan stays until Stripe ends the subscription.
    expect((await deliver(stripeEvent('invoice.payment_failed', { id: 'in_1', object: 'invoice', customer, status: 'open' }))).statusCode).toBe(200);
    expect(await state()).toMatchObject({ plan: 'premium', status: 'expired' });
    expect(await createPremium(m.client)).toEqual([403, PAYMENT_MESSAGES.premiumRequired]);

    // Changed to Family Pack in the portal, on trial: ten people.
    expect((await changed('trialing', 'price_family_monthly')).statusCode).toBe(200);
    expect(await state()).toMatchObject({ plan: 'family', status: 'trial' });
    expect(await usage()).toMatchObject({ plan: 'family', people: { limit: 10 } });
    // The first payment still under way: nothing changes.
    expect((await changed('incomplete')).statusCode).toBe(200);
    expect(await state()).toMatchObject({ plan: 'family', status: 'trial' });

    expect((await changed('canceled', 'price_family_monthly', 'customer.subscription.deleted')).statusCode).toBe(200);
    expect(await state()).toEqual({ plan: 'free', status: 'expired', customer, subscription: null });
    expect(await usage()).toMatchObject({ plan: 'free', people: { limit: 1 } });
    expect(await createPremium(m.client)).toEqual([403, PAYMENT_MESSAGES.premiumRequired]);
    // The customer stays: a new subscription can be started, and the portal still shows past invoices.
    expect((await m.client.post('/api/subscriptions/portal')).statusCode).toBe(200);
  });

  it('ignores subscription events of an unknown customer and checkouts that name the wrong user or customer', async () => {
    const m = await parent();
    const other = await parent();
    expect((await other.client.post('/api/subscriptions/checkout', { plan: 'family' })).statusCode).toBe(200);
    const othersCustomer = (await userRow(other.userId)).stripeCustomerId!;
    const before = { m: await userRow(m.userId), other: await userRow(other.userId) };

    const unknown = standIn.addSubscription({ customer: 'cus_nobody_here', price: 'price_family_monthly' });
    const cases: [string, unknown, string][] = [
      ['an unknown customer', stripeEvent('customer.subscription.updated', unknown), 'unknown customer'],
      ['an unknown customer, deleted', stripeEvent('customer.subscription.deleted', { ...unknown, status: 'canceled' }), 'unknown customer'],
      ['a renewal of an unknown customer', stripeEvent('invoice.payment_failed', { id: 'in_2', object: 'invoice', customer: 'cus_nobody_here' }), 'unknown customer'],
      [
        "a checkout naming this user with the other's customer",
        stripeEvent('checkout.session.completed', { id: 'cs_x', object: 'checkout.session', mode: 'subscription', client_reference_id: String(m.userId), customer: othersCustomer, subscription: standIn.addSubscription({ customer: othersCustomer, price: 'price_family_monthly' }).id }),
        'belongs to another user',
      ],
      [
        'a checkout for a user who does not exist',
        stripeEvent('checkout.session.completed', { id: 'cs_y', object: 'checkout.session', mode: 'subscription', client_reference_id: '999999', customer: 'cus_nobody_here', subscription: unknown.id }),
        'unknown user',
      ],
      [
        "a checkout whose subscription is another customer's",
        stripeEvent('checkout.session.completed', { id: 'cs_z', object: 'checkout.session', mode: 'subscription', client_reference_id: String(other.userId), customer: othersCustomer, subscription: unknown.id }),
        'belongs to another customer',
      ],
    ];
    for (const [name, event, words] of cases) {
      const lines = logLines.length;
      const response = await deliver(event);
      expect([response.statusCode, json(response)], name).toEqual([200, { received: true }]);
      expect(logLines.slice(lines).some((line) => line.includes(words)), name).toBe(true);
    }
    expect(await userRow(m.userId)).toEqual(before.m);
    expect(await userRow(other.userId)).toEqual(before.other);
  });

  it('answers 200 to events it does not handle, without keeping them; 503 without a webhook secret', async () => {
    const event = stripeEvent('customer.created', { id: 'cus_new', object: 'customer' });
    expect([(await deliver(event)).statusCode, await recorded(event.id)]).toEqual([200, 0]);

    const lines: string[] = [];
    const noSecret = await anotherApp(t, { config: { stripe: stripeSettings(standIn, { webhookSecret: undefined }) }, logStream: { write: (line) => void lines.push(line) } });
    try {
      const m = await buyer();
      const refused = await deliver(succeeded(m.intent), {}, noSecret);
      expect([refused.statusCode, json(refused).message]).toEqual([503, PAYMENT_MESSAGES.notConfigured]);
      expect(lines.some((line) => line.includes('STRIPE_WEBHOOK_SECRET'))).toBe(true);
      expect((await purchaseOf(m.purchaseId)).status).toBe('pending');
    } finally {
      await noSecret.close();
    }
    // The webhook's own body parser is its alone: the other routes still read JSON.
    const m = await parent();
    expect((await m.client.post('/api/people', { name: 'Grandma Rose', relationship: 'Grandmother' })).statusCode).toBe(201);
  });

  it('cancels the subscription at Stripe before deleting the account; when Stripe cannot be reached nothing is deleted', async () => {
    const m = await parent();
    const subscription = standIn.addSubscription({ customer: 'cus_deleting', price: STRIPE_TEST_SETTINGS.pricePremium, status: 'active' });
    await t.database.db.update(users).set({ stripeCustomerId: 'cus_deleting', stripeSubscriptionId: subscription.id, plan: 'premium', subscriptionStatus: 'active' }).where(eq(users.id, m.userId));
    const { password } = m.account;

    standIn.down('DELETE /v1/subscriptions/:id');
    const refused = await m.client.request('DELETE', `/api/users/${m.userId}`, JSON.stringify({ password }), { 'content-type': 'application/json' });
    expect([refused.statusCode, json(refused).message]).toEqual([502, PRIVACY_MESSAGES.subscriptionNotCancelled]);
    expect(await userRow(m.userId)).toBeDefined();
    expect(standIn.subscriptions.get(subscription.id)!.status).toBe('active');

    standIn.down('DELETE /v1/subscriptions/:id', false);
    const deleted = await m.client.request('DELETE', `/api/users/${m.userId}`, JSON.stringify({ password }), { 'content-type': 'application/json' });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(standIn.subscriptions.get(subscription.id)!.status).toBe('canceled');
    expect(await userRow(m.userId)).toBeUndefined();
  });
});
