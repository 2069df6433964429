// Face images, face videos and the streamed video upload (spec 01 §7), each for its owner only.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { expressionTypeSchema, MEDIA_LIMITS, MEDIA_MESSAGES, mediaNameSchema } from '../../../shared/media-rules';
import { HttpError, badRequest, bodyTooLarge, parseId, parseInput } from '../../http/errors';
import { requireOwner, requireUser } from '../../http/guards';
import { uploadBodyBytes } from '../../http/early-checks';
import type { RouteDeps } from '../../http/route-deps';
import { FACE_VIDEO_RULE, ingestTempFile } from '../../media/ingest';
import { FileTooLargeError } from '../../storage/storage';
import { consentedPerson, idField, ownPerson, requirePersonId, requireSelf } from '../people/access';
import {
  createFaceImage,
  createFaceVideo,
  deleteFaceImage,
  deleteFaceVideo,
  findFaceImage,
  findFaceVideo,
  listFaceImages,
  listFaceVideos,
  recordPendingUpload,
  setDefaultFaceImage,
  toFaceImage,
  toFaceVideo,
} from './service';

/** A 5 MB image is ~6.7 MB as base64; the rest is the JSON around it. */
const FACE_IMAGE_BODY_LIMIT = 8 * 1024 * 1024;
/** Inline face videos (≤ 20 MB, ~26.7 MB as base64); larger ones go through /api/upload/video. */
const FACE_VIDEO_BODY_LIMIT = Math.ceil((MEDIA_LIMITS.inlineVideoMaxBytes * 4) / 3) + 1024 * 1024;

const createFaceImageSchema = z.object({
  userId: idField.nullish(),
  personId: idField.optional(),
  name: mediaNameSchema,
  imageData: z.unknown().optional(),
  isDefault: z.boolean({ error: 'isDefault must be true or false' }).nullish(),
  expressionType: expressionTypeSchema.optional(),
});

const createFaceVideoSchema = z.object({
  userId: idField.nullish(),
  personId: idField.optional(),
  name: mediaNameSchema,
  videoData: z.unknown().optional(),
  videoUrl: z.string({ error: MEDIA_MESSAGES.uploadNotFound }).optional(),
  expressionType: expressionTypeSchema.default('neutral'),
});

const uploadFieldsSchema = z.object({ personId: idField.optional(), userId: idField.optional() });

export async function faceRoutes(app: FastifyInstance, { db, sessions, storage, queue, pipeline }: RouteDeps) {
  const idParam = (request: FastifyRequest) => parseId((request.params as { id: string }).id);

  // Face images

  app.get('/users/:userId/faceImages', async (request) => {
    const user = await requireUser(sessions, request);
    requireSelf(user, parseId((request.params as { userId: string }).userId));
    return (await listFaceImages(db, { userId: user.id })).map(toFaceImage);
  });

  app.get('/people/:id/faceImages', async (request) => {
    const user = await requireUser(sessions, request);
    const person = await ownPerson(db, user, idParam(request));
    return (await listFaceImages(db, { personId: person.id })).map(toFaceImage);
  });

  app.post(
    '/faceImages',
    { bodyLimit: FACE_IMAGE_BODY_LIMIT, errorHandler: bodyTooLarge(MEDIA_MESSAGES.imageTooLarge) },
    async (request, reply) => {
      const user = await requireUser(sessions, request);
      const input = parseInput(createFaceImageSchema, request.body);
      requireSelf(user, input.userId);
      const person = await consentedPerson(db, user, requirePersonId(input.personId));
      const row = await createFaceImage({ db, storage, pipeline, queue }, person, {
        imageData: input.imageData,
        name: input.name,
        isDefault: input.isDefault === true,
        expressionType: input.expressionType,
      });
      return reply.status(201).send(toFaceImage(row));
    },
  );

  app.patch('/faceImages/:id/setDefault', async (request) => {
    const user = await requireUser(sessions, request);
    const image = await findFaceImage(db, idParam(request));
    requireOwner(user, image);
    return toFaceImage(await setDefaultFaceImage(db, image));
  });

  app.delete('/faceImages/:id', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const image = await findFaceImage(db, idParam(request));
    requireOwner(user, image);
    await deleteFaceImage(db, storage, image, user);
    return reply.status(204).send();
  });

  // Face videos

  app.get('/users/:userId/faceVideos', async (request) => {
    const user = await requireUser(sessions, request);
    requireSelf(user, parseId((request.params as { userId: string }).userId));
    return (await listFaceVideos(db, { userId: user.id })).map(toFaceVideo);
  });

  app.get('/people/:id/faceVideos', async (request) => {
    const user = await requireUser(sessions, request);
    const person = await ownPerson(db, user, idParam(request));
    return (await listFaceVideos(db, { personId: person.id })).map(toFaceVideo);
  });

  app.post(
    '/faceVideos',
    { bodyLimit: FACE_VIDEO_BODY_LIMIT, errorHandler: bodyTooLarge(MEDIA_MESSAGES.videoDataTooLarge) },
    async (request, reply) => {
      const user = await requireUser(sessions, request);
      const input = parseInput(createFaceVideoSchema, request.body);
      requireSelf(user, input.userId);
      const person = await consentedPerson(db, user, requirePersonId(input.personId));
      const row = await createFaceVideo({ db, storage, queue }, person, input);
      return reply.status(201).send(toFaceVideo(row));
    },
  );

  app.delete('/faceVideos/:id', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const video = await findFaceVideo(db, idParam(request));
    requireOwner(user, video);
    await deleteFaceVideo(db, storage, video, user);
    return reply.status(204).send();
  });

  /**
   * POST /api/upload/video (multipart: `video`, `personId`, `userId`, in any order). The file streams
   * to a temporary file (never held in memory), is checked like every face video, and is stored for
   * its owner, as a pending upload that expires unless POST /api/faceVideos saves it. The answer's `videoData` is the same URL as `videoUrl`: echoing up to 100 MB back as
   * base64 would help nobody. POST /api/faceVideos takes either to save it as a face video.
   */
  const uploadLimit = { bytes: uploadBodyBytes(FACE_VIDEO_RULE.maxBytes), message: MEDIA_MESSAGES.videoTooLarge };
  app.post('/upload/video', { config: { uploadLimit } }, async (request, reply) => {
    const user = await requireUser(sessions, request);
    if (!request.isMultipart()) throw badRequest(MEDIA_MESSAGES.noVideoSelected);

    const fields: Record<string, string> = {};
    let tempFile: string | undefined;
    try {
      // busboy stops the file at exactly maxBytes and marks it truncated; writeTemp's own limit is a
      // second guard. Either way the answer is 413 while the body is still arriving.
      const parts = request.parts({ limits: { fileSize: FACE_VIDEO_RULE.maxBytes, files: 1 } });
      for await (const part of parts) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'video' || tempFile) {
          part.file.resume();
          continue;
        }
        const written = await storage.writeTemp(part.file, FACE_VIDEO_RULE.maxBytes);
        tempFile = written.path;
        if (part.file.truncated) throw new HttpError(413, MEDIA_MESSAGES.videoTooLarge);
      }
      if (!tempFile) throw badRequest(MEDIA_MESSAGES.noVideoSelected);

      const input = parseInput(uploadFieldsSchema, fields);
      requireSelf(user, input.userId);
      const person = await consentedPerson(db, user, requirePersonId(input.personId));
      const { file } = await ingestTempFile(storage, tempFile, FACE_VIDEO_RULE, person.userId);
      tempFile = undefined;
      await recordPendingUpload(db, storage, person, file);
      return reply.status(201).send({ videoUrl: file.url, videoData: file.url });
    } catch (error) {
      if (tempFile) await rm(tempFile, { force: true });
      const code = (error as FastifyError).code;
      if (error instanceof FileTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new HttpError(413, MEDIA_MESSAGES.videoTooLarge);
      }
      throw error;
    }
  });
}
