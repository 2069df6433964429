// How long a render will take (decisions page, Estimated processing time): the sketch's formula until this
// server has finished comparable renders, then their measured seconds of work per second of template.
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import { MESSAGES } from '../../../shared/validation';
import { type ProcessingEstimate, VIDEO_MESSAGES, estimatedProcessingSeconds } from '../../../shared/video-rules';
import type { Db } from '../../db/open';
import { processedVideos, videoTemplates } from '../../db/schema';
import { notFound } from '../../http/errors';

/** How many of the newest finished renders the measurement looks at: recent enough to follow the machine. */
const SAMPLE_SIZE = 20;

const flag = (name: string) =>
  z.enum(['1', '0', 'true', 'false'], { error: `${name} must be 1 or 0` }).transform((value) => value === '1' || value === 'true');

/** GET /api/processedVideos/estimate?templateId=N&face=1|0&voice=1|0 */
export const estimateQuerySchema = z.object({
  templateId: z.coerce.number({ error: MESSAGES.invalidId }).int(MESSAGES.invalidId).positive(MESSAGES.invalidId).max(2_147_483_647, MESSAGES.invalidId),
  face: flag('face'),
  voice: flag('voice'),
});
export type EstimateQuery = z.infer<typeof estimateQuerySchema>;

function median(values: number[]): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Renders with a face and voice-only renders are measured apart: the face stage (decode, track, blend each
 * frame) costs many times the voice stage. The median of elapsed ÷ template duration shrugs off a render
 * that shared the machine with others.
 */
export async function estimateProcessing(db: Db, { templateId, face, voice }: EstimateQuery): Promise<ProcessingEstimate> {
  const [template] = await db
    .select({ duration: videoTemplates.duration, voiceOnly: videoTemplates.voiceOnly })
    .from(videoTemplates)
    .where(eq(videoTemplates.id, templateId))
    .limit(1);
  if (!template) throw notFound(VIDEO_MESSAGES.templateNotFound);
  // A voice-only template never swaps the face, whatever the form says (as createProcessedVideo does).
  const withFace = face && !template.voiceOnly;

  const [sameKind, withFaceToo] = await Promise.all([secondsPerSecond(db, !withFace), withFace ? undefined : secondsPerSecond(db, false)]);
  if (sameKind !== undefined) return { seconds: Math.max(1, Math.round(sameKind * template.duration)), basis: 'measured' };
  const formula = estimatedProcessingSeconds(template.duration, withFace, voice);
  // No voice-only render measured yet: it is never slower than a measured one with a face (it is that
  // render without its longest stage), so the sketch's formula is not let say otherwise.
  const faceMeasured = withFaceToo === undefined ? undefined : Math.max(1, Math.round(withFaceToo * template.duration));
  if (faceMeasured !== undefined && faceMeasured < formula) return { seconds: faceMeasured, basis: 'measured' };
  return { seconds: formula, basis: 'formula' };
}

/** The median seconds of work per second of template over the newest finished renders of one kind. */
async function secondsPerSecond(db: Db, voiceOnly: boolean): Promise<number | undefined> {
  const finished = await db
    .select({ startedAt: processedVideos.startedAt, completedAt: processedVideos.completedAt, duration: videoTemplates.duration })
    .from(processedVideos)
    .innerJoin(videoTemplates, eq(videoTemplates.id, processedVideos.templateId))
    .where(
      and(
        eq(processedVideos.status, 'completed'),
        eq(processedVideos.voiceOnly, voiceOnly),
        isNotNull(processedVideos.startedAt),
        isNotNull(processedVideos.completedAt),
      ),
    )
    .orderBy(desc(processedVideos.completedAt))
    .limit(SAMPLE_SIZE);
  return median(
    finished
      .map((row) => ({ elapsed: (row.completedAt!.getTime() - row.startedAt!.getTime()) / 1000, duration: row.duration }))
      .filter(({ elapsed, duration }) => elapsed > 0 && duration > 0)
      .map(({ elapsed, duration }) => elapsed / duration),
  );
}
