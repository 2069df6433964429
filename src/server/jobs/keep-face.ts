// A parent's face photo is prepared for its videos as soon as it is stored (pipeline/render/kept-face.ts):
// found, cut out, turned frontal, its light worked out, and kept beside the image, in the pipeline's threads,
// so that its first video starts from the kept face as every later one does (about a second of one core
// less per image on every first video). The photo's upload sends the job (faces/service.ts); the crops of a
// face clip are prepared by their own job as it ends (face-extraction.ts). A render that finds no kept face
// (the job not run yet, or failed, or the code changed since) prepares it itself, so this only moves the cost.
import { eq } from 'drizzle-orm';
import { faceImages } from '../db/schema';
import type { JobContext } from './queue';
import type { JobData, JobDeps } from './registry';

export async function keepFaceJob(deps: JobDeps, { faceImageId }: JobData['keep-face'], context: JobContext): Promise<void> {
  const [image] = await deps.db.select().from(faceImages).where(eq(faceImages.id, faceImageId)).limit(1);
  // Deleted meanwhile: nothing to prepare (a face kept as the image goes removes itself: kept-face.ts).
  if (!image) return;
  const file = deps.storage.fromUrl(image.imageUrl);
  if (file?.kind !== 'face-images' || file.ownerId !== image.userId) return;
  // Prepared with the eye opening its analysis recorded, as its renders load it (jobs/render.ts).
  const opening = image.analysis?.eyeOpening;
  const { prepared } = await deps.pipeline.run('keepPersonFace', { file: file.path, eyeOpening: typeof opening === 'number' ? opening : undefined }, undefined, undefined, context.signal);
  if (prepared) deps.log.info({ faceImageId }, 'face prepared for its videos');
}
