// Face images and face videos of a person: stored files checked by content (media/ingest.ts), rows
// that keep the file's URL, one default face image per person (people/defaults.ts).
import { stat } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import type { FaceImage, FaceVideo } from '../../../shared/api-types';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '../../../shared/media-rules';
import type { Db } from '../../db/open';
import { faceImages, faceVideos, users } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../http/errors';
import { enqueueFaceExtraction } from '../../jobs/face-extraction';
import { probe } from '../../media/ffmpeg';
import { FACE_IMAGE_RULE, FACE_VIDEO_RULE, ingestDataUrl, keepIfSaved } from '../../media/ingest';
import type { Storage, StoredFile } from '../../storage/storage';
import type { PersonRow } from '../people/access';
import { clearDefault, promoteNewest, shouldBecomeDefault, withPersonLocked } from '../people/defaults';

export type FaceImageRow = typeof faceImages.$inferSelect;
export type FaceVideoRow = typeof faceVideos.$inferSelect;

/** Never the embedding: it is biometric data the browser has no use for. */
export function toFaceImage(row: FaceImageRow): FaceImage {
  return {
    id: row.id,
    userId: row.userId,
    personId: row.personId,
    imageUrl: row.imageUrl ?? '',
    name: row.name,
    isDefault: row.isDefault,
    mlProcessed: row.mlProcessed,
    expressionType: row.expressionType,
    sourceVideoId: row.sourceVideoId,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toFaceVideo(row: FaceVideoRow): FaceVideo {
  return {
    id: row.id,
    userId: row.userId,
    personId: row.personId,
    videoUrl: row.videoUrl ?? '',
    name: row.name,
    duration: row.duration,
    expressionType: row.expressionType,
    extractedFacesCount: row.extractedFacesCount,
    isProcessed: row.isProcessed,
    processingStatus: row.processingStatus,
    errorMessage: row.errorMessage,
    createdAt: row.createdAt.toISOString(),
  };
}

const oldestFirst = <T extends typeof faceImages | typeof faceVideos>(table: T) => [asc(table.createdAt), asc(table.id)];

export function listFaceImages(db: Db, where: { userId: number } | { personId: number }): Promise<FaceImageRow[]> {
  const condition = 'userId' in where ? eq(faceImages.userId, where.userId) : eq(faceImages.personId, where.personId);
  return db.select().from(faceImages).where(condition).orderBy(...oldestFirst(faceImages));
}

export function listFaceVideos(db: Db, where: { userId: number } | { personId: number }): Promise<FaceVideoRow[]> {
  const condition = 'userId' in where ? eq(faceVideos.userId, where.userId) : eq(faceVideos.personId, where.personId);
  return db.select().from(faceVideos).where(condition).orderBy(...oldestFirst(faceVideos));
}

export async function findFaceImage(db: Db, id: number): Promise<FaceImageRow> {
  const [row] = await db.select().from(faceImages).where(eq(faceImages.id, id)).limit(1);
  if (!row) throw notFound(MEDIA_MESSAGES.faceImageNotFound);
  return row;
}

export async function findFaceVideo(db: Db, id: number): Promise<FaceVideoRow> {
  const [row] = await db.select().from(faceVideos).where(eq(faceVideos.id, id)).limit(1);
  if (!row) throw notFound(MEDIA_MESSAGES.faceVideoNotFound);
  return row;
}

export interface NewFaceImage {
  imageData: unknown;
  name: string;
  isDefault: boolean;
  expressionType?: string;
}

/** The first face of a person becomes the default; `isDefault: true` takes the default from another. */
export async function createFaceImage(db: Db, storage: Storage, person: PersonRow, input: NewFaceImage): Promise<FaceImageRow> {
  const { file } = await ingestDataUrl(storage, input.imageData, FACE_IMAGE_RULE, person.userId);
  return keepIfSaved(storage, file, () =>
    withPersonLocked(db, person.id, async (tx) => {
      const isDefault = await shouldBecomeDefault(tx, faceImages, person.id, input.isDefault);
      if (isDefault) await clearDefault(tx, faceImages, person.id);
      const [row] = await tx
        .insert(faceImages)
        .values({ userId: person.userId, personId: person.id, imageUrl: file.url, name: input.name, isDefault, expressionType: input.expressionType })
        .returning();
      return row!;
    }),
  );
}

export async function setDefaultFaceImage(db: Db, image: FaceImageRow): Promise<FaceImageRow> {
  return withPersonLocked(db, image.personId, async (tx) => {
    await clearDefault(tx, faceImages, image.personId, image.id);
    const [row] = await tx.update(faceImages).set({ isDefault: true }).where(eq(faceImages.id, image.id)).returning();
    if (!row) throw notFound(MEDIA_MESSAGES.faceImageNotFound);
    return row;
  });
}

/** Deletes the row, then its file; a deleted default passes to the newest remaining face. */
export async function deleteFaceImage(db: Db, storage: Storage, image: FaceImageRow): Promise<void> {
  const deleted = await withPersonLocked(db, image.personId, async (tx) => {
    const [row] = await tx.delete(faceImages).where(eq(faceImages.id, image.id)).returning();
    if (row?.isDefault) await promoteNewest(tx, faceImages, image.personId);
    return row;
  });
  if (!deleted) throw notFound(MEDIA_MESSAGES.faceImageNotFound);
  await storage.removeUrl(deleted.imageUrl);
}

export interface NewFaceVideo {
  /** A data URL, or the URL POST /api/upload/video returned (also accepted in `videoData`). */
  videoData?: unknown;
  videoUrl?: string;
  name: string;
  expressionType: string;
}

/**
 * Saves a face video as `pending` and hands it to face extraction. The video is either sent inline
 * (a data URL, at most MEDIA_LIMITS.inlineVideoMaxBytes: the JSON body is held in memory) or was
 * streamed to POST /api/upload/video first (up to 100 MB) and is named by its URL.
 */
export async function createFaceVideo(
  db: Db,
  storage: Storage,
  person: PersonRow,
  input: NewFaceVideo,
  log?: FastifyBaseLogger,
): Promise<FaceVideoRow> {
  const reference = input.videoUrl ?? (typeof input.videoData === 'string' && !input.videoData.startsWith('data:') ? input.videoData : undefined);
  let row: FaceVideoRow;
  if (reference !== undefined) {
    row = await saveUploadedVideo(db, storage, person, input, reference);
  } else {
    if (input.videoData === undefined || input.videoData === null || input.videoData === '') {
      throw badRequest(MEDIA_MESSAGES.noVideoSelected);
    }
    const { file, duration } = await ingestDataUrl(storage, input.videoData, FACE_VIDEO_RULE, person.userId, {
      maxBytes: MEDIA_LIMITS.inlineVideoMaxBytes,
      tooLarge: MEDIA_MESSAGES.videoDataTooLarge,
    });
    row = await keepIfSaved(storage, file, () => insertFaceVideo(db, person, input, file, duration));
  }
  await enqueueFaceExtraction(row.id, log);
  return row;
}

/** An upload of this user that no face video uses yet. */
async function saveUploadedVideo(db: Db, storage: Storage, person: PersonRow, input: NewFaceVideo, url: string): Promise<FaceVideoRow> {
  const file = storage.fromUrl(url);
  if (!file || file.kind !== FACE_VIDEO_RULE.kind || file.ownerId !== person.userId) throw badRequest(MEDIA_MESSAGES.uploadNotFound);
  if (!(await stat(file.path).catch(() => undefined))?.isFile()) throw badRequest(MEDIA_MESSAGES.uploadNotFound);
  // Already checked by the upload route; probed again only for the duration.
  const duration = (await probe(file.path).catch(() => undefined))?.duration;
  // The user's row is locked so two requests cannot both claim one upload (deleting one row would
  // then delete the other's file).
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, person.userId)).for('update');
    const [used] = await tx
      .select({ id: faceVideos.id })
      .from(faceVideos)
      .where(and(eq(faceVideos.userId, person.userId), eq(faceVideos.videoUrl, file.url)))
      .limit(1);
    if (used) throw conflict(MEDIA_MESSAGES.uploadAlreadyUsed);
    const [row] = await tx
      .insert(faceVideos)
      .values({ userId: person.userId, personId: person.id, videoUrl: file.url, name: input.name, expressionType: input.expressionType, duration })
      .returning();
    return row!;
  });
}

async function insertFaceVideo(db: Db, person: PersonRow, input: NewFaceVideo, file: StoredFile, duration: number | undefined) {
  const [row] = await db
    .insert(faceVideos)
    .values({ userId: person.userId, personId: person.id, videoUrl: file.url, name: input.name, expressionType: input.expressionType, duration })
    .returning();
  return row!;
}

/** Deletes the row and its file; face images extracted from it stay (their sourceVideoId becomes null). */
export async function deleteFaceVideo(db: Db, storage: Storage, video: FaceVideoRow): Promise<void> {
  const [row] = await db.delete(faceVideos).where(eq(faceVideos.id, video.id)).returning();
  if (!row) throw notFound(MEDIA_MESSAGES.faceVideoNotFound);
  await storage.removeUrl(row.videoUrl);
}
