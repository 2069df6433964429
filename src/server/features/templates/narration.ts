// A template's narration, analysed once (decision 012): at upload, so the admin sees the narrator's pitch
// or that no voice was found, and otherwise (demo templates, templates made with the JSON API, older
// rows) before its first video with a voice swap. A voice swap on a narration without a voice is refused
// before anything is queued, never passed through silently.
import { eq } from 'drizzle-orm';
import type { TemplateNarration } from '../../../shared/voice-analysis';
import type { Db } from '../../db/open';
import { type VideoTemplateRow, videoTemplates } from '../../db/schema';
import { probe } from '../../media/ffmpeg';
import type { PipelinePool } from '../../pipeline/worker-pool';
import type { Storage } from '../../storage/storage';

/** The narrator speaks in the first minutes: analysing a 3-hour template whole would tell nothing more. */
const NARRATION_ANALYSED_SECONDS = 600;
const NARRATION_TIMEOUT_MS = 120_000;

/** The voice in a video's soundtrack; a video without sound has none. */
export async function analyseNarration(pipeline: PipelinePool, videoFile: string): Promise<TemplateNarration> {
  if (!(await probe(videoFile, { maxSeconds: 1 })).hasAudio) return { pitchMedianHz: null, voicedSeconds: 0 };
  const analysis = await pipeline.run('analyseVoice', { file: videoFile, maxSeconds: NARRATION_ANALYSED_SECONDS, timeoutMs: NARRATION_TIMEOUT_MS });
  return { pitchMedianHz: analysis.pitchMedianHz, voicedSeconds: analysis.voicedSeconds };
}

/** The template's stored narration analysis, or analysed now and stored; null when its video is not a stored file. */
export async function templateNarration(deps: { db: Db; storage: Storage; pipeline: PipelinePool }, template: VideoTemplateRow): Promise<TemplateNarration | null> {
  if (template.narration) return template.narration;
  const file = deps.storage.fromUrl(template.videoUrl);
  // Only a template file (a family's media named by a template's URL is never read).
  if (file?.kind !== 'templates') return null;
  const narration = await analyseNarration(deps.pipeline, file.path);
  await deps.db.update(videoTemplates).set({ narration }).where(eq(videoTemplates.id, template.id));
  return narration;
}
