// The limits on the work one upload may cause: ffmpeg killed at its time limit, the media limiter,
// and the files an attack on the API used (a 16000×16000 PNG, a 200 s MKV without a duration, a
// 2-hour Opus), made here at test time, refused from their headers within seconds, leaving nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDeflate } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '../../shared/media-rules';
import { TEMPLATE_MESSAGES } from '../../shared/template-rules';
import { checkTemplateVideo, checkThumbnail } from '../features/templates/upload';
import { HttpError } from '../http/errors';
import { createStorage } from '../storage/storage';
import { testDatabases } from '../testing/databases';
import { dataUrl, filesUnder, fixtures, multipart } from '../testing/media-fixtures';
import { type Member, memberWithPerson } from '../testing/people-kit';
import { type TestApp, createTestApp, json } from '../testing/test-app';
import { MediaTimeoutError, ffmpegBinary, probe, runFfmpeg, runToNull } from './ffmpeg';
import { createMediaLimiter, mediaLimiter, mediaLimiterOptions } from './media-limiter';

// ---- attack files, made at test time ----------------------------------------------------------------

const dir = mkdtempSync(path.join(tmpdir(), 'familystar-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs ffmpeg and returns what it wrote to stdout (`pipe:1`: not seekable, so no duration is written). */
function ffmpeg(args: string[]): Buffer {
  return execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', ...args], { maxBuffer: 64 * 1024 * 1024 });
}
function save(name: string, bytes: Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid black RGB PNG of width×height (16000×16000 is < 1 MB: zeros compress well). Built here: ffmpeg
 * takes 10 s and 2 GB to encode one.
 */
async function blackPng(width: number, height: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(1 + width * 3); // filter byte 0, then black pixels
  for (let y = 0; y < height; y += 1) deflate.write(row);
  deflate.end();
  await ended;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.concat(chunks)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const lazy = <T>(make: () => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

const attack = {
  /** The attack's face image: 16000×16000 (256 megapixels, 768 MB decoded). */
  hugePng: lazy(() => blackPng(16_000, 16_000)),
  /** Few pixels, but 10001 wide. */
  widePng: lazy(() => blackPng(10_001, 8)),
  /** The attack's face video, smaller: 200 s at 60 fps as Matroska with no duration in its header. */
  longMkv: lazy(() =>
    ffmpeg(['-f', 'lavfi', '-i', 'color=s=64x64:r=60:d=200', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'matroska', 'pipe:1']),
  ),
  /** 20 s without a duration in its header: allowed. */
  shortMkv: lazy(() =>
    ffmpeg(['-f', 'lavfi', '-i', 'color=s=64x64:r=30:d=20', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'matroska', 'pipe:1']),
  ),
  /** 90 s, stated in the header. */
  longMp4: lazy(() => {
    const file = path.join(dir, 'long.mp4');
    ffmpeg(['-f', 'lavfi', '-i', 'color=s=64x64:r=5:d=90', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
    return file;
  }),
  /** 4200 pixels wide (over MEDIA_LIMITS.videoMaxSide). */
  wideMp4: lazy(() => {
    const file = path.join(dir, 'wide.mp4');
    ffmpeg(['-f', 'lavfi', '-i', 'color=s=4200x64:r=10:d=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
    return file;
  }),
  /** 240 frames a second (over MEDIA_LIMITS.videoMaxFps). */
  fastMp4: lazy(() => {
    const file = path.join(dir, 'fast.mp4');
    ffmpeg(['-f', 'lavfi', '-i', 'color=s=64x64:r=240:d=3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
    return file;
  }),
  /** A minute of low-bitrate Opus, the source of the long recordings (copied, never re-encoded). */
  minuteOgg: lazy((): string => {
    const file = path.join(dir, 'minute.ogg');
    ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=60', '-c:a', 'libopus', '-b:a', '6k', '-compression_level', '0', file]);
    return file;
  }),
  /** 2 hours of Opus in Ogg, ~5 MB (under the 10 MB limit); its length is in the file. */
  twoHourOgg: lazy((): Buffer => ffmpeg(['-stream_loop', '119', '-i', attack.minuteOgg(), '-c', 'copy', '-f', 'ogg', 'pipe:1'])),
  /** 2 hours of Opus in WebM, ~6.5 MB, with no duration in its header (as MediaRecorder writes). */
  twoHourWebm: lazy((): Buffer => ffmpeg(['-stream_loop', '119', '-i', attack.minuteOgg(), '-c', 'copy', '-f', 'webm', 'pipe:1'])),
  /** 40 s in WebM with no duration in its header. */
  fortySecondWebm: lazy((): Buffer => ffmpeg(['-t', '40', '-i', attack.minuteOgg(), '-c', 'copy', '-f', 'webm', 'pipe:1'])),
  /** 20 s in WebM with no duration in its header: allowed. */
  twentySecondWebm: lazy(() =>
    ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=20', '-c:a', 'libopus', '-b:a', '32k', '-f', 'webm', 'pipe:1']),
  ),
  /**
   * 3 hours and 1 minute at 1 fps in WebM with no duration (a template over its limit). VP8: a template
   * in Matroska is refused by its type before its length is read (sniff.ts).
   */
  threeHourWebm: lazy(() => {
    const minute = save('minute.webm', ffmpeg(['-f', 'lavfi', '-i', 'color=s=64x64:r=1:d=60', '-c:v', 'libvpx', '-f', 'webm', 'pipe:1']));
    return save('three-hours.webm', ffmpeg(['-stream_loop', '180', '-i', minute, '-c', 'copy', '-f', 'webm', 'pipe:1']));
  }),
};

/** Resolves after the promise settles, with how long it took in ms. */
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
}

const deferred = () => {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
};

// ---- ffmpeg and ffprobe -----------------------------------------------------------------------------

describe('ffmpeg runs', () => {
  it('kills ffmpeg at its time limit (SIGKILL) and rejects with MediaTimeoutError', async () => {
    const marker = `familystar-timeout-${process.pid}-${Date.now()}`;
    // A source with no end: it would run for ever.
    const { result: error, ms } = await timed(() =>
      runFfmpeg(['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240', '-metadata', `title=${marker}`, '-f', 'null', '-'], {
        timeoutMs: 300,
      }).catch((failure: unknown) => failure),
    );
    expect(error).toBeInstanceOf(MediaTimeoutError);
    expect((error as MediaTimeoutError).message).toMatch(/longer than 300 ms and was killed/);
    expect(ms).toBeLessThan(5_000);
    // The promise settles once the process has exited: nothing of it is left running.
    expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain(marker);
  });

  it('reports other failures as themselves, not as a timeout', async () => {
    const error = await runFfmpeg(['-nostdin', '-v', 'error', '-i', path.join(dir, 'missing.mp4'), '-f', 'null', '-'], { timeoutMs: 10_000 }).catch(
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(MediaTimeoutError);
  });

  it('stops reading at maxSeconds: a 200 s video without a duration costs what a minute does', async () => {
    const file = save('long.mkv', attack.longMkv());
    const { result, ms } = await timed(() => probe(file, { maxSeconds: 61 }));
    expect(result.hasVideo).toBe(true);
    expect(result.duration).toBeGreaterThan(60);
    expect(result.duration).toBeLessThanOrEqual(61);
    expect(ms).toBeLessThan(10_000);
    const read = await runToNull(file, ['-c', 'copy'], { maxSeconds: 10 });
    expect(read.seconds).toBeLessThanOrEqual(10);
    expect(read.frames).toBeGreaterThan(590);
    expect(read.frames).toBeLessThanOrEqual(600);
  });

  it('probes a 16000×16000 PNG without decoding it', async () => {
    const file = save('huge.png', await attack.hugePng());
    const { result, ms } = await timed(() => probe(file));
    expect(result.hasVideo).toBe(true);
    // The decoder refused the picture (over the pixel guard) instead of allocating 768 MB for it.
    expect(result.width).toBeUndefined();
    expect(ms).toBeLessThan(5_000);
  });
});

// ---- the limiter ------------------------------------------------------------------------------------

describe('media limiter', () => {
  const options = { total: 3, perUser: 2, queuePerUser: 2, maxWaitMs: 10_000, retryAfterSeconds: 7 };

  it('runs at most perUser checks of one user at once; the next waits for a slot', async () => {
    const limiter = createMediaLimiter(options);
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, index) =>
      limiter.run(1, async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limiter.load()).toEqual({ running: 2, waiting: 1 });
    // Another user is not held up by user 1's queue.
    expect(await limiter.run(2, async () => 'other')).toBe('other');
    gates[0]!.resolve();
    await runs[0];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(limiter.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('runs at most `total` checks in all; a waiter starts when any slot frees', async () => {
    const limiter = createMediaLimiter(options);
    const gate = deferred();
    const started: string[] = [];
    const hold = (key: number, label: string) =>
      limiter.run(key, async () => {
        started.push(label);
        await gate.promise;
      });
    const runs = [hold(1, 'a1'), hold(1, 'a2'), hold(2, 'b1'), hold(3, 'c1')];
    await Promise.resolve();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    expect(limiter.load()).toEqual({ running: 3, waiting: 1 });
    gate.resolve();
    await Promise.all(runs);
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1']);
  });

  it('refuses with 429 and Retry-After beyond the queue of a user', async () => {
    const limiter = createMediaLimiter(options);
    const gate = deferred();
    const runs = Array.from({ length: options.perUser + options.queuePerUser }, () => limiter.run(1, () => gate.promise));
    const refused = await limiter.run(1, async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 429, message: MEDIA_MESSAGES.tooManyUploads, headers: { 'Retry-After': '7' } });
    // Other users still queue (the total is not full for them: one slot left).
    expect(await limiter.run(2, async () => 'ok')).toBe('ok');
    gate.resolve();
    await Promise.all(runs);
    expect(limiter.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses with 429 a check that waits longer than maxWaitMs', async () => {
    const limiter = createMediaLimiter({ ...options, perUser: 1, maxWaitMs: 50 });
    const gate = deferred();
    const running = limiter.run(1, () => gate.promise);
    const { result: refused, ms } = await timed(() => limiter.run(1, async () => 'late').catch((error: unknown) => error));
    expect(refused).toMatchObject({ statusCode: 429 });
    expect(ms).toBeLessThan(2_000);
    expect(limiter.load()).toEqual({ running: 1, waiting: 0 });
    gate.resolve();
    await running;
  });

  it('releases the slot when the check fails, and lets the next one run', async () => {
    const limiter = createMediaLimiter({ ...options, perUser: 1 });
    const gate = deferred();
    const failing = limiter.run(1, () => gate.promise);
    const next = limiter.run(1, async () => 'next');
    gate.reject(new Error('ffmpeg failed'));
    await expect(failing).rejects.toThrow('ffmpeg failed');
    expect(await next).toBe('next');
    expect(limiter.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('reads MEDIA_CHECKS_TOTAL and MEDIA_CHECKS_PER_USER, with defaults', () => {
    expect(mediaLimiterOptions({ MEDIA_CHECKS_TOTAL: '8', MEDIA_CHECKS_PER_USER: '3' })).toMatchObject({ total: 8, perUser: 3 });
    const defaults = mediaLimiterOptions({});
    expect(defaults.perUser).toBe(2);
    expect(defaults.total).toBeGreaterThanOrEqual(1);
    expect(() => mediaLimiterOptions({ MEDIA_CHECKS_TOTAL: '0' })).toThrow(/MEDIA_CHECKS_TOTAL/);
    expect(() => mediaLimiterOptions({ MEDIA_CHECKS_PER_USER: 'two' })).toThrow(/MEDIA_CHECKS_PER_USER/);
  });
});

// ---- templates (admins' uploads) --------------------------------------------------------------------

describe('template checks', () => {
  // Where a WebM holding H.264 would be rewritten as MP4 (none of these is one).
  const storage = createStorage(dir);
  const refusal = (work: Promise<unknown>) => work.then(() => undefined, (error: unknown) => error as HttpError);

  it('refuses a template over 3 hours whose header states no length, reading packets only', async () => {
    const { result, ms } = await timed(() => refusal(checkTemplateVideo(attack.threeHourWebm(), storage)));
    expect(result).toMatchObject({ statusCode: 400, message: TEMPLATE_MESSAGES.durationTooLong });
    expect(ms).toBeLessThan(15_000);
  });

  it('refuses a template over 4096 pixels wide, and a 16000×16000 thumbnail', async () => {
    expect(await refusal(checkTemplateVideo(attack.wideMp4(), storage))).toMatchObject({ statusCode: 400, message: MEDIA_MESSAGES.videoResolutionTooHigh });
    const thumbnail = save('thumb.png', await attack.hugePng());
    const { result, ms } = await timed(() => refusal(checkThumbnail(thumbnail)));
    expect(result).toMatchObject({ statusCode: 400, message: MEDIA_MESSAGES.imageTooManyPixels });
    expect(ms).toBeLessThan(5_000);
  });

  it('still accepts an ordinary template and thumbnail', async () => {
    expect(await checkTemplateVideo(save('av.mp4', fixtures.avMp4()), storage)).toEqual({ ext: 'mp4', duration: 3, hdr: false });
    expect(await checkThumbnail(save('thumb.jpg', fixtures.smallJpeg()))).toBe('jpg');
  });
});

// ---- the attacks, through the API ------------------------------------------------------------------

const [pglite] = (await testDatabases()).filter((database) => database.name === 'pglite');

describe('media limits through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(pglite!);
    await t.client().register(); // the first account is the admin
  });
  afterAll(() => t?.close());

  const userFiles = (userId: number) => filesUnder(t.storage.root).filter((file) => file.split(path.sep)[1] === String(userId));
  const tmpFiles = () => filesUnder(path.join(t.dataDir, 'tmp'));
  const rows = async (m: Member, kind: 'faceImages' | 'faceVideos' | 'voiceRecordings') =>
    json<unknown[]>(await m.client.get(`/api/people/${m.personId}/${kind}`));

  const postImage = (m: Member, bytes: Buffer) => m.client.post('/api/faceImages', { personId: m.personId, name: 'Big', imageData: dataUrl(bytes, 'image/png') });
  const postVideo = (m: Member, bytes: Buffer, mime = 'video/webm') =>
    m.client.post('/api/faceVideos', { personId: m.personId, name: 'Long', expressionType: 'neutral', videoData: dataUrl(bytes, mime) });
  const postVoice = (m: Member, bytes: Buffer, mime = 'audio/webm') =>
    m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Long', audioData: dataUrl(bytes, mime) });

  const expectRefused = async (
    m: Member,
    kind: 'faceImages' | 'faceVideos' | 'voiceRecordings',
    send: () => Promise<{ statusCode: number; body: string }>,
    message: string,
    withinMs = 10_000,
  ) => {
    const { result: response, ms } = await timed(send);
    expect(response.statusCode, response.body).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ message });
    expect(ms).toBeLessThan(withinMs);
    expect(await rows(m, kind)).toEqual([]);
    expect(userFiles(m.userId)).toEqual([]);
    expect(tmpFiles()).toEqual([]);
  };

  it('refuses a 16000×16000 PNG face image from its header, without decoding it', async () => {
    const m = await memberWithPerson(t);
    const png = await attack.hugePng();
    expect(png.length).toBeLessThan(MEDIA_LIMITS.imageMaxBytes);
    await expectRefused(m, 'faceImages', () => postImage(m, png), MEDIA_MESSAGES.imageTooManyPixels, 5_000);
    const wide = await attack.widePng();
    await expectRefused(m, 'faceImages', () => postImage(m, wide), MEDIA_MESSAGES.imageSideTooLong);
  });

  it('refuses a 200 s face video without a duration, inline or uploaded, reading only a minute of its packets', async () => {
    const m = await memberWithPerson(t);
    await expectRefused(m, 'faceVideos', () => postVideo(m, attack.longMkv()), MEDIA_MESSAGES.faceVideoTooLong);
    const upload = multipart([
      { name: 'personId', value: String(m.personId) },
      { name: 'video', filename: 'long.mkv', type: 'video/webm', content: attack.longMkv() },
    ]);
    await expectRefused(m, 'faceVideos', () => m.client.request('POST', '/api/upload/video', upload.payload, upload.headers), MEDIA_MESSAGES.faceVideoTooLong);
  });

  it('refuses face videos too long by their header, too large on screen, or with too many frames a second', async () => {
    const m = await memberWithPerson(t);
    const read = (file: string) => readFileSync(file);
    await expectRefused(m, 'faceVideos', () => postVideo(m, read(attack.longMp4()), 'video/mp4'), MEDIA_MESSAGES.faceVideoTooLong);
    await expectRefused(m, 'faceVideos', () => postVideo(m, read(attack.wideMp4()), 'video/mp4'), MEDIA_MESSAGES.videoResolutionTooHigh);
    await expectRefused(m, 'faceVideos', () => postVideo(m, read(attack.fastMp4()), 'video/mp4'), MEDIA_MESSAGES.videoFrameRateTooHigh);
  });

  it('accepts a 20 s face video without a duration in its header, measuring it', async () => {
    const m = await memberWithPerson(t);
    const response = await postVideo(m, attack.shortMkv());
    expect(response.statusCode, response.body).toBe(201);
    expect(json<{ duration: number }>(response).duration).toBeCloseTo(20, 0);
  });

  it('refuses 2-hour Opus recordings at once, with or without a stated length', async () => {
    const m = await memberWithPerson(t);
    const ogg = attack.twoHourOgg();
    const webm = attack.twoHourWebm();
    expect(Math.max(ogg.length, webm.length)).toBeLessThan(MEDIA_LIMITS.audioMaxBytes);
    await expectRefused(m, 'voiceRecordings', () => postVoice(m, ogg, 'audio/ogg'), MEDIA_MESSAGES.recordingTooLong);
    await expectRefused(m, 'voiceRecordings', () => postVoice(m, webm), MEDIA_MESSAGES.recordingTooLong);
    await expectRefused(m, 'voiceRecordings', () => postVoice(m, attack.fortySecondWebm()), MEDIA_MESSAGES.recordingTooLong);
  });

  it('accepts a 20 s recording without a duration in its header, measuring it', async () => {
    const m = await memberWithPerson(t);
    const response = await postVoice(m, attack.twentySecondWebm());
    expect(response.statusCode, response.body).toBe(201);
    expect(json<{ duration: number }>(response).duration).toBeCloseTo(20, 0);
  });

  it('answers 429 with Retry-After when a user already has too many checks running and waiting', async () => {
    const m = await memberWithPerson(t);
    const { perUser, queuePerUser } = mediaLimiterOptions();
    const gate = deferred();
    const held = Array.from({ length: perUser + queuePerUser }, () => mediaLimiter.run(m.userId, () => gate.promise));
    try {
      const response = await postVoice(m, fixtures.webmTone(6));
      expect(response.statusCode).toBe(429);
      expect(json(response)).toEqual({ message: MEDIA_MESSAGES.tooManyUploads });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(await rows(m, 'voiceRecordings')).toEqual([]);
      expect(userFiles(m.userId)).toEqual([]);
      expect(tmpFiles()).toEqual([]);
    } finally {
      gate.resolve();
      await Promise.all(held);
    }
    const after = await postVoice(m, fixtures.webmTone(6));
    expect(after.statusCode, after.body).toBe(201);
  });
});
