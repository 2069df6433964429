// One way in for people's media: a data URL or an uploaded temporary file → content sniffed, size
// checked, probed and decoded with ffmpeg → moved into storage. Faces, voices and face videos all use
// it, so every upload gets the same checks and messages; on any failure the temporary file is removed.
// What a file may cost is capped before any of it is decoded: pixels from the image header, seconds
// and picture size from the probe, every ffmpeg run limited in time (ffmpeg.ts) and in how many run
// at once (media-limiter.ts).
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '../../shared/media-rules';
import { MESSAGES } from '../../shared/validation';
import { HttpError, badRequest } from '../http/errors';
import type { MediaKind, Storage, StoredFile } from '../storage/storage';
import { DECODER_GUARD_ARGS, MEDIA_TIMEOUTS, MediaTimeoutError, type ProbeResult, probe, runFfmpeg, runToNull } from './ffmpeg';
import { type MediaLimiter, mediaLimiter } from './media-limiter';
import { type SniffedType, WEBM_CODECS, sniff } from './sniff';

export interface MediaRule {
  family: 'image' | 'audio' | 'video';
  kind: MediaKind;
  maxBytes: number;
  tooLarge: string;
  invalidType: string;
}

export const FACE_IMAGE_RULE: MediaRule = {
  family: 'image',
  kind: 'face-images',
  maxBytes: MEDIA_LIMITS.imageMaxBytes,
  tooLarge: MEDIA_MESSAGES.imageTooLarge,
  invalidType: MEDIA_MESSAGES.invalidImageType,
};

export const VOICE_RECORDING_RULE: MediaRule = {
  family: 'audio',
  kind: 'voice-recordings',
  maxBytes: MEDIA_LIMITS.audioMaxBytes,
  tooLarge: MEDIA_MESSAGES.audioTooLarge,
  invalidType: MEDIA_MESSAGES.invalidAudioType,
};

export const FACE_VIDEO_RULE: MediaRule = {
  family: 'video',
  kind: 'face-videos',
  maxBytes: MEDIA_LIMITS.videoMaxBytes,
  tooLarge: MEDIA_MESSAGES.videoTooLarge,
  invalidType: MEDIA_MESSAGES.invalidVideoType,
};

export interface IngestedMedia {
  file: StoredFile;
  type: SniffedType;
  probe: ProbeResult;
  /** Seconds: decoded length for audio (a truncated file's header can claim more); for video the container's, else its packets'. */
  duration: number | undefined;
}

const tooLarge = (rule: MediaRule) => new HttpError(413, rule.tooLarge);
const unreadable = () => badRequest(MEDIA_MESSAGES.unreadableMedia);

/** Longest a recording or a face video may be, overshoot included (seconds). */
const VOICE_MAX_SECONDS = MEDIA_LIMITS.voiceMaxSeconds + MEDIA_LIMITS.voiceMaxOvershootSeconds;
const FACE_VIDEO_MAX_SECONDS = MEDIA_LIMITS.faceVideoMaxSeconds + MEDIA_LIMITS.faceVideoMaxOvershootSeconds;

/**
 * How far ffmpeg reads a file allowed `maxSeconds`: a little past it, so reaching past the limit means
 * too long, and frames up to 1.5 s apart cannot hide what follows.
 */
const readUpTo = (maxSeconds: number) => Math.floor(maxSeconds) + 2;

/** A media tool's failure in the user's words: too slow to check, or not readable as media. */
function asUserError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  return error instanceof MediaTimeoutError ? badRequest(MEDIA_MESSAGES.mediaCheckTooSlow) : unreadable();
}

const DATA_URL = /^data:[^,;]*(?:;[^,;]*)*;base64,/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes `data:<mime>;base64,<payload>`; the declared mime is ignored (the content decides). */
export function decodeDataUrl(dataUrl: unknown, rule: MediaRule, maxBytes = rule.maxBytes): Buffer {
  if (typeof dataUrl !== 'string') throw badRequest(MEDIA_MESSAGES.notBase64);
  const header = DATA_URL.exec(dataUrl.slice(0, 512));
  if (!header) throw badRequest(MEDIA_MESSAGES.notBase64);
  const payload = dataUrl.slice(header[0].length);
  if (payload.length === 0) throw badRequest(MEDIA_MESSAGES.emptyFile);
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) throw badRequest(MEDIA_MESSAGES.notBase64);
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  // Checked before decoding, so an oversize file never gets a second copy in memory.
  if ((payload.length / 4) * 3 - padding > maxBytes) throw tooLarge(rule);
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length === 0) throw badRequest(MEDIA_MESSAGES.emptyFile);
  return bytes;
}

/** A data URL straight into storage (see ingestTempFile). */
export async function ingestDataUrl(
  storage: Storage,
  dataUrl: unknown,
  rule: MediaRule,
  ownerId: number,
  options: { maxBytes?: number; tooLarge?: string; limiter?: MediaLimiter } = {},
): Promise<IngestedMedia> {
  let bytes: Buffer;
  try {
    bytes = decodeDataUrl(dataUrl, rule, options.maxBytes);
  } catch (error) {
    if (options.tooLarge && error instanceof HttpError && error.statusCode === 413) throw new HttpError(413, options.tooLarge);
    throw error;
  }
  const tempFile = await storage.tempPath();
  try {
    await writeFile(tempFile, bytes, { flag: 'wx' });
  } catch (error) {
    await rm(tempFile, { force: true });
    throw error;
  }
  return ingestTempFile(storage, tempFile, rule, ownerId, options);
}

/**
 * Checks a temporary file by content and moves it into storage under `ownerId`. The temporary file is
 * gone afterwards either way (moved in, or removed on failure). The checks that run ffmpeg wait for a
 * slot of `ownerId` in the limiter (429 when the user already has too many waiting).
 */
export async function ingestTempFile(
  storage: Storage,
  tempFile: string,
  rule: MediaRule,
  ownerId: number,
  options: { limiter?: MediaLimiter } = {},
): Promise<IngestedMedia> {
  try {
    const { size } = await stat(tempFile);
    if (size === 0) throw badRequest(MEDIA_MESSAGES.emptyFile);
    if (size > rule.maxBytes) throw tooLarge(rule);
    if (rule.kind !== 'templates') await checkStorageQuota(storage, ownerId, size);

    const type = sniff(await readHead(tempFile, 64));
    if (!type || !familyFits(type, rule.family)) throw badRequest(rule.invalidType);

    const checked = await (options.limiter ?? mediaLimiter).run(ownerId, async () => {
      const media = await checkMedia(tempFile, type, rule).catch((error: unknown) => {
        throw asUserError(error);
      });
      if (media.remux) await rewrite(storage, tempFile, media.remux);
      return media;
    });
    const file = await storage.moveIn(tempFile, rule.kind, ownerId, checked.ext);
    return { file, type, probe: checked.probe, duration: checked.duration };
  } catch (error) {
    await rm(tempFile, { force: true });
    throw error;
  }
}

/** Rewrites `file` in place with ffmpeg output options (a remux or a sound made playable); time-limited. */
export async function rewrite(storage: Storage, file: string, outputArgs: string[]): Promise<void> {
  const output = await storage.tempPath();
  try {
    await runFfmpeg(['-nostdin', '-v', 'error', ...DECODER_GUARD_ARGS, '-i', file, ...outputArgs, '-y', output], { timeoutMs: MEDIA_TIMEOUTS.checkMs }).catch(
      (error: unknown) => {
        throw asUserError(error);
      },
    );
    await rename(output, file);
  } catch (error) {
    await rm(output, { force: true });
    throw error;
  }
}

/** The media a user's quota counts: people's media, pending uploads (stored as face videos) and videos. */
const QUOTA_KINDS = ['face-images', 'face-videos', 'voice-recordings', 'processed-videos'] as const;

function storageQuotaBytes(): number {
  const fromEnv = Number(process.env.USER_STORAGE_QUOTA_MB);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv * 1024 * 1024 : MEDIA_LIMITS.userStorageQuotaBytes;
}

/** 413 when `incoming` more bytes would take the user over their storage quota. */
export async function checkStorageQuota(storage: Storage, userId: number, incoming: number): Promise<void> {
  const used = await storage.usage(userId, QUOTA_KINDS);
  if (used + incoming > storageQuotaBytes()) throw new HttpError(413, MEDIA_MESSAGES.storageFull);
}

/**
 * Runs `save` (the row insert) for a file already moved into storage; when it fails the file is
 * removed, so a failed request leaves nothing on disk.
 */
export async function keepIfSaved<T>(storage: Storage, file: StoredFile, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    await storage.removeUrl(file.url);
    throw error;
  }
}

/** The first `length` bytes of a file (for sniffing its type by content). */
export async function readHead(file: string, length = 64): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** WebM and MP4 can hold audio or video: the streams decide (checkMedia). */
function familyFits(type: SniffedType, family: MediaRule['family']): boolean {
  if (family === 'image') return type.family === 'image';
  return type.family === family || type.family === 'container';
}

interface CheckedMedia {
  ext: string;
  probe: ProbeResult;
  duration: number | undefined;
  /** ffmpeg output options that make the file what `ext` says, when it is not yet (Matroska only). */
  remux?: string[];
}

const fitsWebm = (probed: ProbeResult) =>
  (!probed.hasVideo || (WEBM_CODECS.video as readonly string[]).includes(probed.videoCodec ?? '')) &&
  (!probed.hasAudio || (WEBM_CODECS.audio as readonly string[]).includes(probed.audioCodec ?? ''));

/**
 * How a Matroska file is stored, so that the content type it is served with is true and browsers play
 * it (decision 015, Media types). Codecs WebM allows: kept as WebM (rewritten as WebM when its header
 * says Matroska). An H.264 picture: copied into MP4 (sound copied when AAC or MP3, else made AAC). Any
 * other picture: refused with a message. Sound alone that is not Opus or Vorbis: made AAC in M4A.
 */
export function storedMatroska(type: SniffedType, probed: ProbeResult, family: 'audio' | 'video'): Pick<CheckedMedia, 'ext' | 'remux'> {
  const webm = family === 'audio' ? 'weba' : 'webm';
  const streams = family === 'audio' ? ['-map', '0:a:0'] : ['-map', '0:v:0', '-map', '0:a:0?'];
  if (fitsWebm(probed)) return type.ext === 'webm' ? { ext: webm } : { ext: webm, remux: [...streams, '-c', 'copy', '-f', 'webm'] };
  if (family === 'audio') return { ext: 'm4a', remux: [...streams, '-c:a', 'aac', '-b:a', '128k', '-f', 'mp4'] };
  if (probed.videoCodec === 'h264') {
    const sound = ['aac', 'mp3'].includes(probed.audioCodec ?? '') ? 'copy' : 'aac';
    return { ext: 'mp4', remux: [...streams, '-c:v', 'copy', '-c:a', sound, '-movflags', '+faststart', '-f', 'mp4'] };
  }
  throw badRequest(MESSAGES.videoCodecNotPlayable);
}

async function checkMedia(file: string, type: SniffedType, rule: MediaRule): Promise<CheckedMedia> {
  if (rule.family === 'image') {
    // The header first: ffmpeg would allocate the whole picture to decode it (1 GB for 16000×16000).
    await checkImagePixels(file);
    const probed = await probe(file);
    // ffprobe reads an image as a one-frame video stream; decoding it finds truncated data.
    if (!probed.hasVideo || !probed.width) throw unreadable();
    await decodeCleanly(file, ['-map', '0:v:0', '-frames:v', '1'], 1);
    return { ext: type.ext, probe: probed, duration: undefined };
  }

  if (rule.family === 'audio') {
    const probed = await probe(file, { maxSeconds: readUpTo(VOICE_MAX_SECONDS) });
    if (probed.hasVideo) throw badRequest(rule.invalidType);
    if (!probed.hasAudio) throw unreadable();
    // A length the container states (or its packets show) is refused before decoding anything.
    if (probed.duration !== undefined && probed.duration > VOICE_MAX_SECONDS) throw badRequest(MEDIA_MESSAGES.recordingTooLong);
    // Decoded (just past the limit at most): that finds truncation and gives the real length, which
    // counts (a cut-off WebM's header still claims the full length; a header can also claim too little).
    const decoded = await decodeCleanly(file, ['-map', '0:a:0'], readUpTo(VOICE_MAX_SECONDS));
    const duration = decoded ?? probed.duration;
    if (duration === undefined) throw unreadable();
    if (duration < MEDIA_LIMITS.voiceMinSeconds) throw badRequest(MEDIA_MESSAGES.recordingTooShort);
    if (duration > VOICE_MAX_SECONDS) throw badRequest(MEDIA_MESSAGES.recordingTooLong);
    // Served with an audio content type (sniff names the containers after their video use).
    if (isMatroska(type)) return { ...storedMatroska(type, probed, 'audio'), probe: probed, duration };
    return { ext: type.ext === 'mp4' ? 'm4a' : type.ext, probe: probed, duration };
  }

  const probed = await probe(file, { maxSeconds: readUpTo(FACE_VIDEO_MAX_SECONDS) });
  if (!probed.hasVideo) throw probed.hasAudio ? badRequest(rule.invalidType) : unreadable();
  checkVideoPicture(probed);
  if (probed.duration !== undefined && probed.duration > FACE_VIDEO_MAX_SECONDS) throw badRequest(MEDIA_MESSAGES.faceVideoTooLong);
  await checkVideoPackets(file, FACE_VIDEO_MAX_SECONDS, MEDIA_MESSAGES.faceVideoTooLong);
  const stored = isMatroska(type) ? storedMatroska(type, probed, 'video') : { ext: type.ext };
  return { ...stored, probe: probed, duration: probed.duration };
}

const isMatroska = (type: SniffedType) => type.ext === 'webm' || type.ext === 'mkv';

/**
 * Refuses an image over MEDIA_LIMITS.imageMaxPixels or imageMaxSide, from its header (sharp reads the
 * header only). Rejects with 400 when the header cannot be read.
 */
export async function checkImagePixels(file: string): Promise<void> {
  const { width, height } = await sharp(file)
    .metadata()
    .catch(() => {
      throw unreadable();
    });
  if (!width || !height) throw unreadable();
  if (width * height > MEDIA_LIMITS.imageMaxPixels) throw badRequest(MEDIA_MESSAGES.imageTooManyPixels);
  if (Math.max(width, height) > MEDIA_LIMITS.imageMaxSide) throw badRequest(MEDIA_MESSAGES.imageSideTooLong);
}

/** Refuses a video whose picture is larger than MEDIA_LIMITS.videoMaxSide, from the probe. */
export function checkVideoPicture(probed: ProbeResult): void {
  if (!probed.width || !probed.height) throw unreadable();
  if (Math.max(probed.width, probed.height) > MEDIA_LIMITS.videoMaxSide) throw badRequest(MEDIA_MESSAGES.videoResolutionTooHigh);
}

/**
 * Reads a video's packets without decoding them (a 100 MB file in about the time it takes to read
 * it), up to a little past `maxSeconds`: finds a cut-off file, a file longer than its header says
 * (refused with `tooLong`), and more frames per second than MEDIA_LIMITS.videoMaxFps as counted.
 * Returns the seconds read.
 */
export async function checkVideoPackets(file: string, maxSeconds: number, tooLong: string): Promise<number | undefined> {
  const read = await runToNull(file, ['-map', '0:v:0', '-c', 'copy'], { maxSeconds: readUpTo(maxSeconds), xerror: true });
  if (read.problems.length > 0) throw unreadable();
  const seconds = read.seconds ?? 0;
  // The time is the last packet's start: a packet starting at the limit plays past it.
  if (seconds >= maxSeconds) throw badRequest(tooLong);
  // A second of slack: a short clip's count is a frame or two off its stated rate.
  if ((read.frames ?? 0) > MEDIA_LIMITS.videoMaxFps * (seconds + 1)) throw badRequest(MEDIA_MESSAGES.videoFrameRateTooHigh);
  return read.seconds;
}

/**
 * Decodes the file into the null muxer, at most `maxSeconds` of it; any error (exit code or an error
 * line, e.g. "File ended prematurely") means damaged media. Returns the last timestamp reached.
 */
async function decodeCleanly(file: string, args: string[], maxSeconds: number): Promise<number | undefined> {
  const decoded = await runToNull(file, args, { maxSeconds, xerror: true });
  if (decoded.problems.length > 0) throw unreadable();
  return decoded.seconds;
}
