// One way in for people's media: a data URL or an uploaded temporary file → content sniffed, size
// checked, probed and decoded with ffmpeg → moved into storage. Faces, voices and face videos all use
// it, so every upload gets the same checks and messages; on any failure the temporary file is removed.
import { open, rm, stat, writeFile } from 'node:fs/promises';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '../../shared/media-rules';
import { HttpError, badRequest } from '../http/errors';
import type { MediaKind, Storage, StoredFile } from '../storage/storage';
import { type ProbeResult, ffmpegBinary, probe, runProcess } from './ffmpeg';
import { type SniffedType, sniff } from './sniff';

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
  /** Seconds: decoded length for audio (a truncated file's header can claim more), the container's for video. */
  duration: number | undefined;
}

const tooLarge = (rule: MediaRule) => new HttpError(413, rule.tooLarge);
const unreadable = () => badRequest(MEDIA_MESSAGES.unreadableMedia);

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
  options: { maxBytes?: number; tooLarge?: string } = {},
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
  return ingestTempFile(storage, tempFile, rule, ownerId);
}

/**
 * Checks a temporary file by content and moves it into storage under `ownerId`. The temporary file is
 * gone afterwards either way (moved in, or removed on failure).
 */
export async function ingestTempFile(storage: Storage, tempFile: string, rule: MediaRule, ownerId: number): Promise<IngestedMedia> {
  try {
    const { size } = await stat(tempFile);
    if (size === 0) throw badRequest(MEDIA_MESSAGES.emptyFile);
    if (size > rule.maxBytes) throw tooLarge(rule);

    const type = sniff(await readHead(tempFile, 64));
    if (!type || !familyFits(type, rule.family)) throw badRequest(rule.invalidType);

    const probed = await probe(tempFile).catch(() => {
      throw unreadable();
    });
    const { ext, duration } = await checkStreams(tempFile, type, probed, rule);
    const file = await storage.moveIn(tempFile, rule.kind, ownerId, ext);
    return { file, type, probe: probed, duration };
  } catch (error) {
    await rm(tempFile, { force: true });
    throw error;
  }
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

async function readHead(file: string, length: number): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** WebM and MP4 can hold audio or video: the streams decide (checkStreams). */
function familyFits(type: SniffedType, family: MediaRule['family']): boolean {
  if (family === 'image') return type.family === 'image';
  return type.family === family || type.family === 'container';
}

async function checkStreams(
  file: string,
  type: SniffedType,
  probed: ProbeResult,
  rule: MediaRule,
): Promise<{ ext: string; duration: number | undefined }> {
  if (rule.family === 'image') {
    // ffprobe reads an image as a one-frame video stream; decoding it finds truncated data.
    if (!probed.hasVideo || !probed.width) throw unreadable();
    await decodeCleanly(file, ['-map', '0:v:0', '-frames:v', '1']);
    return { ext: type.ext, duration: undefined };
  }

  if (rule.family === 'audio') {
    if (probed.hasVideo) throw badRequest(rule.invalidType);
    if (!probed.hasAudio) throw unreadable();
    // Short recordings are decoded whole: that finds truncation and gives the real length.
    const decoded = await decodeCleanly(file, ['-map', '0:a:0']);
    const duration = decoded ?? probed.duration;
    if (duration === undefined) throw unreadable();
    if (duration < MEDIA_LIMITS.voiceMinSeconds) throw badRequest(MEDIA_MESSAGES.recordingTooShort);
    if (duration > MEDIA_LIMITS.voiceMaxSeconds + MEDIA_LIMITS.voiceMaxOvershootSeconds) {
      throw badRequest(MEDIA_MESSAGES.recordingTooLong);
    }
    // Served with an audio content type (sniff names the containers after their video use).
    const ext = type.ext === 'webm' ? 'weba' : type.ext === 'mp4' ? 'm4a' : type.ext;
    return { ext, duration };
  }

  if (!probed.hasVideo) throw probed.hasAudio ? badRequest(rule.invalidType) : unreadable();
  // Videos can be 100 MB: read every packet without decoding (finds a cut-off file in ~I/O time).
  await decodeCleanly(file, ['-map', '0:v:0', '-c', 'copy']);
  return { ext: type.ext, duration: probed.duration };
}

/**
 * Runs the file through ffmpeg into the null muxer; any error (exit code or an error line, e.g.
 * "File ended prematurely") means damaged media. Returns the last timestamp reached, in seconds.
 */
async function decodeCleanly(file: string, args: string[]): Promise<number | undefined> {
  let stderr: string;
  try {
    ({ stderr } = await runProcess(
      ffmpegBinary(),
      ['-nostdin', '-v', 'error', '-stats', '-xerror', '-i', file, ...args, '-f', 'null', '-'],
      { maxBuffer: 16 * 1024 * 1024 },
    ));
  } catch {
    throw unreadable();
  }
  const lines = stderr.split(/[\r\n]+/).filter((line) => line.trim() && !/^\s*(size|frame)=/.test(line));
  if (lines.length > 0) throw unreadable();
  const last = [...stderr.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)].at(-1);
  return last ? Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]) : undefined;
}
