// The session cache (decision 018): signed-in requests are answered without the database, and yet every
// change to a user or a session shows on the very next request, in this process and in another one on
// the same database (PostgreSQL: its own pool and its own listening connection).
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { type Database, openPostgres } from '../db/open';
import { sessions, users } from '../db/schema';
import { testDatabases } from '../testing/databases';
import { type StripeStandIn, signWebhook, startStripeStandIn, stripeEvent, stripeSettings } from '../testing/stripe-stand-in';
import { type TestApp, TestClient, createTestApp, json } from '../testing/test-app';
import { until } from '../testing/wait';
import { SESSION_COOKIE } from './sessions';

const databases = await testDatabases();

describe.each(databases)('session cache on $name', (testDatabase) => {
  let t: TestApp;
  /** The second database handle: the same PGlite, or a pool of its own on the same PostgreSQL database. */
  let otherDatabase: Database;
  let here: FastifyInstance;
  let there: FastifyInstance;
  let admin: TestClient;
  let standIn: StripeStandIn;
  const sessionSecret = randomBytes(32).toString('hex');

  const build = async (database: Database) => {
    const app = await buildApp({
      db: database.db,
      storage: t.storage,
      queue: t.queue,
      pipeline: t.pipeline,
      logger: false,
      config: { sessionSecret, cookieSecure: 'auto', trustProxy: false, logLevel: 'silent', clientDir: '/nonexistent', stripe: stripeSettings(standIn) },
    });
    await app.ready();
    return app;
  };

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    standIn = await startStripeStandIn();
    otherDatabase = t.database.kind === 'postgres' ? await openPostgres(t.database.url!) : t.database;
    here = await build(t.database);
    there = await build(otherDatabase);
    admin = new TestClient(here);
    await admin.register(); // the first account: the admin
  });
  afterAll(async () => {
    await here?.close();
    await there?.close();
    if (otherDatabase !== t.database) await otherDatabase?.close();
    await standIn?.close();
    await t?.close();
  });

  /** A new parent signed in through `here`, and their session cookie, valid in both processes. */
  async function parent() {
    const client = new TestClient(here);
    const { user } = await client.register();
    return { client, id: user.id, cookie: `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE)}` };
  }
  const adminCookie = () => `${SESSION_COOKIE}=${admin.cookie(SESSION_COOKIE)}`;
  const get = (app: FastifyInstance, url: string, cookie: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const me = async (app: FastifyInstance, cookie: string) => {
    const response = await get(app, '/api/me', cookie);
    return response.statusCode === 200 ? json<{ role: string; plan: string; displayName: string }>(response) : response.statusCode;
  };
  /**
   * Both processes have the session cached: a lookup is a hit. (A notification of an earlier direct write
   * may still drop what the first lookup stored: then the next one stores it again.)
   */
  async function cachedInBoth(cookie: string) {
    for (const app of [here, there]) {
      let cached = false;
      for (let attempt = 0; attempt < 5 && !cached; attempt++) {
        const before = app.sessionCacheStats().hits;
        await me(app, cookie);
        cached = app.sessionCacheStats().hits === before + 1;
      }
      expect(cached).toBe(true);
    }
  }

  /** Calls of the session query on a database handle (the pool, or PGlite), counted from outside the app. */
  function countSessionQueries(database: Database) {
    const client = (database.kind === 'postgres' ? database.pool : database.pglite) as unknown as { query: (...args: unknown[]) => unknown };
    const spy = vi.spyOn(client, 'query');
    return {
      // PGlite is given the text; the pool, a named prepared query's config.
      count: () => spy.mock.calls.filter(([query]) => (typeof query === 'string' ? query : (query as { text: string }).text).includes('"sessions"')).length,
      restore: () => spy.mockRestore(),
    };
  }

  it('answers a signed-in request from the cache: no session query after the first', async () => {
    const { cookie } = await parent();
    for (const [app, database] of [
      [here, t.database],
      [there, otherDatabase],
    ] as const) {
      const queries = countSessionQueries(database);
      try {
        expect(await me(app, cookie)).toMatchObject({ role: 'user' });
        expect(queries.count()).toBe(1);
        for (let i = 0; i < 20; i++) expect(await me(app, cookie)).toMatchObject({ role: 'user' });
        expect(queries.count()).toBe(1);
      } finally {
        queries.restore();
      }
    }
  });

  it('a logout ends the session at once in both processes', async () => {
    const { client, cookie } = await parent();
    await cachedInBoth(cookie);
    expect((await client.post('/api/logout')).statusCode).toBe(204);
    expect(await me(here, cookie)).toBe(401);
    expect(await me(there, cookie)).toBe(401);
  });

  it('a promotion and a demotion show on the very next request in both processes', async () => {
    const { id, cookie } = await parent();
    await cachedInBoth(cookie);
    expect((await admin.patch(`/api/admin/users/${id}/role`, { role: 'admin' })).statusCode).toBe(200);
    for (const app of [here, there]) {
      expect(await me(app, cookie)).toMatchObject({ role: 'admin' });
      expect((await get(app, '/api/admin/users', cookie)).statusCode).toBe(200);
    }
    await cachedInBoth(cookie);
    // Demoted in the other process this time.
    const demoted = await there.inject({ method: 'PATCH', url: `/api/admin/users/${id}/role`, payload: { role: 'user' }, headers: { cookie: adminCookie() } });
    expect(demoted.statusCode).toBe(200);
    for (const app of [here, there]) {
      expect(await me(app, cookie)).toMatchObject({ role: 'user' });
      expect((await get(app, '/api/admin/users', cookie)).statusCode).toBe(403);
    }
  });
  it('a plan and a subscription change show on the very next request in both processes', async () => {
    const { id, cookie } = await parent();
    await cachedInBoth(cookie);
    expect((await admin.patch(`/api/admin/users/${id}/plan`, { plan: 'family' })).statusCode).toBe(200);
    expect((await admin.patch(`/api/admin/users/${id}/subscription`, { subscriptionStatus: 'active' })).statusCode).toBe(200);
    for (const app of [here, there]) expect(await me(app, cookie)).toMatchObject({ plan: 'family', subscriptionStatus: 'active' });
  });

  it("Stripe's word on a subscription shows on the very next request in both processes", async () => {
    const { id, cookie } = await parent();
    const customer = `cus_${randomBytes(6).toString('hex')}`;
    await t.database.db.update(users).set({ stripeCustomerId: customer }).where(eq(users.id, id));
    await cachedInBoth(cookie);
    const price = { id: 'price_family_monthly', object: 'price' };
    const event = stripeEvent('customer.subscription.updated', {
      id: `sub_${randomBytes(6).toString('hex')}`,
      object: 'subscription',
      customer,
      status: 'active',
      items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item', price }] },
    });
    const payload = JSON.stringify(event);
    const delivered = await there.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload,
      headers: { 'stripe-signature': signWebhook(payload), 'content-type': 'application/json' },
    });
    expect(delivered.statusCode).toBe(200);
    for (const app of [here, there]) expect(await me(app, cookie)).toMatchObject({ plan: 'family', subscriptionStatus: 'active' });
  });

  it('a profile change made in one process shows in the other at once', async () => {
    const { id, cookie } = await parent();
    await cachedInBoth(cookie);
    const changed = await there.inject({ method: 'PATCH', url: `/api/users/${id}`, payload: { displayName: 'Renamed Parent' }, headers: { cookie } });
    expect(changed.statusCode).toBe(200);
    for (const app of [here, there]) expect(await me(app, cookie)).toMatchObject({ displayName: 'Renamed Parent' });
  });

  it('a change made outside the app (SQL on the database: a password reset, a plan) counts too', async () => {
    const { id, cookie } = await parent();
    await cachedInBoth(cookie);
    await otherDatabase.db.update(users).set({ plan: 'premium', password: 'reset by an operator' }).where(eq(users.id, id));
    for (const app of [here, there]) expect(await me(app, cookie)).toMatchObject({ plan: 'premium' });
    await cachedInBoth(cookie);
    await t.database.db.delete(sessions).where(eq(sessions.userId, id));
    for (const app of [here, there]) expect(await me(app, cookie)).toBe(401);
  });

  it("an account's deletion signs it out at once in both processes", async () => {
    const { id, cookie } = await parent();
    await cachedInBoth(cookie);
    expect((await admin.delete(`/api/users/${id}`)).statusCode).toBe(204);
    expect(await me(here, cookie)).toBe(401);
    expect(await me(there, cookie)).toBe(401);
  });

  it('a cached session is never served past its expiry', async () => {
    const { id, cookie } = await parent();
    await t.database.db.update(sessions).set({ expiresAt: sql`now() + interval '1500 milliseconds'` }).where(eq(sessions.userId, id));
    await cachedInBoth(cookie);
    const expiresAt = (await t.database.db.select({ at: sessions.expiresAt }).from(sessions).where(eq(sessions.userId, id)))[0]!.at;
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 20));
    expect(await me(here, cookie)).toBe(401);
    expect(await me(there, cookie)).toBe(401);
  });

  it.runIf(testDatabase.name === 'postgres')('with its listening connection killed, a process reads the database until it is back', async () => {
    const { id, cookie } = await parent();
    await cachedInBoth(cookie);
    const killer = new pg.Client({ connectionString: t.database.url });
    await killer.connect();
    try {
      const killed = await killer.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'familystar-session-listener' and datname = current_database()`,
      );
      // One listener per app: the two here and the test app's own.
      expect(killed.rowCount).toBe(3);
      // Changed while no one hears: served from the database, never from what was cached.
      await killer.query('update users set role = $1 where id = $2', ['admin', id]);
      for (const app of [here, there]) {
        const hits = app.sessionCacheStats().hits;
        expect(await me(app, cookie)).toMatchObject({ role: 'admin' });
        expect(await me(app, cookie)).toMatchObject({ role: 'admin' });
        expect(app.sessionCacheStats()).toMatchObject({ hits, live: false });
      }
      // Back by itself, and caching again (what was cached before it was lost is gone).
      for (const app of [here, there]) await until(() => app.sessionCacheStats().live, Boolean, 10_000, 50);
      await cachedInBoth(cookie);
      await killer.query('update users set role = $1 where id = $2', ['user', id]);
      for (const app of [here, there]) expect(await me(app, cookie)).toMatchObject({ role: 'user' });
    } finally {
      await killer.end();
    }
  });
});
