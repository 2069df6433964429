// The periodic sweep (sent every few minutes by the workers, run by one of them):
// - pending uploads past their expiry: row and file;
// - temporary files older than a few hours (uploads cut off, jobs killed half-way);
// - rows whose job is gone: a face video, voice recording or processed video still waiting with no job
//   (the process died between the insert and the send, or it predates the job queue) gets a job; a face
//   video or processed video left "processing" with no job fails clearly.
// - 'Download my data' zips past their day (data-export.ts);
// - the media folders of deleted accounts, when the process died between the rows and the files;
// - raw face clips past their retention (retention.ts: RAW_CLIP_RETENTION_DAYS after processing);
// - face templates whose actor has no recorded track get a job to record it (actor-track.ts).
// Other stored media is never swept by age: a file goes with its row (a voice-only upload's source lives
// as long as its processed video), so a live row's files are never touched here.
import { and, eq, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import { FACE_ANALYSIS_MESSAGES } from '../../shared/face-analysis';
import { VIDEO_MESSAGES } from '../../shared/video-rules';
import { faceVideos, pendingUploads, processedVideos, users, voiceRecordings } from '../db/schema';
import { USER_MEDIA_KINDS } from '../storage/storage';
import type { JobDeps } from './registry';
import { deleteExpiredRawClips } from './retention';
import { sweepExpiredExports } from './data-export';
import { queueMissingActorTracks } from './actor-track';

const TEMP_MAX_AGE_MS = 6 * 60 * 60 * 1000;
/** A row younger than this may still be between its insert and its job's send. */
const ORPHAN_AFTER_MS = 5 * 60 * 1000;

export async function maintenanceJob(deps: JobDeps): Promise<void> {
  await sweepExpiredUploads(deps);
  const exports = await sweepExpiredExports(deps);
  if (exports > 0) deps.log.info(`deleted ${exports} expired data export(s)`);
  const clips = await deleteExpiredRawClips(deps);
  if (clips > 0) deps.log.info(`deleted ${clips} raw face clip(s) past their retention`);
  const orphaned = await removeMediaOfDeletedAccounts(deps);
  if (orphaned > 0) deps.log.warn(`removed the media folders of ${orphaned} deleted account(s)`);
  const removed = await deps.storage.sweepTemp(TEMP_MAX_AGE_MS);
  if (removed > 0) deps.log.info(`removed ${removed} stale temporary file(s)`);
  await requeueOrphans(deps);
  const tracks = await queueMissingActorTracks(deps);
  if (tracks > 0) deps.log.info(`queued ${tracks} template(s) to have their actor tracked`);
}

export async function sweepExpiredUploads({ db, storage }: Pick<JobDeps, 'db' | 'storage'>): Promise<number> {
  const expired = await db.delete(pendingUploads).where(lt(pendingUploads.expiresAt, new Date())).returning({ url: pendingUploads.url });
  await Promise.all(expired.map((row) => storage.removeUrl(row.url)));
  return expired.length;
}

/**
 * An account's files are removed after its rows (users/delete-account.ts); a process that died in between
 * leaves folders that no row points to. They go here: every user-owned folder whose account is gone.
 */
export async function removeMediaOfDeletedAccounts({ db, storage }: Pick<JobDeps, 'db' | 'storage'>): Promise<number> {
  const gone = new Set<number>();
  for (const kind of USER_MEDIA_KINDS) {
    const owners = await storage.ownersOf(kind);
    if (owners.length === 0) continue;
    const existing = new Set((await db.select({ id: users.id }).from(users).where(inArray(users.id, owners))).map((row) => row.id));
    for (const owner of owners) {
      if (existing.has(owner)) continue;
      await storage.removeOwner(kind, owner);
      gone.add(owner);
    }
  }
  return gone.size;
}

/** Ids named in the live (waiting, retrying or running) jobs of a queue. */
export async function liveJobIds(deps: JobDeps, queue: string, key: string): Promise<number[]> {
  const result = (await deps.db.execute(
    sql`select distinct (data->>${key})::int as id from pgboss.job where name = ${queue} and state in ('created', 'retry', 'active')`,
  )) as unknown as { rows: { id: number }[] };
  return result.rows.map((row) => row.id);
}

async function requeueOrphans(deps: JobDeps) {
  const { db, queue } = deps;
  const before = new Date(Date.now() - ORPHAN_AFTER_MS);

  const liveVideos = await liveJobIds(deps, 'face-extraction', 'faceVideoId');
  const notLive = (ids: number[]) => (ids.length ? notInArray(faceVideos.id, ids) : undefined);
  const failed = await db
    .update(faceVideos)
    .set({ processingStatus: 'failed', errorMessage: FACE_ANALYSIS_MESSAGES.clipFailed })
    .where(and(eq(faceVideos.processingStatus, 'processing'), lt(faceVideos.createdAt, before), notLive(liveVideos)))
    .returning({ id: faceVideos.id });
  const waitingVideos = await db
    .select({ id: faceVideos.id })
    .from(faceVideos)
    .where(and(eq(faceVideos.processingStatus, 'pending'), lt(faceVideos.createdAt, before), notLive(liveVideos)));
  for (const { id } of waitingVideos) await queue.send('face-extraction', { faceVideoId: id });

  const liveVoices = await liveJobIds(deps, 'voice-analysis', 'voiceRecordingId');
  const waitingVoices = await db
    .select({ id: voiceRecordings.id })
    .from(voiceRecordings)
    .where(
      and(
        eq(voiceRecordings.mlProcessed, false),
        isNull(voiceRecordings.analysisError),
        lt(voiceRecordings.createdAt, before),
        liveVoices.length ? notInArray(voiceRecordings.id, liveVoices) : undefined,
      ),
    );
  for (const { id } of waitingVoices) await queue.send('voice-analysis', { voiceRecordingId: id });

  const liveRenders = await liveJobIds(deps, 'render', 'processedVideoId');
  const notRendering = liveRenders.length ? notInArray(processedVideos.id, liveRenders) : undefined;
  const failedRenders = await db
    .update(processedVideos)
    .set({ status: 'failed', error: VIDEO_MESSAGES.renderFailed })
    .where(and(eq(processedVideos.status, 'processing'), lt(processedVideos.createdAt, before), notRendering))
    .returning({ id: processedVideos.id });
  const waitingRenders = await db
    .select({ id: processedVideos.id })
    .from(processedVideos)
    .where(and(eq(processedVideos.status, 'pending'), lt(processedVideos.createdAt, before), notRendering));
  for (const { id } of waitingRenders) await queue.send('render', { processedVideoId: id });

  if (failed.length || waitingVideos.length || waitingVoices.length || failedRenders.length || waitingRenders.length) {
    deps.log.warn(
      `maintenance: ${failed.length} face video(s) and ${failedRenders.length} processed video(s) had lost their job and failed; ` +
        `${waitingVideos.length} face video(s), ${waitingVoices.length} voice recording(s) and ${waitingRenders.length} processed video(s) were queued again`,
    );
  }
}
