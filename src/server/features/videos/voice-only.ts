// POST /api/upload/voice-only-video (spec 02 §2, §5, §7): a parent's own video whose voice becomes a
// person's. The upload streams to a temporary file, the form is checked, the video is checked by its
// content (a picture and sound, size, length), stored as the owner's processed-video media (never
// public), and the row is written `pending` with its render queued, in the same request. On any
// failure nothing is left: no temporary file, no stored file, no row.
import { rm, stat } from 'node:fs/promises';
import type { FastifyError, FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { VOICE_ONLY_LIMITS, VOICE_ONLY_MESSAGES, voiceOnlyFieldsSchema } from '../../../shared/voice-only-rules';
import type { Db } from '../../db/open';
import { type UserRow, people } from '../../db/schema';
import { HttpError, badRequest, notFound, parseInput } from '../../http/errors';
import { requireUser } from '../../http/guards';
import { uploadBodyBytes } from '../../http/early-checks';
import type { RouteDeps } from '../../http/route-deps';
import { MediaTimeoutError, probe } from '../../media/ffmpeg';
import { checkStorageQuota, checkVideoPackets, checkVideoPicture, readHead } from '../../media/ingest';
import { mediaLimiter } from '../../media/media-limiter';
import { sniff } from '../../media/sniff';
import { FileTooLargeError, type Storage, type StoredFile } from '../../storage/storage';
import { checkMonthlyLimit, chooseVoice, insertAndQueueRender, toProcessedVideo } from './service';

export async function voiceOnlyRoutes(app: FastifyInstance, { db, sessions, storage, queue }: RouteDeps) {
  /** Multipart: `video`, `title`, `personId` (text fields first, as the page sends them, but any order works). */
  const uploadLimit = { bytes: uploadBodyBytes(VOICE_ONLY_LIMITS.maxBytes), message: MEDIA_MESSAGES.videoTooLarge };
  app.post('/upload/voice-only-video', { config: { uploadLimit } }, async (request, reply) => {
    const user = await requireUser(sessions, request);
    if (!request.isMultipart()) throw badRequest(MEDIA_MESSAGES.noFileSelected);

    const fields: Record<string, string> = {};
    let tempFile: string | undefined;
    try {
      // busboy stops the file at maxBytes and marks it truncated; writeTemp's own limit is a second guard.
      for await (const part of request.parts({ limits: { fileSize: VOICE_ONLY_LIMITS.maxBytes, files: 1 } })) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'video' || tempFile) {
          part.file.resume();
          continue;
        }
        tempFile = (await storage.writeTemp(part.file, VOICE_ONLY_LIMITS.maxBytes)).path;
        if (part.file.truncated) throw new HttpError(413, MEDIA_MESSAGES.videoTooLarge);
      }
      if (!tempFile) throw badRequest(MEDIA_MESSAGES.noFileSelected);

      // The cheap checks before the media is read.
      const input = parseInput(voiceOnlyFieldsSchema, fields);
      const personId = await ownPersonId(db, user, input.personId);
      const voiceRecordingId = await chooseVoice(db, user, null, personId);
      if (voiceRecordingId === null) {
        // No recording, or the person was deleted (with their recordings) since the check above: that is a 404.
        await ownPersonId(db, user, personId);
        throw badRequest(VOICE_ONLY_MESSAGES.voiceRequired);
      }
      await checkMonthlyLimit(db, user);

      const source = await storeSourceVideo(storage, tempFile, user.id);
      tempFile = undefined;
      try {
        const row = await insertAndQueueRender(
          { db, queue },
          user,
          { userId: user.id, templateId: null, sourceUrl: source.url, personId, title: input.title, faceImageId: null, voiceRecordingId, voiceOnly: true },
        );
        return reply.status(201).send(toProcessedVideo(row));
      } catch (error) {
        await storage.removeUrl(source.url);
        throw error;
      }
    } catch (error) {
      if (tempFile) await rm(tempFile, { force: true });
      if (error instanceof FileTooLargeError || (error as FastifyError).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new HttpError(413, MEDIA_MESSAGES.videoTooLarge);
      }
      throw error;
    }
  });
}

/** Another user's person is not even said to exist (as for POST /api/processedVideos). */
async function ownPersonId(db: Db, user: UserRow, personId: number): Promise<number> {
  const [person] = await db.select({ userId: people.userId }).from(people).where(eq(people.id, personId)).limit(1);
  if (!person || person.userId !== user.id) throw notFound(MEDIA_MESSAGES.personNotFound);
  return personId;
}

/**
 * Checks the temporary file by content: MP4, MOV, AVI or WebM with a picture and sound, within the size,
 * the storage quota, the picture size and VOICE_ONLY_LIMITS.maxSeconds (its packets read, not decoded);
 * then moves it into the owner's processed-video media. The temporary file is gone afterwards either way.
 */
async function storeSourceVideo(storage: Storage, tempFile: string, ownerId: number): Promise<StoredFile> {
  try {
    const { size } = await stat(tempFile);
    if (size === 0) throw badRequest(MEDIA_MESSAGES.emptyFile);
    if (size > VOICE_ONLY_LIMITS.maxBytes) throw new HttpError(413, MEDIA_MESSAGES.videoTooLarge);
    await checkStorageQuota(storage, ownerId, size);
    const type = sniff(await readHead(tempFile));
    if (!type || (type.family !== 'video' && type.family !== 'container')) throw badRequest(VOICE_ONLY_MESSAGES.invalidType);

    const maxSeconds = VOICE_ONLY_LIMITS.maxSeconds;
    await mediaLimiter
      .run(ownerId, async () => {
        const probed = await probe(tempFile, { maxSeconds: maxSeconds + 2 });
        if (!probed.hasVideo) throw badRequest(probed.hasAudio ? VOICE_ONLY_MESSAGES.invalidType : MEDIA_MESSAGES.unreadableMedia);
        if (!probed.hasAudio) throw badRequest(VOICE_ONLY_MESSAGES.noSound);
        checkVideoPicture(probed);
        if (probed.duration !== undefined && probed.duration > maxSeconds) throw badRequest(VOICE_ONLY_MESSAGES.tooLong);
        await checkVideoPackets(tempFile, maxSeconds, VOICE_ONLY_MESSAGES.tooLong);
      })
      .catch((error: unknown) => {
        if (error instanceof HttpError) throw error;
        throw badRequest(error instanceof MediaTimeoutError ? MEDIA_MESSAGES.mediaCheckTooSlow : MEDIA_MESSAGES.unreadableMedia);
      });
    return await storage.moveIn(tempFile, 'processed-videos', ownerId, type.ext);
  } catch (error) {
    await rm(tempFile, { force: true });
    throw error;
  }
}
