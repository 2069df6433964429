// A person deleted while one of their uploads is being saved (issue 16, item 6): every kind of media
// either is saved before the delete (and goes with the person) or answers 404 'Person not found'; never
// a 500, and no row or file is left behind.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { faceImages, faceVideos, pendingUploads, voiceRecordings } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { dataUrl, filesUnder, fixtures, multipart } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';

const databases = await testDatabases();
const TRIES = 8;

describe.each(databases)('deleting a person while their media is saved, on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    await t.client().register(); // the first account is the admin
  });
  afterAll(() => t?.close());

  const userFiles = (userId: number) => filesUnder(t.storage.root).filter((file) => file.split(path.sep)[1] === String(userId));
  const tmpFiles = () => filesUnder(path.join(t.dataDir, 'tmp'));

  const uploadVideo = (m: Member) => {
    const body = multipart([
      { name: 'video', filename: 'face.mp4', type: 'video/mp4', content: fixtures.mp4() },
      { name: 'personId', value: String(m.personId) },
    ]);
    return m.client.request('POST', '/api/upload/video', body.payload, body.headers);
  };

  /** Each kind of save, given a member whose person exists; `prepare` runs before the race. */
  const saves: Record<string, { prepare?: (m: Member) => Promise<string>; save: (m: Member, prepared?: string) => ReturnType<Member['client']['post']> }> = {
    'a face photo': {
      save: (m) => m.client.post('/api/faceImages', { personId: m.personId, name: 'Front', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') }),
    },
    'a voice recording': {
      save: (m) => m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Voice', audioData: dataUrl(fixtures.webmTone(6), 'audio/webm') }),
    },
    'a face video sent inline': {
      save: (m) => m.client.post('/api/faceVideos', { personId: m.personId, name: 'Clip', expressionType: 'neutral', videoData: dataUrl(fixtures.mp4(), 'video/mp4') }),
    },
    'a streamed upload (POST /api/upload/video)': { save: (m) => uploadVideo(m) },
    'a streamed upload claimed as a face video': {
      prepare: async (m) => {
        const uploaded = await uploadVideo(m);
        expect(uploaded.statusCode, uploaded.body).toBe(201);
        return json<{ videoUrl: string }>(uploaded).videoUrl;
      },
      save: (m, videoUrl) => m.client.post('/api/faceVideos', { personId: m.personId, name: 'Clip', expressionType: 'neutral', videoUrl }),
    },
  };

  for (const [kind, { prepare, save }] of Object.entries(saves)) {
    it(`${kind}: saved and then deleted with the person, or 404, never a 500 or a file left (${TRIES} races)`, async () => {
      // How long one save takes here, so the deletes can be spread over its whole length.
      const warmUp = await memberWithPerson(t);
      const prepared = await prepare?.(warmUp);
      const started = Date.now();
      const alone = await save(warmUp, prepared);
      expect(alone.statusCode, alone.body).toBe(201);
      const span = Date.now() - started;

      const outcomes: number[] = [];
      for (let i = 0; i < TRIES; i++) {
        const m = await memberWithPerson(t);
        const ready = await prepare?.(m);
        const [saved, deleted] = await Promise.all([
          save(m, ready),
          sleep((span * i) / (TRIES - 1)).then(() => m.client.delete(`/api/people/${m.personId}`)),
        ]);
        expect(deleted.statusCode, deleted.body).toBe(204);
        expect([201, 404], `try ${i}: ${saved.statusCode} ${saved.body}`).toContain(saved.statusCode);
        if (saved.statusCode === 404) expect(json(saved)).toEqual({ message: MEDIA_MESSAGES.personNotFound });
        outcomes.push(saved.statusCode);

        for (const table of [faceImages, faceVideos, voiceRecordings, pendingUploads]) {
          expect(await t.database.db.select().from(table).where(eq(table.personId, m.personId)), `try ${i}`).toEqual([]);
        }
        expect(userFiles(m.userId), `try ${i}: ${saved.statusCode}`).toEqual([]);
      }
      expect(tmpFiles()).toEqual([]);
      // Both orders happened: some saves came first, some found the person gone.
      expect(outcomes, outcomes.join(' ')).toContain(404);
    });
  }
});
