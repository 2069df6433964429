// 'Download my data' (issue 17) end to end, on PGlite and PostgreSQL when one answers: the real routes
// queue the export, the workers build the zip, and a link made for it downloads without the cookie. The
// zip is opened and read back: its list of files, each media file byte for byte against the stored one,
// the README, the labelled fingerprints, and no password hash anywhere.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import type { AuditEntry, DataExport, FaceImage, VoiceRecording } from '../../../shared/api-types';
import { EXPORT_LIFETIME_HOURS, PRIVACY_MESSAGES } from '../../../shared/privacy';
import type { MediaLink } from '../../../shared/video-rules';
import { dataExports, faceVideos, processedVideos, users, voiceRecordings } from '../../db/schema';
import { FACE_FINGERPRINT_LABEL, VOICE_FINGERPRINT_LABEL, dataExportJob, sweepExpiredExports } from '../../jobs/data-export';
import type { JobContext } from '../../jobs/queue';
import type { JobDeps } from '../../jobs/registry';
import type { MediaKind, Storage } from '../../storage/storage';
import { testDatabases } from '../../testing/databases';
import { dataUrl, filesUnder, fixtures } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';
import { until } from '../../testing/wait';

const databases = await testDatabases();
/** A real photo of a face, shipped in face-api's demo folder (tests only). */
const PHOTO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', 'sample2.jpg');
const HOUR_MS = 60 * 60 * 1000;

interface ZipEntry {
  data: Buffer;
  /** 0 stored, 8 deflated. */
  compressionMethod: number;
}

async function readZip(bytes: Buffer): Promise<Map<string, ZipEntry>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const entries = new Map<string, ZipEntry>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    entries.set(entry.fileName, { data: Buffer.concat(chunks), compressionMethod: entry.compressionMethod });
  }
  return entries;
}

describe.each(databases)("'Download my data' on $name", (testDatabase) => {
  let t: TestApp;
  let admin: ReturnType<TestApp['client']>;
  beforeAll(async () => {
    t = await createTestApp(testDatabase, { workers: true });
    admin = t.client();
    await admin.register(); // the first account is the admin
  });
  afterAll(() => t?.close());

  const db = () => t.database.db;
  const jobDeps = (storage: Storage = t.storage): JobDeps => ({ db: db(), storage, queue: t.queue, pipeline: t.pipeline, log: t.app.log });
  const exportFiles = (userId: number) => filesUnder(path.join(t.storage.root, 'exports', String(userId)));
  const tmpFiles = () => filesUnder(path.join(t.dataDir, 'tmp'));
  const storedPath = (url: string | null) => t.storage.fromUrl(url)!.path;

  async function store(bytes: Buffer, kind: MediaKind, ownerId: number, ext: string) {
    const temp = await t.storage.tempPath();
    await writeFile(temp, bytes);
    return t.storage.moveIn(temp, kind, ownerId, ext);
  }

  const latest = async (m: Member) => json<DataExport | null>(await m.client.get(`/api/users/${m.userId}/exports/latest`));
  const requestExport = async (m: Member) => {
    const response = await m.client.post(`/api/users/${m.userId}/exports`);
    expect(response.statusCode, response.body).toBe(202);
    return json<DataExport>(response);
  };
  const finished = (m: Member) => until(() => latest(m), (row) => row?.status === 'completed' || row?.status === 'failed', 60_000, 100);
  const linkFor = async (m: Member, exportId: number) => {
    const response = await m.client.post(`/api/users/${m.userId}/exports/${exportId}/link`);
    expect(response.statusCode, response.body).toBe(200);
    return json<MediaLink>(response);
  };
  /** A job context as the workers give it, for running the job directly. */
  const context = (overrides: Partial<JobContext> = {}): JobContext => ({
    jobId: 'direct',
    queue: 'data-export',
    attempt: 0,
    lastAttempt: false,
    signal: new AbortController().signal,
    ...overrides,
  });
  /** An export row of the member's made directly (no job), e.g. one still being prepared. */
  const exportRow = async (m: Member, fields: Partial<typeof dataExports.$inferInsert> = {}) => {
    const [row] = await db()
      .insert(dataExports)
      .values({ userId: m.userId, expiresAt: new Date(Date.now() + EXPORT_LIFETIME_HOURS * HOUR_MS), ...fields })
      .returning();
    return row!;
  };

  it('zips the account: rows as JSON, labelled fingerprints, every media file as stored, a README; the link works without the cookie, for nobody else', async () => {
    const m = await memberWithPerson(t);
    const photo = await m.client.post('/api/faceImages', { personId: m.personId, name: 'Front porch', imageData: dataUrl(readFileSync(PHOTO), 'image/jpeg') });
    expect(photo.statusCode, photo.body).toBe(201);
    const face = json<FaceImage>(photo);
    const recorded = await m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Bedtime story', audioData: dataUrl(fixtures.webmTone(6), 'audio/webm;codecs=opus') });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const voice = json<VoiceRecording>(recorded);
    // The voice's fingerprint is made by its analysis job.
    await until(
      () => db().select().from(voiceRecordings).where(eq(voiceRecordings.id, voice.id)),
      ([row]) => row!.mlProcessed || row!.analysisError !== null,
      60_000,
      100,
    );
    // A processed clip and a voice-only video (output, thumbnail, the parent's own upload): rows with real
    // small files, as extraction and rendering leave them (running them would take minutes and prove nothing here).
    const clipFile = await store(fixtures.mp4(), 'face-videos', m.userId, 'mp4');
    const [clip] = await db()
      .insert(faceVideos)
      .values({ userId: m.userId, personId: m.personId, videoUrl: clipFile.url, name: 'Garden clip', duration: 2, processingStatus: 'completed', isProcessed: true, processedAt: new Date() })
      .returning();
    const output = await store(fixtures.vp8Webm(), 'processed-videos', m.userId, 'webm');
    const thumbnail = await store(fixtures.smallJpeg(), 'processed-videos', m.userId, 'jpg');
    const source = await store(fixtures.avMp4(), 'processed-videos', m.userId, 'mp4');
    const [video] = await db()
      .insert(processedVideos)
      .values({
        userId: m.userId,
        personId: m.personId,
        title: 'Grandma Reads!',
        voiceOnly: true,
        status: 'completed',
        outputUrl: output.url,
        videoUrl: output.url,
        thumbnailUrl: thumbnail.url,
        sourceUrl: source.url,
        completedAt: new Date(),
      })
      .returning();

    const requested = await requestExport(m);
    expect(requested).toMatchObject({ status: 'pending', progress: 0, bytes: null, error: null, completedAt: null });
    const done = await finished(m);
    expect(done).toMatchObject({ id: requested.id, status: 'completed', progress: 100, error: null });
    const completedAt = new Date(done!.completedAt!).getTime();
    expect(new Date(done!.expiresAt).getTime()).toBe(completedAt + EXPORT_LIFETIME_HOURS * HOUR_MS);
    expect(tmpFiles()).toEqual([]);

    const link = await linkFor(m, done!.id);
    expect(link.url).toMatch(new RegExp(`^/api/media/exports/${m.userId}/[0-9a-f-]{36}\\.zip\\?`));
    const lifetime = new Date(link.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(9 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60 * 1000);

    // Whoever holds the link downloads the zip, no cookie needed, under a dated name.
    const download = await t.client().get(link.url);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="familystar-data-${done!.completedAt!.slice(0, 10)}.zip"`);
    expect(download.headers['cache-control']).toBe('no-store');
    const zipBytes = download.rawPayload;
    expect(zipBytes.length).toBe(done!.bytes);
    const zip = await readZip(zipBytes);

    const slug = (id: number, name: string) => `${id}-${name}`;
    const media = {
      [`media/face-images/${slug(face.id, 'front-porch')}.jpg`]: face.imageUrl,
      [`media/voice-recordings/${slug(voice.id, 'bedtime-story')}.weba`]: voice.audioUrl,
      [`media/face-videos/${slug(clip!.id, 'garden-clip')}.mp4`]: clipFile.url,
      [`media/processed-videos/${slug(video!.id, 'grandma-reads')}.webm`]: output.url,
      [`media/processed-videos/${slug(video!.id, 'grandma-reads')}-thumbnail.jpg`]: thumbnail.url,
      [`media/processed-videos/${slug(video!.id, 'grandma-reads')}-source.mp4`]: source.url,
    };
    expect([...zip.keys()].sort()).toEqual(
      [
        'README.txt',
        'biometric/face-fingerprints.json',
        'biometric/voice-fingerprints.json',
        'data/account.json',
        'data/audit-log.json',
        'data/face-images.json',
        'data/face-videos.json',
        'data/people.json',
        'data/processed-videos.json',
        'data/purchases.json',
        'data/unsaved-uploads.json',
        'data/voice-recordings.json',
        ...Object.keys(media),
      ].sort(),
    );
    // Each media file is the stored file, byte for byte, stored as it is; the JSON is compressed.
    for (const [name, url] of Object.entries(media)) {
      expect(zip.get(name)!.data.equals(readFileSync(storedPath(url))), name).toBe(true);
      expect(zip.get(name)!.compressionMethod, name).toBe(0);
    }
    expect(zip.get('data/people.json')!.compressionMethod).toBe(8);

    const readme = zip.get('README.txt')!.data.toString('utf8');
    for (const words of ['biometric', 'password', 'hash', 'Session tokens', `${EXPORT_LIFETIME_HOURS} hours`, 'data/face-images.json', 'media/']) {
      expect(readme).toContain(words);
    }
    type Rows = Record<string, unknown>[];
    type Fingerprints = { about: string; fingerprints: Rows };
    const data = <T = Rows>(name: string): T => JSON.parse(zip.get(name)!.data.toString('utf8')) as T;
    expect(data<Record<string, unknown>>('data/account.json')).toMatchObject({ id: m.userId });
    expect(data<Record<string, unknown>>('data/account.json')).not.toHaveProperty('password');
    const [person] = data('data/people.json');
    expect(person).toMatchObject({ id: m.personId, name: 'Grandma Rose', consentBasis: 'guardian', consentGivenBy: m.userId });
    expect(new Date(person!.consentGivenAt as string).toISOString()).toBe(person!.consentGivenAt);
    expect(data('data/face-images.json')).toEqual([
      expect.objectContaining({ id: face.id, file: `media/face-images/${slug(face.id, 'front-porch')}.jpg`, faceFingerprint: 'biometric/face-fingerprints.json' }),
    ]);
    expect(JSON.stringify(data('data/face-images.json'))).not.toContain('faceEmbedding');
    expect(data('data/processed-videos.json')).toEqual([
      expect.objectContaining({
        id: video!.id,
        files: {
          video: `media/processed-videos/${slug(video!.id, 'grandma-reads')}.webm`,
          thumbnail: `media/processed-videos/${slug(video!.id, 'grandma-reads')}-thumbnail.jpg`,
          source: `media/processed-videos/${slug(video!.id, 'grandma-reads')}-source.mp4`,
        },
      }),
    ]);
    expect(data('data/audit-log.json').map((entry) => entry.action)).toEqual(['consent.given', 'export.requested']);

    // The fingerprints: each labelled, naming its photo or recording, with the very numbers kept.
    const faces = data<Fingerprints>('biometric/face-fingerprints.json');
    expect(faces.about).toMatch(/^BIOMETRIC DATA/);
    expect(faces.fingerprints).toEqual([
      expect.objectContaining({ label: FACE_FINGERPRINT_LABEL, faceImageId: face.id, photo: `media/face-images/${slug(face.id, 'front-porch')}.jpg`, person: 'Grandma Rose' }),
    ]);
    expect(faces.fingerprints[0]!.fingerprint).toHaveLength(1024);
    const [voiceRow] = await db().select().from(voiceRecordings).where(eq(voiceRecordings.id, voice.id));
    expect(voiceRow!.voiceEmbedding?.length).toBeGreaterThan(0);
    const voices = data<Fingerprints>('biometric/voice-fingerprints.json');
    expect(voices.about).toMatch(/^BIOMETRIC DATA/);
    expect(voices.fingerprints).toEqual([
      expect.objectContaining({
        label: VOICE_FINGERPRINT_LABEL,
        voiceRecordingId: voice.id,
        recording: `media/voice-recordings/${slug(voice.id, 'bedtime-story')}.weba`,
        fingerprint: voiceRow!.voiceEmbedding,
      }),
    ]);

    // The password hash is nowhere in the zip, compressed or not.
    const [account] = await db().select({ password: users.password }).from(users).where(eq(users.id, m.userId));
    expect(account!.password.length).toBeGreaterThan(20);
    expect(zipBytes.includes(account!.password)).toBe(false);
    for (const [name, entry] of zip) expect(entry.data.includes(account!.password), name).toBe(false);

    // The owner's cookie reaches the zip too; nobody else's does, and a changed link is no link.
    const zipPath = link.url.slice(0, link.url.indexOf('?'));
    expect((await m.client.get(zipPath)).statusCode).toBe(200);
    const other = await memberWithPerson(t);
    expect((await other.client.get(zipPath)).statusCode).toBe(403);
    expect((await admin.get(zipPath)).statusCode).toBe(403);
    expect((await t.client().get(zipPath)).statusCode).toBe(401);
    const tampered = link.url.replace(/sig=[^&]+/, `sig=${'A'.repeat(43)}`);
    expect((await t.client().get(tampered)).statusCode).toBe(401);
    expect((await other.client.get(tampered)).statusCode).toBe(403);
    expect((await t.client().get(link.url.replace(/download=[^&]+/, 'download=other.zip'))).statusCode).toBe(401);
    // The signature of this zip opens no other file of the account.
    expect((await t.client().get(`${face.imageUrl}${link.url.slice(link.url.indexOf('?'))}`)).statusCode).toBe(401);

    // Only the account itself asks for, reads or links its exports: not another parent, not an admin.
    for (const client of [other.client, admin]) {
      expect((await client.post(`/api/users/${m.userId}/exports`)).statusCode).toBe(403);
      expect((await client.get(`/api/users/${m.userId}/exports/latest`)).statusCode).toBe(403);
      expect((await client.post(`/api/users/${m.userId}/exports/${done!.id}/link`)).statusCode).toBe(403);
    }
    expect((await t.client().post(`/api/users/${m.userId}/exports`)).statusCode).toBe(401);
    // Another parent's own path does not reach this export either.
    expect((await other.client.post(`/api/users/${other.userId}/exports/${done!.id}/link`)).statusCode).toBe(404);

    const audit = json<AuditEntry[]>(await m.client.get(`/api/users/${m.userId}/audit`));
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(['export.requested', 'export.downloaded']));
    expect(audit.find((entry) => entry.action === 'export.downloaded')).toMatchObject({ actorRole: 'owner', detail: 'Download link made for your data export' });

    // A new export replaces this one: its row and its zip go.
    const oldZip = storedPath(link.url.slice(0, link.url.indexOf('?')));
    expect(exportFiles(m.userId)).toHaveLength(1);
    const again = await requestExport(m);
    expect(again.id).not.toBe(done!.id);
    expect(await db().select().from(dataExports).where(eq(dataExports.id, done!.id))).toEqual([]);
    expect(exportFiles(m.userId).map((file) => path.join(t.storage.root, 'exports', String(m.userId), file))).not.toContain(oldZip);
    expect((await t.client().get(link.url)).statusCode).toBe(404);
    expect(await finished(m)).toMatchObject({ id: again.id, status: 'completed' });
    expect(exportFiles(m.userId)).toHaveLength(1);
  }, 120_000);

  it('answers 409 while an export is being prepared, and for a link before it is ready; null before any', async () => {
    const m = await memberWithPerson(t);
    expect(await latest(m)).toBeNull();
    const running = await exportRow(m, { status: 'processing', progress: 40 });
    const refused = await m.client.post(`/api/users/${m.userId}/exports`);
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toEqual({ message: PRIVACY_MESSAGES.exportRunning });
    expect(await latest(m)).toMatchObject({ id: running.id, status: 'processing', progress: 40 });
    const early = await m.client.post(`/api/users/${m.userId}/exports/${running.id}/link`);
    expect(early.statusCode).toBe(409);
    expect(json(early)).toEqual({ message: PRIVACY_MESSAGES.exportNotReady });
    expect((await m.client.post(`/api/users/${m.userId}/exports/999999/link`)).statusCode).toBe(404);

    // A failed one is no obstacle: the next request replaces it.
    await db().update(dataExports).set({ status: 'failed', error: PRIVACY_MESSAGES.exportFailed }).where(eq(dataExports.id, running.id));
    const next = await requestExport(m);
    expect(await db().select().from(dataExports).where(eq(dataExports.userId, m.userId))).toEqual([expect.objectContaining({ id: next.id })]);
    expect(await finished(m)).toMatchObject({ id: next.id, status: 'completed' });
  }, 60_000);

  it('answers 410 once an export expired, serves its zip to nobody, and the sweep removes row and file', async () => {
    const m = await memberWithPerson(t);
    const zip = await store(Buffer.from('PK not really a zip'), 'exports', m.userId, 'zip');
    const expired = await exportRow(m, { status: 'completed', progress: 100, fileUrl: zip.url, bytes: 19, completedAt: new Date() });
    // A link made while it lived: it ends with the export, however long the link had left.
    const link = await linkFor(m, expired.id);
    expect((await t.client().get(link.url)).statusCode).toBe(200);
    expect((await m.client.get(zip.url)).statusCode).toBe(200);
    await db().update(dataExports).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(dataExports.id, expired.id));

    const gone = await m.client.post(`/api/users/${m.userId}/exports/${expired.id}/link`);
    expect(gone.statusCode).toBe(410);
    expect(json(gone)).toEqual({ message: PRIVACY_MESSAGES.exportExpired });
    expect((await t.client().get(link.url)).statusCode).toBe(410);
    expect((await m.client.get(zip.url)).statusCode).toBe(410);

    // A live one of another account stays.
    const other = await memberWithPerson(t);
    const liveZip = await store(Buffer.from('PK live'), 'exports', other.userId, 'zip');
    const live = await exportRow(other, { status: 'completed', progress: 100, fileUrl: liveZip.url, bytes: 7, completedAt: new Date() });

    expect(await sweepExpiredExports({ db: db(), storage: t.storage })).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(dataExports).where(eq(dataExports.id, expired.id))).toEqual([]);
    expect(exportFiles(m.userId)).toEqual([]);
    expect(await db().select().from(dataExports).where(eq(dataExports.id, live.id))).toHaveLength(1);
    expect(exportFiles(other.userId)).toHaveLength(1);
    expect((await m.client.get(zip.url)).statusCode).toBe(404);
  });

  it('keeps no file when the export or the account is deleted while the zip is made', async () => {
    for (const deleting of ['the export', 'the account'] as const) {
      const m = await memberWithPerson(t);
      const face = await m.client.post('/api/faceImages', { personId: m.personId, name: 'Front', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') });
      expect(face.statusCode).toBe(201);
      const row = await exportRow(m);
      // The row goes just as the finished zip is moved into storage: the last moment the job could miss it.
      const storage: Storage = {
        ...t.storage,
        moveIn: async (...args: Parameters<Storage['moveIn']>) => {
          if (deleting === 'the export') await db().delete(dataExports).where(eq(dataExports.id, row.id));
          else await db().delete(users).where(eq(users.id, m.userId));
          return t.storage.moveIn(...args);
        },
      };
      await dataExportJob(jobDeps(storage), { exportId: row.id }, context());
      expect(await db().select().from(dataExports).where(eq(dataExports.id, row.id)), deleting).toEqual([]);
      expect(exportFiles(m.userId), deleting).toEqual([]);
      expect(tmpFiles(), deleting).toEqual([]);
    }
  });

  it('starts each attempt clean: an aborted attempt leaves nothing and waits for its retry, a leftover zip goes, the last attempt fails clearly', async () => {
    const m = await memberWithPerson(t);
    const row = await exportRow(m);
    const stopped = new AbortController();
    stopped.abort(new Error('the worker is shutting down'));
    await expect(dataExportJob(jobDeps(), { exportId: row.id }, context({ signal: stopped.signal }))).rejects.toThrow();
    expect((await db().select().from(dataExports).where(eq(dataExports.id, row.id)))[0]).toMatchObject({ status: 'pending', fileUrl: null });
    expect(tmpFiles()).toEqual([]);
    expect(exportFiles(m.userId)).toEqual([]);

    // A zip an earlier attempt moved in but never recorded (its worker died) goes with the retry.
    const leftover = await store(Buffer.from('PK half'), 'exports', m.userId, 'zip');
    await dataExportJob(jobDeps(), { exportId: row.id }, context({ attempt: 1 }));
    const [done] = await db().select().from(dataExports).where(eq(dataExports.id, row.id));
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    expect(exportFiles(m.userId)).toEqual([path.relative(path.join(t.storage.root, 'exports', String(m.userId)), storedPath(done!.fileUrl))]);
    expect(exportFiles(m.userId)).not.toContain(path.relative(path.join(t.storage.root, 'exports', String(m.userId)), leftover.path));

    // The last attempt failing: the parent reads why, and may ask again.
    const last = await exportRow(await memberWithPerson(t));
    await expect(dataExportJob(jobDeps(), { exportId: last.id }, context({ lastAttempt: true, attempt: 2, signal: stopped.signal }))).rejects.toThrow();
    expect((await db().select().from(dataExports).where(eq(dataExports.id, last.id)))[0]).toMatchObject({ status: 'failed', error: PRIVACY_MESSAGES.exportFailed });
  });
});
