// Raw face clips are kept RAW_CLIP_RETENTION_DAYS after their faces were extracted (decision 016), then
// their files go; the clip's row stays with rawClipDeletedAt, and the faces extracted from it, the voice
// recordings and the fingerprints stay until the parent deletes them. A clip whose analysis failed has no
// faces to keep: its file goes the same number of days after it was uploaded. Run by the maintenance job.
import { and, eq, inArray, isNotNull, lt, or } from 'drizzle-orm';
import { DEFAULT_RAW_CLIP_RETENTION_DAYS } from '../../shared/privacy';
import { faceVideos, people } from '../db/schema';
import { recordAudit } from '../features/privacy/audit';
import type { JobDeps } from './registry';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Deletes the raw clips past their retention; returns how many went. */
export async function deleteExpiredRawClips(deps: Pick<JobDeps, 'db' | 'storage' | 'rawClipRetentionDays'>, now = new Date()): Promise<number> {
  const { db, storage } = deps;
  const days = deps.rawClipRetentionDays ?? DEFAULT_RAW_CLIP_RETENTION_DAYS;
  const before = new Date(now.getTime() - days * DAY_MS);
  // Locked while claimed (skipping rows another sweep holds), so two workers never both take a clip.
  const expired = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(faceVideos)
      .where(
        and(
          isNotNull(faceVideos.videoUrl),
          or(
            and(eq(faceVideos.processingStatus, 'completed'), lt(faceVideos.processedAt, before)),
            and(eq(faceVideos.processingStatus, 'failed'), lt(faceVideos.createdAt, before)),
          ),
        ),
      )
      .for('update', { skipLocked: true });
    if (rows.length === 0) return rows;
    await tx
      .update(faceVideos)
      .set({ videoUrl: null, rawClipDeletedAt: now })
      .where(inArray(faceVideos.id, rows.map((row) => row.id)));
    const names = new Map(
      (await tx.select({ id: people.id, name: people.name }).from(people).where(inArray(people.id, [...new Set(rows.map((row) => row.personId))]))).map(
        (person) => [person.id, person.name],
      ),
    );
    for (const row of rows) {
      const what = row.processingStatus === 'completed' ? `${days} day(s) after processing; its ${row.extractedFacesCount} face(s) are kept` : `${days} day(s) after its processing failed`;
      await recordAudit(tx, {
        userId: row.userId,
        actor: 'system',
        action: 'raw-clip.deleted',
        personId: row.personId,
        detail: `Raw clip "${row.name}" of ${names.get(row.personId) ?? 'a person'} deleted ${what}`,
      });
    }
    return rows;
  });
  await Promise.all(expired.map((row) => storage.removeUrl(row.videoUrl)));
  return expired.length;
}
