// 'Delete my account' through the real routes (issue 17): every row and every file of the account goes
// (the media folder listed before and after), its queued jobs are cancelled, its sessions end; the
// password, who may delete whom, the last admin; and an account deleted while one of its videos renders
// leaves no file and no job behind.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser, AuditEntry, ProcessedVideo } from '../../../shared/api-types';
import { PRIVACY_MESSAGES } from '../../../shared/privacy';
import { MESSAGES } from '../../../shared/validation';
import {
  auditLog,
  dataExports,
  faceImages,
  faceVideos,
  loginThrottle,
  pendingUploads,
  people,
  processedVideoPeople,
  processedVideos,
  purchases,
  sessions,
  users,
  videoTemplates,
  voiceRecordings,
} from '../../db/schema';
import { ffmpegBinary, runProcess } from '../../media/ffmpeg';
import type { MediaKind } from '../../storage/storage';
import { testDatabases } from '../../testing/databases';
import { PORTRAIT, dataUrl, filesUnder, fixtures, multipart } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, type TestClient, createTestApp, json } from '../../testing/test-app';
import { until } from '../../testing/wait';

const databases = await testDatabases();
const PASSWORD = 'correct horse battery';
/** A real photo of someone else than the template's actor (face-api's demo folder, tests only). */
const PERSON_PHOTO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', 'sample5.jpg');

const deleteAccount = (client: TestClient, userId: number, body?: unknown) => client.request('DELETE', `/api/users/${userId}`, body);

/** Moves bytes into storage as a file of `kind` owned by `ownerId`. */
async function store(t: TestApp, bytes: Buffer, kind: MediaKind, ownerId: number, ext: string) {
  const temp = await t.storage.tempPath();
  await writeFile(temp, bytes);
  return t.storage.moveIn(temp, kind, ownerId, ext);
}

async function created(response: Awaited<ReturnType<TestClient['request']>>, what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).toBe(201);
  return json<{ id: number } & Record<string, unknown>>(response);
}

/** How many jobs of `queue` for `field` = `id` still wait or run. */
async function liveJobs(t: TestApp, queue: string, field: string, id: number): Promise<number> {
  const result = (await t.database.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = ${queue} and state in ('created', 'retry', 'active') and data->>${field} = ${String(id)}`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
}

/** The media folder's files, relative to it (`<kind>/<owner>/…`), and the temporary folder's. */
const mediaFiles = (t: TestApp) => filesUnder(t.storage.root);
const tempFiles = (t: TestApp) => filesUnder(path.join(t.dataDir, 'tmp'));
/** Whether a listed file is one of the account's (every kind but templates is owned by a user). */
const isAccountFile = (file: string, userId: number) => {
  const [kind, owner] = file.split(path.sep);
  return kind !== 'templates' && owner === String(userId);
};
const relative = (t: TestApp, url: string) => path.relative(t.storage.root, t.storage.fromUrl(url)!.path);

describe.each(databases)('deleting an account on $name', (testDatabase) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestClient['register']>> & { client: TestClient };
  let templateId: number;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    const client = t.client();
    admin = { ...(await client.register({ password: PASSWORD })), client }; // the first account is the admin
    const [template] = await t.database.db.insert(videoTemplates).values({ title: 'Counting', description: 'Count', duration: 3 }).returning();
    templateId = template!.id;
  }, 60_000);
  afterAll(() => t?.close());

  /** A parent with one of everything: a person, a face photo, a face clip, a voice recording, an upload, a saved video, a purchase, an export being made. */
  async function parentWithEverything() {
    const m = await memberWithPerson(t, 'premium');
    const { personId, userId, client } = m;
    const face = await created(await client.post('/api/faceImages', { personId, name: 'Front', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') }), 'face image');
    const clip = await created(await client.post('/api/faceVideos', { personId, name: 'Clip', videoData: dataUrl(fixtures.faceClip(4), 'video/mp4') }), 'face video');
    const voice = await created(
      await client.post('/api/voiceRecordings', { personId, name: 'Hello', audioData: dataUrl(fixtures.webmTone(6), 'audio/webm;codecs=opus') }),
      'voice recording',
    );
    const form = multipart([
      { name: 'personId', value: String(personId) },
      { name: 'video', filename: 'clip.mp4', type: 'video/mp4', content: fixtures.faceClip(4) },
    ]);
    const upload = await created(await client.request('POST', '/api/upload/video', form.payload, form.headers), 'upload');
    // A saved video: a completed row with real small files (a render is tried below, on its own).
    const output = await store(t, fixtures.mp4(), 'processed-videos', userId, 'mp4');
    const thumbnail = await store(t, fixtures.smallJpeg(), 'processed-videos', userId, 'jpg');
    const { db } = t.database;
    const [video] = await db
      .insert(processedVideos)
      .values({
        userId,
        personId,
        templateId,
        faceImageId: face.id,
        title: 'Our video',
        status: 'completed',
        videoUrl: output.url,
        outputUrl: output.url,
        thumbnailUrl: thumbnail.url,
        completedAt: new Date(),
      })
      .returning();
    await db.insert(processedVideoPeople).values({ processedVideoId: video!.id, personId, faceImageId: face.id });
    await db.insert(purchases).values({ userId, templateId, amountCents: 299, status: 'completed' });
    const zip = await store(t, Buffer.from('PK zip'), 'exports', userId, 'zip');
    const [dataExport] = await db
      .insert(dataExports)
      .values({ userId, status: 'processing', progress: 50, fileUrl: zip.url, expiresAt: new Date(Date.now() + 86_400_000) })
      .returning();
    await t.queue.send('data-export', { exportId: dataExport!.id });
    const urls = [face.imageUrl, clip.videoUrl, voice.audioUrl, upload.videoUrl, output.url, thumbnail.url, zip.url] as string[];
    return { ...m, faceVideoId: clip.id, voiceRecordingId: voice.id, videoId: video!.id, exportId: dataExport!.id, urls };
  }

  /** Every row any table holds for the account. */
  async function rowsOf(userId: number, username: string, videoId: number) {
    const { db } = t.database;
    const byUser = [sessions, people, faceImages, faceVideos, voiceRecordings, pendingUploads, processedVideos, purchases, auditLog, dataExports] as const;
    const found: unknown[] = [];
    for (const table of byUser) found.push(...(await db.select().from(table).where(eq(table.userId, userId))));
    found.push(...(await db.select().from(users).where(eq(users.id, userId))));
    found.push(...(await db.select().from(people).where(eq(people.consentGivenBy, userId))));
    found.push(...(await db.select().from(processedVideoPeople).where(eq(processedVideoPeople.processedVideoId, videoId))));
    const throttle = await db.select().from(loginThrottle);
    found.push(...throttle.filter((row) => row.key.includes(username.toLowerCase()) || row.key.startsWith(`device:${userId}:`)));
    return found;
  }

  it("deletes every row and every file of the account and its queued jobs, signs it out everywhere, and leaves another family's alone", async () => {
    const parent = await parentWithEverything();
    const other = await parentWithEverything();
    const { username } = json<{ username: string }>(await parent.client.get('/api/me'));
    // Failed sign-ins counted against its name (from elsewhere) and its known device (its own browser).
    expect((await t.client().post('/api/login', { username, password: 'not it' })).statusCode).toBe(401);
    expect((await parent.client.post('/api/login', { username, password: 'not it' })).statusCode).toBe(401);
    const elsewhere = t.client();
    expect((await elsewhere.post('/api/login', { username, password: PASSWORD })).statusCode).toBe(200);

    const before = mediaFiles(t);
    const accountFiles = before.filter((file) => isAccountFile(file, parent.userId));
    // Its seven files, each where its URL says (the avatar, when the person has one, is among the face photos).
    expect(parent.urls.map((url) => relative(t, url)).every((file) => accountFiles.includes(file))).toBe(true);
    expect(accountFiles.length).toBeGreaterThanOrEqual(7);
    expect((await rowsOf(parent.userId, username, parent.videoId)).length).toBeGreaterThan(10);
    // Its clip, recording and export wait for their jobs (no workers run in this suite).
    expect(await liveJobs(t, 'face-extraction', 'faceVideoId', parent.faceVideoId)).toBe(1);
    expect(await liveJobs(t, 'voice-analysis', 'voiceRecordingId', parent.voiceRecordingId)).toBe(1);
    expect(await liveJobs(t, 'data-export', 'exportId', parent.exportId)).toBe(1);

    const response = await deleteAccount(parent.client, parent.userId, { password: PASSWORD });
    expect(response.statusCode, response.body).toBe(204);
    expect(parent.client.cookie('familystar.sid')).toBeUndefined();

    const after = mediaFiles(t);
    expect(after.filter((file) => isAccountFile(file, parent.userId))).toEqual([]);
    expect(after).toEqual(before.filter((file) => !isAccountFile(file, parent.userId)));
    for (const url of other.urls) expect(after).toContain(relative(t, url));
    expect(tempFiles(t)).toEqual([]);
    expect(await rowsOf(parent.userId, username, parent.videoId)).toEqual([]);
    expect(await liveJobs(t, 'face-extraction', 'faceVideoId', parent.faceVideoId)).toBe(0);
    expect(await liveJobs(t, 'voice-analysis', 'voiceRecordingId', parent.voiceRecordingId)).toBe(0);
    expect(await liveJobs(t, 'data-export', 'exportId', parent.exportId)).toBe(0);
    // The other family's rows and jobs are untouched.
    expect(json<unknown[]>(await other.client.get(`/api/people/${other.personId}/faceImages`))).toHaveLength(1);
    expect(await liveJobs(t, 'face-extraction', 'faceVideoId', other.faceVideoId)).toBe(1);
    expect((await other.client.get(`/api/processedVideos/${other.videoId}`)).statusCode).toBe(200);

    // Signed out here and everywhere; the name and password sign in to nothing.
    expect((await parent.client.get('/api/me')).statusCode).toBe(401);
    expect((await elsewhere.get('/api/me')).statusCode).toBe(401);
    const again = await t.client().post('/api/login', { username, password: PASSWORD });
    expect([again.statusCode, json(again).message]).toEqual([401, MESSAGES.invalidCredentials]);
  }, 120_000);

  it('asks the account for its password (missing 400, wrong 403, counted as sign-ins); nobody else but an admin may delete it', async () => {
    const m = await memberWithPerson(t);
    const stranger = await memberWithPerson(t);
    const answer = async (client: TestClient, userId: number, body?: unknown) => {
      const response = await deleteAccount(client, userId, body);
      return [response.statusCode, json(response).message];
    };
    expect(await answer(m.client, m.userId)).toEqual([400, PRIVACY_MESSAGES.passwordRequired]);
    expect(await answer(m.client, m.userId, { password: '' })).toEqual([400, PRIVACY_MESSAGES.passwordRequired]);
    expect(await answer(m.client, m.userId, { password: 'not my password' })).toEqual([403, PRIVACY_MESSAGES.wrongPassword]);
    expect((await answer(m.client, m.userId, { password: 42 }))[0]).toBe(400);
    // Another parent, even with the right password; a visitor; ids that exist or not.
    expect(await answer(stranger.client, m.userId, { password: PASSWORD })).toEqual([403, MESSAGES.forbidden]);
    expect(await answer(stranger.client, 999_999, { password: PASSWORD })).toEqual([403, MESSAGES.forbidden]);
    expect((await deleteAccount(t.client(), m.userId, { password: PASSWORD })).statusCode).toBe(401);
    expect(await answer(admin.client, 999_999)).toEqual([404, 'User not found']);
    expect((await m.client.get('/api/me')).statusCode).toBe(200);

    // Guessing stops where a sign-in's would: 5 wrong passwords from one address, then 429 even for the right one.
    for (let i = 0; i < 4; i++) expect((await deleteAccount(m.client, m.userId, { password: `guess ${i}` })).statusCode).toBe(403);
    const throttled = await deleteAccount(m.client, m.userId, { password: PASSWORD });
    expect(throttled.statusCode, throttled.body).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect((await m.client.get('/api/me')).statusCode).toBe(200);

    // The right password from another browser deletes it.
    const elsewhere = t.client();
    const { username } = json<{ username: string }>(await m.client.get('/api/me'));
    expect((await elsewhere.post('/api/login', { username, password: PASSWORD })).statusCode).toBe(200);
    expect((await deleteAccount(elsewhere, m.userId, { password: PASSWORD })).statusCode).toBe(204);
    expect((await m.client.get('/api/me')).statusCode).toBe(401);
  }, 60_000);

  it("lets an admin delete another account without a password, written in the admin's audit log", async () => {
    const parent = await parentWithEverything();
    const { username, email } = json<{ username: string; email: string }>(await parent.client.get('/api/me'));
    const listed = () => admin.client.get('/api/admin/users').then((response) => json<AdminUser[]>(response).map((user) => user.id));
    expect(await listed()).toContain(parent.userId);

    expect((await deleteAccount(admin.client, parent.userId)).statusCode).toBe(204);
    expect(await listed()).not.toContain(parent.userId);
    expect((await admin.client.get('/api/me')).statusCode).toBe(200);
    expect((await parent.client.get('/api/me')).statusCode).toBe(401);
    expect(mediaFiles(t).filter((file) => isAccountFile(file, parent.userId))).toEqual([]);
    expect(await rowsOf(parent.userId, username, parent.videoId)).toEqual([]);
    expect(await liveJobs(t, 'face-extraction', 'faceVideoId', parent.faceVideoId)).toBe(0);

    const audit = json<AuditEntry[]>(await admin.client.get(`/api/users/${admin.user.id}/audit`));
    expect(audit[0]).toMatchObject({ action: 'account.deleted', detail: `Deleted the account #${parent.userId}`, personId: null });
    const written = JSON.stringify(audit);
    expect(written).not.toContain(username);
    expect(written).not.toContain(email);
    // Once gone, it is gone: a second delete finds nothing.
    expect((await deleteAccount(admin.client, parent.userId)).statusCode).toBe(404);
  }, 120_000);

  it('refuses to delete the last admin (409); of two admins deleting themselves at once, one is refused', async () => {
    expect(await deleteAccount(admin.client, admin.user.id, { password: PASSWORD }).then((r) => [r.statusCode, json(r).message])).toEqual([
      409,
      PRIVACY_MESSAGES.lastAdmin,
    ]);
    expect((await admin.client.get('/api/me')).statusCode).toBe(200);

    // An admin who is not the last may delete themself (with their password, like anyone).
    const second = t.client();
    const { user } = await second.register({ password: PASSWORD });
    expect((await admin.client.patch(`/api/admin/users/${user.id}/role`, { role: 'admin' })).statusCode).toBe(200);
    expect((await deleteAccount(second, user.id)).statusCode).toBe(400);
    const third = t.client();
    const { user: thirdUser } = await third.register({ password: PASSWORD });
    expect((await admin.client.patch(`/api/admin/users/${thirdUser.id}/role`, { role: 'admin' })).statusCode).toBe(200);
    expect((await deleteAccount(third, thirdUser.id, { password: PASSWORD })).statusCode).toBe(204);

    // Two admins left, both deleting themselves at once: one goes, the other is the last and stays.
    const answers = await Promise.all([
      deleteAccount(admin.client, admin.user.id, { password: PASSWORD }),
      deleteAccount(second, user.id, { password: PASSWORD }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([204, 409]);
    const admins = await t.database.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
    const survivor = admins[0]!.id === admin.user.id ? admin.client : second;
    expect(json<{ role: string }>(await survivor.get('/api/me')).role).toBe('admin');
  }, 60_000);
});

describe.each(databases)('deleting an account while one of its videos renders on $name', (testDatabase) => {
  let t: TestApp;
  let scratch: string;
  let templateId: number;
  beforeAll(async () => {
    t = await createTestApp(testDatabase, { workers: true });
    await t.client().register(); // the first account is the admin
    scratch = await mkdtemp(path.join(tmpdir(), 'familystar-delete-account-'));
    // A 6 s template: the portrait as the actor, zooming slowly, with a tone for sound.
    const file = path.join(scratch, 'template.mp4');
    await runProcess(ffmpegBinary(), [
      '-v', 'error', '-y', '-loop', '1', '-i', PORTRAIT, '-f', 'lavfi', '-i', 'sine=frequency=330',
      '-vf', "scale=720:720,zoompan=z='1.3+0.05*sin(on/10)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=60:s=640x360:fps=10",
      '-t', '6', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', file,
    ], { timeout: 60_000 });
    const [row] = await t.database.db.insert(videoTemplates).values({ title: 'Counting', description: 'Count', duration: 6 }).returning();
    const stored = await t.storage.moveIn(file, 'templates', row!.id, 'mp4');
    await t.database.db.update(videoTemplates).set({ videoUrl: stored.url }).where(eq(videoTemplates.id, row!.id));
    templateId = row!.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('cancels the render, and no file and no job of it are left', async () => {
    const m: Member = await memberWithPerson(t, 'family');
    const face = await m.client.post('/api/faceImages', { personId: m.personId, name: 'Photo', imageData: dataUrl(readFileSync(PERSON_PHOTO), 'image/jpeg') });
    expect(face.statusCode, face.body).toBe(201);
    const response = await m.client.post('/api/processedVideos', { templateId, title: 'Gone with the account', personId: m.personId, useFaceSwap: true, useVoiceSwap: false });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = json<ProcessedVideo>(response);
    const video = () => m.client.get(`/api/processedVideos/${id}`).then((r) => json<ProcessedVideo>(r));
    const rendering = await until(video, (v) => v.status !== 'pending' && (v.status !== 'processing' || v.faceProgress > 0), 120_000, 100);
    expect(rendering).toMatchObject({ status: 'processing' });
    expect(rendering.faceProgress).toBeLessThan(100);
    expect(await liveJobs(t, 'render', 'processedVideoId', id)).toBe(1);

    expect((await deleteAccount(m.client, m.userId, { password: PASSWORD })).statusCode).toBe(204);
    // The render stops (or finishes into nothing); then neither a file nor a job of it is left.
    await until(() => t.queue.stats().then((stats) => stats.queues.find((queue) => queue.name === 'render')!.active), (active) => active === 0, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(mediaFiles(t).filter((file) => isAccountFile(file, m.userId))).toEqual([]);
    expect(tempFiles(t), 'temporary files').toEqual([]);
    expect(await liveJobs(t, 'render', 'processedVideoId', id)).toBe(0);
    // Stopped, not left to finish: its job was cancelled.
    const jobs = (await t.database.db.execute(
      sql`select state from pgboss.job where name = 'render' and data->>'processedVideoId' = ${String(id)}`,
    )) as unknown as { rows: { state: string }[] };
    expect(jobs.rows.map((job) => job.state)).toEqual(['cancelled']);
    expect(await t.database.db.select().from(processedVideos).where(inArray(processedVideos.userId, [m.userId]))).toEqual([]);
  }, 300_000);
});
