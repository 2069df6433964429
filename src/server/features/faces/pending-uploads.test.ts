// Files streamed to POST /api/upload/video and never saved as a face video: recorded as pending uploads,
// gone with their person, swept when they expire.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { pendingUploads } from '../../db/schema';
import { sweepExpiredUploads } from '../../jobs/maintenance';
import { testDatabases } from '../../testing/databases';
import { filesUnder, fixtures, multipart } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';

const databases = await testDatabases();

describe.each(databases)('pending uploads on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
  });
  afterAll(() => t?.close());

  const upload = async (m: Member) => {
    const body = multipart([
      { name: 'video', filename: 'face.mp4', type: 'video/mp4', content: fixtures.mp4() },
      { name: 'personId', value: String(m.personId) },
    ]);
    const response = await m.client.request('POST', '/api/upload/video', body.payload, body.headers);
    expect(response.statusCode, response.body).toBe(201);
    return json<{ videoUrl: string }>(response).videoUrl;
  };
  const fileOf = (url: string) => t.storage.fromUrl(url)!.path;
  const onDisk = (url: string) => filesUnder(t.storage.root).some((file) => fileOf(url).endsWith(file));

  it('records an upload with its owner, person, size and expiry; saving it as a face video clears it', async () => {
    const m = await memberWithPerson(t);
    const url = await upload(m);
    const [row] = await t.database.db.select().from(pendingUploads).where(eq(pendingUploads.url, url));
    expect(row).toMatchObject({ userId: m.userId, personId: m.personId, bytes: fixtures.mp4().length });
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 60 * 60 * 1000);

    const saved = await m.client.post('/api/faceVideos', { personId: m.personId, name: 'Clip', expressionType: 'neutral', videoUrl: url });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(await t.database.db.select().from(pendingUploads).where(eq(pendingUploads.url, url))).toEqual([]);
    // Saved: the sweep leaves it alone, whatever the time.
    await t.database.db.update(pendingUploads).set({ expiresAt: new Date(0) });
    await sweepExpiredUploads({ db: t.database.db, storage: t.storage });
    expect(onDisk(url)).toBe(true);
  });

  it('sweeps an expired upload (row and file) and keeps a fresh one', async () => {
    const m = await memberWithPerson(t);
    const expired = await upload(m);
    const fresh = await upload(m);
    await t.database.db.update(pendingUploads).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(pendingUploads.url, expired));
    expect(await sweepExpiredUploads({ db: t.database.db, storage: t.storage })).toBe(1);
    expect(onDisk(expired)).toBe(false);
    expect(onDisk(fresh)).toBe(true);
    // An expired upload can no longer be saved.
    const late = await m.client.post('/api/faceVideos', { personId: m.personId, name: 'Late', expressionType: 'neutral', videoUrl: expired });
    expect(late.statusCode).toBe(400);
  });

  it('counts towards the storage quota: past it an upload is refused (413), and sweeping makes room again', async () => {
    const m = await memberWithPerson(t);
    const clip = fixtures.mp4().length;
    process.env.USER_STORAGE_QUOTA_MB = String((clip * 2.5) / (1024 * 1024));
    try {
      await upload(m);
      const second = await upload(m);
      const body = multipart([
        { name: 'video', filename: 'face.mp4', type: 'video/mp4', content: fixtures.mp4() },
        { name: 'personId', value: String(m.personId) },
      ]);
      const refused = await m.client.request('POST', '/api/upload/video', body.payload, body.headers);
      expect(refused.statusCode).toBe(413);
      expect(json(refused)).toEqual({ message: MEDIA_MESSAGES.storageFull });
      expect(filesUnder(t.storage.root).filter((file) => file.startsWith(`face-videos/${m.userId}/`))).toHaveLength(2);

      await t.database.db.update(pendingUploads).set({ expiresAt: new Date(0) }).where(eq(pendingUploads.url, second));
      await sweepExpiredUploads({ db: t.database.db, storage: t.storage });
      await upload(m);
    } finally {
      delete process.env.USER_STORAGE_QUOTA_MB;
    }
  });

  it('goes with its person: deleting the person removes the pending file too', async () => {
    const m = await memberWithPerson(t);
    const url = await upload(m);
    expect((await m.client.delete(`/api/people/${m.personId}`)).statusCode).toBe(204);
    expect(await t.database.db.select().from(pendingUploads).where(eq(pendingUploads.url, url))).toEqual([]);
    expect(onDisk(url)).toBe(false);
  });
});
