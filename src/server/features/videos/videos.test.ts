// Personalised videos through the real routes: validation with the spec's messages, ownership (404,
// no hint), the premium and monthly rules, the lifecycle with a real render (face and voice really
// moved towards the person's), progress events, and delete (files gone, a running render cancelled).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceImage, ProcessedVideo, VoiceRecording } from '../../../shared/api-types';
import { PAYMENT_MESSAGES } from '../../../shared/payments';
import { RENDER_NOTICES, VIDEO_MESSAGES, monthlyLimitMessage, voiceMissingMessage } from '../../../shared/video-rules';
import { NARRATION_MESSAGES, unusableRecordingMessage } from '../../../shared/voice-analysis';
import { faceImages, processedVideos, users, videoTemplates, voiceRecordings } from '../../db/schema';
import { ffmpegBinary, probe, runProcess } from '../../media/ffmpeg';
import { speak } from '../../media/speech';
import { actorTrackFile, readActorTrack } from '../../pipeline/render/actor-track';
import { keptFaceFile } from '../../pipeline/render/kept-face';
import { analyseVoice } from '../../pipeline/voice-analysis';
import { cosineSimilarity } from '../../pipeline/face-engine';
import { testDatabases } from '../../testing/databases';
import { PORTRAIT, dataUrl, filesUnder, fixtures } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';
import { until } from '../../testing/wait';

const [pglite] = await testDatabases();
const PERSON_PHOTO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', 'sample5.jpg');
const SIBLING_PHOTO = path.join(path.dirname(PERSON_PHOTO), 'sample2.jpg');

async function writeFixture(bytes: Buffer, name: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'familystar-fixture-')), name);
  await writeFile(file, bytes);
  return file;
}

/** A 4 s template: the portrait as the "actor", zooming slowly, narrated by a high eSpeak voice. */
async function makeTemplate(dir: string): Promise<string> {
  const narration = path.join(dir, 'narration.wav');
  await speak('One, two, three, four. Let us count together, one more time.', { voice: 'en-us+f3', pitch: 60, speed: 150 }, narration);
  const output = path.join(dir, 'template.mp4');
  await runProcess(ffmpegBinary(), [
    '-v', 'error', '-y', '-loop', '1', '-i', PORTRAIT, '-i', narration,
    '-vf', "scale=720:720,zoompan=z='1.3+0.05*sin(on/10)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=40:s=640x360:fps=10",
    '-t', '4', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-af', 'apad', '-shortest', '-movflags', '+faststart', output,
  ], { timeout: 60_000 });
  return output;
}

describe('processed videos', () => {
  let t: TestApp;
  let scratch: string;
  let templateId: number;
  let premiumId: number;
  let voiceOnlyId: number;
  beforeAll(async () => {
    t = await createTestApp(pglite!, { workers: true });
    // The first account is the admin (exempt from plans and purchases): take it out of the way.
    await t.client().register();
    scratch = await mkdtemp(path.join(tmpdir(), 'familystar-videos-'));
    const file = await makeTemplate(scratch);
    const insert = async (fields: Partial<typeof videoTemplates.$inferInsert>) => {
      const [row] = await t.database.db.insert(videoTemplates).values({ title: 'Counting', description: 'Count', duration: 4, ...fields }).returning();
      const copy = path.join(scratch, `${row!.id}.mp4`);
      await runProcess('cp', [file, copy]);
      const stored = await t.storage.moveIn(copy, 'templates', row!.id, 'mp4');
      await t.database.db.update(videoTemplates).set({ videoUrl: stored.url }).where(eq(videoTemplates.id, row!.id));
      return row!.id;
    };
    templateId = await insert({});
    premiumId = await insert({ title: 'Letters', isPremium: true, priceCents: 299 });
    voiceOnlyId = await insert({ title: 'Colours', voiceOnly: true });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** A member whose person has a face (a real photo of someone else than the actor) and a low voice. */
  async function memberWithFaceAndVoice(plan: 'free' | 'family' = 'family'): Promise<Member & { faceImageId: number; voiceRecordingId: number }> {
    const m = await memberWithPerson(t, plan);
    const face = await m.client.post('/api/faceImages', { personId: m.personId, name: 'Photo', imageData: dataUrl(readFileSync(PERSON_PHOTO), 'image/jpeg') });
    expect(face.statusCode, face.body).toBe(201);
    const wav = path.join(scratch, `voice-${m.userId}.wav`);
    await speak('Once upon a time a little fox found a shiny red ball and rolled it all the way home to show her brother.', { voice: 'en-us+m3', pitch: 25, speed: 140 }, wav);
    const voice = await m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Voice', audioData: dataUrl(readFileSync(wav), 'audio/wav') });
    expect(voice.statusCode, voice.body).toBe(201);
    return { ...m, faceImageId: json<FaceImage>(face).id, voiceRecordingId: json<VoiceRecording>(voice).id };
  }

  it('validates with the spec messages and keeps other users’ rows out of reach (404)', async () => {
    const m = await memberWithFaceAndVoice();
    const stranger = await memberWithFaceAndVoice();
    const post = (body: Record<string, unknown>) => m.client.post('/api/processedVideos', { templateId, title: 'My version', personId: m.personId, ...body });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ title: 'ab' }, 400, VIDEO_MESSAGES.titleTooShort],
      [{ templateId: undefined }, 400, VIDEO_MESSAGES.noTemplate],
      [{ templateId: 999_999 }, 404, VIDEO_MESSAGES.templateNotFound],
      [{ templateId: premiumId }, 403, PAYMENT_MESSAGES.premiumRequired],
      [{ personId: stranger.personId }, 404, 'Person not found'],
      [{ faceImageId: stranger.faceImageId }, 404, 'Face image not found'],
      [{ voiceRecordingId: stranger.voiceRecordingId }, 404, 'Voice recording not found'],
      [{ personId: null }, 400, VIDEO_MESSAGES.faceRequired],
      [{ personId: null, useFaceSwap: false }, 400, VIDEO_MESSAGES.voiceRequired],
      [{ useFaceSwap: false, useVoiceSwap: false }, 400, VIDEO_MESSAGES.nothingToDo],
    ];
    for (const [body, status, message] of cases) {
      const response = await post(body);
      expect([response.statusCode, json(response).message], JSON.stringify(body)).toEqual([status, message]);
    }
    // The free plan's premium rule on the server: a family subscriber with an active subscription may.
    await t.database.db.update(users).set({ subscriptionStatus: 'active' }).where(eq(users.id, m.userId));
    const allowed = await post({ templateId: premiumId, useFaceSwap: false, useVoiceSwap: true });
    expect(allowed.statusCode, allowed.body).toBe(201);
    await m.client.delete(`/api/processedVideos/${json<ProcessedVideo>(allowed).id}`);

    // A status, videoUrl or outputUrl in the body is not read; the row is the server's.
    const created = await post({ status: 'completed', videoUrl: '/evil.mp4', outputUrl: '/evil.mp4', useFaceSwap: false });
    expect(created.statusCode).toBe(201);
    expect(json<ProcessedVideo>(created)).toMatchObject({ status: 'pending', videoUrl: null, outputUrl: null, voiceRecordingId: m.voiceRecordingId, faceImageId: null });
    const id = json<ProcessedVideo>(created).id;
    expect((await stranger.client.get(`/api/processedVideos/${id}`)).statusCode).toBe(404);
    expect((await stranger.client.delete(`/api/processedVideos/${id}`)).statusCode).toBe(404);
    expect((await stranger.client.get(`/api/users/${m.userId}/processedVideos`)).statusCode).toBe(403);
    expect(json<ProcessedVideo[]>(await stranger.client.get(`/api/users/${stranger.userId}/processedVideos`))).toEqual([]);
    // A voice-only template never swaps the face, whatever the form says.
    const voiceOnly = await post({ templateId: voiceOnlyId });
    expect(json<ProcessedVideo>(voiceOnly)).toMatchObject({ voiceOnly: true, faceImageId: null });
    for (const video of [id, json<ProcessedVideo>(voiceOnly).id]) await m.client.delete(`/api/processedVideos/${video}`);
  }, 180_000);

  it('refuses before anything is queued: a recording with no voice in it (named), a template whose narration has none', async () => {
    const m = await memberWithFaceAndVoice();
    const quiet = await m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Quiet one', audioData: dataUrl(fixtures.wavSilence(6), 'audio/wav') });
    expect(quiet.statusCode, quiet.body).toBe(201);
    const quietId = json<VoiceRecording>(quiet).id;
    await until(() => m.client.get(`/api/voiceRecordings/${quietId}`).then((response) => json<VoiceRecording>(response)), (recording) => recording.mlProcessed);
    const videosOf = async () => (await t.database.db.select().from(processedVideos).where(eq(processedVideos.userId, m.userId))).length;
    const post = (body: Record<string, unknown>) => m.client.post('/api/processedVideos', { templateId, title: 'My version', personId: m.personId, useFaceSwap: false, ...body });

    const refused = await post({ voiceRecordingId: quietId });
    expect([refused.statusCode, json(refused).message]).toEqual([400, unusableRecordingMessage('Quiet one')]);
    expect(await videosOf()).toBe(0);
    // Made the person's default, the silent recording gives way to their recording that has a voice.
    await t.database.db.update(voiceRecordings).set({ isDefault: false }).where(eq(voiceRecordings.personId, m.personId));
    await t.database.db.update(voiceRecordings).set({ isDefault: true }).where(eq(voiceRecordings.id, quietId));
    const fallback = await post({});
    expect(fallback.statusCode, fallback.body).toBe(201);
    expect(json<ProcessedVideo>(fallback).voiceRecordingId).toBe(m.voiceRecordingId);
    await m.client.delete(`/api/processedVideos/${json<ProcessedVideo>(fallback).id}`);

    // A template whose soundtrack is a steady tone: no voice to change, found before its first video.
    const [toneTemplate] = await t.database.db.insert(videoTemplates).values({ title: 'Beep', description: 'A tone', duration: 3 }).returning();
    const copy = path.join(scratch, 'tone-template.mp4');
    await runProcess('cp', [await writeFixture(fixtures.avMp4(), 'av.mp4'), copy]);
    const stored = await t.storage.moveIn(copy, 'templates', toneTemplate!.id, 'mp4');
    await t.database.db.update(videoTemplates).set({ videoUrl: stored.url }).where(eq(videoTemplates.id, toneTemplate!.id));
    const noNarrator = await post({ templateId: toneTemplate!.id });
    expect([noNarrator.statusCode, json(noNarrator).message]).toEqual([400, NARRATION_MESSAGES.noVoiceToChange]);
    expect(await videosOf()).toBe(0);
    const [analysed] = await t.database.db.select().from(videoTemplates).where(eq(videoTemplates.id, toneTemplate!.id));
    expect(analysed!.narration).toEqual({ pitchMedianHz: null, voicedSeconds: 0 });
    // Its picture can still be personalised.
    const faceOnly = await post({ templateId: toneTemplate!.id, useFaceSwap: true, useVoiceSwap: false });
    expect(faceOnly.statusCode, faceOnly.body).toBe(201);
    await m.client.delete(`/api/processedVideos/${json<ProcessedVideo>(faceOnly).id}`);
  }, 180_000);

  it('a failed video is tried again with the same choices or another recording; failed videos do not use up the Free plan', async () => {
    const m = await memberWithFaceAndVoice('free');
    const stranger = await memberWithFaceAndVoice();
    const wav = path.join(scratch, `second-${m.userId}.wav`);
    await speak('The little fox ran home across the green hill and told her brother everything she had seen by the river that day.', { voice: 'en-us+m3', pitch: 30, speed: 140 }, wav);
    const secondResponse = await m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Second take', audioData: dataUrl(readFileSync(wav), 'audio/wav') });
    expect(secondResponse.statusCode, secondResponse.body).toBe(201);
    const second = json<VoiceRecording>(secondResponse);
    const finished = (id: number) =>
      until(() => m.client.get(`/api/processedVideos/${id}`).then((response) => json<ProcessedVideo>(response)), (video) => video.status === 'completed' || video.status === 'failed', 120_000);
    const retry = (id: number, body: Record<string, unknown> = {}, client = m.client) => client.post(`/api/processedVideos/${id}/retry`, body);

    // The default recording's file is lost: the render fails, naming what is at fault.
    const [first] = await t.database.db.select().from(voiceRecordings).where(eq(voiceRecordings.id, m.voiceRecordingId));
    await rm(t.storage.fromUrl(first!.audioUrl)!.path);
    const created = await m.client.post('/api/processedVideos', { templateId, title: 'Try again', personId: m.personId, useFaceSwap: false });
    expect(created.statusCode, created.body).toBe(201);
    const id = json<ProcessedVideo>(created).id;
    expect(await finished(id)).toMatchObject({ status: 'failed', error: voiceMissingMessage('Voice') });

    // Only its owner may retry it, only while it is failed, and only the face or the recording can change.
    expect((await retry(id, {}, stranger.client)).statusCode).toBe(404);
    expect((await retry(id, { voiceRecordingId: stranger.voiceRecordingId })).statusCode).toBe(404);
    const extra = await retry(id, { title: 'Other' });
    expect([extra.statusCode, json(extra).message]).toEqual([400, 'Only faceImageId and voiceRecordingId can be changed']);
    const withFace = await retry(id, { faceImageId: m.faceImageId });
    expect([withFace.statusCode, json(withFace).message]).toEqual([400, VIDEO_MESSAGES.voiceOnlyRetry]);

    // The same choices fail again for the same reason; another recording of the same person works.
    const again = await retry(id);
    expect(again.statusCode, again.body).toBe(200);
    expect(json<ProcessedVideo>(again)).toMatchObject({ id, status: 'pending', error: null, faceProgress: 0, voiceProgress: 0 });
    expect(await finished(id)).toMatchObject({ status: 'failed', error: voiceMissingMessage('Voice') });
    const changed = await retry(id, { voiceRecordingId: second.id });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await finished(id)).toMatchObject({ status: 'completed', error: null, voiceRecordingId: second.id, voiceProgress: 100 });
    const done = await retry(id);
    expect([done.statusCode, json(done).message]).toEqual([409, VIDEO_MESSAGES.onlyFailedRetry]);

    // The Free plan's 3 a month count what was made or is being made, never what failed.
    const earlier = (status: 'failed' | 'completed', n: number) =>
      Array.from({ length: n }, (_, i) => ({ userId: m.userId, templateId, personId: m.personId, title: `Earlier ${status} ${i}`, status }));
    const [failedRow] = await t.database.db.insert(processedVideos).values([...earlier('failed', 3), ...earlier('completed', 1)]).returning();
    const third = await m.client.post('/api/processedVideos', { templateId, title: 'Third', personId: m.personId, useFaceSwap: false });
    expect(third.statusCode, third.body).toBe(201);
    const refused = await m.client.post('/api/processedVideos', { templateId, title: 'Fourth', personId: m.personId, useFaceSwap: false });
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toEqual({ code: 'plan_limit', message: monthlyLimitMessage('Free', 3) });
    // The profile's plan section reads the same count: 3 of 3, the failed ones left out; no one else may read it.
    expect(json(await m.client.get(`/api/users/${m.userId}/usage`))).toEqual({
      plan: 'free',
      people: { used: 1, limit: 1 },
      videosThisMonth: { used: 3, limit: 3 },
    });
    expect((await stranger.client.get(`/api/users/${m.userId}/usage`)).statusCode).toBe(403);
    // Trying a failed one again would make a fourth: refused the same way, and it stays failed.
    const retryRefused = await retry(failedRow!.id, { voiceRecordingId: second.id });
    expect([retryRefused.statusCode, json(retryRefused).code]).toEqual([403, 'plan_limit']);
    const [stillFailed] = await t.database.db.select().from(processedVideos).where(eq(processedVideos.id, failedRow!.id));
    expect(stillFailed!.status).toBe('failed');
    await finished(json<ProcessedVideo>(third).id);
    for (const row of await t.database.db.select().from(processedVideos).where(eq(processedVideos.userId, m.userId))) {
      await m.client.delete(`/api/processedVideos/${row.id}`);
    }
  }, 300_000);

  it('renders: the face is the person’s, the voice moves to the person’s pitch, same length; a sibling’s photo is left out and the parent told; delete removes the files', async () => {
    const m = await memberWithFaceAndVoice();
    // Another real person's photo added to this person by mistake (face-api's sample2.jpg).
    const sibling = await m.client.post('/api/faceImages', { personId: m.personId, name: 'Sister', imageData: dataUrl(readFileSync(SIBLING_PHOTO), 'image/jpeg') });
    expect(sibling.statusCode, sibling.body).toBe(201);
    const created = await m.client.post('/api/processedVideos', { templateId, title: 'My version of Counting', personId: m.personId });
    expect(created.statusCode, created.body).toBe(201);
    const id = json<ProcessedVideo>(created).id;
    // Live progress: the event stream runs until the render ends, with real figures on the way.
    const stream = await m.client.get(`/api/processedVideos/${id}/events`);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    const events = stream.body
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice(6)) as ProcessedVideo);
    expect(events.at(-1)!.status).toBe('completed');
    expect(events.some((event) => event.status === 'processing' && event.faceProgress > 0 && event.faceProgress < 100)).toBe(true);
    const done = json<ProcessedVideo>(await m.client.get(`/api/processedVideos/${id}`));
    expect(done).toMatchObject({ status: 'completed', error: null, faceProgress: 100, voiceProgress: 100 });
    expect(done.notices).toEqual([RENDER_NOTICES.otherFace(1, 'Grandma Rose')]);
    const output = t.storage.fromUrl(done.outputUrl)!.path;
    expect((await m.client.get(done.thumbnailUrl!)).headers['content-type']).toBe('image/jpeg');
    expect((await m.client.request('GET', done.videoUrl!, undefined, { range: 'bytes=0-9' })).statusCode).toBe(206);

    // Same length as the template.
    const [template] = await t.database.db.select().from(videoTemplates).where(eq(videoTemplates.id, templateId));
    const templateFile = t.storage.fromUrl(template!.videoUrl)!.path;
    expect(Math.abs((await probe(output)).duration! - (await probe(templateFile)).duration!)).toBeLessThan(0.1);
    // The actor was tracked once for every family's render of this template: the track lies beside its file.
    expect((await readActorTrack(actorTrackFile(templateFile), templateFile, 'mesh-only'))?.header.frames).toBeGreaterThan(0);

    // The person's prepared face was kept beside their photo for their next video (kept-face.ts). It is not
    // the parent's media: their quota does not count it, and it goes with the photo.
    const [photo] = await t.database.db.select().from(faceImages).where(eq(faceImages.id, m.faceImageId));
    const photoFile = t.storage.fromUrl(photo!.imageUrl)!.path;
    const keptSize = (await stat(keptFaceFile(photoFile))).size;
    expect(keptSize).toBeGreaterThan(100_000);
    const photoFolder = path.join(t.storage.root, 'face-images', String(m.userId));
    const photoBytes = filesUnder(photoFolder).filter((file) => !file.endsWith('.face')).reduce((sum, file) => sum + statSync(path.join(photoFolder, file)).size, 0);
    expect(photoBytes).toBeGreaterThan(0);
    expect(await t.storage.usage(m.userId, ['face-images'])).toBe(photoBytes);

    // The voice: the narrator's ~220 Hz moved to the person's low voice (within 5 %).
    const [person, narrator, result] = await Promise.all([
      analyseVoice(path.join(scratch, `voice-${m.userId}.wav`)),
      analyseVoice(templateFile),
      analyseVoice(output),
    ]);
    expect(Math.abs(result.pitchMedianHz! / person.pitchMedianHz! - 1)).toBeLessThan(0.05);
    expect(narrator.pitchMedianHz! / person.pitchMedianHz!).toBeGreaterThan(1.5);

    // The face: closer to the person's photo than to the actor in the middle frame.
    const middle = path.join(scratch, `middle-${id}.png`);
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-ss', '2', '-i', output, '-frames:v', '1', middle]);
    const [rendered, personFace, actor] = await Promise.all(
      [middle, PERSON_PHOTO, PORTRAIT].map(async (file) => (await t.pipeline.run('analyseImage', { file })).faces[0]!.embedding),
    );
    expect(cosineSimilarity(rendered!, personFace!)).toBeGreaterThan(cosineSimilarity(rendered!, actor!));

    // Deleting removes the row and both files.
    expect((await m.client.delete(`/api/processedVideos/${id}`)).statusCode).toBe(204);
    expect((await m.client.get(`/api/processedVideos/${id}`)).statusCode).toBe(404);
    expect(filesUnder(path.join(t.storage.root, 'processed-videos')).filter((file) => file.startsWith(`${m.userId}/`))).toEqual([]);
    // Deleting the photo removes its kept face too.
    expect((await m.client.delete(`/api/faceImages/${m.faceImageId}`)).statusCode).toBe(204);
    expect(existsSync(photoFile) || existsSync(keptFaceFile(photoFile))).toBe(false);
  }, 300_000);

  async function addPhoto(m: Member, name: string, bytes: Buffer): Promise<FaceImage> {
    const response = await m.client.post('/api/faceImages', { personId: m.personId, name, imageData: dataUrl(bytes, 'image/jpeg') });
    expect(response.statusCode, response.body).toBe(201);
    return json<FaceImage>(response);
  }

  /** Makes a video of the member's person from the chosen photo (no voice), and gives its notices; the video is deleted again. */
  async function noticesOf(m: Member, faceImageId: number): Promise<string[]> {
    const created = await m.client.post('/api/processedVideos', { templateId, title: 'Eyes', personId: m.personId, faceImageId, useVoiceSwap: false });
    expect(created.statusCode, created.body).toBe(201);
    const id = json<ProcessedVideo>(created).id;
    const done = await until(() => m.client.get(`/api/processedVideos/${id}`).then((response) => json<ProcessedVideo>(response)), (video) => video.status !== 'pending' && video.status !== 'processing', 120_000);
    expect(done.status, done.error ?? '').toBe('completed');
    // The last test checks that every video's files are gone once deleted.
    expect((await m.client.delete(`/api/processedVideos/${id}`)).statusCode).toBe(204);
    return done.notices;
  }

  it('says the chosen photo’s eyes are closed, unless another photo of the person lent open ones to the video', async () => {
    // Two stills of the real talking woman: mid-blink (0.58 s) and at rest (0.3 s).
    const m = await memberWithPerson(t, 'family');
    const blink = await addPhoto(m, 'Blink', fixtures.womanStill(0.58));
    expect(blink.eyesClosed).toBe(true);
    // Alone, the blink is all there is: the video shows her eyes shut and says so.
    expect(await noticesOf(m, blink.id)).toEqual([RENDER_NOTICES.chosenEyesClosed('Blink')]);
    // With a photo of her eyes open, the render lends them (render/face-choice.ts eyeLender): nothing to say.
    expect((await addPhoto(m, 'At rest', fixtures.womanStill(0.3))).eyesClosed).toBe(false);
    expect(await noticesOf(m, blink.id)).toEqual([]);
  }, 300_000);

  it('says the chosen photo’s eyes look to one side, unless another photo of the person lent eyes that look ahead', async () => {
    // Two stills of the real talking woman: glancing to one side (2.7 s) and at the camera (0.3 s).
    const m = await memberWithPerson(t, 'family');
    const glancing = await addPhoto(m, 'Glancing', fixtures.womanStill(2.7));
    expect(glancing.looksAside).toBe(true);
    // Alone, her glance is all there is: the video looks past the viewer and says so.
    expect(await noticesOf(m, glancing.id)).toEqual([RENDER_NOTICES.chosenLooksAside('Glancing')]);
    // With a photo of her looking at the camera, the render lends its eyes (render/face-choice.ts eyeLender): nothing to say.
    expect((await addPhoto(m, 'At the camera', fixtures.womanStill(0.3))).looksAside).toBe(false);
    expect(await noticesOf(m, glancing.id)).toEqual([]);
  }, 300_000);

  it('deleting a video while it renders cancels it and leaves nothing behind', async () => {
    const m = await memberWithFaceAndVoice();
    const created = await m.client.post('/api/processedVideos', { templateId, title: 'Gone soon', personId: m.personId });
    const id = json<ProcessedVideo>(created).id;
    await until(() => m.client.get(`/api/processedVideos/${id}`).then((response) => json<ProcessedVideo>(response).status), (status) => status === 'processing', 120_000);
    expect((await m.client.delete(`/api/processedVideos/${id}`)).statusCode).toBe(204);
    // The render stops or finishes into nothing: no row, no output, no temporary folder left.
    await until(() => t.queue.stats().then((stats) => stats.queues.find((queue) => queue.name === 'render')!.active), (active) => active === 0, 240_000);
    expect(await t.database.db.select().from(processedVideos).where(eq(processedVideos.id, id))).toEqual([]);
    // Every video of every test was deleted: once no render runs, not a file is left.
    expect(filesUnder(path.join(t.storage.root, 'processed-videos'))).toEqual([]);
    expect(filesUnder(path.join(t.dataDir, 'tmp')), 'temporary files').toEqual([]);
  }, 300_000);
});
