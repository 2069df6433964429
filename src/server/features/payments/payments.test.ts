// Buying premium templates and starting subscriptions through the real routes, the official Stripe SDK
// talking to a local stand-in (no network): without keys nothing pretends; the amount is the database's;
// every refusal; two requests at once; and each plan's limits, which an admin's change moves at once.
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanUsage } from '../../../shared/api-types';
import { peopleLimitMessage } from '../../../shared/media-rules';
import { type Entitlements, PAYMENT_MESSAGES, type PaymentIntentResponse, type PaymentsConfig, type StripeRedirect } from '../../../shared/payments';
import { VIDEO_MESSAGES } from '../../../shared/video-rules';
import { processedVideos, purchases, users, videoTemplates } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { dataUrl, fixtures } from '../../testing/media-fixtures';
import { type StripeStandIn, startStripeStandIn, stripeSettings } from '../../testing/stripe-stand-in';
import { type TestApp, TestClient, anotherApp, createTestApp, json } from '../../testing/test-app';

const databases = await testDatabases();
const APP_URL = 'https://familystar.example';

describe.each(databases)('payments API on $name', (testDatabase) => {
  let t: TestApp;
  let standIn: StripeStandIn;
  /** The same database, taking payments through the stand-in. */
  let paid: FastifyInstance;
  const logLines: string[] = [];
  let admin: TestClient;
  let freeTemplateId: number;
  let premiumId: number;
  let otherPremiumId: number;

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    standIn = await startStripeStandIn();
    paid = await anotherApp(t, { config: { stripe: stripeSettings(standIn), appUrl: APP_URL }, logStream: { write: (line) => void logLines.push(line) } });
    admin = new TestClient(paid);
    await admin.register(); // the first account is the admin
    const insert = async (fields: Partial<typeof videoTemplates.$inferInsert>) =>
      (await t.database.db.insert(videoTemplates).values({ title: 'Counting', description: 'Count to ten', duration: 30, ...fields }).returning())[0]!.id;
    freeTemplateId = await insert({});
    premiumId = await insert({ title: 'Letters', isPremium: true, priceCents: 299 });
    otherPremiumId = await insert({ title: 'Planets', isPremium: true, priceCents: 499 });
  });
  afterAll(async () => {
    await paid?.close();
    await standIn?.close();
    await t?.close();
  });

  /** A new signed-in parent on the app that takes payments (or another), on a plan and subscription status. */
  async function parent(options: { app?: FastifyInstance; plan?: 'free' | 'premium' | 'family'; status?: 'none' | 'trial' | 'active' | 'expired' } = {}) {
    const client = new TestClient(options.app ?? paid);
    const { user, email } = await client.register();
    if (options.plan || options.status) {
      await t.database.db.update(users).set({ plan: options.plan ?? 'free', subscriptionStatus: options.status ?? 'none' }).where(eq(users.id, user.id));
    }
    return { client, userId: user.id, email };
  }

  const purchasesOf = (userId: number) => t.database.db.select().from(purchases).where(eq(purchases.userId, userId));
  const userRow = async (userId: number) => (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]!;
  const intentsFor = (userId: number) => [...standIn.paymentIntents.values()].filter((intent) => (intent.metadata as Record<string, string>).userId === String(userId));

  it('without keys says so, sells nothing and writes nothing', async () => {
    const config = await new TestClient(t.app).get('/api/payments/config');
    expect([config.statusCode, json<PaymentsConfig>(config)]).toEqual([200, { configured: false, publishableKey: null, subscriptions: false }]);

    const m = await parent({ app: t.app });
    const before = standIn.requests.length;
    for (const [url, body] of [
      ['/api/create-payment-intent', { templateId: premiumId }],
      ['/api/subscriptions/checkout', { plan: 'premium' }],
      ['/api/subscriptions/portal', undefined],
    ] as const) {
      const response = await m.client.post(url, body);
      expect([response.statusCode, json(response)], url).toEqual([503, { message: PAYMENT_MESSAGES.notConfigured }]);
      // A visitor is told to sign in first.
      expect((await new TestClient(t.app).post(url, body)).statusCode, url).toBe(401);
    }
    expect(await purchasesOf(m.userId)).toEqual([]);
    expect(await userRow(m.userId)).toMatchObject({ plan: 'free', subscriptionStatus: 'none', stripeCustomerId: null, stripeSubscriptionId: null });
    expect(standIn.requests.length).toBe(before);
    // The premium rule holds all the same: nothing to buy, nothing granted.
    const video = await m.client.post('/api/processedVideos', { templateId: premiumId, title: 'My version', useVoiceSwap: false });
    expect([video.statusCode, json(video)]).toEqual([403, { code: 'plan_limit', message: PAYMENT_MESSAGES.premiumRequired }]);
  });

  it('with keys tells the browser its publishable key; subscriptions only with both prices', async () => {
    expect(json<PaymentsConfig>(await new TestClient(paid).get('/api/payments/config'))).toEqual({ configured: true, publishableKey: 'pk_test_familystar', subscriptions: true });
    const noPrices = await anotherApp(t, { config: { stripe: stripeSettings(standIn, { pricePremium: undefined }) } });
    try {
      expect(json<PaymentsConfig>(await new TestClient(noPrices).get('/api/payments/config'))).toMatchObject({ configured: true, subscriptions: false });
      const m = await parent({ app: noPrices });
      const refused = await m.client.post('/api/subscriptions/checkout', { plan: 'family' });
      expect([refused.statusCode, json(refused).message]).toEqual([503, PAYMENT_MESSAGES.subscriptionsNotConfigured]);
      expect((await userRow(m.userId)).stripeCustomerId).toBeNull();
    } finally {
      await noPrices.close();
    }
    // A publishable key alone (or a secret alone) is not a configuration.
    const halfway = await anotherApp(t, { config: { stripe: { secretKey: 'sk_test_only' } } });
    expect(json<PaymentsConfig>(await new TestClient(halfway).get('/api/payments/config'))).toEqual({ configured: false, publishableKey: null, subscriptions: false });
    await halfway.close();
  });

  it("creates a PaymentIntent for the template's price from the database, with its purchase pending", async () => {
    const m = await parent();
    const response = await m.client.post('/api/create-payment-intent', { templateId: premiumId, amount: 0.01, currency: 'jpy' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<PaymentIntentResponse>(response);
    const [purchase] = await purchasesOf(m.userId);
    expect(purchase).toMatchObject({ templateId: premiumId, amountCents: 299, currency: 'usd', status: 'pending', completedAt: null });
    const intent = standIn.paymentIntents.get(purchase!.stripePaymentIntentId!)!;
    expect(answer).toEqual({ clientSecret: intent.client_secret, amount: 2.99, currency: 'usd', purchaseId: purchase!.id });
    // What Stripe was asked for: the database's amount, the metadata the webhook checks, one key per purchase.
    const [sent] = standIn.requestsTo('POST /v1/payment_intents').filter((request) => request.idempotencyKey === `familystar-purchase-${purchase!.id}`);
    expect(sent!.body).toMatchObject({
      amount: '299',
      currency: 'usd',
      automatic_payment_methods: { enabled: 'true' },
      metadata: { purchaseId: String(purchase!.id), userId: String(m.userId), templateId: String(premiumId) },
    });
    expect(sent!.authorization).toBe('Bearer sk_test_familystar');

    // Asked again while unpaid: the same purchase and the same PaymentIntent.
    const again = await m.client.post('/api/create-payment-intent', { templateId: premiumId });
    expect(json<PaymentIntentResponse>(again)).toEqual(answer);
    expect(await purchasesOf(m.userId)).toHaveLength(1);
    expect(intentsFor(m.userId)).toHaveLength(1);

    // Another template is another purchase.
    const other = await m.client.post('/api/create-payment-intent', { templateId: otherPremiumId });
    expect(json<PaymentIntentResponse>(other)).toMatchObject({ amount: 4.99, currency: 'usd' });
    expect(await purchasesOf(m.userId)).toHaveLength(2);
  });

  it('refuses a free, unknown or owned template, subscribers and admins, with words and nothing written', async () => {
    const m = await parent();
    await t.database.db.insert(purchases).values({ userId: m.userId, templateId: otherPremiumId, amountCents: 499, status: 'completed', completedAt: new Date() });
    const subscriber = await parent({ plan: 'family', status: 'trial' });
    const cases: [TestClient, unknown, number, string][] = [
      [m.client, { templateId: freeTemplateId }, 400, PAYMENT_MESSAGES.freeTemplate],
      [m.client, { templateId: 999_999 }, 404, PAYMENT_MESSAGES.templateNotFound],
      [m.client, { templateId: 'letters' }, 400, 'Invalid id'],
      [m.client, {}, 400, 'Invalid id'],
      [m.client, { templateId: otherPremiumId }, 409, PAYMENT_MESSAGES.alreadyOwned],
      [subscriber.client, { templateId: premiumId }, 409, PAYMENT_MESSAGES.planIncludesPremium],
      [admin, { templateId: premiumId }, 409, PAYMENT_MESSAGES.planIncludesPremium],
    ];
    const intentsBefore = standIn.paymentIntents.size;
    for (const [client, body, status, message] of cases) {
      const response = await client.post('/api/create-payment-intent', body);
      expect([response.statusCode, json(response).message], JSON.stringify(body)).toEqual([status, message]);
    }
    expect(standIn.paymentIntents.size).toBe(intentsBefore);
    expect((await purchasesOf(m.userId)).map((row) => row.status)).toEqual(['completed']);
    expect(await purchasesOf(subscriber.userId)).toEqual([]);
    // An expired subscription includes nothing: the template can be bought again.
    const lapsed = await parent({ plan: 'premium', status: 'expired' });
    expect((await lapsed.client.post('/api/create-payment-intent', { templateId: premiumId })).statusCode).toBe(200);
  });

  it('makes one purchase and one PaymentIntent of two requests at once', async () => {
    const m = await parent();
    const answers = await Promise.all([1, 2, 3].map(() => m.client.post('/api/create-payment-intent', { templateId: premiumId })));
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    const secrets = new Set(answers.map((response) => json<PaymentIntentResponse>(response).clientSecret));
    expect(secrets.size).toBe(1);
    expect(await purchasesOf(m.userId)).toHaveLength(1);
    expect(intentsFor(m.userId)).toHaveLength(1);
  });

  it('answers "Failed to create payment intent" when Stripe fails, logs why and keeps no purchase', async () => {
    const m = await parent();
    standIn.down('POST /v1/payment_intents');
    try {
      const response = await m.client.post('/api/create-payment-intent', { templateId: premiumId });
      expect([response.statusCode, json(response).message]).toEqual([502, PAYMENT_MESSAGES.createIntentFailed]);
    } finally {
      standIn.down('POST /v1/payment_intents', false);
    }
    expect(await purchasesOf(m.userId)).toEqual([]);
    const logged = logLines.filter((line) => line.includes('Stripe: creating a payment intent failed')).map((line) => JSON.parse(line) as { stripeError: unknown });
    expect(logged.at(-1)?.stripeError).toMatchObject({ type: 'StripeAPIError', statusCode: 500, message: 'An unknown error occurred on our side.' });
    // Stripe back: the parent can pay.
    expect((await m.client.post('/api/create-payment-intent', { templateId: premiumId })).statusCode).toBe(200);
  });

  it('tells each user which premium templates they may use (themself or an admin)', async () => {
    const m = await parent();
    const entitlements = (client: TestClient, userId: number) => client.get(`/api/users/${userId}/entitlements`);
    expect(json<Entitlements>(await entitlements(m.client, m.userId))).toEqual({ allPremium: false, purchasedTemplateIds: [], reason: null });
    await t.database.db.insert(purchases).values([
      { userId: m.userId, templateId: otherPremiumId, amountCents: 499, status: 'completed', completedAt: new Date() },
      { userId: m.userId, templateId: premiumId, amountCents: 299, status: 'pending' },
    ]);
    expect(json<Entitlements>(await entitlements(m.client, m.userId))).toEqual({ allPremium: false, purchasedTemplateIds: [otherPremiumId], reason: null });
    expect(json<Entitlements>(await entitlements(admin, m.userId))).toEqual({ allPremium: false, purchasedTemplateIds: [otherPremiumId], reason: null });
    const adminId = json<{ id: number }>(await admin.get('/api/me')).id;
    expect(json<Entitlements>(await entitlements(admin, adminId))).toMatchObject({ allPremium: true, reason: 'admin' });
    const subscriber = await parent({ plan: 'premium', status: 'active' });
    expect(json<Entitlements>(await entitlements(subscriber.client, subscriber.userId))).toEqual({ allPremium: true, purchasedTemplateIds: [], reason: 'subscription' });
    // A paid plan without a subscription in good standing includes nothing.
    const lapsed = await parent({ plan: 'family', status: 'expired' });
    expect(json<Entitlements>(await entitlements(lapsed.client, lapsed.userId))).toMatchObject({ allPremium: false, reason: null });
    expect((await entitlements(subscriber.client, m.userId)).statusCode).toBe(403);
    expect((await entitlements(admin, 999_999)).statusCode).toBe(404);
    expect((await new TestClient(paid).get(`/api/users/${m.userId}/entitlements`)).statusCode).toBe(401);
  });

  it('starts a subscription in Stripe Checkout with one customer per user, and opens the portal once there is one', async () => {
    const m = await parent();
    const portalFirst = await m.client.post('/api/subscriptions/portal');
    expect([portalFirst.statusCode, json(portalFirst).message]).toEqual([409, PAYMENT_MESSAGES.noSubscriptionToManage]);
    const wrongPlan = await m.client.post('/api/subscriptions/checkout', { plan: 'free' });
    expect([wrongPlan.statusCode, json(wrongPlan).message]).toEqual([400, PAYMENT_MESSAGES.choosePlan]);

    const checkout = await m.client.post('/api/subscriptions/checkout', { plan: 'family' });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { stripeCustomerId } = await userRow(m.userId);
    const customer = standIn.customers.get(stripeCustomerId!)!;
    expect(customer).toMatchObject({ email: m.email, metadata: { userId: String(m.userId) } });
    const session = [...standIn.checkoutSessions.values()].find((candidate) => candidate.customer === stripeCustomerId)!;
    expect(json<StripeRedirect>(checkout)).toEqual({ url: session.url });
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: String(m.userId),
      line_items: [{ price: 'price_family_monthly', quantity: '1' }],
      success_url: `${APP_URL}/profile?checkout=success#plan`,
      cancel_url: `${APP_URL}/profile#plan`,
    });
    // Nothing is granted by starting a checkout: only Stripe's webhook does that (webhook.test.ts).
    expect(await userRow(m.userId)).toMatchObject({ plan: 'free', subscriptionStatus: 'none', stripeSubscriptionId: null });

    // Again (a second tab, Premium this time): the same customer.
    const customersBefore = standIn.customers.size;
    const premium = await m.client.post('/api/subscriptions/checkout', { plan: 'premium' });
    expect(premium.statusCode).toBe(200);
    expect(standIn.customers.size).toBe(customersBefore);
    expect([...standIn.checkoutSessions.values()].at(-1)).toMatchObject({ customer: stripeCustomerId, line_items: [{ price: 'price_premium_monthly' }] });

    const portal = await m.client.post('/api/subscriptions/portal');
    expect(portal.statusCode, portal.body).toBe(200);
    const portalSession = [...standIn.portalSessions.values()].at(-1)!;
    expect(portalSession).toMatchObject({ customer: stripeCustomerId, return_url: `${APP_URL}/profile#plan` });
    expect(json<StripeRedirect>(portal)).toEqual({ url: portalSession.url });

    // Already subscribed: changing or cancelling is the portal's job.
    await t.database.db.update(users).set({ plan: 'family', subscriptionStatus: 'active' }).where(eq(users.id, m.userId));
    const twice = await m.client.post('/api/subscriptions/checkout', { plan: 'premium' });
    expect([twice.statusCode, json(twice).message]).toEqual([409, PAYMENT_MESSAGES.alreadySubscribed]);
  });

  it('makes one customer of two checkouts at once, and without APP_URL returns to the address the browser used', async () => {
    const m = await parent();
    const answers = await Promise.all([m.client.post('/api/subscriptions/checkout', { plan: 'premium' }), m.client.post('/api/subscriptions/checkout', { plan: 'family' })]);
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200]);
    const customers = [...standIn.customers.values()].filter((customer) => (customer.metadata as Record<string, string>).userId === String(m.userId));
    expect(customers).toHaveLength(1);
    expect((await userRow(m.userId)).stripeCustomerId).toBe(customers[0]!.id);

    const ownAddress = await anotherApp(t, { config: { stripe: stripeSettings(standIn) } });
    try {
      const client = new TestClient(ownAddress);
      await client.request('POST', '/api/login', { username: (await userRow(m.userId)).username, password: 'correct horse battery' });
      const portal = await client.request('POST', '/api/subscriptions/portal', undefined, { host: 'family.example:8443' });
      expect(portal.statusCode, portal.body).toBe(200);
      expect([...standIn.portalSessions.values()].at(-1)!.return_url).toBe('http://family.example:8443/profile#plan');
    } finally {
      await ownAddress.close();
    }
  });

  it("holds each plan to its limits, and an admin's change of plan or status counts on the very next request", async () => {
    const usage = async (client: TestClient, userId: number) => json<PlanUsage>(await client.get(`/api/users/${userId}/usage`));
    const addPerson = (client: TestClient, i: number) => client.post('/api/people', { name: `Child ${i}`, relationship: 'Child' });

    // Family Pack: 10 people, unlimited videos.
    const family = await parent({ plan: 'family', status: 'active' });
    for (let i = 1; i <= 10; i++) expect((await addPerson(family.client, i)).statusCode).toBe(201);
    const eleventh = await addPerson(family.client, 11);
    expect([eleventh.statusCode, json(eleventh)]).toEqual([403, { code: 'plan_limit', message: peopleLimitMessage('Family Pack', 10) }]);
    expect(await usage(family.client, family.userId)).toEqual({ plan: 'family', people: { used: 10, limit: 10 }, videosThisMonth: { used: 0, limit: null } });

    // Premium: unlimited videos (three this month already, a fourth is made).
    const premium = await parent({ plan: 'premium', status: 'active' });
    const personId = json<{ id: number }>(await addPerson(premium.client, 1)).id;
    expect((await premium.client.post(`/api/people/${personId}/consent`, { basis: 'guardian' })).statusCode).toBe(201);
    const face = await premium.client.post('/api/faceImages', { personId, name: 'Front', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') });
    expect(face.statusCode, face.body).toBe(201);
    const faceImageId = json<{ id: number }>(face).id;
    await t.database.db
      .insert(processedVideos)
      .values([1, 2, 3].map((i) => ({ userId: premium.userId, templateId: freeTemplateId, personId, title: `Earlier ${i}`, status: 'completed' as const })));
    const fourth = await premium.client.post('/api/processedVideos', { templateId: premiumId, title: 'Fourth', faceImageId, useVoiceSwap: false });
    expect(fourth.statusCode, fourth.body).toBe(201);
    expect(await usage(premium.client, premium.userId)).toEqual({ plan: 'premium', people: { used: 1, limit: 5 }, videosThisMonth: { used: 4, limit: null } });

    // Admins: no limits at all.
    const adminId = json<{ id: number }>(await admin.get('/api/me')).id;
    expect(await usage(admin, adminId)).toMatchObject({ people: { limit: null }, videosThisMonth: { limit: null } });

    // Free: one person, and premium templates need a purchase. The admin's change counts at once.
    const free = await parent();
    expect((await addPerson(free.client, 1)).statusCode).toBe(201);
    expect((await addPerson(free.client, 2)).statusCode).toBe(403);
    const createPremium = async () => {
      const response = await free.client.post('/api/processedVideos', { templateId: premiumId, title: 'My version', useVoiceSwap: false });
      return [response.statusCode, json(response).message];
    };
    expect(await createPremium()).toEqual([403, PAYMENT_MESSAGES.premiumRequired]);

    expect((await admin.patch(`/api/admin/users/${free.userId}/plan`, { plan: 'premium' })).statusCode).toBe(200);
    expect((await addPerson(free.client, 2)).statusCode).toBe(201);
    // The plan alone is not a subscription: premium templates still need one in good standing.
    expect(await createPremium()).toEqual([403, PAYMENT_MESSAGES.premiumRequired]);
    expect((await admin.patch(`/api/admin/users/${free.userId}/subscription`, { subscriptionStatus: 'active' })).statusCode).toBe(200);
    // Past the premium rule: the next thing missing is the face.
    expect(await createPremium()).toEqual([400, VIDEO_MESSAGES.faceRequired]);
    expect(json<Entitlements>(await free.client.get(`/api/users/${free.userId}/entitlements`))).toMatchObject({ allPremium: true, reason: 'subscription' });
    const intent = await free.client.post('/api/create-payment-intent', { templateId: premiumId });
    expect([intent.statusCode, json(intent).message]).toEqual([409, PAYMENT_MESSAGES.planIncludesPremium]);

    expect((await admin.patch(`/api/admin/users/${free.userId}/subscription`, { subscriptionStatus: 'expired' })).statusCode).toBe(200);
    expect(await createPremium()).toEqual([403, PAYMENT_MESSAGES.premiumRequired]);
    expect((await admin.patch(`/api/admin/users/${free.userId}/plan`, { plan: 'free' })).statusCode).toBe(200);
    expect((await addPerson(free.client, 3)).statusCode).toBe(403);
    expect(await usage(free.client, free.userId)).toMatchObject({ plan: 'free', people: { used: 2, limit: 1 } });
  });

  it('keeps the webhook-only rule: no route of the browser completes a purchase', async () => {
    const m = await parent();
    await m.client.post('/api/create-payment-intent', { templateId: premiumId });
    // Whatever the browser claims afterwards, the purchase stays pending until Stripe says otherwise.
    for (const body of [{ templateId: premiumId, status: 'completed' }, { templateId: premiumId, paymentIntent: 'pi_anything', redirect_status: 'succeeded' }]) {
      await m.client.post('/api/create-payment-intent', body);
    }
    const [{ n }] = (await t.database.db.select({ n: count() }).from(purchases).where(eq(purchases.userId, m.userId))) as [{ n: number }];
    expect(n).toBe(1);
    expect((await purchasesOf(m.userId))[0]!.status).toBe('pending');
    expect(json<Entitlements>(await m.client.get(`/api/users/${m.userId}/entitlements`)).purchasedTemplateIds).toEqual([]);
  });
});
