import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '../../../shared/admin-rules';
import type { AdminAnalytics, AdminUser } from '../../../shared/api-types';
import { MESSAGES } from '../../../shared/validation';
import { people, processedVideos, purchases, videoTemplates } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { type TestApp, type TestClient, createTestApp, json } from '../../testing/test-app';

const databases = await testDatabases();

describe.each(databases)('admin API on $name', (testDatabase) => {
  let t: TestApp;
  let admin: TestClient;
  let adminId: number;
  let user: TestClient;
  let userId: number;
  let visitor: TestClient;

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    admin = t.client();
    adminId = (await admin.register()).user.id; // first account: admin
    user = t.client();
    userId = (await user.register()).user.id;
    visitor = t.client();
  });
  afterAll(() => t?.close());

  const calls: [string, string, unknown?][] = [
    ['GET', '/api/admin/users'],
    ['PATCH', '/api/admin/users/1/role', { role: 'admin' }],
    ['PATCH', '/api/admin/users/1/subscription', { subscriptionStatus: 'active' }],
    ['PATCH', '/api/admin/users/1/plan', { plan: 'family' }],
    ['GET', '/api/admin/analytics'],
  ];
  it.each(calls)('%s %s: 401 signed out, 403 for a user', async (method, url, body) => {
    expect((await visitor.request(method, url, body)).statusCode).toBe(401);
    const response = await user.request(method, url, body);
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({ message: MESSAGES.forbidden });
    expect(json(await user.get('/api/me')).role).toBe('user');
  });

  it('lists users without password hashes', async () => {
    const response = await admin.get('/api/admin/users');
    expect(response.statusCode).toBe(200);
    const list = json<AdminUser[]>(response);
    expect(list.map((row) => row.id)).toEqual(expect.arrayContaining([adminId, userId]));
    expect(list.find((row) => row.id === adminId)).toMatchObject({ role: 'admin', subscriptionStatus: 'none', plan: 'free' });
    expect(response.body).not.toMatch(/password|scrypt|stripe/i);
  });

  it('changes role, subscription status and plan, each within its set', async () => {
    const other = t.client();
    const { user: created } = await other.register();
    const base = `/api/admin/users/${created.id}`;
    expect(json(await admin.patch(`${base}/role`, { role: 'admin' }))).toMatchObject({ id: created.id, role: 'admin' });
    expect(json(await other.get('/api/me')).role).toBe('admin');
    expect(json(await admin.patch(`${base}/role`, { role: 'user' }))).toMatchObject({ role: 'user' });
    for (const status of ['trial', 'active', 'expired', 'none']) {
      expect(json(await admin.patch(`${base}/subscription`, { subscriptionStatus: status })).subscriptionStatus).toBe(status);
    }
    for (const plan of ['premium', 'family', 'free']) {
      expect(json(await admin.patch(`${base}/plan`, { plan })).plan).toBe(plan);
    }
  });

  const bad: [string, string, unknown, string][] = [
    ['role', 'role', { role: 'owner' }, ADMIN_MESSAGES.invalidRole],
    ['role', 'missing role', {}, ADMIN_MESSAGES.invalidRole],
    ['subscription', 'status free (old schema)', { subscriptionStatus: 'free' }, ADMIN_MESSAGES.invalidSubscriptionStatus],
    ['subscription', 'numeric status', { subscriptionStatus: 1 }, ADMIN_MESSAGES.invalidSubscriptionStatus],
    ['plan', 'plan', { plan: 'gold' }, ADMIN_MESSAGES.invalidPlan],
  ];
  it.each(bad)('PATCH …/%s refuses a bad %s with 400', async (call, _label, body, message) => {
    const response = await admin.patch(`/api/admin/users/${userId}/${call}`, body);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message });
    expect(json(await user.get('/api/me'))).toMatchObject({ role: 'user', subscriptionStatus: 'none', plan: 'free' });
  });

  it('answers 404 for an unknown user and 400 for a bad id', async () => {
    expect(json(await admin.patch('/api/admin/users/999999/plan', { plan: 'family' }))).toEqual({ message: ADMIN_MESSAGES.userNotFound });
    expect((await admin.patch('/api/admin/users/999999/role', { role: 'admin' })).statusCode).toBe(404);
    expect((await admin.patch('/api/admin/users/x/subscription', { subscriptionStatus: 'trial' })).statusCode).toBe(400);
  });

  it('refuses to demote the last admin, also when the admin demotes themself', async () => {
    const response = await admin.patch(`/api/admin/users/${adminId}/role`, { role: 'user' });
    expect(response.statusCode).toBe(409);
    expect(json(response)).toEqual({ message: ADMIN_MESSAGES.lastAdmin });
    expect(json(await admin.get('/api/me')).role).toBe('admin');

    // With a second admin, one may step down; then the other is the last one.
    const second = t.client();
    const { user: secondUser } = await second.register();
    await admin.patch(`/api/admin/users/${secondUser.id}/role`, { role: 'admin' });
    expect((await second.patch(`/api/admin/users/${adminId}/role`, { role: 'user' })).statusCode).toBe(200);
    expect((await second.patch(`/api/admin/users/${secondUser.id}/role`, { role: 'user' })).statusCode).toBe(409);
    expect((await admin.get('/api/admin/users')).statusCode).toBe(403);
    await second.patch(`/api/admin/users/${adminId}/role`, { role: 'admin' });
    await admin.patch(`/api/admin/users/${secondUser.id}/role`, { role: 'user' });
  });

  it('two admins demoting each other at once leave one admin', async () => {
    const [a, b] = [t.client(), t.client()];
    const { user: aUser } = await a.register();
    const { user: bUser } = await b.register();
    await admin.patch(`/api/admin/users/${aUser.id}/role`, { role: 'admin' });
    await admin.patch(`/api/admin/users/${bUser.id}/role`, { role: 'admin' });
    // adminId steps down so only a and b are admins.
    await a.patch(`/api/admin/users/${adminId}/role`, { role: 'user' });
    const results = await Promise.all([
      a.patch(`/api/admin/users/${bUser.id}/role`, { role: 'user' }),
      b.patch(`/api/admin/users/${aUser.id}/role`, { role: 'user' }),
    ]);
    // The loser is refused as the last admin (409), or finds itself already demoted (403).
    const codes = results.map((response) => response.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([403, 409]).toContain(codes[1]);
    const admins = json<AdminUser[]>(await (results[0].statusCode === 200 ? a : b).get('/api/admin/users')).filter(
      (row) => row.role === 'admin',
    );
    expect(admins).toHaveLength(1);
    const survivor = results[0].statusCode === 200 ? a : b;
    await survivor.patch(`/api/admin/users/${adminId}/role`, { role: 'admin' });
  });

  it('reports real figures from the database', async () => {
    const before = json<AdminAnalytics>(await admin.get('/api/admin/analytics'));
    const db = t.database.db;
    const [template] = await db
      .insert(videoTemplates)
      .values({ title: 'Top Template', description: 'Used the most.', duration: 20, isPremium: true, priceCents: 499 })
      .returning();
    const [person] = await db.insert(people).values({ userId, name: 'Grandma', relationship: 'grandmother' }).returning();
    await db.insert(processedVideos).values([
      { userId, templateId: template!.id, personId: person!.id, title: 'A', status: 'completed' },
      { userId, templateId: template!.id, title: 'B', status: 'completed' },
      { userId, templateId: template!.id, title: 'C', status: 'failed', error: 'no face found' },
      { userId, templateId: template!.id, title: 'D', status: 'pending' },
    ]);
    await db.insert(purchases).values([
      { userId, templateId: template!.id, amountCents: 499, status: 'completed' },
      { userId, templateId: template!.id, amountCents: 499, status: 'failed' },
    ]);
    await admin.patch(`/api/admin/users/${userId}/plan`, { plan: 'family' });

    const response = await admin.get('/api/admin/analytics');
    expect(response.statusCode).toBe(200);
    const after = json<AdminAnalytics>(response);
    expect(after.totals).toMatchObject({
      users: before.totals.users,
      people: before.totals.people + 1,
      templates: before.totals.templates + 1,
      premiumTemplates: before.totals.premiumTemplates + 1,
      videos: before.totals.videos + 4,
      completedVideos: before.totals.completedVideos + 2,
      failedVideos: before.totals.failedVideos + 1,
      inProgressVideos: before.totals.inProgressVideos + 1,
      purchases: before.totals.purchases + 1,
      revenue: before.totals.revenue + 4.99,
    });
    expect(after.usersByPlan.family).toBe(before.usersByPlan.family + 1);
    expect(Object.values(after.usersBySubscription).reduce((sum, n) => sum + n, 0)).toBe(after.totals.users);
    expect(after.weekly).toHaveLength(8);
    expect(after.weekly.at(-1)!.videos).toBe(before.weekly.at(-1)!.videos + 4);
    expect(after.weekly.reduce((sum, week) => sum + week.signups, 0)).toBe(after.totals.users);
    expect(after.topTemplates[0]).toEqual({ id: template!.id, title: 'Top Template', videos: 4, purchases: 1, revenue: 4.99 });
  });
});
