// The voice analysis job: pitch, loudness, share of speech, a voice fingerprint and the warnings a parent
// should see, measured on a voice recording in the pipeline's worker threads (pipeline/voice-analysis.ts).
// Idempotent: analysing a recording again writes the same fields.
import { and, eq } from 'drizzle-orm';
import { FACE_ANALYSIS_MESSAGES } from '../../shared/face-analysis';
import { voiceRecordings } from '../db/schema';
import type { VoiceAnalysisSummary } from '../../shared/voice-analysis';
import { toVoiceAnalysisSummary } from '../pipeline/voice-analysis';
import type { JobContext } from './queue';
import type { JobData, JobDeps } from './registry';

export async function analyseVoiceJob(deps: JobDeps, { voiceRecordingId }: JobData['voice-analysis'], context: JobContext): Promise<void> {
  const { db, storage } = deps;
  const [recording] = await db.select().from(voiceRecordings).where(eq(voiceRecordings.id, voiceRecordingId)).limit(1);
  if (!recording || recording.mlProcessed || recording.analysisError) return;
  const file = storage.fromUrl(recording.audioUrl);
  if (!file) return markFailed(deps, recording.id, FACE_ANALYSIS_MESSAGES.voiceMissing);
  try {
    const analysis = await deps.pipeline.run('analyseVoice', { file: file.path });
    context.signal.throwIfAborted();
    const summary: VoiceAnalysisSummary = toVoiceAnalysisSummary(analysis);
    await db
      .update(voiceRecordings)
      .set({ mlProcessed: true, voiceEmbedding: analysis.embedding, analysis: { ...summary }, analysisError: null })
      .where(eq(voiceRecordings.id, recording.id));
  } catch (error) {
    if (context.lastAttempt) await markFailed(deps, recording.id, FACE_ANALYSIS_MESSAGES.voiceFailed);
    throw error;
  }
}

/** pg-boss gave up on the job: say so on the recording instead of leaving it "being analysed". */
export async function voiceAnalysisGaveUp(deps: JobDeps, { voiceRecordingId }: JobData['voice-analysis-gave-up']): Promise<void> {
  await deps.db
    .update(voiceRecordings)
    .set({ analysisError: FACE_ANALYSIS_MESSAGES.voiceFailed })
    .where(and(eq(voiceRecordings.id, voiceRecordingId), eq(voiceRecordings.mlProcessed, false)));
}

async function markFailed(deps: JobDeps, voiceRecordingId: number, message: string) {
  await deps.db.update(voiceRecordings).set({ analysisError: message }).where(eq(voiceRecordings.id, voiceRecordingId));
}
