// Signed media links (a download, a TV) and the processing-time estimate, through the real routes. Rows are
// written straight into the database with a real file in storage, so no render has to run.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MediaLink, ProcessingEstimate } from '../../../shared/video-rules';
import { VIDEO_MESSAGES, estimatedProcessingSeconds } from '../../../shared/video-rules';
import { processedVideos, videoTemplates } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';

const [pglite] = await testDatabases();

describe('signed media links and the processing estimate', () => {
  let t: TestApp;
  let templateId: number;
  let longTemplateId: number;
  let voiceOnlyTemplateId: number;
  beforeAll(async () => {
    t = await createTestApp(pglite!);
    // The first account is the admin: take it out of the way.
    await t.client().register();
    const insert = async (fields: Partial<typeof videoTemplates.$inferInsert>) =>
      (await t.database.db.insert(videoTemplates).values({ title: 'Counting', description: 'Count', duration: 10, ...fields }).returning())[0]!.id;
    templateId = await insert({});
    longTemplateId = await insert({ title: 'Letters', duration: 20 });
    voiceOnlyTemplateId = await insert({ title: 'Colours', duration: 20, voiceOnly: true });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** A finished (or not) video of `userId` with a real file of random bytes in storage. */
  async function insertVideo(userId: number, fields: Partial<typeof processedVideos.$inferInsert> = {}) {
    const bytes = randomBytes(64 * 1024);
    const temp = await t.storage.tempPath();
    await writeFile(temp, bytes);
    const file = await t.storage.moveIn(temp, 'processed-videos', userId, 'mp4');
    const [row] = await t.database.db
      .insert(processedVideos)
      .values({ userId, templateId, title: 'My Song Time', status: 'completed', videoUrl: file.url, outputUrl: file.url, ...fields })
      .returning();
    return { id: row!.id, url: file.url, bytes };
  }

  /** A finished render that took `elapsedSeconds`, for the measurement. */
  async function insertFinishedRender(userId: number, template: number, elapsedSeconds: number, voiceOnly: boolean) {
    const completedAt = new Date();
    await t.database.db.insert(processedVideos).values({
      userId,
      templateId: template,
      title: 'Measured',
      status: 'completed',
      voiceOnly,
      startedAt: new Date(completedAt.getTime() - elapsedSeconds * 1000),
      completedAt,
    });
  }

  const estimate = async (client: ReturnType<TestApp['client']>, query: string) => {
    const response = await client.get(`/api/processedVideos/estimate?${query}`);
    return { status: response.statusCode, body: json<ProcessingEstimate & { message?: string }>(response) };
  };

  it('estimates with the formula until renders have finished, then from their measured speed', async () => {
    const m = await memberWithPerson(t);
    // The static path wins over /processedVideos/:id (which would answer 400 'Invalid id').
    expect(await estimate(m.client, `templateId=${templateId}&face=1&voice=1`)).toEqual({
      status: 200,
      body: { seconds: estimatedProcessingSeconds(10, true, true), basis: 'formula' },
    });
    expect((await estimate(m.client, `templateId=${templateId}&face=0&voice=1`)).body).toEqual({ seconds: estimatedProcessingSeconds(10, false, true), basis: 'formula' });
    // A voice-only template never swaps the face.
    expect((await estimate(m.client, `templateId=${voiceOnlyTemplateId}&face=1&voice=1`)).body).toEqual({ seconds: estimatedProcessingSeconds(20, false, true), basis: 'formula' });

    expect((await t.client().get(`/api/processedVideos/estimate?templateId=${templateId}&face=1&voice=1`)).statusCode).toBe(401);
    expect(await estimate(m.client, 'templateId=999999&face=1&voice=1')).toMatchObject({ status: 404, body: { message: VIDEO_MESSAGES.templateNotFound } });
    for (const bad of [`templateId=abc&face=1&voice=1`, `templateId=${templateId}&face=maybe&voice=1`, `templateId=${templateId}&face=1`, 'templateId=0&face=1&voice=1']) {
      expect((await estimate(m.client, bad)).status, bad).toBe(400);
    }

    // Face renders of the 10 s template took 5, 6 and 30 s (one shared the machine): the median, 0.6 s per second.
    for (const elapsed of [5, 6, 30]) await insertFinishedRender(m.userId, templateId, elapsed, false);
    // Unfinished and failed renders do not count.
    await t.database.db.insert(processedVideos).values({ userId: m.userId, templateId, title: 'Running', status: 'processing', startedAt: new Date(Date.now() - 999_000) });
    expect((await estimate(m.client, `templateId=${longTemplateId}&face=1&voice=1`)).body).toEqual({ seconds: 12, basis: 'measured' });
    // Voice-only work is not measured yet: never more than a measured render with a face (the formula says 35 s).
    expect(estimatedProcessingSeconds(20, false, true)).toBe(35);
    expect((await estimate(m.client, `templateId=${longTemplateId}&face=0&voice=1`)).body).toEqual({ seconds: 12, basis: 'measured' });
    await insertFinishedRender(m.userId, longTemplateId, 8, true);
    expect((await estimate(m.client, `templateId=${templateId}&face=0&voice=1`)).body).toEqual({ seconds: 4, basis: 'measured' });
    expect((await estimate(m.client, `templateId=${voiceOnlyTemplateId}&face=1&voice=1`)).body).toEqual({ seconds: 8, basis: 'measured' });
  });

  it('gives the owner a download link that works without the cookie, with Range and the file name', async () => {
    const m = await memberWithPerson(t);
    const video = await insertVideo(m.userId);
    const before = Date.now();
    const response = await m.client.post(`/api/processedVideos/${video.id}/link`, { purpose: 'download' });
    const after = Date.now();
    expect(response.statusCode, response.body).toBe(200);
    const link = json<MediaLink>(response);
    expect(link.url.startsWith(`${video.url}?`)).toBe(true);
    expect(new URL(link.url, 'http://x').searchParams.get('download')).toBe('my-song-time.mp4');
    // Ten minutes from when the server answered (whole seconds, rounded down), however long it took.
    expect(Date.parse(link.expiresAt) - before).toBeGreaterThan(9 * 60 * 1000);
    expect(Date.parse(link.expiresAt)).toBeLessThanOrEqual(after + 10 * 60 * 1000);

    const anonymous = t.client();
    const full = await anonymous.get(link.url);
    expect(full.statusCode).toBe(200);
    expect(full.rawPayload.equals(video.bytes)).toBe(true);
    expect(full.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-disposition': 'attachment; filename="my-song-time.mp4"',
      'cross-origin-resource-policy': 'cross-origin',
    });
    // A parent's video: never kept by the browser (or the TV's player).
    expect(full.headers['cache-control']).toBe('no-store');
    const part = await anonymous.request('GET', link.url, undefined, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${video.bytes.length}`);
    expect(part.rawPayload.equals(video.bytes.subarray(100, 200))).toBe(true);
    // The plain URL still needs the owner's cookie.
    expect((await anonymous.get(video.url)).statusCode).toBe(401);
    expect((await m.client.get(video.url)).headers['content-disposition']).toBeUndefined();
  });

  it('gives a cast link for four hours, with no download name', async () => {
    const m = await memberWithPerson(t);
    const video = await insertVideo(m.userId, { title: 'Bedtime' });
    const before = Date.now();
    const link = json<MediaLink>(await m.client.post(`/api/processedVideos/${video.id}/link`, { purpose: 'cast' }));
    const after = Date.now();
    expect(Date.parse(link.expiresAt) - before).toBeGreaterThan(4 * 60 * 60 * 1000 - 2000);
    expect(Date.parse(link.expiresAt)).toBeLessThanOrEqual(after + 4 * 60 * 60 * 1000);
    expect(new URL(link.url, 'http://x').searchParams.has('download')).toBe(false);
    const tv = await t.client().request('GET', link.url, undefined, { range: 'bytes=0-' });
    expect(tv.statusCode).toBe(206);
    expect(tv.headers['content-disposition']).toBeUndefined();
  });

  it('refuses other users’ videos (404), unfinished ones (409), bad purposes (400) and visitors (401)', async () => {
    const m = await memberWithPerson(t);
    const stranger = await memberWithPerson(t);
    const video = await insertVideo(m.userId);
    const pending = await insertVideo(m.userId, { status: 'pending', outputUrl: null, videoUrl: null });
    const noFile = await insertVideo(m.userId, { outputUrl: null });
    const link = (client: typeof m.client, id: number, body: unknown = { purpose: 'download' }) =>
      client.post(`/api/processedVideos/${id}/link`, body).then((response) => [response.statusCode, json(response).message]);

    expect(await link(stranger.client, video.id)).toEqual([404, VIDEO_MESSAGES.videoNotFound]);
    expect(await link(m.client, 999_999)).toEqual([404, VIDEO_MESSAGES.videoNotFound]);
    expect(await link(m.client, pending.id)).toEqual([409, 'This video is not ready yet.']);
    expect(await link(m.client, noFile.id)).toEqual([409, 'This video is not ready yet.']);
    expect((await link(m.client, video.id, { purpose: 'share' }))[0]).toBe(400);
    expect((await link(m.client, video.id, {}))[0]).toBe(400);
    expect((await link(t.client(), video.id))[0]).toBe(401);
  });

  it('falls back to the cookie check when the signature is tampered with or expired', async () => {
    const m = await memberWithPerson(t);
    const video = await insertVideo(m.userId);
    const other = await insertVideo(m.userId);
    const link = json<MediaLink>(await m.client.post(`/api/processedVideos/${video.id}/link`, { purpose: 'download' }));
    const query = link.url.slice(link.url.indexOf('?'));
    const anonymous = t.client();
    const tampered = [
      `${other.url}${query}`,
      link.url.replace('download=my-song-time.mp4', 'download=evil.exe'),
      link.url.replace(/expires=(\d+)/, (_, expires: string) => `expires=${Number(expires) + 3600}`),
      link.url.replace(/sig=[^&]+/, 'sig=AAAA'),
      link.url.replace(/&?download=[^&]+/, ''),
    ];
    for (const url of tampered) expect((await anonymous.get(url)).statusCode, url).toBe(401);
    // The owner's cookie still works on a tampered URL, without the signed name.
    const withCookie = await m.client.get(tampered[1]!);
    expect(withCookie.statusCode).toBe(200);
    expect(withCookie.headers['content-disposition']).toBeUndefined();

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.parse(link.expiresAt) + 1000);
      expect((await anonymous.get(link.url)).statusCode).toBe(401);
      expect((await m.client.get(link.url)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect((await anonymous.get(link.url)).statusCode).toBe(200);
  });
});
