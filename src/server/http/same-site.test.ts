// Writes a browser sends from another origin are refused before anything happens; the app's own
// writes, reads, and requests from outside a browser pass. The real browser case is e2e/security.e2e.ts.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/validation';
import { pendingUploads, videoTemplates } from '../db/schema';
import { testDatabases } from '../testing/databases';
import { type MultipartPart, filesUnder, fixtures, multipart } from '../testing/media-fixtures';
import { type Member, memberWithPerson } from '../testing/people-kit';
import { type TestApp, anotherApp, type TestClient, createTestApp, json } from '../testing/test-app';

const databases = await testDatabases();

/** app.inject's own origin: it sends `Host: localhost:80`. */
const OWN = 'http://localhost';
const SIBLING_PORT = { origin: 'http://localhost:8080', 'sec-fetch-site': 'same-site' };
const OTHER_SITE_ORIGIN_ONLY = { origin: 'https://evil.example' };
const refusal = { message: MESSAGES.crossSiteRequest };

describe.each(databases)('writes from another origin on $name', (testDatabase) => {
  let t: TestApp;
  let admin: TestClient;
  let member: Member;

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    admin = t.client();
    await admin.register(); // first account: admin
    member = await memberWithPerson(t);
  });
  afterAll(() => t?.close());

  const count = async (table: typeof videoTemplates | typeof pendingUploads) =>
    (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
  const storedFiles = () => filesUnder(path.join(t.dataDir, 'media'));
  const tempFiles = () => filesUnder(path.join(t.dataDir, 'tmp'));

  const upload = (client: TestClient, url: string, parts: MultipartPart[], headers: Record<string, string>) => {
    const body = multipart(parts);
    return client.request('POST', url, body.payload, { ...body.headers, ...headers });
  };
  const faceVideo = (m: Member): MultipartPart[] => [
    { name: 'personId', value: String(m.personId) },
    { name: 'userId', value: String(m.userId) },
    { name: 'video', filename: 'face.mp4', type: 'video/mp4', content: fixtures.mp4() },
  ];
  const template = (): MultipartPart[] => [
    { name: 'title', value: 'Forged Template' },
    { name: 'description', value: 'Uploaded by a page on another site.' },
    { name: 'category', value: 'animals' },
    { name: 'ageRange', value: '2-4' },
    { name: 'featured', value: 'true' },
    { name: 'isPremium', value: 'false' },
    { name: 'voiceOnly', value: 'false' },
    { name: 'video', filename: 'farm.mp4', type: 'video/mp4', content: fixtures.avMp4() },
  ];

  it('refuses a logout from another site and leaves the session signed in', async () => {
    const client = t.client();
    await client.register();
    for (const headers of [OTHER_SITE_ORIGIN_ONLY, SIBLING_PORT, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }]) {
      const response = await client.request('POST', '/api/logout', undefined, headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(json(response)).toEqual(refusal);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect((await client.get('/api/me')).statusCode).toBe(200);
    }
  });

  it('refuses a face-video upload from a sibling port or another site, storing nothing', async () => {
    const filesBefore = storedFiles();
    const pendingBefore = await count(pendingUploads);
    for (const headers of [OTHER_SITE_ORIGIN_ONLY, SIBLING_PORT]) {
      const response = await upload(member.client, '/api/upload/video', faceVideo(member), headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(json(response)).toEqual(refusal);
    }
    expect(storedFiles()).toEqual(filesBefore);
    expect(tempFiles()).toEqual([]);
    expect(await count(pendingUploads)).toBe(pendingBefore);

    // The same upload from the app's own page is taken.
    const own = await upload(member.client, '/api/upload/video', faceVideo(member), { origin: OWN, 'sec-fetch-site': 'same-origin' });
    expect(own.statusCode, own.body).toBe(201);
    expect(await count(pendingUploads)).toBe(pendingBefore + 1);
  });

  it("refuses an admin's featured-template upload from another site: no row, no file", async () => {
    const rowsBefore = await count(videoTemplates);
    const filesBefore = storedFiles();
    for (const headers of [OTHER_SITE_ORIGIN_ONLY, SIBLING_PORT]) {
      const response = await upload(admin, '/api/admin/videoTemplates/upload', template(), headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(json(response)).toEqual(refusal);
    }
    expect(await count(videoTemplates)).toBe(rowsBefore);
    expect(storedFiles()).toEqual(filesBefore);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses the other write methods and Sec-Fetch-Site none (nobody types a POST)', async () => {
    const cases: [string, string, unknown, Record<string, string>][] = [
      ['PATCH', `/api/people/${member.personId}`, { name: 'Forged' }, SIBLING_PORT],
      ['DELETE', `/api/people/${member.personId}`, undefined, OTHER_SITE_ORIGIN_ONLY],
      ['PUT', `/api/people/${member.personId}`, { name: 'Forged' }, SIBLING_PORT],
      ['POST', '/api/people', { name: 'Forged', relationship: 'Other' }, { 'sec-fetch-site': 'none' }],
    ];
    for (const [method, url, body, headers] of cases) {
      const response = await member.client.request(method, url, body === undefined ? undefined : JSON.stringify(body), headers);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    const person = json<{ name: string }>(await member.client.get(`/api/people/${member.personId}`));
    expect(person.name).toBe('Grandma Rose');
  });

  it('refuses a sign-in posted from another site even without a cookie (login forgery)', async () => {
    const account = await t.client().register();
    const forged = await t.client().request('POST', '/api/login', JSON.stringify({ username: account.username, password: account.password }), SIBLING_PORT);
    expect(forged.statusCode).toBe(403);
    expect(forged.headers['set-cookie']).toBeUndefined();
  });

  it("lets the app's own writes through, by Sec-Fetch-Site or by Origin alone", async () => {
    const ownCases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: OWN },
      { 'sec-fetch-site': 'same-origin' },
      { origin: OWN },
      // The Host header as a client typed it; a browser's Origin is always lower case, default port left out.
      { host: 'LocalHost:80', origin: OWN },
      // Behind a port mapping the Host header carries the port the browser used.
      { host: 'family.example:8443', origin: 'http://family.example:8443' },
    ];
    for (const headers of ownCases) {
      const response = await member.client.request('PATCH', `/api/people/${member.personId}`, JSON.stringify({ relationship: 'Grandmother' }), headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(200);
    }
    // Another port, or another scheme, of the same host is another origin.
    for (const origin of ['http://localhost:8080', 'https://localhost']) {
      const response = await member.client.request('PATCH', `/api/people/${member.personId}`, JSON.stringify({ relationship: 'Forged' }), { origin });
      expect(response.statusCode, origin).toBe(403);
    }
  });

  it('leaves reads alone, and requests that are not from a browser page (a webhook, curl)', async () => {
    for (const headers of [OTHER_SITE_ORIGIN_ONLY, SIBLING_PORT]) {
      expect((await member.client.request('GET', '/api/me', undefined, headers)).statusCode).toBe(200);
    }
    // No Origin, no Sec-Fetch-Site, no cookie: it reaches the route (here a wrong sign-in).
    const response = await t.client().post('/api/login', { username: 'nobody', password: 'wrong password' });
    expect(response.statusCode).toBe(401);
  });
});

describe.each(databases)('writes from another origin behind a proxy (TRUST_PROXY) on $name', (testDatabase) => {
  let t: TestApp;
  let proxied: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    proxied = await anotherApp(t, { config: { trustProxy: true } });
    const unique = randomBytes(4).toString('hex');
    const registered = await proxied.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: `proxy_${unique}`, email: `proxy_${unique}@example.com`, password: 'a long password', displayName: 'Proxy Parent' },
    });
    expect(registered.statusCode).toBe(201);
    const set = registered.cookies[0]!;
    cookie = `${set.name}=${set.value}`;
  });
  afterAll(async () => {
    await proxied?.close();
    await t?.close();
  });

  const logout = (origin: string) =>
    proxied.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, host: 'app:3000', 'x-forwarded-host': 'family.example', 'x-forwarded-proto': 'https', origin },
    });

  it('compares the Origin with the forwarded host and scheme', async () => {
    expect((await logout('https://app:3000')).statusCode).toBe(403);
    expect((await logout('http://family.example')).statusCode).toBe(403);
    expect((await logout('https://family.example')).statusCode).toBe(204);
  });
});
