import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/validation';
import { buildApp } from '../../app';
import { loginThrottle, users } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { type TestApp, TestClient, createTestApp, json } from '../../testing/test-app';
import { SESSION_COOKIE } from '../../http/sessions';
import { SIGNED_IN_HINT_COOKIE } from '../../../shared/constants';
import { DEVICE_COOKIE } from './known-device';
import { pruneThrottle } from './throttle';

const databases = await testDatabases();

describe.each(databases)('accounts API on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
  });
  afterAll(() => t?.close());

  const userCount = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;

  describe('POST /api/register', () => {
    it('makes the first account admin and later ones users, signs them in, never returns the password', async () => {
      const first = t.client();
      const response = await first.post('/api/register', {
        username: 'FirstParent',
        email: 'First.Parent@Example.com',
        password: 'a long password',
        displayName: 'First Parent',
      });
      expect(response.statusCode).toBe(201);
      const body = json(response);
      expect(body).toMatchObject({
        username: 'FirstParent',
        email: 'first.parent@example.com',
        displayName: 'First Parent',
        role: 'admin',
        subscriptionStatus: 'none',
        plan: 'free',
      });
      expect(JSON.stringify(body)).not.toContain('password');

      // The session's cookie, and the known-device cookie (known-device.ts).
      const cookie = [response.headers['set-cookie']].flat().find((header) => header?.startsWith(`${SESSION_COOKIE}=`));
      expect(cookie).toContain(`${SESSION_COOKIE}=`);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/); // plain HTTP here
      expect(json((await first.get('/api/me'))).username).toBe('FirstParent');

      const second = await t.client().register();
      expect(second.user.role).toBe('user');
    });

    it('stores the password as a scrypt hash', async () => {
      const { user } = await t.client().register({ password: 'my secret phrase' });
      const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
      expect(row!.password).toMatch(/^scrypt\$65536\$8\$1\$/);
      expect(row!.password).not.toContain('my secret phrase');
    });

    it('ignores unknown fields, including a role or plan a visitor tries to give themself', async () => {
      const client = t.client();
      const response = await client.post('/api/register', {
        username: 'sneaky',
        email: 'sneaky@example.com',
        password: 'password123',
        displayName: 'Sneaky',
        role: 'admin',
        plan: 'family',
        subscriptionStatus: 'active',
        favouriteColour: 'green',
      });
      expect(response.statusCode).toBe(201);
      expect(json(response)).toMatchObject({ role: 'user', plan: 'free', subscriptionStatus: 'none' });
      expect(json(response)).not.toHaveProperty('favouriteColour');
    });

    const valid = { username: 'newparent', email: 'newparent@example.com', password: 'password123', displayName: 'New Parent' };
    const badInputs: [string, unknown, string][] = [
      ['missing username', { ...valid, username: undefined }, MESSAGES.fillAllFields],
      ['missing email', { ...valid, email: undefined }, MESSAGES.fillAllFields],
      ['missing password', { ...valid, password: undefined }, MESSAGES.fillAllFields],
      ['missing display name', { ...valid, displayName: undefined }, MESSAGES.fillAllFields],
      ['blank username', { ...valid, username: '   ' }, MESSAGES.fillAllFields],
      ['null email', { ...valid, email: null }, MESSAGES.fillAllFields],
      ['empty body', {}, MESSAGES.fillAllFields],
      ['missing field before a short password', { ...valid, username: undefined, password: 'short' }, MESSAGES.fillAllFields],
      ['short password', { ...valid, password: 'seven77' }, MESSAGES.passwordTooShort],
      ['over-long password', { ...valid, password: 'x'.repeat(129) }, MESSAGES.passwordTooLong],
      ['short username', { ...valid, username: 'ab' }, MESSAGES.usernameTooShort],
      ['10 KB username', { ...valid, username: 'a'.repeat(10_240) }, MESSAGES.usernameTooLong],
      ['username with spaces', { ...valid, username: 'new parent' }, MESSAGES.usernameCharacters],
      ['malformed email', { ...valid, email: 'not-an-email' }, MESSAGES.invalidEmail],
      ['over-long email', { ...valid, email: `${'a'.repeat(250)}@example.com` }, MESSAGES.invalidEmail],
      ['short display name', { ...valid, displayName: 'N' }, MESSAGES.displayNameTooShort],
      ['over-long display name', { ...valid, displayName: 'N'.repeat(101) }, MESSAGES.displayNameTooLong],
      ['numeric username', { ...valid, username: 12345 }, 'Username must be text'],
      ['object password', { ...valid, password: { $ne: '' } }, 'Password must be text'],
      ['array body', [valid], MESSAGES.bodyNotObject],
      ['string body', '"hello"', MESSAGES.bodyNotObject],
    ];
    it.each(badInputs)('rejects %s with 400 and writes nothing', async (_label, body, message) => {
      const before = await userCount();
      const response = await t.client().post('/api/register', body);
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ message });
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(await userCount()).toBe(before);
    });

    it('limits new accounts per address: the 11th within an hour is 429, other addresses are not affected', async () => {
      const household = t.client();
      for (let index = 0; index < 10; index++) await household.register();
      const before = await userCount();
      const blocked = await household.post('/api/register', { ...valid, username: 'eleventh', email: 'eleventh@example.com' });
      expect(blocked.statusCode).toBe(429);
      expect(json(blocked)).toEqual({ message: 'Too many accounts were created from this address. Please try again in 60 minutes.' });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(3500);
      expect(await userCount()).toBe(before);
      await t.client().register();
    });

    it('holds the address limit against parallel registrations: 25 at once make at most 10 accounts', async () => {
      const household = t.client();
      const before = await userCount();
      const responses = await Promise.all(
        Array.from({ length: 25 }, (_, index) => household.post('/api/register', { ...valid, username: `burst_${index}`, email: `burst_${index}@example.com` })),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(15);
      expect(await userCount()).toBe(before + 10);
    });

    it('answers malformed JSON with 400, not 500', async () => {
      const response = await t.client().request('POST', '/api/register', '{"username": "x",', {
        'content-type': 'application/json',
      });
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ message: MESSAGES.invalidJson });
    });

    it('refuses a duplicate username or e-mail (any case) with 409 and writes nothing', async () => {
      const existing = await t.client().register();
      const before = await userCount();
      const sameName = await t.client().post('/api/register', {
        ...valid,
        username: existing.username.toUpperCase(),
      });
      expect(sameName.statusCode).toBe(409);
      expect(json(sameName)).toEqual({ message: MESSAGES.usernameTaken });
      const sameEmail = await t.client().post('/api/register', { ...valid, email: existing.email.toUpperCase() });
      expect(sameEmail.statusCode).toBe(409);
      expect(json(sameEmail)).toEqual({ message: MESSAGES.emailTaken });
      expect(await userCount()).toBe(before);
    });
  });

  describe('POST /api/login', () => {
    it('signs in by username in any case with a new session id each time', async () => {
      const account = await t.client().register();
      const client = t.client();
      const first = await client.post('/api/login', { username: account.username.toUpperCase(), password: account.password });
      expect(first.statusCode).toBe(200);
      expect(json(first)).toMatchObject({ id: account.user.id, username: account.username });
      const firstSession = client.cookie(SESSION_COOKIE);
      expect(firstSession).toBeTruthy();

      const second = await client.post('/api/login', { username: account.username, password: account.password });
      expect(second.statusCode).toBe(200);
      expect(client.cookie(SESSION_COOKIE)).not.toBe(firstSession);

      // The replaced session is gone, not just forgotten by this browser.
      const stale = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: firstSession! } });
      expect(stale.statusCode).toBe(401);
    });

    it.each([
      ['wrong password', (u: string) => ({ username: u, password: 'wrong password' }), 401, MESSAGES.invalidCredentials],
      ['unknown user', () => ({ username: 'nobody_here', password: 'password123' }), 401, MESSAGES.invalidCredentials],
      ['missing password', (u: string) => ({ username: u }), 400, MESSAGES.fillAllFields],
      ['missing username', () => ({ password: 'password123' }), 400, MESSAGES.fillAllFields],
      ['numeric password', (u: string) => ({ username: u, password: 12345678 }), 400, 'Password must be text'],
    ])('refuses a %s', async (_label, makeBody, status, message) => {
      const account = await t.client().register();
      const client = t.client();
      const response = await client.post('/api/login', makeBody(account.username));
      expect(response.statusCode).toBe(status);
      expect(json(response)).toEqual({ message });
      expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it('refuses a brute force on one account from one address: the 6th try is 429 even with the right password', async () => {
      const account = await t.client().register();
      // The attacker has an account of their own: its known-device cookie vouches for that account only.
      const attacker = t.client();
      await attacker.register();
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await attacker.post('/api/login', { username: account.username, password: 'wrong password' });
        expect(response.statusCode).toBe(401);
      }
      const blocked = await attacker.post('/api/login', { username: account.username, password: account.password });
      expect(blocked.statusCode).toBe(429);
      expect(json(blocked).message).toMatch(/^Too many failed login attempts\. Please try again in 15 minutes\.$/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
      // The account itself is not locked: its owner elsewhere signs in.
      expect((await t.client().post('/api/login', { username: account.username, password: account.password })).statusCode).toBe(200);
    });

    it('lets no stranger lock a parent out: failures from 12 other addresses and from the parent’s own leave the parent’s known device signing in', async () => {
      const parent = t.client();
      const account = await parent.register();
      expect(parent.cookie(DEVICE_COOKIE)).toBeTruthy();
      await parent.post('/api/logout');

      // A stranger guesses from 12 addresses, 5 each: 60 failures, twice the account's ceiling.
      const statuses: number[] = [];
      for (let address = 0; address < 12; address++) {
        const stranger = t.client();
        for (let attempt = 0; attempt < 5; attempt++) {
          statuses.push((await stranger.post('/api/login', { username: account.username, password: `guess ${address}.${attempt}` })).statusCode);
        }
      }
      // Past 30 the account is slowed to one attempt a minute from unknown devices: the rest wait.
      expect(statuses.filter((status) => status === 401)).toHaveLength(31);
      expect(statuses.filter((status) => status === 429)).toHaveLength(29);
      // And from the parent's own address (a shared network), without the parent's cookie: 25 more.
      for (let attempt = 0; attempt < 25; attempt++) {
        await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: parent.remoteAddress, payload: { username: account.username, password: 'guess' } });
      }

      const signedIn = await parent.post('/api/login', { username: account.username, password: account.password });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(json(await parent.get('/api/me')).id).toBe(account.user.id);

      // A new device is slowed down, not locked: once the minute has passed it signs in.
      const newDevice = t.client();
      const waiting = await newDevice.post('/api/login', { username: account.username, password: account.password });
      expect(waiting.statusCode).toBe(429);
      expect(Number(waiting.headers['retry-after'])).toBeLessThanOrEqual(60);
      await t.database.db
        .update(loginThrottle)
        .set({ windowStart: new Date(Date.now() - 61_000) })
        .where(eq(loginThrottle.key, `account-pace:${account.username.toLowerCase()}`));
      expect((await newDevice.post('/api/login', { username: account.username, password: account.password })).statusCode).toBe(200);
    });

    it('counts a known device alone: 5 failures stop that browser, not the parent’s other devices; a forged cookie is no known device', async () => {
      const laptop = t.client();
      const account = await laptop.register();
      const phone = t.client();
      expect((await phone.post('/api/login', { username: account.username, password: account.password })).statusCode).toBe(200);

      const cookie = laptop.cookie(DEVICE_COOKIE)!;
      const setCookie = String((await laptop.post('/api/login', { username: account.username, password: account.password })).headers['set-cookie']);
      expect(setCookie).toMatch(new RegExp(`${DEVICE_COOKIE.replace('.', '\\.')}=[^;]+; Max-Age=31536000; Path=/api/login; .*HttpOnly; SameSite=Lax`, 'i'));

      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await laptop.post('/api/login', { username: account.username, password: 'wrong password' })).statusCode).toBe(401);
      }
      expect((await laptop.post('/api/login', { username: account.username, password: account.password })).statusCode).toBe(429);
      expect((await phone.post('/api/login', { username: account.username, password: account.password })).statusCode).toBe(200);

      // The laptop's cookie tampered with, or sent from elsewhere without it, is an unknown device: refused
      // after 5 failures from one address.
      const forged = `${cookie.slice(0, -3)}abc`;
      const elsewhere = t.client();
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: elsewhere.remoteAddress,
          cookies: { [DEVICE_COOKIE]: forged },
          payload: { username: account.username, password: 'wrong password' },
        });
        expect(response.statusCode).toBe(401);
      }
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: elsewhere.remoteAddress,
        cookies: { [DEVICE_COOKIE]: forged },
        payload: { username: account.username, password: account.password },
      });
      expect(refused.statusCode).toBe(429);
    });

    it('holds the limits against parallel logins: 100 at once for one account, the right password among them, are mostly refused', async () => {
      const account = await t.client().register();
      const attacker = t.client();
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          attacker.post('/api/login', { username: account.username, password: index === 50 ? account.password : `wrong password ${index}` }),
        ),
      );
      const statuses = responses.map((response) => response.statusCode);
      // Each attempt is counted before its password is checked: five get an answer, the rest wait.
      expect(statuses.filter((status) => status === 401 || status === 200).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(90);
    });

    it('holds the limits against parallel logins on a known device, and from 100 addresses at once', async () => {
      const parent = t.client();
      const account = await parent.register();
      const fromDevice = await Promise.all(
        Array.from({ length: 100 }, (_, index) => parent.post('/api/login', { username: account.username, password: index === 50 ? account.password : `wrong ${index}` })),
      );
      expect(fromDevice.filter((response) => response.statusCode === 429).length).toBeGreaterThanOrEqual(90);

      const other = await t.client().register();
      const everywhere = await Promise.all(
        Array.from({ length: 100 }, (_, index) => t.client().post('/api/login', { username: other.username, password: `wrong ${index}` })),
      );
      // The account's 30, and one more past them in its minute.
      expect(everywhere.filter((response) => response.statusCode === 401)).toHaveLength(31);
      expect(everywhere.filter((response) => response.statusCode === 429)).toHaveLength(69);
    });

    it('limits failed logins per address across accounts', async () => {
      const attacker = t.client();
      for (let attempt = 0; attempt < 20; attempt++) {
        const response = await attacker.post('/api/login', { username: `guess_${attempt}`, password: 'password123' });
        expect(response.statusCode).toBe(401);
      }
      const account = await t.client().register();
      const blocked = await attacker.post('/api/login', { username: account.username, password: account.password });
      expect(blocked.statusCode).toBe(429);
      // Another address is not affected.
      const other = await t.client().post('/api/login', { username: account.username, password: account.password });
      expect(other.statusCode).toBe(200);
    });

    it('clears the account count after a successful login', async () => {
      const account = await t.client().register();
      for (let attempt = 0; attempt < 4; attempt++) {
        await t.client().post('/api/login', { username: account.username, password: 'wrong password' });
      }
      expect((await t.client().post('/api/login', { username: account.username, password: account.password })).statusCode).toBe(200);
      for (let attempt = 0; attempt < 4; attempt++) {
        await t.client().post('/api/login', { username: account.username, password: 'wrong password' });
      }
      expect((await t.client().post('/api/login', { username: account.username, password: account.password })).statusCode).toBe(200);
    });
  });

  describe('sign-in counters', () => {
    it('are pruned once their window has closed (main.ts runs pruneThrottle at start and every hour)', async () => {
      const ago = (minutes: number) => new Date(Date.now() - minutes * 60 * 1000);
      await t.database.db.insert(loginThrottle).values([
        { key: 'account-pace:pruned_user', failures: 1, windowStart: ago(61) },
        { key: 'register:192.0.2.2', failures: 10, windowStart: ago(61) },
        { key: 'register:192.0.2.3', failures: 10, windowStart: ago(59) },
        { key: 'account:kept_user', failures: 3, windowStart: ago(1) },
      ]);
      expect(await pruneThrottle(t.database.db)).toBe(2);
      const left = (await t.database.db.select({ key: loginThrottle.key }).from(loginThrottle)).map((row) => row.key);
      expect(left).not.toContain('account-pace:pruned_user');
      expect(left).not.toContain('register:192.0.2.2');
      // Still counting: a registration window of an hour, a fresh failure.
      expect(left).toEqual(expect.arrayContaining(['register:192.0.2.3', 'account:kept_user']));
      // Every row left is in a window that may still count.
      const rows = await t.database.db.select().from(loginThrottle);
      expect(rows.every((row) => row.windowStart.getTime() > ago(60).getTime())).toBe(true);
    });
  });

  describe('POST /api/logout and GET /api/me', () => {
    it('answers 401 when signed out', async () => {
      const response = await t.client().get('/api/me');
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ message: MESSAGES.notSignedIn });
    });

    it('destroys the session on logout', async () => {
      const client = t.client();
      await client.register();
      const session = client.cookie(SESSION_COOKIE)!;
      const response = await client.post('/api/logout');
      expect(response.statusCode).toBe(204);
      expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
      expect((await client.get('/api/me')).statusCode).toBe(401);
      const replayed = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: session } });
      expect(replayed.statusCode).toBe(401);
    });

    it('keeps a page-readable signed-in hint beside the session, which grants nothing (decision 002)', async () => {
      const hintOf = (response: { headers: Record<string, unknown> }) =>
        [response.headers['set-cookie']].flat().find((header) => typeof header === 'string' && header.startsWith(`${SIGNED_IN_HINT_COOKIE}=`)) as string | undefined;
      const client = t.client();
      const account = await client.register();
      expect(client.cookie(SIGNED_IN_HINT_COOKIE)).toBe('1');

      const login = await client.post('/api/login', { username: account.username, password: account.password });
      const hint = hintOf(login);
      expect(hint).toMatch(/SameSite=Lax/i);
      expect(hint).toMatch(/Max-Age=2592000/);
      expect(hint).not.toMatch(/HttpOnly/i); // the page reads it: that is its purpose
      // A failed sign-in leaves it alone.
      expect(hintOf(await t.client().post('/api/login', { username: account.username, password: 'not the password' }))).toBeUndefined();

      // Alone, it signs nobody in.
      const alone = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SIGNED_IN_HINT_COOKIE]: '1' } });
      expect(alone.statusCode).toBe(401);
      // …and the answer clears it, as it does after a session ended elsewhere (a deleted account, an expiry).
      expect(hintOf(alone)).toMatch(/Expires=Thu, 01 Jan 1970/i);
      // A session from before the hint existed gets it on its next GET /api/me; a visitor without one gets no cookie.
      const session = client.cookie(SESSION_COOKIE)!;
      expect(hintOf(await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: session } }))).toContain(`${SIGNED_IN_HINT_COOKIE}=1`);
      expect((await t.client().get('/api/me')).headers['set-cookie']).toBeUndefined();

      expect((await client.post('/api/logout')).statusCode).toBe(204);
      expect(client.cookie(SIGNED_IN_HINT_COOKIE)).toBeUndefined();
    });

    it('lets a signed-out visitor log out harmlessly', async () => {
      expect((await t.client().post('/api/logout')).statusCode).toBe(204);
    });

    it('rejects a forged or tampered session cookie', async () => {
      const client = t.client();
      await client.register();
      const tampered = `${client.cookie(SESSION_COOKIE)!.slice(0, -2)}xx`;
      const response = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: tampered } });
      expect(response.statusCode).toBe(401);
    });

    it('keeps sessions across a server restart', async () => {
      const client = t.client();
      const account = await client.register();
      const session = client.cookie(SESSION_COOKIE)!;
      const secret = 'a-secret-that-is-at-least-32-characters-long';
      // A restarted server: a new app instance over the same database with the persisted secret.
      const before = await buildApp({ db: t.database.db, storage: t.storage, queue: t.queue, pipeline: t.pipeline, logger: false, config: restartConfig(secret) });
      const login = await before.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: account.username, password: account.password },
      });
      const cookie = login.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
      await before.close();
      const after = await buildApp({ db: t.database.db, storage: t.storage, queue: t.queue, pipeline: t.pipeline, logger: false, config: restartConfig(secret) });
      const me = await after.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: cookie } });
      expect(me.statusCode).toBe(200);
      expect(json(me).id).toBe(account.user.id);
      await after.close();
      expect(session).toBeTruthy();
    });
  });

  describe('GET /api/videoTemplates', () => {
    it('serves the featured list to visitors and the full list only when signed in', async () => {
      const featured = await t.client().get('/api/videoTemplates/featured');
      expect(featured.statusCode).toBe(200);
      expect(Array.isArray(json(featured))).toBe(true);
      expect((await t.client().get('/api/videoTemplates')).statusCode).toBe(401);
      const client = t.client();
      await client.register();
      expect((await client.get('/api/videoTemplates')).statusCode).toBe(200);
      expect((await client.get('/api/videoTemplates/999999')).statusCode).toBe(404);
      expect((await client.get('/api/videoTemplates/abc')).statusCode).toBe(400);
    });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.client().get('/api/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(json(response).message).toContain('/api/nothing-here');
  });
});

function restartConfig(secret: string) {
  return { sessionSecret: secret, cookieSecure: 'auto' as const, trustProxy: false, logLevel: 'silent', clientDir: '/nonexistent' };
}

// Keep the import used when the suite is filtered.
void TestClient;
