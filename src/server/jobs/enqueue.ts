// Helpers for routes that queue work for a row they just wrote.
import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import { FACE_ANALYSIS_MESSAGES } from '../../shared/face-analysis';
import type { Db } from '../db/open';
import { HttpError } from '../http/errors';
import { faceVideos, voiceRecordings } from '../db/schema';

/** Clips or recordings one user may have waiting for analysis at once (the next gets 429). */
export const MAX_WAITING_PER_USER = 20;

/**
 * Checked before a clip or recording is stored: refuses (429) a user with MAX_WAITING_PER_USER rows
 * already waiting, else gives the job's priority: each waiting row lowers it by one, so a parent who
 * sends twenty clips does not hold up everyone else's first one.
 */
export async function queueSlot(db: Db, table: typeof faceVideos | typeof voiceRecordings, userId: number): Promise<number> {
  const waiting =
    table === faceVideos
      ? and(eq(faceVideos.userId, userId), inArray(faceVideos.processingStatus, ['pending', 'processing']))
      : and(eq(voiceRecordings.userId, userId), eq(voiceRecordings.mlProcessed, false), isNull(voiceRecordings.analysisError));
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(table).where(waiting);
  if (n >= MAX_WAITING_PER_USER) throw new HttpError(429, FACE_ANALYSIS_MESSAGES.tooManyWaiting, { 'retry-after': '30' });
  return -n;
}

/** Sends the job; when that fails, `undo` removes what the request wrote, so nothing waits for ever. */
export async function enqueueOrUndo(send: () => Promise<unknown>, undo: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    await undo().catch(() => {});
    throw error;
  }
}
