// The face extraction job: a face video's best face crops become face images of its person.
// pending → processing → completed | failed (with a message a parent understands). The heavy part runs
// in the pipeline's worker threads (pipeline/face-extraction.ts); this is the glue with the database and
// storage. Idempotent: a retried job replaces what an earlier attempt of the same video stored.
import { writeFile, rm } from 'node:fs/promises';
import { and, eq, inArray } from 'drizzle-orm';
import { FACE_ANALYSIS_MESSAGES, isLookingAside } from '../../shared/face-analysis';
import { faceImages, faceVideos } from '../db/schema';
import { HttpError } from '../http/errors';
import { clearDefault, withPersonLocked } from '../features/people/defaults';
import type { ExtractedFace } from '../pipeline/face-extraction';
import type { StoredFile } from '../storage/storage';
import type { JobContext } from './queue';
import type { JobData, JobDeps } from './registry';

type FaceVideoRow = typeof faceVideos.$inferSelect;

export async function extractFacesJob(deps: JobDeps, { faceVideoId }: JobData['face-extraction'], context: JobContext): Promise<void> {
  const { db, storage } = deps;
  const [video] = await db.select().from(faceVideos).where(eq(faceVideos.id, faceVideoId)).limit(1);
  // Deleted meanwhile, or a duplicate of a job that already finished: nothing to do.
  if (!video || video.processingStatus === 'completed' || video.processingStatus === 'failed') return;
  await db.update(faceVideos).set({ processingStatus: 'processing', errorMessage: null }).where(eq(faceVideos.id, video.id));

  try {
    const file = storage.fromUrl(video.videoUrl);
    if (!file) return await markFailed(deps, video.id, FACE_ANALYSIS_MESSAGES.clipMissing);
    const faces = await deps.pipeline.run('extractFaces', {
      file: file.path,
      declaredExpression: video.expressionType,
      durationSeconds: video.duration ?? undefined,
    });
    context.signal.throwIfAborted();
    if (faces.length === 0) return await markFailed(deps, video.id, FACE_ANALYSIS_MESSAGES.noFaceInClip);
    const stored = await storeFaces(deps, video, faces);
    // Each crop's face prepared for the person's videos now, in the background, rather than in their first
    // render (render/kept-face.ts: about a second each). A crop that cannot be prepared is prepared by a render.
    for (const [index, crop] of (stored ?? []).entries()) {
      await deps.pipeline.run('keepPersonFace', { file: crop.path, eyeOpening: faces[index]!.analysis.eyeOpening }, undefined, undefined, context.signal).catch(() => undefined);
    }
  } catch (error) {
    // The clip itself is the problem (unreadable): say so, and do not retry.
    if (error instanceof Error && error.name === 'ClipProblem') return await markFailed(deps, video.id, error.message);
    if (context.lastAttempt) await markFailed(deps, video.id, FACE_ANALYSIS_MESSAGES.clipFailed);
    else await db.update(faceVideos).set({ processingStatus: 'pending' }).where(and(eq(faceVideos.id, video.id), eq(faceVideos.processingStatus, 'processing')));
    throw error;
  }
}

/** pg-boss gave up on the job (its worker died on every attempt): the clip must not stay "processing". */
export async function faceExtractionGaveUp(deps: JobDeps, { faceVideoId }: JobData['face-extraction-gave-up']): Promise<void> {
  await deps.db
    .update(faceVideos)
    .set({ processingStatus: 'failed', errorMessage: FACE_ANALYSIS_MESSAGES.clipFailed })
    .where(and(eq(faceVideos.id, faceVideoId), inArray(faceVideos.processingStatus, ['pending', 'processing'])));
}

async function markFailed(deps: JobDeps, faceVideoId: number, message: string) {
  await deps.db.update(faceVideos).set({ processingStatus: 'failed', errorMessage: message, isProcessed: true }).where(eq(faceVideos.id, faceVideoId));
}

/**
 * Moves the crops into storage, then in one transaction (the person locked) replaces the face images an
 * earlier attempt made from this video and marks the video completed. Files are removed again when the
 * transaction fails; the replaced rows' files only after it committed. Returns the crops' files, or undefined when
 * nothing was kept (the clip or its person was deleted meanwhile).
 */
async function storeFaces(deps: JobDeps, video: FaceVideoRow, faces: ExtractedFace[]): Promise<StoredFile[] | undefined> {
  const { db, storage } = deps;
  const stored: StoredFile[] = [];
  try {
    for (const face of faces) {
      const temp = await storage.tempPath();
      await writeFile(temp, face.jpeg);
      stored.push(await storage.moveIn(temp, 'face-images', video.userId, 'jpg').catch(async (error: unknown) => {
        await rm(temp, { force: true });
        throw error;
      }));
    }
    // The person may be gone meanwhile (deleted with their clips): then keep nothing, quietly.
    const personGone = (error: unknown) => error instanceof HttpError && error.statusCode === 404;
    const replaced = await withPersonLocked(db, video.personId, async (tx) => {
      const [still] = await tx.select({ id: faceVideos.id }).from(faceVideos).where(eq(faceVideos.id, video.id)).for('update');
      if (!still) return undefined;
      const old = await tx.delete(faceImages).where(eq(faceImages.sourceVideoId, video.id)).returning();
      const [currentDefault] = await tx
        .select({ id: faceImages.id })
        .from(faceImages)
        .where(and(eq(faceImages.personId, video.personId), eq(faceImages.isDefault, true)))
        .limit(1);
      // The person's first faces: the first frontal neutral crop (else the most frontal one) becomes the default.
      const defaultIndex = currentDefault ? -1 : pickDefault(faces);
      if (defaultIndex >= 0) await clearDefault(tx, faceImages, video.personId);
      await tx.insert(faceImages).values(
        faces.map((face, index) => ({
          userId: video.userId,
          personId: video.personId,
          imageUrl: stored[index]!.url,
          name: `${video.name} (${index + 1})`,
          isDefault: index === defaultIndex,
          mlProcessed: true,
          faceEmbedding: face.embedding,
          sourceVideoId: video.id,
          expressionType: face.expressionType,
          analysis: face.analysis as unknown as Record<string, unknown>,
        })),
      );
      await tx
        .update(faceVideos)
        .set({ processingStatus: 'completed', isProcessed: true, extractedFacesCount: faces.length, errorMessage: null, processedAt: new Date() })
        .where(eq(faceVideos.id, video.id));
      return old;
    }).catch((error: unknown) => {
      if (personGone(error)) return undefined;
      throw error;
    });
    if (!replaced) {
      // The video (or its person) was deleted while we worked: keep nothing.
      await Promise.all(stored.map((file) => storage.removeUrl(file.url)));
      return;
    }
    await Promise.all(replaced.map((row) => storage.removeUrl(row.imageUrl)));
    return stored;
  } catch (error) {
    await Promise.all(stored.map((file) => storage.removeUrl(file.url)));
    throw error;
  }
}

/**
 * The person's first default face: the first frontal neutral crop, else the most frontal one; crops whose
 * eyes look ahead before those glancing aside either way (a video takes its eyes from the chosen image).
 */
export function pickDefault(faces: ExtractedFace[]): number {
  const ahead = (face: ExtractedFace) => !isLookingAside(face.analysis.gaze);
  const neutral = (face: ExtractedFace) => face.frontal && face.expressionType === 'neutral';
  for (const fits of [(face: ExtractedFace) => neutral(face) && ahead(face), neutral]) {
    const index = faces.findIndex(fits);
    if (index >= 0) return index;
  }
  const better = (p: ExtractedFace, q: ExtractedFace) => (ahead(p) !== ahead(q) ? ahead(p) : Math.abs(p.analysis.pose.yaw) < Math.abs(q.analysis.pose.yaw));
  let best = 0;
  faces.forEach((face, index) => {
    if (better(face, faces[best]!)) best = index;
  });
  return best;
}
