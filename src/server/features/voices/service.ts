// Voice recordings of a person: audio checked by content and measured on the server (5–30 s), one
// default recording per person (people/defaults.ts).
import { asc, eq } from 'drizzle-orm';
import type { VoiceRecording } from '../../../shared/api-types';
import type { VoiceAnalysisSummary } from '../../../shared/voice-analysis';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import type { Db } from '../../db/open';
import { type UserRow, voiceRecordings } from '../../db/schema';
import { recordAudit } from '../privacy/audit';
import { notFound } from '../../http/errors';
import { VOICE_RECORDING_RULE, ingestDataUrl, keepIfSaved } from '../../media/ingest';
import { enqueueOrUndo, queueSlot } from '../../jobs/enqueue';
import type { JobQueue } from '../../jobs/queue';
import type { Storage } from '../../storage/storage';
import type { PersonRow } from '../people/access';
import { clearDefault, promoteNewest, shouldBecomeDefault, withPersonLocked } from '../people/defaults';

export type VoiceRecordingRow = typeof voiceRecordings.$inferSelect;

/** Never the voice embedding: biometric data the browser has no use for. */
export function toVoiceRecording(row: VoiceRecordingRow): VoiceRecording {
  return {
    id: row.id,
    userId: row.userId,
    personId: row.personId,
    audioUrl: row.audioUrl ?? '',
    name: row.name,
    duration: row.duration ?? 0,
    isDefault: row.isDefault,
    mlProcessed: row.mlProcessed,
    analysis: (row.analysis as VoiceAnalysisSummary | null) ?? null,
    analysisError: row.analysisError,
    type: row.type,
    createdAt: row.createdAt.toISOString(),
  };
}

export function listVoiceRecordings(db: Db, where: { userId: number } | { personId: number }): Promise<VoiceRecordingRow[]> {
  const condition = 'userId' in where ? eq(voiceRecordings.userId, where.userId) : eq(voiceRecordings.personId, where.personId);
  return db.select().from(voiceRecordings).where(condition).orderBy(asc(voiceRecordings.createdAt), asc(voiceRecordings.id));
}

export async function findVoiceRecording(db: Db, id: number): Promise<VoiceRecordingRow> {
  const [row] = await db.select().from(voiceRecordings).where(eq(voiceRecordings.id, id)).limit(1);
  if (!row) throw notFound(MEDIA_MESSAGES.voiceRecordingNotFound);
  return row;
}

export interface NewVoiceRecording {
  audioData: unknown;
  name: string;
  isDefault: boolean;
  type?: string;
}

/**
 * The duration the client sends is ignored: the server decodes the audio and stores what it measured.
 * The first recording of a person becomes the default; `isDefault: true` (the wizard's first step)
 * takes the default from another.
 */
export async function createVoiceRecording(
  deps: { db: Db; storage: Storage; queue: JobQueue },
  person: PersonRow,
  input: NewVoiceRecording,
): Promise<VoiceRecordingRow> {
  const { db, storage, queue } = deps;
  const priority = await queueSlot(db, voiceRecordings, person.userId);
  const { file, duration } = await ingestDataUrl(storage, input.audioData, VOICE_RECORDING_RULE, person.userId);
  const row = await keepIfSaved(storage, file, () =>
    withPersonLocked(db, person.id, async (tx) => {
      const isDefault = await shouldBecomeDefault(tx, voiceRecordings, person.id, input.isDefault);
      if (isDefault) await clearDefault(tx, voiceRecordings, person.id);
      const [row] = await tx
        .insert(voiceRecordings)
        .values({
          userId: person.userId,
          personId: person.id,
          audioUrl: file.url,
          name: input.name,
          duration: duration === undefined ? null : Math.round(duration * 100) / 100,
          isDefault,
          type: input.type ?? null,
        })
        .returning();
      return row!;
    }, { needsConsent: true }),
  );
  // The analysis (pitch, loudness, fingerprint) runs in the background; the client polls the row.
  await enqueueOrUndo(
    () => queue.send('voice-analysis', { voiceRecordingId: row.id }, { priority }),
    () => deleteVoiceRecording(db, storage, row),
  );
  return row;
}

export async function setDefaultVoiceRecording(db: Db, recording: VoiceRecordingRow): Promise<VoiceRecordingRow> {
  return withPersonLocked(db, recording.personId, async (tx) => {
    await clearDefault(tx, voiceRecordings, recording.personId, recording.id);
    const [row] = await tx.update(voiceRecordings).set({ isDefault: true }).where(eq(voiceRecordings.id, recording.id)).returning();
    if (!row) throw notFound(MEDIA_MESSAGES.voiceRecordingNotFound);
    return row;
  });
}

/**
 * Deletes the row, then its file; a deleted default passes to the newest remaining recording. A parent's
 * deletion (`actor`) is written to the audit log; an undo after a failed save is not.
 */
export async function deleteVoiceRecording(db: Db, storage: Storage, recording: VoiceRecordingRow, actor?: UserRow): Promise<void> {
  const deleted = await withPersonLocked(db, recording.personId, async (tx) => {
    const [row] = await tx.delete(voiceRecordings).where(eq(voiceRecordings.id, recording.id)).returning();
    if (row?.isDefault) await promoteNewest(tx, voiceRecordings, recording.personId);
    if (row && actor) {
      await recordAudit(tx, { userId: row.userId, actor, action: 'voice-recording.deleted', personId: row.personId, detail: `Deleted the voice recording "${row.name}"` });
    }
    return row;
  });
  if (!deleted) throw notFound(MEDIA_MESSAGES.voiceRecordingNotFound);
  await storage.removeUrl(deleted.audioUrl);
}
