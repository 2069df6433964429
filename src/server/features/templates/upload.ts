// The template upload's media work (spec 02 §7, decisions page): read a multipart request into
// temporary files without buffering, check the video by its content and by probing it, measure its
// duration, and make a thumbnail from it when none was sent. The same caps as people's media apply
// (media/ingest.ts): time limits on ffmpeg, picture size from the probe, length capped before reading,
// and the media limiter (admins share one key: their uploads are not one user's work).
import { open, rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES, TEMPLATE_VIDEO_EXTENSIONS } from '../../../shared/template-rules';
import { HttpError, badRequest } from '../../http/errors';
import { DECODER_GUARD_ARGS, HDR_TO_SDR, MEDIA_TIMEOUTS, MediaTimeoutError, probe, runFfmpeg } from '../../media/ffmpeg';
import { checkImagePixels, checkVideoPackets, checkVideoPicture, rewrite, storedMatroska } from '../../media/ingest';
import { mediaLimiter } from '../../media/media-limiter';
import { sniff } from '../../media/sniff';
import { FileTooLargeError, type Storage } from '../../storage/storage';

export interface TempFile {
  path: string;
  bytes: number;
}

export interface TemplateUploadParts {
  fields: Record<string, string>;
  video?: TempFile;
  thumbnail?: TempFile;
  /** Removes every temporary file still held. */
  cleanup(): Promise<void>;
}

const tooLarge = (message: string) => new HttpError(413, message);
/** The media limiter's key for template work. */
const TEMPLATES = 'templates';
/** Rethrows a media tool's timeout in the user's words; other errors as they are. */
const tooSlow = (error: unknown): never => {
  throw error instanceof MediaTimeoutError ? badRequest(MEDIA_MESSAGES.mediaCheckTooSlow) : error;
};
/**
 * A media tool that failed on the file (ffmpeg stops at a corrupt packet with -xerror) means damaged
 * media, in the user's words, as people's media says it (ingest.ts); our own refusals pass as they are.
 */
const unreadable = (error: unknown): never => {
  if (error instanceof HttpError || error instanceof MediaTimeoutError) tooSlow(error);
  throw badRequest(MEDIA_MESSAGES.unreadableMedia);
};

/** Streams the request's parts: `video` and `thumbnail` to temporary files, other fields as text. */
export async function readTemplateUpload(request: FastifyRequest, storage: Storage): Promise<TemplateUploadParts> {
  const parts: TemplateUploadParts = {
    fields: {},
    async cleanup() {
      await Promise.all([parts.video, parts.thumbnail].map((file) => file && rm(file.path, { force: true })));
    },
  };
  if (!request.isMultipart()) throw badRequest('Send the template as multipart/form-data');
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') parts.fields[part.fieldname] = part.value;
        continue;
      }
      const name = part.fieldname;
      if ((name !== 'video' && name !== 'thumbnail') || parts[name]) {
        part.file.resume();
        throw badRequest(`Unexpected file field "${name}"`);
      }
      const maxBytes = name === 'video' ? TEMPLATE_LIMITS.videoMaxBytes : TEMPLATE_LIMITS.thumbnailMaxBytes;
      try {
        parts[name] = await storage.writeTemp(part.file, maxBytes);
      } catch (error) {
        const limitHit = error instanceof FileTooLargeError || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';
        if (!limitHit) throw error;
        throw tooLarge(name === 'video' ? TEMPLATE_MESSAGES.videoTooLargeDetail : TEMPLATE_MESSAGES.thumbnailTooLarge);
      }
      if (parts[name]!.bytes === 0) {
        throw badRequest(name === 'video' ? TEMPLATE_MESSAGES.missingVideo : TEMPLATE_MESSAGES.invalidThumbnail);
      }
    }
  } catch (error) {
    await parts.cleanup();
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT') throw badRequest('Send at most a video and a thumbnail');
    throw error;
  }
  return parts;
}

async function head(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buffer, 0, 64, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export interface CheckedVideo {
  ext: (typeof TEMPLATE_VIDEO_EXTENSIONS)[number];
  /** Whole seconds, measured; at least 1. */
  duration: number;
  /** HDR (an iPhone's HLG): its thumbnail is turned into ordinary video (HDR_TO_SDR). */
  hdr: boolean;
}

/**
 * The video must be MP4, WebM or MOV by content, ffprobe must find a video stream with a duration, at
 * most TEMPLATE_LIMITS.maxDurationSeconds long and MEDIA_LIMITS.videoMaxSide on a side; its packets
 * are read (not decoded) to find damage and a length or frame rate its header hides. A WebM header is
 * stored as what it holds, by people's media's rule (ingest.ts storedMatroska): WebM's codecs stay WebM,
 * H.264 (Chrome's `video/webm;codecs=h264` recorder) is copied into MP4 in place, any other is refused.
 */
export async function checkTemplateVideo(file: string, storage: Storage): Promise<CheckedVideo> {
  const type = sniff(await head(file));
  const ext = TEMPLATE_VIDEO_EXTENSIONS.find((candidate) => candidate === type?.ext);
  if (!type || !ext) throw badRequest(TEMPLATE_MESSAGES.invalidVideoTypeDetail);
  const maxSeconds = TEMPLATE_LIMITS.maxDurationSeconds;
  return mediaLimiter.run(TEMPLATES, async () => {
    const probed = await probe(file, { maxSeconds: maxSeconds + 2 }).catch((error: unknown) => {
      if (error instanceof MediaTimeoutError) tooSlow(error);
      return undefined;
    });
    if (!probed?.hasVideo || !probed.duration) throw badRequest(TEMPLATE_MESSAGES.notAVideo);
    checkVideoPicture(probed);
    if (probed.duration > maxSeconds) throw badRequest(TEMPLATE_MESSAGES.durationTooLong);
    await checkVideoPackets(file, maxSeconds, TEMPLATE_MESSAGES.durationTooLong).catch(unreadable);
    const stored = ext === 'webm' ? storedMatroska(type, probed, 'video') : { ext };
    if (stored.remux) await rewrite(storage, file, stored.remux);
    return { ext: stored.ext as CheckedVideo['ext'], duration: Math.max(1, Math.round(probed.duration)), hdr: probed.hdr };
  });
}

/** A thumbnail must be a JPEG, PNG or WebP image by content, of a size a browser can show. */
export async function checkThumbnail(file: string): Promise<'jpg' | 'png' | 'webp'> {
  const type = sniff(await head(file));
  if (type?.family !== 'image') throw badRequest(TEMPLATE_MESSAGES.invalidThumbnail);
  await checkImagePixels(file);
  return type.ext as 'jpg' | 'png' | 'webp';
}

/** A JPEG frame from a little way into the video (the first frame is often black), 640 px wide. */
export async function thumbnailFromVideo(video: string, checked: Pick<CheckedVideo, 'duration' | 'hdr'>, storage: Storage): Promise<TempFile> {
  const output = `${await storage.tempPath()}.jpg`;
  const at = Math.min(1, checked.duration / 2).toFixed(2);
  // 640 wide at the shape it is shown (`dar`): an anamorphic video's pixels made square, as a browser shows
  // the JPEG (it reads no pixel shape from one).
  const picture = [...(checked.hdr ? [HDR_TO_SDR] : []), 'scale=640:trunc(640/dar/2)*2', 'setsar=1'].join(',');
  try {
    await mediaLimiter.run(TEMPLATES, () =>
      runFfmpeg(
        ['-nostdin', '-v', 'error', ...DECODER_GUARD_ARGS, '-ss', at, '-i', video, '-frames:v', '1', '-vf', picture, '-q:v', '3', '-y', output],
        { timeoutMs: MEDIA_TIMEOUTS.checkMs },
      ),
    );
  } catch (error) {
    await rm(output, { force: true });
    if (error instanceof HttpError) throw error; // the limiter's 429
    if (error instanceof MediaTimeoutError) throw badRequest(MEDIA_MESSAGES.mediaCheckTooSlow);
    // It passed the checks, so a frame that cannot be decoded means a video we cannot use.
    throw badRequest(TEMPLATE_MESSAGES.notAVideo);
  }
  const bytes = (await head(output)).length;
  if (!bytes) throw badRequest(TEMPLATE_MESSAGES.notAVideo);
  return { path: output, bytes };
}
