// Face extraction and voice analysis end to end: the real routes queue the jobs, the workers run them in
// the pipeline's threads, and the results land on the rows (on PGlite, and PostgreSQL when one answers).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceImage, FaceVideo, VoiceRecording } from '../../shared/api-types';
import { FACE_ANALYSIS_MESSAGES } from '../../shared/face-analysis';
import { faceImages } from '../db/schema';
import { speak } from '../media/speech';
import { cosineSimilarity } from '../pipeline/face-engine';
import { keptFaceFile, readKeptFace } from '../pipeline/render/kept-face';
import { keepFaceJob } from './keep-face';
import { testDatabases } from '../testing/databases';
import { PORTRAIT, dataUrl, filesUnder, fixtures } from '../testing/media-fixtures';
import { memberWithPerson } from '../testing/people-kit';
import { middleRedness } from '../testing/picture-colour';
import { until } from '../testing/wait';
import { type TestApp, type TestClient, createTestApp, json } from '../testing/test-app';

const databases = await testDatabases();
const SENTENCE = 'Once upon a time a little fox found a shiny red ball in the garden, and she rolled it all the way home to show her brother.';
/** Real photos of other people shipped in face-api's demo folder (tests only). */
const OTHER_PEOPLE = ['sample1.jpg', 'sample2.jpg', 'sample3.jpg'].map((name) =>
  path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', name),
);


describe.each(databases)('analysis jobs on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase, { workers: true });
  });
  afterAll(() => t?.close());

  const faceVideo = (client: TestClient, id: number) =>
    client.get(`/api/people/${id}/faceVideos`).then((response) => json<FaceVideo[]>(response));
  /** Uploads a talking clip as the person's only face video and waits for its face extraction to end. */
  const uploadClip = async (client: TestClient, personId: number, name: string, video: Buffer, type = 'video/mp4') => {
    const created = await client.post('/api/faceVideos', { personId, name, expressionType: 'talking', videoData: dataUrl(video, type) });
    expect(created.statusCode).toBe(201);
    const [done] = await until(
      () => faceVideo(client, personId),
      ([video]) => video!.processingStatus === 'completed' || video!.processingStatus === 'failed',
    );
    return done!;
  };

  it('extracts the face of a clip into face images close to the source photo, and a clip without a face fails clearly', async () => {
    const { client, userId, personId } = await memberWithPerson(t);
    const person = { id: personId };
    const user = { id: userId };
    const created = await client.post('/api/faceVideos', {
      personId: person.id,
      userId: user.id,
      name: 'Clip labelled wrongly',
      // Mislabelled: the astronaut smiles at the camera; the classifier's label wins.
      expressionType: 'profile-left',
      videoData: dataUrl(fixtures.faceClip(4), 'video/mp4'),
    });
    expect(created.statusCode).toBe(201);
    expect(json<FaceVideo>(created).processingStatus).toBe('pending');

    const [done] = await until(
      () => faceVideo(client, person.id),
      ([video]) => video!.processingStatus === 'completed' || video!.processingStatus === 'failed',
    );
    expect(done).toMatchObject({ processingStatus: 'completed', isProcessed: true, errorMessage: null, smallFace: false });
    expect(done!.extractedFacesCount).toBeGreaterThanOrEqual(1);
    expect(done!.extractedFacesCount).toBeLessThanOrEqual(5);

    const images = json<FaceImage[]>(await client.get(`/api/people/${person.id}/faceImages`));
    expect(images).toHaveLength(done!.extractedFacesCount);
    for (const image of images) {
      // The crop records its face's box (the thumbnail is framed on it); the face fills a fair part of the clip.
      expect(image).toMatchObject({ sourceVideoId: done!.id, mlProcessed: true, smallFace: false, faceBox: expect.any(Object) });
      expect(['neutral', 'smile', 'talking']).toContain(image.expressionType);
      const crop = await client.get(image.imageUrl);
      expect(crop.statusCode).toBe(200);
      expect(crop.headers['content-type']).toBe('image/jpeg');
    }
    expect(images.some((image) => image.expressionType === 'smile')).toBe(true);
    // The person's first faces: one of them (a frontal one) became the default.
    expect(images.filter((image) => image.isDefault)).toHaveLength(1);

    // Identity: every crop is much closer to the source photo than to other people's photos.
    const rows = await t.database.db.select().from(faceImages).where(eq(faceImages.sourceVideoId, done!.id));
    const source = (await t.pipeline.run('analyseImage', { file: PORTRAIT })).faces[0]!.embedding;
    const others = await Promise.all(OTHER_PEOPLE.map(async (file) => (await t.pipeline.run('analyseImage', { file })).faces[0]!.embedding));
    for (const row of rows) {
      expect(row.faceEmbedding).toHaveLength(1024);
      const same = cosineSimilarity(row.faceEmbedding!, source);
      const different = Math.max(...others.map((other) => cosineSimilarity(row.faceEmbedding!, other)));
      expect(same).toBeGreaterThan(0.6);
      expect(same - different).toBeGreaterThan(0.25);
    }

    // Each crop's face is prepared for the person's videos as the job ends, and kept beside it (render/kept-face.ts).
    for (const row of rows) {
      const crop = t.storage.fromUrl(row.imageUrl)!.path;
      await until(() => readKeptFace(keptFaceFile(crop), crop), (kept) => kept !== undefined, 60_000);
    }
    // The kept face is not served: media URLs name only the stored files themselves.
    expect((await client.get(`${rows[0]!.imageUrl}.face`)).statusCode).toBe(404);

    // Nobody else reaches the extracted faces.
    const stranger = t.client();
    await stranger.register();
    expect((await stranger.get(`/api/people/${person.id}/faceImages`)).statusCode).toBe(403);
    expect((await stranger.get(images[0]!.imageUrl)).statusCode).toBe(403);
    expect((await stranger.delete(`/api/faceImages/${images[0]!.id}`)).statusCode).toBe(403);

    // A black clip: no face, a clear message, no face image written.
    const black = await client.post('/api/faceVideos', {
      personId: person.id,
      name: 'Dark clip',
      expressionType: 'neutral',
      videoData: dataUrl(fixtures.mp4(), 'video/mp4'),
    });
    expect(black.statusCode).toBe(201);
    const failed = await until(
      () => faceVideo(client, person.id).then((videos) => videos.find((video) => video.id === json<FaceVideo>(black).id)!),
      (video) => video.processingStatus === 'failed' || video.processingStatus === 'completed',
    );
    expect(failed).toMatchObject({ processingStatus: 'failed', errorMessage: FACE_ANALYSIS_MESSAGES.noFaceInClip, extractedFacesCount: 0 });
    expect(json<FaceImage[]>(await client.get(`/api/people/${person.id}/faceImages`))).toHaveLength(images.length);
  }, 240_000);

  it('marks the crops of a clip filmed from afar with a small camera as small faces, counted in the clip\'s own pixels, and the clip says so', async () => {
    const { client, userId, personId } = await memberWithPerson(t);
    const done = await uploadClip(client, personId, 'From the sofa', fixtures.distantClip());
    // The clip itself says so (every face taken from it is small), on the person's list and the user's.
    expect(done).toMatchObject({ processingStatus: 'completed', smallFace: true });
    const mine = json<FaceVideo[]>(await client.get(`/api/users/${userId}/faceVideos`));
    expect(mine.find((video) => video.id === done.id)).toMatchObject({ smallFace: true });
    const images = json<FaceImage[]>(await client.get(`/api/people/${personId}/faceImages`));
    expect(images.length).toBeGreaterThan(0);
    // Her face is about 80 of the clip's pixels (240 of the frames face extraction enlarges it to): small, not blurred.
    for (const image of images) expect(image, image.name).toMatchObject({ smallFace: true, blurred: false, faceBox: expect.any(Object) });
    const rows = await t.database.db.select().from(faceImages).where(eq(faceImages.sourceVideoId, done.id));
    for (const row of rows) {
      const { imageSize } = row.analysis as { imageSize: [number, number] };
      // The crop holds the clip's own pixels, not the enlarged frame's.
      expect(Math.max(...imageSize)).toBeLessThanOrEqual(240);
      const crop = t.storage.fromUrl(row.imageUrl)!.path;
      const stored = await sharp(crop).metadata();
      expect([stored.width, stored.height]).toEqual(imageSize);
      // Prepared for a video all the same (a single small photo can still be chosen).
      await until(() => readKeptFace(keptFaceFile(crop), crop), (kept) => kept !== undefined, 60_000);
    }
  }, 240_000);

  it('cuts the crops of a clip filmed upright on a phone (stored sideways, turned on playback) from its upright picture only', async () => {
    const { client, personId } = await memberWithPerson(t);
    const done = await uploadClip(client, personId, 'On my phone', fixtures.phoneClip());
    expect(done).toMatchObject({ processingStatus: 'completed', smallFace: false });
    const rows = await t.database.db.select().from(faceImages).where(eq(faceImages.sourceVideoId, done.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const { imageSize, pose } = row.analysis as { imageSize: [number, number]; pose: { roll: number } };
      const crop = t.storage.fromUrl(row.imageUrl)!.path;
      const { data, info } = await sharp(crop).greyscale().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual(imageSize);
      // Upright, and no wider than her 360-pixel picture: the crop's right edge is her dark grey wall, not
      // the black that pads the picture to a square frame.
      expect(Math.abs(pose.roll)).toBeLessThan(20);
      expect(info.width).toBeLessThanOrEqual(360);
      let edge = 0;
      for (let y = 0; y < info.height; y++) for (let x = info.width - 8; x < info.width; x++) edge += data[y * info.width + x]!;
      expect(edge / (8 * info.height)).toBeGreaterThan(25);
    }
  }, 240_000);

  it('cuts the crops of a clip filmed in HDR (an iPhone\'s HLG) in their real colours, not a washed-out grey', async () => {
    const { client, personId } = await memberWithPerson(t);
    const done = await uploadClip(client, personId, 'iPhone', fixtures.hlgClip(), 'video/quicktime');
    expect(done).toMatchObject({ processingStatus: 'completed' });
    const rows = await t.database.db.select().from(faceImages).where(eq(faceImages.sourceVideoId, done.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      // Her cheeks and nose (the crop's middle) 15-16 above grey in V, as in the clip she was filmed in; the
      // HLG signal read as ordinary video gave 5.6 (grey skin).
      expect(await middleRedness(t.storage.fromUrl(row.imageUrl)!.path), row.name).toBeGreaterThan(11);
    }
  }, 240_000);

  it('reads a phone photo stored sideways (EXIF orientation) upright, as browsers show it', async () => {
    const { client, personId } = await memberWithPerson(t);
    // The talking woman cut to 360×512, stored turned a quarter to the left with orientation 6 ("turn right to show").
    const photo = await sharp(fixtures.womanStill(0.3)).extract({ left: 76, top: 0, width: 360, height: 512 }).rotate(270).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect(await sharp(photo).metadata()).toMatchObject({ width: 512, height: 360, orientation: 6 });
    const created = await client.post('/api/faceImages', { personId, name: 'From my phone', imageData: dataUrl(photo, 'image/jpeg') });
    expect(created.statusCode).toBe(201);
    expect(json<FaceImage>(created)).toMatchObject({ mlProcessed: true, smallFace: false, faceBox: expect.any(Object) });
    const [row] = await t.database.db.select().from(faceImages).where(eq(faceImages.id, json<FaceImage>(created).id));
    const { imageSize, pose } = row!.analysis as { imageSize: [number, number]; pose: { roll: number } };
    expect(imageSize).toEqual([360, 512]);
    expect(Math.abs(pose.roll)).toBeLessThan(20);
    // Prepared for her videos upright too: the mesh's forehead (point 10) straight above its chin (152).
    const file = t.storage.fromUrl(row!.imageUrl)!.path;
    const kept = await until(() => readKeptFace(keptFaceFile(file), file), (face) => face !== undefined, 60_000);
    const [forehead, chin] = [kept!.landmarks[10]!, kept!.landmarks[152]!];
    expect(chin[1]! - forehead[1]!).toBeGreaterThan(3 * Math.abs(chin[0]! - forehead[0]!));
  }, 240_000);

  it('refuses a photo with no face (400) and keeps nothing; keeps the largest face of a group photo', async () => {
    const { client, userId, personId } = await memberWithPerson(t);
    const person = { id: personId };
    const user = { id: userId };
    const before = filesUnder(t.storage.root);
    const refused = await client.post('/api/faceImages', { personId: person.id, name: 'Card', imageData: dataUrl(fixtures.noFaceJpeg(), 'image/jpeg') });
    expect(refused.statusCode).toBe(400);
    expect(json(refused)).toEqual({ message: FACE_ANALYSIS_MESSAGES.noFaceInPhoto });
    expect(filesUnder(t.storage.root)).toEqual(before);

    const photo = await client.post('/api/faceImages', { personId: person.id, userId: user.id, name: 'Front', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') });
    expect(photo.statusCode).toBe(201);
    expect(json<FaceImage>(photo)).toMatchObject({ mlProcessed: true, isDefault: true });
    const [row] = await t.database.db.select().from(faceImages).where(eq(faceImages.id, json<FaceImage>(photo).id));
    expect(row!.faceEmbedding).toHaveLength(1024);
    expect(row!.analysis).toMatchObject({ faces: 1, pose: { yaw: expect.any(Number) } });
    // Its face is prepared for its videos in the background and kept beside it (jobs/keep-face.ts), with the
    // eye opening its analysis recorded, as its renders load it; deleting the photo removes it too.
    const file = t.storage.fromUrl(row!.imageUrl)!.path;
    const kept = await until(() => readKeptFace(keptFaceFile(file), file), (face) => face !== undefined, 60_000);
    expect(kept!.eyeOpening).toBe(row!.analysis!.eyeOpening);
    expect((await client.delete(`/api/faceImages/${row!.id}`)).statusCode).toBe(204);
    expect(filesUnder(t.storage.root).filter((name) => name.includes(path.basename(file)))).toEqual([]);
    // A job that runs after the deletion (queued twice, or late) finds nothing to prepare and writes nothing.
    const deps = { db: t.database.db, storage: t.storage, queue: t.queue, pipeline: t.pipeline, log: t.app.log };
    const context = { jobId: 'late', queue: 'keep-face' as const, attempt: 0, lastAttempt: true, signal: new AbortController().signal };
    await keepFaceJob(deps, { faceImageId: row!.id }, context);
    expect(filesUnder(t.storage.root).filter((name) => name.includes(path.basename(file)))).toEqual([]);

    // A group photo (three people): the largest face is the one kept, and said so.
    const group = await client.post('/api/faceImages', { personId: person.id, name: 'Group', imageData: dataUrl(readFileSync(OTHER_PEOPLE[2]!), 'image/jpeg') });
    expect(group.statusCode).toBe(201);
    const [groupRow] = await t.database.db.select().from(faceImages).where(eq(faceImages.id, json<FaceImage>(group).id));
    const { faces, box } = groupRow!.analysis as { faces: number; box: number[] };
    expect(faces).toBe(3);
    // sample3's largest face is the man in the middle, about 336 px wide at x ≈ 1018.
    expect(box[2]).toBeGreaterThan(300);
    expect(Math.abs(box[0]! - 1018)).toBeLessThan(40);
  }, 120_000);

  it('analyses a voice recording: pitch, loudness, speech share and a fingerprint; silence gets a warning', async () => {
    const { client, personId } = await memberWithPerson(t);
    const person = { id: personId };
    const wav = path.join(t.dataDir, 'voice.wav');
    await speak(SENTENCE, { voice: 'en-us+m3', pitch: 30, speed: 140 }, wav);
    const tone = await client.post('/api/voiceRecordings', { personId: person.id, name: 'Story', audioData: dataUrl(readFileSync(wav), 'audio/wav') });
    expect(tone.statusCode).toBe(201);
    expect(json<VoiceRecording>(tone).mlProcessed).toBe(false);
    const analysed = await until(
      () => client.get(`/api/voiceRecordings/${json<VoiceRecording>(tone).id}`).then((response) => json<VoiceRecording>(response)),
      (recording) => recording.mlProcessed || recording.analysisError !== null,
    );
    expect(analysed.mlProcessed).toBe(true);
    expect(analysed.analysisError).toBeNull();
    // A low male synthetic voice (eSpeak m3, pitch 30): well under 150 Hz.
    expect(analysed.analysis!.pitchMedianHz).toBeGreaterThan(70);
    expect(analysed.analysis!.pitchMedianHz).toBeLessThan(150);
    expect(analysed.analysis!.loudnessLufs).toEqual(expect.any(Number));
    expect(analysed.analysis!.speechShare).toBeGreaterThan(0.8);
    expect(analysed.analysis!.warnings).toEqual([]);
    expect('voiceEmbedding' in analysed).toBe(false);

    // Six seconds of silence: analysed, with the warning a parent understands.
    const silence = await client.post('/api/voiceRecordings', { personId: person.id, name: 'Quiet', audioData: dataUrl(fixtures.wavSilence(6), 'audio/wav') });
    expect(silence.statusCode).toBe(201);
    const quiet = await until(
      () => client.get(`/api/voiceRecordings/${json<VoiceRecording>(silence).id}`).then((response) => json<VoiceRecording>(response)),
      (recording) => recording.mlProcessed || recording.analysisError !== null,
    );
    expect(quiet.analysis!.pitchMedianHz).toBeNull();
    expect(quiet.analysis!.warnings.map((warning) => warning.code)).toContain('noVoice');
  }, 120_000);
});
