// The voice-only processor through the real route: a parent's own clip (with sound) rendered by the real
// worker to a video whose picture is the clip's own and whose voice moved to the person's; the form's
// rules with the spec's messages; ownership (404, no hint); the monthly limit; nothing left on disk,
// after a refusal or after deleting; and the maintenance sweep keeping a waiting video's upload.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessedVideo, VoiceRecording } from '../../../shared/api-types';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { VIDEO_MESSAGES, monthlyLimitMessage } from '../../../shared/video-rules';
import { MESSAGES } from '../../../shared/validation';
import { VOICE_ONLY_MESSAGES } from '../../../shared/voice-only-rules';
import { processedVideos } from '../../db/schema';
import { maintenanceJob } from '../../jobs/maintenance';
import { ffmpegBinary, probe, runFfprobe, runProcess } from '../../media/ffmpeg';
import { speak } from '../../media/speech';
import { VOICE_CONVERSION_MESSAGES } from '../../pipeline/render/voice-conversion';
import { analyseVoice } from '../../pipeline/voice-analysis';
import { makeRealVoices, requireRealVoicePackages } from '../../testing/real-voices';
import { testDatabases } from '../../testing/databases';
import { type MultipartPart, dataUrl, filesUnder, fixtures, multipart } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';
import { until } from '../../testing/wait';

const [pglite] = await testDatabases();
/** Real talking-face clips (../shared/media): the woman's soundtrack is music only, the man's is silent. */
const SHARED_MEDIA = path.resolve(import.meta.dirname, '../../../../../shared/media');

/** Mono 16 kHz samples of a file's first audio stream. */
async function samples(file: string): Promise<Float32Array> {
  const { stdout } = await runProcess(ffmpegBinary(), ['-v', 'error', '-i', file, '-map', '0:a:0', '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'], { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
  const bytes = stdout as unknown as Buffer;
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Pearson correlation of two signals over their common length: ~1 when the sound was passed through. */
function correlation(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  for (let i = 0; i < n; i++) {
    sa += a[i]!; sb += b[i]!; saa += a[i]! * a[i]!; sbb += b[i]! * b[i]!; sab += a[i]! * b[i]!;
  }
  return (sab - (sa * sb) / n) / Math.sqrt((saa - (sa * sa) / n) * (sbb - (sb * sb) / n));
}

/** A 4 s clip with a picture and a high narrating voice: H.264 + AAC in MP4, or VP8 + Opus in WebM. */
async function makeClip(dir: string, narration: string, format: 'mp4' | 'webm'): Promise<string> {
  const output = path.join(dir, `clip.${format}`);
  const codecs = format === 'mp4' ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'] : ['-c:v', 'libvpx', '-c:a', 'libopus'];
  await runProcess(ffmpegBinary(), [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-i', narration,
    '-t', '4', '-af', 'apad', ...codecs, output,
  ], { timeout: 60_000 });
  return output;
}

/** MD5 of the first video stream's packets: equal when the picture was copied, not re-encoded. */
async function videoPacketsMd5(file: string): Promise<string> {
  const { stdout } = await runProcess(ffmpegBinary(), ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-']);
  return stdout.trim();
}

async function videoCodec(file: string): Promise<string> {
  const { stdout } = await runFfprobe(['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file], { timeoutMs: 10_000 });
  return stdout.trim();
}

describe('POST /api/upload/voice-only-video', () => {
  let t: TestApp;
  let scratch: string;
  let personVoice: string;
  let mp4Clip: Buffer;
  let webmClip: Buffer;
  beforeAll(async () => {
    t = await createTestApp(pglite!, { workers: true });
    // The first account is the admin (exempt from plan limits): take it out of the way.
    await t.client().register();
    scratch = await mkdtemp(path.join(tmpdir(), 'familystar-voice-only-'));
    const narration = path.join(scratch, 'narration.wav');
    await speak('One, two, three, four. Let us count together, one more time.', { voice: 'en-us+f3', pitch: 60, speed: 150 }, narration);
    mp4Clip = readFileSync(await makeClip(scratch, narration, 'mp4'));
    webmClip = readFileSync(await makeClip(scratch, narration, 'webm'));
    personVoice = path.join(scratch, 'person.wav');
    await speak('Once upon a time a little fox found a shiny red ball and rolled it all the way home to show her brother.', { voice: 'en-us+m3', pitch: 25, speed: 140 }, personVoice);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  async function memberWithVoice(plan: 'free' | 'family' = 'family'): Promise<Member & { voiceRecordingId: number }> {
    const m = await memberWithPerson(t, plan);
    const voice = await m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Voice', audioData: dataUrl(readFileSync(personVoice), 'audio/wav') });
    expect(voice.statusCode, voice.body).toBe(201);
    return { ...m, voiceRecordingId: json<VoiceRecording>(voice).id };
  }

  const upload = (m: Member, parts: MultipartPart[]) => {
    const body = multipart(parts);
    return m.client.request('POST', '/api/upload/voice-only-video', body.payload, body.headers);
  };
  const video = (content: Buffer | number, filename = 'holiday.mp4', type = 'video/mp4'): MultipartPart => ({ name: 'video', filename, type, content });
  const form = (m: Member, content: Buffer | number = mp4Clip, title = 'Counting with Grandpa'): MultipartPart[] => [
    { name: 'title', value: title },
    { name: 'personId', value: String(m.personId) },
    video(content),
  ];
  const userFiles = (userId: number) => filesUnder(path.join(t.storage.root, 'processed-videos')).filter((file) => file.startsWith(`${userId}/`));
  const row = async (id: number) => (await t.database.db.select().from(processedVideos).where(eq(processedVideos.id, id)))[0];

  it('renders the parent’s clip with the person’s voice, the picture kept as it was; delete removes every file', async () => {
    const m = await memberWithVoice();
    const stranger = await memberWithVoice();
    const response = await upload(m, form(m));
    expect(response.statusCode, response.body).toBe(201);
    const created = json<ProcessedVideo>(response);
    expect(created).toMatchObject({
      userId: m.userId,
      templateId: null,
      personId: m.personId,
      title: 'Counting with Grandpa',
      voiceOnly: true,
      faceImageId: null,
      voiceRecordingId: m.voiceRecordingId,
      status: 'pending',
      outputUrl: null,
    });
    // The upload is kept as the owner's media, out of everyone else's reach.
    const { sourceUrl } = (await row(created.id))!;
    expect(sourceUrl).toMatch(new RegExp(`^/api/media/processed-videos/${m.userId}/[0-9a-f-]{36}\\.mp4$`));
    expect((await stranger.client.get(sourceUrl!)).statusCode).toBe(403);
    expect((await stranger.client.get(`/api/processedVideos/${created.id}`)).statusCode).toBe(404);

    const done = await until(
      () => m.client.get(`/api/processedVideos/${created.id}`).then((res) => json<ProcessedVideo>(res)),
      (value) => value.status === 'completed' || value.status === 'failed',
      120_000,
    );
    expect(done).toMatchObject({ status: 'completed', error: null, voiceProgress: 100, faceProgress: 0, templateId: null });
    const output = t.storage.fromUrl(done.outputUrl)!.path;
    const source = t.storage.fromUrl(sourceUrl)!.path;
    expect((await m.client.get(done.thumbnailUrl!)).headers['content-type']).toBe('image/jpeg');

    // The picture is the clip's own, packet for packet; the sound is there, as long as the clip.
    const [probedOutput, probedSource] = await Promise.all([probe(output), probe(source)]);
    expect(probedOutput).toMatchObject({ hasVideo: true, hasAudio: true, width: 320, height: 240 });
    expect(await videoPacketsMd5(output)).toBe(await videoPacketsMd5(source));
    expect(Math.abs(probedOutput.duration! - probedSource.duration!)).toBeLessThan(0.1);
    // The voice: the narrator's high pitch moved to the person's low voice (within 5 %).
    const [person, narrator, result] = await Promise.all([analyseVoice(personVoice), analyseVoice(source), analyseVoice(output)]);
    expect(narrator.pitchMedianHz! / person.pitchMedianHz!).toBeGreaterThan(1.5);
    expect(Math.abs(result.pitchMedianHz! / person.pitchMedianHz! - 1)).toBeLessThan(0.05);

    // Deleting removes the row, the output, the thumbnail and the uploaded source.
    expect(userFiles(m.userId)).toHaveLength(3);
    expect((await m.client.delete(`/api/processedVideos/${created.id}`)).statusCode).toBe(204);
    expect(await row(created.id)).toBeUndefined();
    expect(userFiles(m.userId)).toEqual([]);
  }, 180_000);

  it('changes a real woman’s voice in her own clip to a real man’s recording; a clip with only music fails in words', async () => {
    requireRealVoicePackages();
    await mkdir(path.join(scratch, 'real'));
    const real = makeRealVoices(path.join(scratch, 'real'));
    const m = await memberWithPerson(t, 'family');
    const recording = await m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Dad reading', audioData: dataUrl(readFileSync(real.clean('man')), 'audio/wav') });
    expect(recording.statusCode, recording.body).toBe(201);
    // A real face talking (silent) under the woman's real phrases: what a parent's phone clip holds.
    const clip = path.join(scratch, 'woman-talking.mp4');
    await runProcess(ffmpegBinary(), [
      '-v', 'error', '-y', '-i', path.join(SHARED_MEDIA, 'talking-man.mp4'), '-i', real.clean('woman'),
      '-map', '0:v:0', '-map', '1:a:0', '-shortest', '-c:v', 'copy', '-c:a', 'aac', clip,
    ], { timeout: 60_000 });
    const finished = async (parts: MultipartPart[]) => {
      const response = await upload(m, parts);
      expect(response.statusCode, response.body).toBe(201);
      const id = json<ProcessedVideo>(response).id;
      return until(() => m.client.get(`/api/processedVideos/${id}`).then((res) => json<ProcessedVideo>(res)), (value) => value.status === 'completed' || value.status === 'failed', 180_000);
    };

    const done = await finished([{ name: 'title', value: 'Dad reads' }, { name: 'personId', value: String(m.personId) }, video(readFileSync(clip))]);
    expect(done.status, done.error ?? '').toBe('completed');
    const output = t.storage.fromUrl(done.outputUrl)!.path;
    // Not the original sound: its pitch is the man's, and the waveform no longer follows hers.
    const [man, woman, result] = await Promise.all([analyseVoice(real.clean('man')), analyseVoice(clip), analyseVoice(output)]);
    expect(woman.pitchMedianHz! / man.pitchMedianHz!).toBeGreaterThan(1.5);
    expect(Math.abs(result.pitchMedianHz! / man.pitchMedianHz! - 1)).toBeLessThan(0.08);
    expect(Math.abs(correlation(await samples(clip), await samples(output)))).toBeLessThan(0.5);

    // Her own clip's soundtrack is music only: no voice to change, so the video fails and says why.
    const music = await finished([{ name: 'title', value: 'Music only' }, { name: 'personId', value: String(m.personId) }, video(readFileSync(path.join(SHARED_MEDIA, 'talking-woman.mp4')))]);
    expect(music).toMatchObject({ status: 'failed', error: VOICE_CONVERSION_MESSAGES.noNarratorVoice, outputUrl: null });
    // The upload stays with its failed video, so it can be tried again (here, to the same end).
    const retried = await m.client.post(`/api/processedVideos/${music.id}/retry`, {});
    expect([retried.statusCode, json<ProcessedVideo>(retried).status]).toEqual([200, 'pending']);
    const again = await until(() => m.client.get(`/api/processedVideos/${music.id}`).then((res) => json<ProcessedVideo>(res)), (value) => value.status === 'failed', 180_000);
    expect(again.error).toBe(VOICE_CONVERSION_MESSAGES.noNarratorVoice);
  }, 360_000);

  it('makes a picture no browser plays in MP4 (WebM VP8) H.264, and keeps its size and length', async () => {
    const m = await memberWithVoice();
    const response = await upload(m, [{ name: 'title', value: 'Our walk' }, { name: 'personId', value: String(m.personId) }, video(webmClip, 'walk.webm', 'video/webm')]);
    expect(response.statusCode, response.body).toBe(201);
    const id = json<ProcessedVideo>(response).id;
    const done = await until(
      () => m.client.get(`/api/processedVideos/${id}`).then((res) => json<ProcessedVideo>(res)),
      (value) => value.status === 'completed' || value.status === 'failed',
      120_000,
    );
    expect(done.status, done.error ?? '').toBe('completed');
    const output = t.storage.fromUrl(done.outputUrl)!.path;
    expect(await videoCodec(output)).toBe('h264');
    const probed = await probe(output);
    expect(probed).toMatchObject({ hasVideo: true, hasAudio: true, width: 320, height: 240 });
    expect(Math.abs(probed.duration! - 4)).toBeLessThan(0.15);
    expect((await m.client.delete(`/api/processedVideos/${id}`)).statusCode).toBe(204);
    expect(userFiles(m.userId)).toEqual([]);
  }, 180_000);

  it('refuses with the spec’s messages and leaves nothing behind', async () => {
    const m = await memberWithVoice();
    const stranger = await memberWithVoice();
    const voiceless = await memberWithPerson(t, 'family');
    const title = { name: 'title', value: 'Counting with Grandpa' };
    const person = { name: 'personId', value: String(m.personId) };
    const cases: [string, Member, MultipartPart[], number, string][] = [
      ['no file', m, [title, person], 400, MEDIA_MESSAGES.noFileSelected],
      ['no person', m, [title, video(mp4Clip)], 400, VOICE_ONLY_MESSAGES.noPerson],
      ['an empty person', m, [title, { name: 'personId', value: '' }, video(mp4Clip)], 400, VOICE_ONLY_MESSAGES.noPerson],
      ['no title', m, [person, video(mp4Clip)], 400, VOICE_ONLY_MESSAGES.titleRequired],
      ['a blank title', m, form(m, mp4Clip, '   '), 400, VOICE_ONLY_MESSAGES.titleRequired],
      ['a short title', m, form(m, mp4Clip, 'ab'), 400, VIDEO_MESSAGES.titleTooShort],
      ['another user’s person', m, [title, { name: 'personId', value: String(stranger.personId) }, video(mp4Clip)], 404, MEDIA_MESSAGES.personNotFound],
      ['a person who does not exist', m, [title, { name: 'personId', value: '999999' }, video(mp4Clip)], 404, MEDIA_MESSAGES.personNotFound],
      ['a person without a voice', voiceless, form(voiceless), 400, VOICE_ONLY_MESSAGES.voiceRequired],
      ['text named .mp4', m, form(m, Buffer.from('this is only text pretending to be an mp4 file')), 400, VOICE_ONLY_MESSAGES.invalidType],
      ['a JPEG', m, form(m, fixtures.jpeg()), 400, VOICE_ONLY_MESSAGES.invalidType],
      ['sound only', m, form(m, fixtures.audioOnlyMp4()), 400, VOICE_ONLY_MESSAGES.invalidType],
      ['a video without sound', m, form(m, fixtures.mp4()), 400, VOICE_ONLY_MESSAGES.noSound],
      ['a truncated MP4', m, form(m, mp4Clip.subarray(0, 3000)), 400, MEDIA_MESSAGES.unreadableMedia],
      ['an empty file', m, form(m, Buffer.alloc(0)), 400, MEDIA_MESSAGES.emptyFile],
      ['over 100 MB', m, form(m, 100 * 1024 * 1024 + 1), 413, MEDIA_MESSAGES.videoTooLarge],
    ];
    for (const [name, member, parts, status, message] of cases) {
      const response = await upload(member, parts);
      expect([response.statusCode, json(response).message], name).toEqual([status, message]);
    }
    // A form cut off before its closing boundary, or without a boundary at all: the client's fault, 400.
    const cutOff = `--XYZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nCounting\r\n--XYZ\r\nContent-Disposition: form-data; name="video"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n${'x'.repeat(5000)}`;
    for (const [body, type] of [[cutOff, 'multipart/form-data; boundary=XYZ'], ['abc', 'multipart/form-data']] as const) {
      const malformed = await m.client.request('POST', '/api/upload/voice-only-video', body, { 'content-type': type });
      expect([malformed.statusCode, json(malformed).message], type).toEqual([400, MESSAGES.malformedUpload]);
    }
    const notMultipart = await m.client.post('/api/upload/voice-only-video', { title: 'Counting', personId: m.personId });
    expect([notMultipart.statusCode, json(notMultipart).message]).toEqual([400, MEDIA_MESSAGES.noFileSelected]);
    const signedOut = multipart(form(m));
    expect((await t.client().request('POST', '/api/upload/voice-only-video', signedOut.payload, signedOut.headers)).statusCode).toBe(401);

    for (const member of [m, voiceless]) {
      expect(await t.database.db.select().from(processedVideos).where(eq(processedVideos.userId, member.userId))).toEqual([]);
      expect(userFiles(member.userId)).toEqual([]);
    }
    expect(filesUnder(path.join(t.dataDir, 'tmp')), 'temporary files').toEqual([]);
  }, 120_000);

  it('the sweep keeps the upload of a video whose job was lost and queues it again; one lost mid-render fails', async () => {
    const m = await memberWithVoice();
    // As if the process had died between the insert and the send (or mid-render), a while ago.
    const stored = async () => {
      const temp = await t.storage.tempPath();
      await writeFile(temp, mp4Clip);
      return (await t.storage.moveIn(temp, 'processed-videos', m.userId, 'mp4')).url;
    };
    const old = new Date(Date.now() - 60 * 60 * 1000);
    const values = { userId: m.userId, templateId: null, personId: m.personId, voiceRecordingId: m.voiceRecordingId, voiceOnly: true, createdAt: old };
    const [waiting] = await t.database.db.insert(processedVideos).values({ ...values, title: 'Waiting', sourceUrl: await stored() }).returning();
    const [lost] = await t.database.db.insert(processedVideos).values({ ...values, title: 'Lost', status: 'processing', sourceUrl: await stored() }).returning();

    await maintenanceJob({ db: t.database.db, storage: t.storage, queue: t.queue, pipeline: t.pipeline, log: t.app.log });
    expect(await row(lost!.id)).toMatchObject({ status: 'failed', error: VIDEO_MESSAGES.renderFailed });
    expect(existsSync(t.storage.fromUrl(waiting!.sourceUrl)!.path)).toBe(true);
    const done = await until(() => row(waiting!.id), (value) => value?.status === 'completed' || value?.status === 'failed', 120_000);
    expect(done).toMatchObject({ status: 'completed', error: null });
    expect(existsSync(t.storage.fromUrl(waiting!.sourceUrl)!.path)).toBe(true);

    for (const id of [waiting!.id, lost!.id]) expect((await m.client.delete(`/api/processedVideos/${id}`)).statusCode).toBe(204);
    expect(userFiles(m.userId)).toEqual([]);
  }, 180_000);

  it('counts against the Free plan’s videos a month, before anything is stored', async () => {
    const m = await memberWithVoice('free');
    await t.database.db
      .insert(processedVideos)
      .values([1, 2, 3].map((n) => ({ userId: m.userId, templateId: null, title: `Earlier ${n}`, voiceOnly: true, status: 'completed' as const })));
    const response = await upload(m, form(m));
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({ code: 'plan_limit', message: monthlyLimitMessage('Free', 3) });
    expect(await t.database.db.select().from(processedVideos).where(eq(processedVideos.userId, m.userId))).toHaveLength(3);
    expect(userFiles(m.userId)).toEqual([]);
  }, 60_000);
});
