// A person deleted while one of their uploads is being saved (issue 16, item 6): every kind of media
// either is saved before the delete (and goes with the person) or answers 404 'Person not found'; never
// a 500, and no row or file is left behind. A personalised video or a voice-only upload saved first stays
// (its person becomes null), with its uploaded video; one that found the person gone leaves nothing.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { faceImages, faceVideos, pendingUploads, processedVideos, videoTemplates, voiceRecordings } from '../../db/schema';
import type { MediaKind } from '../../storage/storage';
import { testDatabases } from '../../testing/databases';
import { dataUrl, filesUnder, fixtures, multipart } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';

const databases = await testDatabases();
const TRIES = 8;

describe.each(databases)('deleting a person while their media is saved, on $name', (testDatabase) => {
  let t: TestApp;
  let templateId: number;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    await t.client().register(); // the first account is the admin
    // A video that changes the face only needs no template file until it renders (no worker runs here).
    const [template] = await t.database.db.insert(videoTemplates).values({ title: 'Counting', description: 'Count', duration: 3 }).returning();
    templateId = template!.id;
  });
  afterAll(() => t?.close());

  const userFiles = (userId: number) => filesUnder(t.storage.root).filter((file) => file.split(path.sep)[1] === String(userId));
  const tmpFiles = () => filesUnder(path.join(t.dataDir, 'tmp'));
  /** The files of the user's saved videos (their uploaded source), which stay when the person goes. */
  const videoFiles = async (userId: number) => {
    const rows = await t.database.db.select().from(processedVideos).where(eq(processedVideos.userId, userId));
    return new Set(rows.flatMap((row) => [row.sourceUrl, row.outputUrl, row.thumbnailUrl]).filter((url) => url !== null).map((url) => path.basename(url)));
  };

  /** A face photo or a recording of the member's person, written straight to the database with its file (no analysis needed). */
  const store = async (m: Member, kind: MediaKind, bytes: Buffer, ext: string) => {
    const temp = await t.storage.tempPath();
    await writeFile(temp, bytes);
    return (await t.storage.moveIn(temp, kind, m.userId, ext)).url;
  };
  const withFace = async (m: Member) => {
    const imageUrl = await store(m, 'face-images', fixtures.jpeg(), 'jpg');
    await t.database.db.insert(faceImages).values({ userId: m.userId, personId: m.personId, imageUrl, name: 'Front', isDefault: true, mlProcessed: true });
    return undefined;
  };
  const withVoice = async (m: Member) => {
    const audioUrl = await store(m, 'voice-recordings', fixtures.webmTone(6), 'weba');
    await t.database.db.insert(voiceRecordings).values({ userId: m.userId, personId: m.personId, audioUrl, name: 'Voice', isDefault: true, duration: 6 });
    return undefined;
  };

  const uploadVideo = (m: Member) => {
    const body = multipart([
      { name: 'video', filename: 'face.mp4', type: 'video/mp4', content: fixtures.mp4() },
      { name: 'personId', value: String(m.personId) },
    ]);
    return m.client.request('POST', '/api/upload/video', body.payload, body.headers);
  };

  /** Each kind of save, given a member whose person exists; `prepare` runs before the race. */
  const saves: Record<
    string,
    {
      prepare?: (m: Member) => Promise<string | undefined>;
      save: (m: Member, prepared?: string) => ReturnType<Member['client']['post']>;
      /** The save writes a processed video, which outlives the person. */
      video?: boolean;
      /** How long before the save the first delete starts, as a fraction of the save's length (0: with it). */
      lead?: number;
    }
  > = {
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
    'a personalised video (POST /api/processedVideos)': {
      prepare: withFace,
      video: true,
      // A few queries long: some deletes must go first to land before its insert at all.
      lead: 0.5,
      save: (m) => m.client.post('/api/processedVideos', { templateId, personId: m.personId, title: 'Our video', useFaceSwap: true, useVoiceSwap: false }),
    },
    'a voice-only upload (POST /api/upload/voice-only-video)': {
      prepare: withVoice,
      video: true,
      save: (m) => {
        const body = multipart([
          { name: 'title', value: 'Our own video' },
          { name: 'personId', value: String(m.personId) },
          { name: 'video', filename: 'own.mp4', type: 'video/mp4', content: fixtures.avMp4() },
        ]);
        return m.client.request('POST', '/api/upload/voice-only-video', body.payload, body.headers);
      },
    },
  };

  for (const [kind, { prepare, save, video, lead = 0 }] of Object.entries(saves)) {
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
        // When the delete starts, relative to the save: from `lead` of the save's length before it to its end.
        const at = span * ((i / (TRIES - 1)) * (1 + lead) - lead);
        const [saved, deleted] = await Promise.all([
          sleep(Math.max(0, -at)).then(() => save(m, ready)),
          sleep(Math.max(0, at)).then(() => m.client.delete(`/api/people/${m.personId}`)),
        ]);
        expect(deleted.statusCode, deleted.body).toBe(204);
        expect([201, 404], `try ${i}: ${saved.statusCode} ${saved.body}`).toContain(saved.statusCode);
        if (saved.statusCode === 404) expect(json(saved)).toEqual({ message: MEDIA_MESSAGES.personNotFound });
        outcomes.push(saved.statusCode);

        for (const table of [faceImages, faceVideos, voiceRecordings, pendingUploads, processedVideos]) {
          expect(await t.database.db.select().from(table).where(eq(table.personId, m.personId)), `try ${i}`).toEqual([]);
        }
        // A video saved first stays, without its person; one refused left no row.
        const videos = await t.database.db.select().from(processedVideos).where(eq(processedVideos.userId, m.userId));
        expect(videos, `try ${i}`).toHaveLength(saved.statusCode === 201 && video ? 1 : 0);
        const kept = await videoFiles(m.userId);
        expect(userFiles(m.userId).filter((file) => !kept.has(path.basename(file))), `try ${i}: ${saved.statusCode}`).toEqual([]);
      }
      expect(tmpFiles()).toEqual([]);
      // Both orders happened: some saves came first, some found the person gone.
      expect(outcomes, outcomes.join(' ')).toContain(404);
    });
  }
});
