// The periodic sweep (sent every few minutes by the workers, run by one of them):
// - pending uploads past their expiry: row and file;
// - temporary files older than a few hours (uploads cut off, jobs killed half-way);
// - rows whose job is gone: a face video or voice recording still waiting with no job (enqueueing failed,
//   or it predates the job queue) gets a job; a face video left "processing" with no job fails clearly.
import { and, eq, isNull, lt, notInArray, sql } from 'drizzle-orm';
import { FACE_ANALYSIS_MESSAGES } from '../../shared/face-analysis';
import { faceVideos, pendingUploads, voiceRecordings } from '../db/schema';
import type { JobDeps } from './registry';

const TEMP_MAX_AGE_MS = 6 * 60 * 60 * 1000;
/** A row younger than this may still be between its insert and its job's send. */
const ORPHAN_AFTER_MS = 5 * 60 * 1000;

export async function maintenanceJob(deps: JobDeps): Promise<void> {
  await sweepExpiredUploads(deps);
  const removed = await deps.storage.sweepTemp(TEMP_MAX_AGE_MS);
  if (removed > 0) deps.log.info(`removed ${removed} stale temporary file(s)`);
  await requeueOrphans(deps);
}

export async function sweepExpiredUploads({ db, storage }: Pick<JobDeps, 'db' | 'storage'>): Promise<number> {
  const expired = await db.delete(pendingUploads).where(lt(pendingUploads.expiresAt, new Date())).returning({ url: pendingUploads.url });
  await Promise.all(expired.map((row) => storage.removeUrl(row.url)));
  return expired.length;
}

/** Ids named in the live (waiting, retrying or running) jobs of a queue. */
async function liveJobIds(deps: JobDeps, queue: string, key: string): Promise<number[]> {
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

  if (failed.length || waitingVideos.length || waitingVoices.length) {
    deps.log.warn(
      `maintenance: ${failed.length} face video(s) had lost their job and failed; ` +
        `${waitingVideos.length} face video(s) and ${waitingVoices.length} voice recording(s) were queued again`,
    );
  }
}
