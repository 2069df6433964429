import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { MESSAGES } from '../../../shared/validation';
import { people, users } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { dataUrl, filesUnder, fixtures } from '../../testing/media-fixtures';
import { memberWithPerson } from '../../testing/people-kit';
import { type TestApp, json } from '../../testing/test-app';
import { createTestApp } from '../../testing/test-app';

const databases = await testDatabases();

describe.each(databases)('people API on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    await t.client().register(); // the first account is the admin; everyone below is a plain user
  });
  afterAll(() => t?.close());

  const personRow = async (id: number) => (await t.database.db.select().from(people).where(eq(people.id, id)))[0];

  it('lets the owner add, list, read, rename and delete a person', async () => {
    const { client, userId } = await memberWithPerson(t, 'family');
    const created = await client.post('/api/people', { userId, name: '  Grandpa Joe ', relationship: 'Grandfather' });
    expect(created.statusCode).toBe(201);
    const person = json(created);
    expect(person).toMatchObject({ userId, name: 'Grandpa Joe', relationship: 'Grandfather', avatarUrl: null });
    expect(new Date(person.createdAt as string).toISOString()).toBe(person.createdAt);

    const list = json<{ name: string }[]>(await client.get(`/api/users/${userId}/people`));
    expect(list.map((p) => p.name)).toEqual(['Grandma Rose', 'Grandpa Joe']);
    expect(json(await client.get(`/api/people/${person.id}`))).toEqual(person);

    const renamed = await client.patch(`/api/people/${person.id}`, { name: 'Grandad Joe' });
    expect(renamed.statusCode).toBe(200);
    expect(json(renamed)).toMatchObject({ name: 'Grandad Joe', relationship: 'Grandfather' });

    expect((await client.delete(`/api/people/${person.id}`)).statusCode).toBe(204);
    expect((await client.get(`/api/people/${person.id}`)).statusCode).toBe(404);
    expect(json<unknown[]>(await client.get(`/api/users/${userId}/people`))).toHaveLength(1);
  });

  it('answers 401 to a signed-out visitor on every call', async () => {
    const { personId, userId } = await memberWithPerson(t);
    const visitor = t.client();
    for (const [method, url] of [
      ['GET', `/api/users/${userId}/people`],
      ['GET', `/api/people/${personId}`],
      ['POST', '/api/people'],
      ['PATCH', `/api/people/${personId}`],
      ['DELETE', `/api/people/${personId}`],
    ] as const) {
      const response = await visitor.request(method, url, method === 'POST' || method === 'PATCH' ? { name: 'Xx', relationship: 'Yy' } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await personRow(personId))?.name).toBe('Grandma Rose');
  });

  it("keeps another user's people out of reach (403) and unchanged", async () => {
    const owner = await memberWithPerson(t);
    const other = await memberWithPerson(t, 'family');
    expect((await other.client.get(`/api/users/${owner.userId}/people`)).statusCode).toBe(403);
    const read = await other.client.get(`/api/people/${owner.personId}`);
    expect(read.statusCode).toBe(403);
    expect(read.body).not.toContain('Grandma');
    expect((await other.client.patch(`/api/people/${owner.personId}`, { name: 'Stolen' })).statusCode).toBe(403);
    expect((await other.client.delete(`/api/people/${owner.personId}`)).statusCode).toBe(403);
    // A userId in the body must be the caller's own.
    expect((await other.client.post('/api/people', { userId: owner.userId, name: 'Sneaky', relationship: 'None' })).statusCode).toBe(403);
    expect(await personRow(owner.personId)).toMatchObject({ name: 'Grandma Rose', userId: owner.userId });
    expect(json<unknown[]>(await owner.client.get(`/api/users/${owner.userId}/people`))).toHaveLength(1);
  });

  it("gives admins no access to other users' people", async () => {
    const owner = await memberWithPerson(t);
    const acting = await memberWithPerson(t);
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, acting.userId));
    expect((await acting.client.get(`/api/people/${owner.personId}`)).statusCode).toBe(403);
    expect((await acting.client.get(`/api/users/${owner.userId}/people`)).statusCode).toBe(403);
    expect((await acting.client.delete(`/api/people/${owner.personId}`)).statusCode).toBe(403);
    expect(await personRow(owner.personId)).toBeDefined();
  });

  it.each([
    ['a 1-character name', { name: 'A', relationship: 'Aunt' }, MEDIA_MESSAGES.personNameTooShort],
    ['a 10,000-character name', { name: 'A'.repeat(10_000), relationship: 'Aunt' }, MEDIA_MESSAGES.personNameTooLong],
    ['a 1-character relationship', { name: 'Anna', relationship: 'A' }, MEDIA_MESSAGES.relationshipTooShort],
    ['a 10,000-character relationship', { name: 'Anna', relationship: 'A'.repeat(10_000) }, MEDIA_MESSAGES.relationshipTooLong],
    ['a missing name', { relationship: 'Aunt' }, 'Name is required'],
    ['a non-numeric userId', { userId: 'me', name: 'Anna', relationship: 'Aunt' }, MESSAGES.invalidId],
  ])('rejects %s with 400 and writes nothing', async (_label, body, message) => {
    const { client, userId } = await memberWithPerson(t, 'family');
    const response = await client.post('/api/people', body);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message });
    expect(json<unknown[]>(await client.get(`/api/users/${userId}/people`))).toHaveLength(1);
  });

  it('validates renames the same way and leaves the person unchanged', async () => {
    const { client, personId } = await memberWithPerson(t);
    for (const [body, message] of [
      [{ name: 'A' }, MEDIA_MESSAGES.personNameTooShort],
      [{ name: 'A'.repeat(10_000) }, MEDIA_MESSAGES.personNameTooLong],
      [{ relationship: 'x' }, MEDIA_MESSAGES.relationshipTooShort],
      [{}, 'Nothing to update'],
    ] as const) {
      const response = await client.patch(`/api/people/${personId}`, body);
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ message });
    }
    expect((await personRow(personId))?.name).toBe('Grandma Rose');
  });

  it('answers 400 "Invalid id" to non-numeric ids and 404 to unknown people', async () => {
    const { client } = await memberWithPerson(t);
    for (const url of ['/api/people/abc', '/api/people/1.5', '/api/people/-1', '/api/users/abc/people']) {
      const response = await client.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(json(response)).toEqual({ message: MESSAGES.invalidId });
    }
    expect((await client.patch('/api/people/x', { name: 'Anna' })).statusCode).toBe(400);
    expect((await client.delete('/api/people/x')).statusCode).toBe(400);
    const missing = await client.get('/api/people/999999');
    expect(missing.statusCode).toBe(404);
    expect(json(missing)).toEqual({ message: MEDIA_MESSAGES.personNotFound });
  });

  it('holds each plan to its number of people, with the message built from the plan', async () => {
    const free = await memberWithPerson(t);
    const refused = await free.client.post('/api/people', { name: 'Second', relationship: 'Sibling' });
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toEqual({ code: 'plan_limit', message: 'Your Free plan allows 1 person. Upgrade to add more.' });

    const premium = await memberWithPerson(t, 'premium');
    for (let i = 2; i <= 5; i++) {
      expect((await premium.client.post('/api/people', { name: `Kid ${i}`, relationship: 'Child' })).statusCode).toBe(201);
    }
    const sixth = await premium.client.post('/api/people', { name: 'Kid 6', relationship: 'Child' });
    expect(sixth.statusCode).toBe(403);
    expect(json(sixth)).toEqual({ code: 'plan_limit', message: 'Your Premium plan allows 5 people. Upgrade to add more.' });
    expect(json<unknown[]>(await premium.client.get(`/api/users/${premium.userId}/people`))).toHaveLength(5);

    // Two requests at once cannot both take the last place.
    const racer = await memberWithPerson(t, 'free');
    await t.database.db.delete(people).where(eq(people.userId, racer.userId));
    const results = await Promise.all([1, 2, 3].map((i) => racer.client.post('/api/people', { name: `Racer ${i}`, relationship: 'Child' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403, 403]);
  });

  it('exempts admins from the plan limit', async () => {
    const acting = await memberWithPerson(t);
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, acting.userId));
    expect((await acting.client.post('/api/people', { name: 'Second', relationship: 'Sibling' })).statusCode).toBe(201);
  });

  it("deletes a person's face images, face videos and voice recordings with their files", async () => {
    const { client, userId, personId } = await memberWithPerson(t);
    const image = await client.post('/api/faceImages', { personId, name: 'Front', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') });
    expect(image.statusCode).toBe(201);
    const voice = await client.post('/api/voiceRecordings', { personId, name: 'Voice', audioData: dataUrl(fixtures.webmTone(6), 'audio/webm') });
    expect(voice.statusCode).toBe(201);
    const video = await client.post('/api/faceVideos', { personId, name: 'Smile', expressionType: 'smile', videoData: dataUrl(fixtures.mp4(), 'video/mp4') });
    expect(video.statusCode).toBe(201);
    const mine = () => filesUnder(t.storage.root).filter((file) => file.split('/')[1] === String(userId));
    expect(mine()).toHaveLength(3);

    expect((await client.delete(`/api/people/${personId}`)).statusCode).toBe(204);
    expect(mine()).toEqual([]);
    expect(json<unknown[]>(await client.get(`/api/users/${userId}/faceImages`))).toEqual([]);
    expect(json<unknown[]>(await client.get(`/api/users/${userId}/voiceRecordings`))).toEqual([]);
    expect(json<unknown[]>(await client.get(`/api/users/${userId}/faceVideos`))).toEqual([]);
    expect((await client.get(json<{ imageUrl: string }>(image).imageUrl)).statusCode).toBe(404);
  });
});
