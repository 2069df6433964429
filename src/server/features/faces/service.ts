// Face images and face videos of a person: stored files checked by content (media/ingest.ts), rows
// that keep the file's URL, one default face image per person (people/defaults.ts).
import { stat } from 'node:fs/promises';
import { and, asc, eq, getTableColumns, gt, isNotNull } from 'drizzle-orm';
import type { FaceImage, FaceVideo } from '../../../shared/api-types';
import { FACE_ANALYSIS_MESSAGES, isBlurred, isEyesClosed, isLookingAside, isSmallFace, isTurnedAway } from '../../../shared/face-analysis';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '../../../shared/media-rules';
import type { Db } from '../../db/open';
import { type UserRow, faceImages, faceVideos, pendingUploads, people } from '../../db/schema';
import { recordAudit } from '../privacy/audit';
import { badRequest, conflict, notFound } from '../../http/errors';
import type { JobQueue } from '../../jobs/queue';
import { classifyExpression, expressionAgrees, isFaceExpression } from '../../pipeline/expressions';
import type { FaceAnalysisRecord } from '../../pipeline/face-extraction';
import type { PipelinePool } from '../../pipeline/worker-pool';
import { enqueueOrUndo, queueSlot } from '../../jobs/enqueue';
import { probe } from '../../media/ffmpeg';
import { FACE_IMAGE_RULE, FACE_VIDEO_RULE, ingestDataUrl, keepIfSaved } from '../../media/ingest';
import type { Storage, StoredFile } from '../../storage/storage';
import type { PersonRow } from '../people/access';
import { clearDefault, promoteNewest, shouldBecomeDefault, withPersonLocked } from '../people/defaults';

export type FaceImageRow = typeof faceImages.$inferSelect;
export type FaceVideoRow = typeof faceVideos.$inferSelect;

/** A face image as the API lists it: without the embedding, which the browser never gets. */
export type ListedFaceImageRow = Omit<FaceImageRow, 'faceEmbedding'>;

/**
 * Every column but the embedding: 1024 numbers (~20 KB of JSON) a photo that a list would read, decode and
 * drop, for each photo of a person, on every visit to the people page (issue 19: a hot path).
 */
const { faceEmbedding: _embedding, ...listedFaceImageColumns } = getTableColumns(faceImages);

/** Never the embedding: it is biometric data the browser has no use for. */
export function toFaceImage(row: ListedFaceImageRow): FaceImage {
  const analysis = row.analysis ?? {};
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
    facesInPhoto: typeof analysis.faces === 'number' ? analysis.faces : 1,
    faceBox: faceBoxFraction(analysis.box, analysis.imageSize),
    turnedAway: isTurnedAway(analysis.pose, analysis.hiddenShare),
    blurred: isBlurred(analysis.detailRatio, analysis.box),
    eyesClosed: isEyesClosed(analysis.eyeOpening),
    // Shut eyes are said as such; where they look is not read on them.
    looksAside: !isEyesClosed(analysis.eyeOpening) && isLookingAside(analysis.gaze),
    smallFace: isSmallFace(analysis.box),
  };
}

/**
 * The face used, as fractions of the picture: `createFaceImage` records the analysed face's box and the
 * picture's size in pixels (upright, as a browser shows it), face extraction the crop's
 * (pipeline/face-extraction.ts cropFace). Older rows have none.
 */
function faceBoxFraction(box: unknown, imageSize: unknown): FaceImage['faceBox'] {
  const isNumbers = (value: unknown, length: number): value is number[] =>
    Array.isArray(value) && value.length === length && value.every((n) => typeof n === 'number' && Number.isFinite(n));
  if (!isNumbers(box, 4) || !isNumbers(imageSize, 2)) return null;
  const [x, y, w, h] = box as [number, number, number, number];
  const [width, height] = imageSize as [number, number];
  if (width <= 0 || height <= 0) return null;
  const clamp = (value: number) => Math.min(1, Math.max(0, value));
  const left = clamp(x / width);
  const top = clamp(y / height);
  return { x: left, y: top, width: clamp((x + w) / width) - left, height: clamp((y + h) / height) - top };
}

/** A face video as listed: with whether every face taken from it is small (listFaceVideos). */
export type ListedFaceVideoRow = FaceVideoRow & { smallFace?: boolean };

export function toFaceVideo(row: ListedFaceVideoRow): FaceVideo {
  return {
    id: row.id,
    userId: row.userId,
    personId: row.personId,
    videoUrl: row.videoUrl,
    name: row.name,
    duration: row.duration,
    expressionType: row.expressionType,
    extractedFacesCount: row.extractedFacesCount,
    isProcessed: row.isProcessed,
    processingStatus: row.processingStatus,
    errorMessage: row.errorMessage,
    processedAt: row.processedAt?.toISOString() ?? null,
    rawClipDeletedAt: row.rawClipDeletedAt?.toISOString() ?? null,
    smallFace: row.smallFace ?? false,
    createdAt: row.createdAt.toISOString(),
  };
}

const oldestFirst = <T extends typeof faceImages | typeof faceVideos>(table: T) => [asc(table.createdAt), asc(table.id)];

export function listFaceImages(db: Db, where: { userId: number } | { personId: number }): Promise<ListedFaceImageRow[]> {
  const condition = 'userId' in where ? eq(faceImages.userId, where.userId) : eq(faceImages.personId, where.personId);
  return db.select(listedFaceImageColumns).from(faceImages).where(condition).orderBy(...oldestFirst(faceImages));
}

/**
 * The face videos, each with whether every face taken from it is small (isSmallFace on the crops' recorded
 * boxes: a clip filmed from across the room, or by a small camera), so the clip itself can say so.
 */
export async function listFaceVideos(db: Db, where: { userId: number } | { personId: number }): Promise<ListedFaceVideoRow[]> {
  const [videoCondition, cropCondition] =
    'userId' in where
      ? [eq(faceVideos.userId, where.userId), eq(faceImages.userId, where.userId)]
      : [eq(faceVideos.personId, where.personId), eq(faceImages.personId, where.personId)];
  const [rows, crops] = await Promise.all([
    db.select().from(faceVideos).where(videoCondition).orderBy(...oldestFirst(faceVideos)),
    db
      .select({ sourceVideoId: faceImages.sourceVideoId, analysis: faceImages.analysis })
      .from(faceImages)
      .where(and(cropCondition, isNotNull(faceImages.sourceVideoId))),
  ]);
  const small = new Map<number, boolean>();
  for (const crop of crops) small.set(crop.sourceVideoId!, (small.get(crop.sourceVideoId!) ?? true) && isSmallFace(crop.analysis?.box));
  return rows.map((row) => ({ ...row, smallFace: small.get(row.id) ?? false }));
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

/**
 * A face photo is analysed before it is kept (pipeline threads): no face, no row (400, nothing stored);
 * with several faces the largest is the person. Its embedding, expression and pose are stored, and
 * `mlProcessed` is set. The first face of a person becomes the default; `isDefault: true` takes the
 * default from another. The declared expression stays when the classifier agrees, else what it saw.
 * Once kept, its face is prepared for its videos in the background (jobs/keep-face.ts).
 */
export async function createFaceImage(
  deps: { db: Db; storage: Storage; pipeline: PipelinePool; queue: JobQueue },
  person: PersonRow,
  input: NewFaceImage,
): Promise<FaceImageRow> {
  const { db, storage, pipeline, queue } = deps;
  const { file } = await ingestDataUrl(storage, input.imageData, FACE_IMAGE_RULE, person.userId);
  const row = await keepIfSaved(storage, file, async () => {
    const analysis = await pipeline.run('analyseImage', { file: file.path }).catch((error: unknown) => {
      throw badRequest(/megapixels/.test((error as Error).message) ? (error as Error).message : MEDIA_MESSAGES.unreadableMedia);
    });
    const face = analysis.faces[0];
    if (!face) throw badRequest(FACE_ANALYSIS_MESSAGES.noFaceInPhoto);
    const classified = classifyExpression(face);
    const declared = input.expressionType;
    const expressionType = declared && isFaceExpression(declared) && expressionAgrees(face, declared) ? declared : classified;
    const record: Omit<FaceAnalysisRecord, 'time'> = {
      score: face.score,
      pose: face.pose,
      sharpness: face.sharpness,
      detailRatio: face.detailRatio,
      eyeOpening: face.eyeOpening,
      gaze: analysis.gaze,
      hiddenShare: analysis.hiddenShare,
      mouthOpening: face.mouthOpening,
      expressions: face.expressions,
      classified,
    };
    return withPersonLocked(db, person.id, async (tx) => {
      const isDefault = await shouldBecomeDefault(tx, faceImages, person.id, input.isDefault);
      if (isDefault) await clearDefault(tx, faceImages, person.id);
      const [row] = await tx
        .insert(faceImages)
        .values({
          userId: person.userId,
          personId: person.id,
          imageUrl: file.url,
          name: input.name,
          isDefault,
          expressionType,
          mlProcessed: true,
          faceEmbedding: face.embedding,
          analysis: { ...record, faces: analysis.faces.length, box: face.box, imageSize: [analysis.width, analysis.height] },
        })
        .returning();
      return row!;
    }, { needsConsent: true });
  });
  // The photo is kept whether or not this job can be queued: without it, its first video prepares the face.
  await queue.send('keep-face', { faceImageId: row.id }).catch(() => undefined);
  return row;
}

export async function setDefaultFaceImage(db: Db, image: FaceImageRow): Promise<FaceImageRow> {
  return withPersonLocked(db, image.personId, async (tx) => {
    await clearDefault(tx, faceImages, image.personId, image.id);
    const [row] = await tx.update(faceImages).set({ isDefault: true }).where(eq(faceImages.id, image.id)).returning();
    if (!row) throw notFound(MEDIA_MESSAGES.faceImageNotFound);
    return row;
  });
}

/**
 * Deletes the row, then its file; a deleted default passes to the newest remaining face. A parent's
 * deletion (`actor`) is written to the audit log; an undo after a failed save is not.
 */
export async function deleteFaceImage(db: Db, storage: Storage, image: FaceImageRow, actor?: UserRow): Promise<void> {
  const deleted = await withPersonLocked(db, image.personId, async (tx) => {
    const [row] = await tx.delete(faceImages).where(eq(faceImages.id, image.id)).returning();
    if (row?.isDefault) await promoteNewest(tx, faceImages, image.personId);
    if (row && actor) {
      await recordAudit(tx, { userId: row.userId, actor, action: 'face-image.deleted', personId: row.personId, detail: `Deleted the face photo "${row.name}"` });
    }
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
 * Saves a face video as `pending` and queues its face extraction. The video is either sent inline
 * (a data URL, at most MEDIA_LIMITS.inlineVideoMaxBytes: the JSON body is held in memory) or was
 * streamed to POST /api/upload/video first (up to 100 MB) and is named by its URL.
 * If the job cannot be queued the row and file go again: nothing is left waiting for ever.
 */
export async function createFaceVideo(
  deps: { db: Db; storage: Storage; queue: JobQueue },
  person: PersonRow,
  input: NewFaceVideo,
): Promise<FaceVideoRow> {
  const { db, storage, queue } = deps;
  const priority = await queueSlot(db, faceVideos, person.userId);
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
  await enqueueOrUndo(
    () => queue.send('face-extraction', { faceVideoId: row.id }, { priority }),
    () => deleteFaceVideo(db, storage, row),
  );
  return row;
}

/** How long an upload waits for POST /api/faceVideos before the sweep removes it. */
const PENDING_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Records a streamed upload until a face video claims it (the file goes if the row cannot be written:
 * 404 when the person was deleted meanwhile).
 */
export async function recordPendingUpload(db: Db, storage: Storage, person: PersonRow, file: StoredFile): Promise<void> {
  await keepIfSaved(storage, file, async () => {
    const { size } = await stat(file.path);
    await withPersonLocked(db, person.id, (tx) =>
      tx.insert(pendingUploads).values({
        userId: person.userId,
        personId: person.id,
        url: file.url,
        bytes: size,
        expiresAt: new Date(Date.now() + PENDING_UPLOAD_TTL_MS),
      }),
      { needsConsent: true },
    );
  });
}

/** A pending upload of this user (POST /api/upload/video) becomes the face video; the pending row goes. */
async function saveUploadedVideo(db: Db, storage: Storage, person: PersonRow, input: NewFaceVideo, url: string): Promise<FaceVideoRow> {
  const file = storage.fromUrl(url);
  if (!file || file.kind !== FACE_VIDEO_RULE.kind || file.ownerId !== person.userId) throw badRequest(MEDIA_MESSAGES.uploadNotFound);
  if (!(await stat(file.path).catch(() => undefined))?.isFile()) {
    // Deleting the person removes their pending uploads too: then the person is what is missing.
    const [still] = await db.select({ id: people.id }).from(people).where(eq(people.id, person.id)).limit(1);
    throw still ? badRequest(MEDIA_MESSAGES.uploadNotFound) : notFound(MEDIA_MESSAGES.personNotFound);
  }
  // Already checked by the upload route; probed again only for the duration.
  const duration = (await probe(file.path, { maxSeconds: MEDIA_LIMITS.faceVideoMaxSeconds + 2 }).catch(() => undefined))?.duration;
  // Deleting the pending row claims the upload: of two requests naming it, one gets the row, the other 400.
  // The person is locked first (as deletePerson does), so a delete waits or has already happened (404).
  return withPersonLocked(db, person.id, async (tx) => {
    const [claimed] = await tx
      .delete(pendingUploads)
      .where(and(eq(pendingUploads.userId, person.userId), eq(pendingUploads.url, file.url), gt(pendingUploads.expiresAt, new Date())))
      .returning({ id: pendingUploads.id });
    if (!claimed) {
      const [used] = await tx.select({ id: faceVideos.id }).from(faceVideos).where(eq(faceVideos.videoUrl, file.url)).limit(1);
      throw used ? conflict(MEDIA_MESSAGES.uploadAlreadyUsed) : badRequest(MEDIA_MESSAGES.uploadNotFound);
    }
    const [row] = await tx
      .insert(faceVideos)
      .values({ userId: person.userId, personId: person.id, videoUrl: file.url, name: input.name, expressionType: input.expressionType, duration })
      .returning();
    return row!;
  }, { needsConsent: true });
}

/** Inserts the row with the person locked: 404 when the person was deleted while the video was checked. */
function insertFaceVideo(db: Db, person: PersonRow, input: NewFaceVideo, file: StoredFile, duration: number | undefined) {
  return withPersonLocked(db, person.id, async (tx) => {
    const [row] = await tx
      .insert(faceVideos)
      .values({ userId: person.userId, personId: person.id, videoUrl: file.url, name: input.name, expressionType: input.expressionType, duration })
      .returning();
    return row!;
  }, { needsConsent: true });
}

/** Deletes the row and its file; face images extracted from it stay (their sourceVideoId becomes null). */
export async function deleteFaceVideo(db: Db, storage: Storage, video: FaceVideoRow, actor?: UserRow): Promise<void> {
  const [row] = await db.transaction(async (tx) => {
    const rows = await tx.delete(faceVideos).where(eq(faceVideos.id, video.id)).returning();
    const [gone] = rows;
    if (gone && actor) {
      await recordAudit(tx, { userId: gone.userId, actor, action: 'face-video.deleted', personId: gone.personId, detail: `Deleted the face clip "${gone.name}"` });
    }
    return rows;
  });
  if (!row) throw notFound(MEDIA_MESSAGES.faceVideoNotFound);
  await storage.removeUrl(row.videoUrl);
}
