import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_FACE_PIXELS, TURNED_AWAY_YAW_DEGREES } from '../../../shared/face-analysis';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '../../../shared/media-rules';
import { MESSAGES } from '../../../shared/validation';
import { faceImages, faceVideos } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { PORTRAIT, dataUrl, filesUnder, fixtures, multipart } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';
import path from 'node:path';
import sharp from 'sharp';

const databases = await testDatabases();
/** Group photos shipped in face-api's demo folder (tests only): sample1 shows 3 people, sample6 4. */
const FACE_API_DEMO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo');

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Intersection over union of two boxes. */
function overlap(a: Box, b: Box): number {
  const width = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const height = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const shared = width * height;
  return shared / (a.width * a.height + b.width * b.height - shared);
}

interface FaceImageJson {
  id: number;
  turnedAway: boolean;
  blurred: boolean;
  eyesClosed: boolean;
  looksAside: boolean;
  smallFace: boolean;
  facesInPhoto: number;
  faceBox: Box | null;
  imageUrl: string;
  isDefault: boolean;
  name: string;
  personId: number;
  userId: number;
  createdAt: string;
  expressionType: string;
}

describe.each(databases)('face images and face videos API on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    await t.client().register(); // the first account is the admin
  });
  afterAll(() => t?.close());

  const jpegUrl = () => dataUrl(fixtures.jpeg(), 'image/jpeg');
  const addImage = async (m: Member, extra: Record<string, unknown> = {}) => {
    const response = await m.client.post('/api/faceImages', { personId: m.personId, userId: m.userId, name: 'Front', imageData: jpegUrl(), ...extra });
    expect(response.statusCode, response.body).toBe(201);
    return json<FaceImageJson>(response);
  };
  const imagesOf = async (m: Member) => json<FaceImageJson[]>(await m.client.get(`/api/people/${m.personId}/faceImages`));
  const userFiles = (userId: number) => filesUnder(t.storage.root).filter((file) => file.split(path.sep)[1] === String(userId));
  const tmpFiles = () => filesUnder(path.join(t.dataDir, 'tmp'));

  describe('face images', () => {
    it('stores a JPEG or PNG for its owner, by URL, never echoing the data', async () => {
      const m = await memberWithPerson(t);
      const image = await addImage(m, { expressionType: 'smile' });
      expect(image).toMatchObject({ personId: m.personId, userId: m.userId, name: 'Front', isDefault: true, expressionType: 'smile' });
      expect(image.imageUrl).toMatch(new RegExp(`^/api/media/face-images/${m.userId}/[0-9a-f-]{36}\\.jpg$`));
      expect(JSON.stringify(image)).not.toContain('imageData');
      expect(JSON.stringify(image)).not.toContain('base64');
      const png = await addImage(m, { imageData: dataUrl(fixtures.png(), 'image/png'), name: 'Side' });
      expect(png.imageUrl).toMatch(/\.png$/);
      expect(png.isDefault).toBe(false);
      expect(userFiles(m.userId)).toHaveLength(2);
      expect((await imagesOf(m)).map((i) => i.name)).toEqual(['Front', 'Side']);
      expect(json<unknown[]>(await m.client.get(`/api/users/${m.userId}/faceImages`))).toHaveLength(2);
    });

    it('says how many faces a photo shows and where the one used is, as fractions of the photo', async () => {
      const m = await memberWithPerson(t);
      // One face: the letterboxed portrait (the face sits in the middle 480 px of 640).
      const single = await addImage(m);
      expect(single.facesInPhoto).toBe(1);
      expect(single.faceBox).not.toBeNull();
      expect(single.faceBox!.x).toBeGreaterThanOrEqual(80 / 640);
      expect(single.faceBox!.x + single.faceBox!.width).toBeLessThanOrEqual(560 / 640);

      // Groups: the largest face is the one used, and the answer says where it is.
      for (const [photo, faces] of [
        ['sample1.jpg', 3],
        ['sample6.jpg', 4],
      ] as const) {
        const file = path.join(FACE_API_DEMO, photo);
        const group = await addImage(m, { name: photo, imageData: dataUrl(readFileSync(file), 'image/jpeg') });
        expect(group.facesInPhoto, photo).toBe(faces);
        const box = group.faceBox!;
        for (const value of [box.x, box.y, box.width, box.height, box.x + box.width, box.y + box.height]) {
          expect(value, photo).toBeGreaterThanOrEqual(0);
          expect(value, photo).toBeLessThanOrEqual(1);
        }
        // The same picture analysed on its own: the box covers its largest face, not another.
        const analysis = await t.pipeline.run('analyseImage', { file });
        const [largest, ...others] = analysis.faces.map(({ box: [x, y, w, h] }) => ({
          x: x / analysis.width,
          y: y / analysis.height,
          width: w / analysis.width,
          height: h / analysis.height,
        }));
        expect(overlap(box, largest!), photo).toBeGreaterThan(0.9);
        for (const other of others) expect(overlap(box, other), photo).toBeLessThan(0.1);
      }
      const stored = await imagesOf(m);
      expect(stored.map((image) => image.facesInPhoto)).toEqual([1, 3, 4]);
      expect(JSON.stringify(stored)).not.toMatch(/embedding|analysis/i);
    }, 60_000);

    it('keeps a photo of a face turned far to one side, and says so; a frontal face is not flagged', async () => {
      const m = await memberWithPerson(t);
      // sample2's second face is seen from the side (Human's yaw about −40°): cut out on its own.
      const file = path.join(FACE_API_DEMO, 'sample2.jpg');
      const analysis = await t.pipeline.run('analyseImage', { file });
      const turned = analysis.faces.find((face) => Math.abs(face.pose.yaw) >= TURNED_AWAY_YAW_DEGREES)!;
      expect(turned, 'a turned face in sample2').toBeDefined();
      const [x, y, w, h] = turned.box;
      const grow = 1.2 * Math.max(w, h);
      const left = Math.max(0, Math.round(x - grow));
      const top = Math.max(0, Math.round(y - grow));
      const crop = await sharp(file)
        .extract({ left, top, width: Math.min(analysis.width - left, Math.round(w + 2 * grow)), height: Math.min(analysis.height - top, Math.round(h + 2 * grow)) })
        .resize({ width: 640 })
        .jpeg()
        .toBuffer();
      const side = await addImage(m, { name: 'Side view', imageData: dataUrl(crop, 'image/jpeg') });
      expect(side).toMatchObject({ facesInPhoto: 1, turnedAway: true });
      const front = await addImage(m, { name: 'Front' });
      expect(front.turnedAway).toBe(false);
    }, 60_000);

    it('says so of a face turned a third of the way that Human reads as barely turned, by how much of it the video must fill in', async () => {
      const m = await memberWithPerson(t);
      // sample4's largest face is turned about a third of the way and looks down: Human's yaw reads 19°, but a
      // third of her face, turned frontal, comes from its other side. sample3's is turned a little (8 % of it
      // hidden); sample2's woman, cut to her face, is tilted and looks down, not turned (a quarter hidden, 8°).
      for (const file of ['sample4.jpg', 'sample3.jpg']) {
        const { faces } = await t.pipeline.run('analyseImage', { file: path.join(FACE_API_DEMO, file) });
        expect(Math.abs(faces[0]!.pose.yaw), file).toBeLessThan(TURNED_AWAY_YAW_DEGREES);
      }
      const tilted = await sharp(path.join(FACE_API_DEMO, 'sample2.jpg')).extract({ left: 1250, top: 0, width: 600, height: 650 }).jpeg().toBuffer();
      const turned = await addImage(m, { name: 'Turned', imageData: dataUrl(readFileSync(path.join(FACE_API_DEMO, 'sample4.jpg')), 'image/jpeg') });
      const slightly = await addImage(m, { name: 'Slightly turned', imageData: dataUrl(readFileSync(path.join(FACE_API_DEMO, 'sample3.jpg')), 'image/jpeg') });
      const down = await addImage(m, { name: 'Tilted', imageData: dataUrl(tilted, 'image/jpeg') });
      expect([turned.turnedAway, slightly.turnedAway, down.turnedAway]).toEqual([true, false, false]);
      const listed = await imagesOf(m);
      expect(listed.map((image) => [image.name, image.turnedAway])).toEqual(expect.arrayContaining([['Turned', true], ['Slightly turned', false], ['Tilted', false]]));
    }, 60_000);

    it('keeps a blurred photo, and says so; the same photo sharp is not flagged', async () => {
      const m = await memberWithPerson(t);
      // A real face (face-api's sample1), its face about 270 px wide, blurred by 1.2 % of that.
      const file = path.join(FACE_API_DEMO, 'sample1.jpg');
      const sharpCopy = await sharp(file).jpeg().toBuffer();
      const blurredCopy = await sharp(file).blur(3.2).jpeg().toBuffer();
      const blurred = await addImage(m, { name: 'Blurred', imageData: dataUrl(blurredCopy, 'image/jpeg') });
      expect(blurred.blurred).toBe(true);
      const sharpImage = await addImage(m, { name: 'Sharp', imageData: dataUrl(sharpCopy, 'image/jpeg') });
      expect(sharpImage.blurred).toBe(false);
      // The blur changes no other warning: her face is turned a third of the way (sample1), blurred or not.
      expect([blurred.turnedAway, sharpImage.turnedAway]).toEqual([true, true]);
    }, 60_000);

    it('keeps a photo whose face is small, says so (not blurred), and lists it so; the same face nearer is not flagged', async () => {
      const m = await memberWithPerson(t);
      // The real portrait as a distant shot: shrunk and set in a 640x480 picture. Its face box is about a quarter
      // of the picture's side (147 pixels in the 512-pixel portrait).
      const distant = async (side: number) =>
        dataUrl(await sharp(PORTRAIT).resize(side, side).extend({ left: (640 - side) / 2, right: (640 - side) / 2, top: (480 - side) / 2, bottom: (480 - side) / 2 }).jpeg({ quality: 90 }).toBuffer(), 'image/jpeg');
      const tiny = await addImage(m, { name: 'Far away', imageData: await distant(200) });
      const small = await addImage(m, { name: 'Across the room', imageData: await distant(300) });
      const near = await addImage(m, { name: 'Near', imageData: jpegUrl() });
      expect([tiny.smallFace, small.smallFace, near.smallFace]).toEqual([true, true, false]);
      // The boxes behind it, in the photo's own pixels: the line sits between them.
      const heights = [tiny, small, near].map((image) => image.faceBox!.height * 480);
      expect(heights[1]).toBeLessThan(SMALL_FACE_PIXELS);
      expect(heights[2]).toBeGreaterThan(SMALL_FACE_PIXELS);
      // The tiniest reads blurred to the blur measure (under its own size): said as small alone.
      expect([tiny.blurred, small.blurred, near.blurred]).toEqual([false, false, false]);
      const listed = await imagesOf(m);
      expect(listed.map((image) => [image.name, image.smallFace])).toEqual(expect.arrayContaining([['Far away', true], ['Across the room', true], ['Near', false]]));
    }, 60_000);

    it('keeps a photo with the eyes shut, says so, and lists it so; open eyes are not flagged', async () => {
      const m = await memberWithPerson(t);
      // A real face with her eyes shut (face-api's sample2, its largest face); sample1's are open.
      const shut = await addImage(m, { name: 'Eyes shut', imageData: dataUrl(readFileSync(path.join(FACE_API_DEMO, 'sample2.jpg')), 'image/jpeg') });
      expect(shut).toMatchObject({ eyesClosed: true, blurred: false, looksAside: false });
      const open = await addImage(m, { name: 'Eyes open', imageData: dataUrl(readFileSync(path.join(FACE_API_DEMO, 'sample1.jpg')), 'image/jpeg') });
      expect(open.eyesClosed).toBe(false);
      const listed = await imagesOf(m);
      expect(listed.map((image) => [image.name, image.eyesClosed])).toEqual(expect.arrayContaining([['Eyes shut', true], ['Eyes open', false]]));
    }, 60_000);

    it('keeps a photo whose eyes look to one side, says so, and lists it so; eyes at the camera are not flagged', async () => {
      const m = await memberWithPerson(t);
      // The real talking woman glancing to each side (1.8 s, 2.7 s) and at the camera (0.3 s): where her eyes
      // will look in the video, read on her face turned frontal as the render pastes it.
      const left = await addImage(m, { name: 'Glancing left', imageData: dataUrl(fixtures.womanStill(1.8), 'image/jpeg') });
      const right = await addImage(m, { name: 'Glancing right', imageData: dataUrl(fixtures.womanStill(2.7), 'image/jpeg') });
      const ahead = await addImage(m, { name: 'At the camera', imageData: dataUrl(fixtures.womanStill(0.3), 'image/jpeg') });
      expect([left.looksAside, right.looksAside, ahead.looksAside]).toEqual([true, true, false]);
      expect(left).toMatchObject({ eyesClosed: false, turnedAway: false });
      const listed = await imagesOf(m);
      expect(listed.map((image) => [image.name, image.looksAside])).toEqual(expect.arrayContaining([['Glancing left', true], ['At the camera', false]]));
    }, 60_000);

    it('streams a stored image back to its owner only (Range → 206)', async () => {
      const m = await memberWithPerson(t);
      const other = await memberWithPerson(t);
      const { imageUrl } = await addImage(m);
      const full = await m.client.get(imageUrl);
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-type']).toBe('image/jpeg');
      expect(full.rawPayload.equals(fixtures.jpeg())).toBe(true);
      const range = await m.client.request('GET', imageUrl, undefined, { range: 'bytes=0-99' });
      expect(range.statusCode).toBe(206);
      expect(range.rawPayload).toHaveLength(100);
      // Biometric media is never stored by the browser: after a delete or a sign-out nothing of it shows.
      expect(full.headers['cache-control']).toBe('no-store');
      // If-Range: a range of the same version only; another version (an old ETag) is answered whole.
      const same = await m.client.request('GET', imageUrl, undefined, { range: 'bytes=0-99', 'if-range': String(full.headers.etag) });
      expect([same.statusCode, same.rawPayload.length]).toEqual([206, 100]);
      const older = await m.client.request('GET', imageUrl, undefined, { range: 'bytes=0-99', 'if-range': '"0-0"' });
      expect(older.statusCode).toBe(200);
      expect(older.rawPayload.equals(fixtures.jpeg())).toBe(true);
      expect((await other.client.get(imageUrl)).statusCode).toBe(403);
      expect((await t.client().get(imageUrl)).statusCode).toBe(401);
    });

    it('makes the first image default, lets another take it, and passes it on when the default is deleted', async () => {
      const m = await memberWithPerson(t);
      const first = await addImage(m, { name: 'One' });
      const second = await addImage(m, { name: 'Two' });
      expect([first.isDefault, second.isDefault]).toEqual([true, false]);
      // The wizard/camera can send isDefault: true: it takes the default.
      const third = await addImage(m, { name: 'Three', isDefault: true });
      expect(third.isDefault).toBe(true);
      expect((await imagesOf(m)).filter((i) => i.isDefault).map((i) => i.name)).toEqual(['Three']);

      const set = await m.client.patch(`/api/faceImages/${first.id}/setDefault`);
      expect(set.statusCode).toBe(200);
      expect(json(set)).toMatchObject({ id: first.id, isDefault: true });
      expect((await imagesOf(m)).filter((i) => i.isDefault).map((i) => i.name)).toEqual(['One']);

      // Deleting the default: the newest remaining image becomes default.
      expect((await m.client.delete(`/api/faceImages/${first.id}`)).statusCode).toBe(204);
      expect((await imagesOf(m)).map((i) => [i.name, i.isDefault])).toEqual([
        ['Two', false],
        ['Three', true],
      ]);
      expect((await m.client.get(first.imageUrl)).statusCode).toBe(404);
      expect(userFiles(m.userId)).toHaveLength(2);
      // Deleting a non-default leaves the default alone.
      expect((await m.client.delete(`/api/faceImages/${second.id}`)).statusCode).toBe(204);
      expect((await imagesOf(m)).map((i) => [i.name, i.isDefault])).toEqual([['Three', true]]);
    });

    it('checks the content, not the declared type, and leaves nothing on disk when it fails', async () => {
      const m = await memberWithPerson(t);
      const cases: [string, unknown, number, string][] = [
        ['text declared image/png', dataUrl('hello, this is not a picture at all', 'image/png'), 400, MEDIA_MESSAGES.invalidImageType],
        ['an MP4 declared image/jpeg', dataUrl(fixtures.mp4(), 'image/jpeg'), 400, MEDIA_MESSAGES.invalidImageType],
        ['a WAV declared image/jpeg', dataUrl(fixtures.wavTone(6), 'image/jpeg'), 400, MEDIA_MESSAGES.invalidImageType],
        ['a truncated JPEG', dataUrl(fixtures.jpeg().subarray(0, 2000), 'image/jpeg'), 400, MEDIA_MESSAGES.unreadableMedia],
        ['an empty data URL', 'data:image/jpeg;base64,', 400, MEDIA_MESSAGES.emptyFile],
        ['a payload that is not base64', 'data:image/jpeg;base64,@@@not*base64!!', 400, MEDIA_MESSAGES.notBase64],
        ['a data URL without ;base64', 'data:image/jpeg,rawbytes', 400, MEDIA_MESSAGES.notBase64],
        ['a plain string', 'just text', 400, MEDIA_MESSAGES.notBase64],
        ['a missing imageData', undefined, 400, MEDIA_MESSAGES.notBase64],
        ['a 5 MB + 1 byte image', dataUrl(Buffer.concat([fixtures.jpeg(), Buffer.alloc(MEDIA_LIMITS.imageMaxBytes)]), 'image/jpeg'), 413, MEDIA_MESSAGES.imageTooLarge],
        ['a body over the route limit', dataUrl(Buffer.alloc(7 * 1024 * 1024), 'image/jpeg'), 413, MEDIA_MESSAGES.imageTooLarge],
      ];
      for (const [label, imageData, status, message] of cases) {
        const response = await m.client.post('/api/faceImages', { personId: m.personId, name: 'Bad', imageData });
        expect(response.statusCode, label).toBe(status);
        expect(json(response), label).toEqual({ message });
      }
      expect(await imagesOf(m)).toEqual([]);
      expect(userFiles(m.userId)).toEqual([]);
      expect(tmpFiles()).toEqual([]);
    });

    it.each([
      ['a 1-character name is fine', 'A', 201],
      ['a 10,000-character name is too long', 'A'.repeat(10_000), 400],
      ['an empty name', '', 400],
    ])('names: %s', async (_label, name, status) => {
      const m = await memberWithPerson(t);
      const response = await m.client.post('/api/faceImages', { personId: m.personId, name, imageData: jpegUrl() });
      expect(response.statusCode).toBe(status);
      if (status === 400) expect(userFiles(m.userId)).toEqual([]);
    });

    it("refuses another user's person, rows and ids (403), unknown people (404), bad ids (400)", async () => {
      const owner = await memberWithPerson(t);
      const other = await memberWithPerson(t);
      const image = await addImage(owner);

      const onOthersPerson = await other.client.post('/api/faceImages', { personId: owner.personId, name: 'X', imageData: jpegUrl() });
      expect(onOthersPerson.statusCode).toBe(403);
      const asOtherUser = await other.client.post('/api/faceImages', { personId: other.personId, userId: owner.userId, name: 'X', imageData: jpegUrl() });
      expect(asOtherUser.statusCode).toBe(403);
      const unknown = await other.client.post('/api/faceImages', { personId: 999_999, name: 'X', imageData: jpegUrl() });
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown)).toEqual({ message: MEDIA_MESSAGES.personNotFound });
      const badPerson = await other.client.post('/api/faceImages', { personId: 'abc', name: 'X', imageData: jpegUrl() });
      expect(badPerson.statusCode).toBe(400);
      expect(json(badPerson)).toEqual({ message: MESSAGES.invalidId });
      expect(userFiles(other.userId)).toEqual([]);

      expect((await other.client.get(`/api/people/${owner.personId}/faceImages`)).statusCode).toBe(403);
      expect((await other.client.get(`/api/users/${owner.userId}/faceImages`)).statusCode).toBe(403);
      expect((await other.client.patch(`/api/faceImages/${image.id}/setDefault`)).statusCode).toBe(403);
      expect((await other.client.delete(`/api/faceImages/${image.id}`)).statusCode).toBe(403);
      expect((await owner.client.get(image.imageUrl)).statusCode).toBe(200);
      expect(await imagesOf(owner)).toEqual([image]);

      for (const [method, url] of [
        ['PATCH', '/api/faceImages/abc/setDefault'],
        ['DELETE', '/api/faceImages/abc'],
        ['GET', '/api/people/abc/faceImages'],
        ['GET', '/api/users/abc/faceImages'],
      ] as const) {
        const response = await owner.client.request(method, url);
        expect(response.statusCode, url).toBe(400);
        expect(json(response)).toEqual({ message: MESSAGES.invalidId });
      }
      expect((await owner.client.delete('/api/faceImages/999999')).statusCode).toBe(404);
    });

    it('answers 401 to a signed-out visitor on every call', async () => {
      const m = await memberWithPerson(t);
      const image = await addImage(m);
      const visitor = t.client();
      for (const [method, url, body] of [
        ['GET', `/api/users/${m.userId}/faceImages`],
        ['GET', `/api/people/${m.personId}/faceImages`],
        ['POST', '/api/faceImages', { personId: m.personId, name: 'X', imageData: jpegUrl() }],
        ['PATCH', `/api/faceImages/${image.id}/setDefault`],
        ['DELETE', `/api/faceImages/${image.id}`],
        ['GET', `/api/users/${m.userId}/faceVideos`],
        ['GET', `/api/people/${m.personId}/faceVideos`],
        ['POST', '/api/faceVideos', { personId: m.personId, name: 'X', videoData: dataUrl(fixtures.mp4(), 'video/mp4') }],
        ['DELETE', '/api/faceVideos/1'],
      ] as const) {
        expect((await visitor.request(method, url, body)).statusCode, `${method} ${url}`).toBe(401);
      }
      const upload = multipart([
        { name: 'personId', value: String(m.personId) },
        { name: 'video', filename: 'a.mp4', type: 'video/mp4', content: fixtures.mp4() },
      ]);
      expect((await visitor.request('POST', '/api/upload/video', upload.payload, upload.headers)).statusCode).toBe(401);
      expect(userFiles(m.userId)).toHaveLength(1);
    });
  });

  describe('face videos', () => {
    const mp4Url = () => dataUrl(fixtures.mp4(), 'video/mp4');

    it('saves an inline face video as pending, with its measured duration', async () => {
      const m = await memberWithPerson(t);
      const response = await m.client.post('/api/faceVideos', {
        userId: m.userId,
        personId: m.personId,
        name: 'Grandma Rose - Smile',
        videoData: mp4Url(),
        expressionType: 'smile',
      });
      expect(response.statusCode, response.body).toBe(201);
      const video = json(response);
      expect(video).toMatchObject({
        personId: m.personId,
        name: 'Grandma Rose - Smile',
        expressionType: 'smile',
        processingStatus: 'pending',
        isProcessed: false,
        extractedFacesCount: 0,
        errorMessage: null,
      });
      expect(video.duration).toBeCloseTo(2, 0);
      expect(video.videoUrl).toMatch(/^\/api\/media\/face-videos\/\d+\/[0-9a-f-]{36}\.mp4$/);
      expect(JSON.stringify(video)).not.toContain('base64');
      const range = await m.client.request('GET', video.videoUrl as string, undefined, { range: 'bytes=10-' });
      expect(range.statusCode).toBe(206);
      expect(json<unknown[]>(await m.client.get(`/api/people/${m.personId}/faceVideos`))).toHaveLength(1);
      expect(json<unknown[]>(await m.client.get(`/api/users/${m.userId}/faceVideos`))).toHaveLength(1);
      // No face extraction is faked: the row stays pending until the job issue plugs in the worker.
      const [row] = await t.database.db.select().from(faceVideos).where(eq(faceVideos.id, video.id as number));
      expect(row?.processingStatus).toBe('pending');
      expect(await t.database.db.select().from(faceImages).where(eq(faceImages.personId, m.personId))).toEqual([]);
    });

    it('rejects wrong, damaged, empty and oversize inline videos, leaving nothing behind', async () => {
      const m = await memberWithPerson(t);
      const cases: [string, unknown, number, string][] = [
        ['a JPEG declared video/mp4', jpegUrl().replace('image/jpeg', 'video/mp4'), 400, MEDIA_MESSAGES.invalidVideoType],
        ['text declared video/webm', dataUrl('not a video, just words here', 'video/webm'), 400, MEDIA_MESSAGES.invalidVideoType],
        ['audio-only WebM', dataUrl(fixtures.webmTone(6), 'video/webm'), 400, MEDIA_MESSAGES.invalidVideoType],
        ['a truncated MP4', dataUrl(fixtures.mp4().subarray(0, 3000), 'video/mp4'), 400, MEDIA_MESSAGES.unreadableMedia],
        ['an empty data URL', 'data:video/mp4;base64,', 400, MEDIA_MESSAGES.emptyFile],
        ['no video at all', undefined, 400, MEDIA_MESSAGES.noVideoSelected],
        ['not base64', 'data:video/mp4;base64,%%%%', 400, MEDIA_MESSAGES.notBase64],
        ['an inline video over 20 MB', dataUrl(Buffer.alloc(MEDIA_LIMITS.inlineVideoMaxBytes + 1), 'video/mp4'), 413, MEDIA_MESSAGES.videoDataTooLarge],
        ['a body over the route limit', dataUrl(Buffer.alloc(MEDIA_LIMITS.inlineVideoMaxBytes + 2 * 1024 * 1024), 'video/mp4'), 413, MEDIA_MESSAGES.videoDataTooLarge],
      ];
      for (const [label, videoData, status, message] of cases) {
        const response = await m.client.post('/api/faceVideos', { personId: m.personId, name: 'Bad', expressionType: 'neutral', videoData });
        expect(response.statusCode, label).toBe(status);
        expect(json(response), label).toEqual({ message });
      }
      expect(json<unknown[]>(await m.client.get(`/api/people/${m.personId}/faceVideos`))).toEqual([]);
      expect(userFiles(m.userId)).toEqual([]);
      expect(tmpFiles()).toEqual([]);
    });

    it("refuses another user's person and videos, and deletes a video with its file", async () => {
      const owner = await memberWithPerson(t);
      const other = await memberWithPerson(t);
      const created = json<{ id: number; videoUrl: string }>(
        await owner.client.post('/api/faceVideos', { personId: owner.personId, name: 'Neutral', expressionType: 'neutral', videoData: mp4Url() }),
      );
      expect((await other.client.post('/api/faceVideos', { personId: owner.personId, name: 'X', expressionType: 'neutral', videoData: mp4Url() })).statusCode).toBe(403);
      expect((await other.client.get(`/api/people/${owner.personId}/faceVideos`)).statusCode).toBe(403);
      expect((await other.client.get(`/api/users/${owner.userId}/faceVideos`)).statusCode).toBe(403);
      expect((await other.client.delete(`/api/faceVideos/${created.id}`)).statusCode).toBe(403);
      expect((await other.client.get(created.videoUrl)).statusCode).toBe(403);
      expect((await owner.client.delete('/api/faceVideos/abc')).statusCode).toBe(400);
      expect(userFiles(other.userId)).toEqual([]);

      expect(userFiles(owner.userId)).toHaveLength(1);
      expect((await owner.client.delete(`/api/faceVideos/${created.id}`)).statusCode).toBe(204);
      expect(userFiles(owner.userId)).toEqual([]);
      expect((await owner.client.delete(`/api/faceVideos/${created.id}`)).statusCode).toBe(404);
    });
  });

  describe('POST /api/upload/video', () => {
    const upload = (m: Member, parts: Parameters<typeof multipart>[0]) => {
      const body = multipart(parts);
      return m.client.request('POST', '/api/upload/video', body.payload, body.headers);
    };
    const video = (content: Buffer | number = fixtures.mp4(), type = 'video/mp4') => ({ name: 'video', filename: 'face.mp4', type, content });

    it('streams a video to storage (file first, as the spec orders the fields) and saves it as a face video', async () => {
      const m = await memberWithPerson(t);
      const response = await upload(m, [video(), { name: 'personId', value: String(m.personId) }, { name: 'userId', value: String(m.userId) }]);
      expect(response.statusCode, response.body).toBe(201);
      const { videoUrl, videoData } = json<{ videoUrl: string; videoData: string }>(response);
      expect(videoUrl).toMatch(new RegExp(`^/api/media/face-videos/${m.userId}/[0-9a-f-]{36}\\.mp4$`));
      expect(videoData).toBe(videoUrl);
      expect(tmpFiles()).toEqual([]);
      expect((await m.client.request('GET', videoUrl, undefined, { range: 'bytes=0-9' })).statusCode).toBe(206);

      const saved = await m.client.post('/api/faceVideos', { personId: m.personId, name: 'Talk', expressionType: 'talking', videoUrl });
      expect(saved.statusCode, saved.body).toBe(201);
      expect(json(saved)).toMatchObject({ videoUrl, processingStatus: 'pending', expressionType: 'talking' });
      // The URL can also come back in videoData (what the upload answered); one upload makes one face video.
      const again = await m.client.post('/api/faceVideos', { personId: m.personId, name: 'Talk', expressionType: 'talking', videoData });
      expect(again.statusCode).toBe(409);
      expect(json(again)).toEqual({ message: MEDIA_MESSAGES.uploadAlreadyUsed });

      // Another user cannot claim the upload, nor read it.
      const other = await memberWithPerson(t);
      const claimed = await other.client.post('/api/faceVideos', { personId: other.personId, name: 'Mine', expressionType: 'neutral', videoUrl });
      expect(claimed.statusCode).toBe(400);
      expect(json(claimed)).toEqual({ message: MEDIA_MESSAGES.uploadNotFound });
      expect((await other.client.get(videoUrl)).statusCode).toBe(403);
      const invented = await m.client.post('/api/faceVideos', {
        personId: m.personId,
        name: 'X',
        expressionType: 'neutral',
        videoUrl: `/api/media/face-videos/${m.userId}/00000000-0000-4000-8000-000000000000.mp4`,
      });
      expect(invented.statusCode).toBe(400);
    });

    it('rejects a wrong type, a damaged file, a missing file, and another user’s person, leaving nothing behind', async () => {
      const m = await memberWithPerson(t);
      const other = await memberWithPerson(t);
      const person = { name: 'personId', value: String(m.personId) };
      const cases: [string, Parameters<typeof multipart>[0], number, string][] = [
        ['text named .mp4', [person, video(Buffer.from('this is only text pretending to be an mp4 file'))], 400, MEDIA_MESSAGES.invalidVideoType],
        ['a JPEG as video/mp4', [person, video(fixtures.jpeg())], 400, MEDIA_MESSAGES.invalidVideoType],
        ['a truncated MP4', [person, video(fixtures.mp4().subarray(0, 3000))], 400, MEDIA_MESSAGES.unreadableMedia],
        ['an empty file', [person, video(Buffer.alloc(0))], 400, MEDIA_MESSAGES.emptyFile],
        ['no file', [person], 400, MEDIA_MESSAGES.noVideoSelected],
        ['no person', [video()], 400, 'Please choose a person'],
        ['a non-numeric person', [{ name: 'personId', value: 'abc' }, video()], 400, MESSAGES.invalidId],
        ['another user’s person', [{ name: 'personId', value: String(other.personId) }, video()], 403, MESSAGES.forbidden],
        ['another userId', [person, { name: 'userId', value: String(other.userId) }, video()], 403, MESSAGES.forbidden],
        ['an unknown person', [{ name: 'personId', value: '999999' }, video()], 404, MEDIA_MESSAGES.personNotFound],
      ];
      for (const [label, parts, status, message] of cases) {
        const response = await upload(m, parts);
        expect(response.statusCode, label).toBe(status);
        expect(json(response), label).toEqual({ message });
      }
      expect(userFiles(m.userId)).toEqual([]);
      expect(tmpFiles()).toEqual([]);
    });

    it('rejects a file over 100 MB while streaming (413, spec message), leaving nothing on disk', async () => {
      const m = await memberWithPerson(t);
      const started = Date.now();
      const response = await upload(m, [{ name: 'personId', value: String(m.personId) }, video(Buffer.concat([fixtures.mp4(), Buffer.alloc(MEDIA_LIMITS.videoMaxBytes + 1 - fixtures.mp4().length)]))]);
      expect(response.statusCode).toBe(413);
      expect(json(response)).toEqual({ message: 'Maximum file size is 100MB' });
      expect(userFiles(m.userId)).toEqual([]);
      expect(tmpFiles()).toEqual([]);
      expect(Date.now() - started).toBeLessThan(20_000);
    });

    it('accepts a file of exactly 100 MB up to the limit check (then judges its content)', async () => {
      const m = await memberWithPerson(t);
      const response = await upload(m, [{ name: 'personId', value: String(m.personId) }, video(MEDIA_LIMITS.videoMaxBytes)]);
      // Zeros are not a video: it got past the size check and failed on content.
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ message: MEDIA_MESSAGES.invalidVideoType });
      expect(tmpFiles()).toEqual([]);
    });
  });
});
