// Raw face clips go RAW_CLIP_RETENTION_DAYS after their faces were extracted; the faces, the recordings and
// the fingerprints stay (issue 17, decision 016).
import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, FaceVideo, PrivacySettings } from '../../shared/api-types';
import { DEFAULT_RAW_CLIP_RETENTION_DAYS, rawClipRetentionText } from '../../shared/privacy';
import { faceImages, faceVideos } from '../db/schema';
import { testDatabases } from '../testing/databases';
import { dataUrl, fixtures } from '../testing/media-fixtures';
import { type Member, memberWithPerson } from '../testing/people-kit';
import { type TestApp, anotherApp, createTestApp, json } from '../testing/test-app';
import { maintenanceJob } from './maintenance';
import { deleteExpiredRawClips } from './retention';

const databases = await testDatabases();
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(databases)('raw clip retention on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    await t.client().register(); // the first account is the admin
  });
  afterAll(() => t?.close());

  /** A clip saved through the API, then marked as its analysis would leave it, `daysAgo` days back. */
  const clip = async (m: Member, name: string, status: 'completed' | 'failed', daysAgo: number) => {
    const response = await m.client.post('/api/faceVideos', { personId: m.personId, name, expressionType: 'happy', videoData: dataUrl(fixtures.mp4(), 'video/mp4') });
    expect(response.statusCode, response.body).toBe(201);
    const video = json<FaceVideo>(response);
    const when = new Date(Date.now() - daysAgo * DAY_MS);
    await t.database.db
      .update(faceVideos)
      .set(status === 'completed' ? { processingStatus: status, isProcessed: true, extractedFacesCount: 1, processedAt: when } : { processingStatus: status, createdAt: when })
      .where(eq(faceVideos.id, video.id));
    return { id: video.id, file: t.storage.fromUrl(video.videoUrl)!.path };
  };

  it('deletes the raw clips past their retention and keeps their faces and newer clips', async () => {
    const m = await memberWithPerson(t);
    const old = await clip(m, 'Big smile', 'completed', 31);
    const recent = await clip(m, 'Surprised', 'completed', 29);
    const failed = await clip(m, 'Blurry', 'failed', 31);
    // A face extracted from the old clip (as the extraction job saves it).
    const photo = await m.client.post('/api/faceImages', { personId: m.personId, name: 'From the clip', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') });
    const faceId = json<{ id: number; imageUrl: string }>(photo);
    await t.database.db.update(faceImages).set({ sourceVideoId: old.id }).where(eq(faceImages.id, faceId.id));

    expect(await deleteExpiredRawClips({ db: t.database.db, storage: t.storage, rawClipRetentionDays: 30 })).toBe(2);

    expect(existsSync(old.file)).toBe(false);
    expect(existsSync(failed.file)).toBe(false);
    expect(existsSync(recent.file)).toBe(true);
    expect(existsSync(t.storage.fromUrl(faceId.imageUrl)!.path)).toBe(true);
    const clips = json<FaceVideo[]>(await m.client.get(`/api/people/${m.personId}/faceVideos`));
    const byId = new Map(clips.map((row) => [row.id, row]));
    expect(byId.get(old.id)).toMatchObject({ videoUrl: null, extractedFacesCount: 1 });
    expect(byId.get(old.id)!.rawClipDeletedAt).not.toBeNull();
    expect(byId.get(recent.id)).toMatchObject({ rawClipDeletedAt: null });
    expect(byId.get(recent.id)!.videoUrl).not.toBeNull();
    const [face] = await t.database.db.select().from(faceImages).where(eq(faceImages.id, faceId.id));
    expect(face).toMatchObject({ sourceVideoId: old.id });
    expect(face!.faceEmbedding?.length).toBeGreaterThan(0);

    const audit = json<AuditEntry[]>(await m.client.get(`/api/users/${m.userId}/audit`));
    const deletions = audit.filter((entry) => entry.action === 'raw-clip.deleted');
    expect(deletions.map((entry) => entry.actorRole)).toEqual(['system', 'system']);
    expect(deletions.map((entry) => entry.detail).join('\n')).toContain('Raw clip "Big smile" of Grandma Rose deleted 30 day(s) after processing; its 1 face(s) are kept');

    // Nothing is taken twice.
    expect(await deleteExpiredRawClips({ db: t.database.db, storage: t.storage, rawClipRetentionDays: 30 })).toBe(0);
  });

  it('runs in the maintenance job with the configured number of days', async () => {
    const m = await memberWithPerson(t);
    const week = await clip(m, 'A week ago', 'completed', 8);
    await maintenanceJob({ db: t.database.db, storage: t.storage, queue: t.queue, pipeline: t.pipeline, log: t.app.log });
    expect(existsSync(week.file)).toBe(true); // the default is 30 days
    await maintenanceJob({ db: t.database.db, storage: t.storage, queue: t.queue, pipeline: t.pipeline, log: t.app.log, rawClipRetentionDays: 7 });
    expect(existsSync(week.file)).toBe(false);
  });

  it('tells parents and visitors how long raw clips are kept', async () => {
    const settings = json<PrivacySettings>(await t.client().get('/api/privacy'));
    expect(settings.rawClipRetentionDays).toBe(DEFAULT_RAW_CLIP_RETENTION_DAYS);
    expect(rawClipRetentionText(settings.rawClipRetentionDays)).toBe('Raw clips are deleted 30 days after processing');
    const shorter = await anotherApp(t, { config: { rawClipRetentionDays: 2 } });
    try {
      const response = await shorter.inject({ method: 'GET', url: '/api/privacy' });
      expect(json<PrivacySettings>(response).rawClipRetentionDays).toBe(2);
    } finally {
      await shorter.close();
    }
  });
});
