// Every face template's actor is tracked once, ahead of the families' renders (pipeline/render/actor-track.ts):
// the maintenance sweep queues an 'actor-track' job for each template whose video has no valid track
// (new, uploaded, replaced, or recorded by an older tracker), and the job records it in the pipeline's
// threads. One mechanism for every way a template arrives (upload, the quick form, the demo library).
// A render that finds no track records it itself, so this only moves the cost off the families' renders.
import { eq, notInArray, and, isNotNull } from 'drizzle-orm';
import { videoTemplates } from '../db/schema';
import { actorTrackFile, hasActorTrack } from '../pipeline/render/actor-track';
import type { JobContext } from './queue';
import type { JobData, JobDeps } from './registry';
import { liveJobIds } from './maintenance';

/** The template's stored video, when it has a face to track (not voice-only) and is one of our files. */
async function templateVideo(deps: JobDeps, templateId: number) {
  const [template] = await deps.db.select().from(videoTemplates).where(eq(videoTemplates.id, templateId)).limit(1);
  if (!template || template.voiceOnly) return undefined;
  const file = deps.storage.fromUrl(template.videoUrl);
  return file?.kind === 'templates' && file.ownerId === template.id ? file : undefined;
}

export async function actorTrackJob(deps: JobDeps, { templateId }: JobData['actor-track'], context: JobContext): Promise<void> {
  const file = await templateVideo(deps, templateId);
  if (!file) return;
  const { recorded, frames } = await deps.pipeline.run('recordActorTrack', { template: file.path, actorTrack: actorTrackFile(file.path) }, undefined, undefined, context.signal);
  if (recorded) deps.log.info({ templateId, frames }, 'actor track recorded');
}

/** Queues a job for each face template whose video has no valid track and no job on the way; returns how many. */
export async function queueMissingActorTracks(deps: JobDeps): Promise<number> {
  const live = await liveJobIds(deps, 'actor-track', 'templateId');
  const templates = await deps.db
    .select({ id: videoTemplates.id })
    .from(videoTemplates)
    .where(and(eq(videoTemplates.voiceOnly, false), isNotNull(videoTemplates.videoUrl), live.length ? notInArray(videoTemplates.id, live) : undefined));
  let queued = 0;
  for (const { id } of templates) {
    const file = await templateVideo(deps, id);
    if (!file || (await hasActorTrack(actorTrackFile(file.path), file.path, 'mesh-only'))) continue;
    await deps.queue.send('actor-track', { templateId: id });
    queued++;
  }
  return queued;
}
