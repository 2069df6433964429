// Personalised videos (spec 02 §3, §5, §7; decisions page): the server decides everything. A request
// writes the row `pending` and queues its render; the render job moves it to processing → completed |
// failed; deleting cancels a running render and removes the files.
import { existsSync } from 'node:fs';
import { and, count, desc, eq, gte, inArray } from 'drizzle-orm';
import type { ProcessedVideo } from '../../../shared/api-types';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { PAYMENT_MESSAGES } from '../../../shared/payments';
import { planById } from '../../../shared/plans';
import { VOICE_ONLY_MESSAGES } from '../../../shared/voice-only-rules';
import { PRIVACY_MESSAGES } from '../../../shared/privacy';
import { NARRATION_MESSAGES, type VoiceAnalysisSummary, heardVoice, unusableRecordingMessage } from '../../../shared/voice-analysis';
import {
  type CreateProcessedVideoInput,
  type MediaLink,
  type MediaLinkPurpose,
  type RetryProcessedVideoInput,
  VIDEO_MESSAGES,
  downloadFileName,
  monthlyLimitMessage,
} from '../../../shared/video-rules';
import type { Db, Tx } from '../../db/open';
import { type UserRow, faceImages, people, processedVideos, purchases, users, videoTemplates, voiceRecordings } from '../../db/schema';
import { HttpError, badRequest, conflict, forbidden, notFound, planLimit } from '../../http/errors';
import type { MediaLinkSigner } from '../../http/signed-links';
import type { JobQueue } from '../../jobs/queue';
import type { PipelinePool } from '../../pipeline/worker-pool';
import type { Storage } from '../../storage/storage';
import { withPersonLocked } from '../people/defaults';
import { templateNarration } from '../templates/narration';

export type ProcessedVideoRow = typeof processedVideos.$inferSelect;

export function toProcessedVideo(row: ProcessedVideoRow): ProcessedVideo {
  return {
    id: row.id,
    userId: row.userId,
    templateId: row.templateId,
    personId: row.personId,
    title: row.title,
    description: row.description,
    thumbnailUrl: row.thumbnailUrl,
    videoUrl: row.videoUrl,
    outputUrl: row.outputUrl,
    faceImageId: row.faceImageId,
    voiceRecordingId: row.voiceRecordingId,
    voiceOnly: row.voiceOnly,
    status: row.status,
    error: row.error,
    notices: row.notices,
    faceProgress: row.faceProgress,
    voiceProgress: row.voiceProgress,
    startedAt: row.startedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A row of the caller's, else 404: another user's video is not even said to exist. */
export async function ownProcessedVideo(db: Db, user: UserRow, id: number): Promise<ProcessedVideoRow> {
  const [row] = await db.select().from(processedVideos).where(eq(processedVideos.id, id)).limit(1);
  if (!row || row.userId !== user.id) throw notFound(VIDEO_MESSAGES.videoNotFound);
  return row;
}

export function listProcessedVideos(db: Db, userId: number): Promise<ProcessedVideoRow[]> {
  return db.select().from(processedVideos).where(eq(processedVideos.userId, userId)).orderBy(desc(processedVideos.createdAt), desc(processedVideos.id));
}

/** The decisions page's premium rule: admins, active/trial Premium or Family subscribers, or a completed purchase. */
async function mayUseTemplate(db: Db, user: UserRow, template: typeof videoTemplates.$inferSelect): Promise<boolean> {
  if (!template.isPremium || user.role === 'admin') return true;
  if (planById(user.plan).premiumTemplates && (user.subscriptionStatus === 'active' || user.subscriptionStatus === 'trial')) return true;
  const [bought] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.userId, user.id), eq(purchases.templateId, template.id), eq(purchases.status, 'completed')))
    .limit(1);
  return Boolean(bought);
}

/** The videos that use up a month's allowance: made, or being made. A failed render costs the parent nothing. */
export const COUNTED_STATUSES = ['pending', 'processing', 'completed'] as const;


/** How many of this calendar month's (UTC) videos count against the plan: made, or being made. */
export async function monthlyVideoCount(db: Db | Tx, userId: number): Promise<number> {
  const now = new Date();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(processedVideos)
    .where(and(eq(processedVideos.userId, userId), gte(processedVideos.createdAt, monthStart), inArray(processedVideos.status, [...COUNTED_STATUSES])));
  return n;
}

/** The Free plan's videos per calendar month; admins and paid plans are unlimited. 403 `plan_limit` when used up. */
export async function checkMonthlyLimit(db: Db | Tx, user: UserRow) {
  const plan = planById(user.plan);
  if (user.role === 'admin' || plan.videosPerMonth === null) return;
  if ((await monthlyVideoCount(db, user.id)) >= plan.videosPerMonth) throw planLimit(monthlyLimitMessage(plan.name, plan.videosPerMonth));
}

/** What a video names: its person, face photo and recording. */
type VideoChoices = Pick<typeof processedVideos.$inferInsert, 'personId' | 'faceImageId' | 'voiceRecordingId'>;

/**
 * Counts the month's videos and writes one more in the same transaction, with the user's row locked: two
 * requests at once cannot both take the last place (as people/service.ts does for people). The video's
 * person is locked first, as deleting the person, a face photo or a recording locks it: a delete either
 * waits for the write or went first, and then the write answers 404 instead of failing its foreign key.
 * (Person before user: a face save holds the person and then, through its foreign key, the user.)
 */
async function withinMonthlyLimit<T>(db: Db, user: UserRow, choices: VideoChoices, write: (tx: Tx) => Promise<T>): Promise<T> {
  const counted = async (tx: Tx) => {
    const [owner] = await tx.select().from(users).where(eq(users.id, user.id)).for('update');
    if (!owner) throw notFound('User not found');
    await checkMonthlyLimit(tx, owner);
    await requireChoicesStill(tx, choices);
    return write(tx);
  };
  return choices.personId == null ? db.transaction(counted) : withPersonLocked(db, choices.personId, counted);
}

/**
 * The face photo and recording chosen before the transaction, still there, and kept so until it ends (a
 * face of another of the user's people is not covered by the person's lock).
 */
async function requireChoicesStill(tx: Tx, { faceImageId, voiceRecordingId }: VideoChoices): Promise<void> {
  if (faceImageId != null) {
    const [face] = await tx.select({ personId: faceImages.personId }).from(faceImages).where(eq(faceImages.id, faceImageId)).for('key share');
    if (!face) throw notFound(MEDIA_MESSAGES.faceImageNotFound);
    await requireConsent(tx, face.personId);
  }
  if (voiceRecordingId != null) {
    const [voice] = await tx.select({ personId: voiceRecordings.personId }).from(voiceRecordings).where(eq(voiceRecordings.id, voiceRecordingId)).for('key share');
    if (!voice) throw notFound(MEDIA_MESSAGES.voiceRecordingNotFound);
    await requireConsent(tx, voice.personId);
  }
}

/** No likeness without consent (decision 016): faces and voices kept from before consent was asked for are not used. */
async function requireConsent(tx: Tx, personId: number): Promise<void> {
  const [person] = await tx.select({ name: people.name, consentGivenAt: people.consentGivenAt }).from(people).where(eq(people.id, personId));
  if (person && !person.consentGivenAt) throw forbidden(PRIVACY_MESSAGES.consentRequired(person.name));
}

/**
 * Writes the row `pending` within the month's allowance and queues its render; when queueing fails the
 * row goes again. 404 when its person, face photo or recording was deleted meanwhile.
 */
export async function insertAndQueueRender(deps: { db: Db; queue: JobQueue }, user: UserRow, values: typeof processedVideos.$inferInsert): Promise<ProcessedVideoRow> {
  const row = await withinMonthlyLimit(deps.db, user, values, async (tx) => (await tx.insert(processedVideos).values(values).returning())[0]!);
  try {
    await deps.queue.send('render', { processedVideoId: row.id });
  } catch (error) {
    await deps.db.delete(processedVideos).where(eq(processedVideos.id, row.id));
    throw error;
  }
  return row;
}

/**
 * Validates everything against the caller's own rows (404 for anything not theirs), picks the person's
 * default face and voice when none is named (spec 02 §5), writes the row `pending` and queues its render.
 * A `status`, `videoUrl` or `outputUrl` in the body is not even read.
 */
export async function createProcessedVideo(
  deps: { db: Db; queue: JobQueue; storage: Storage; pipeline: PipelinePool },
  user: UserRow,
  input: CreateProcessedVideoInput,
): Promise<ProcessedVideoRow> {
  const { db } = deps;
  if (input.templateId === undefined) throw badRequest(VIDEO_MESSAGES.noTemplate);
  const [template] = await db.select().from(videoTemplates).where(eq(videoTemplates.id, input.templateId)).limit(1);
  if (!template) throw notFound(VIDEO_MESSAGES.templateNotFound);
  if (!(await mayUseTemplate(db, user, template))) throw planLimit(PAYMENT_MESSAGES.premiumRequired);

  const useFace = input.useFaceSwap && !template.voiceOnly;
  const useVoice = input.useVoiceSwap;
  if (!useFace && !useVoice) throw badRequest(template.voiceOnly ? VIDEO_MESSAGES.voiceRequired : VIDEO_MESSAGES.nothingToDo);

  let personId = input.personId ?? null;
  if (personId !== null && !(await ownsPerson(db, user, personId))) throw notFound(MEDIA_MESSAGES.personNotFound);

  const faceImageId = useFace ? await chooseFace(db, user, input.faceImageId ?? null, personId) : null;
  const voiceRecordingId = useVoice ? await chooseVoice(db, user, input.voiceRecordingId ?? null, personId) : null;
  if ((useFace && faceImageId === null) || (useVoice && voiceRecordingId === null)) {
    // The person may have been deleted since the check above, taking their faces and voices with them:
    // that is a 404 (as when the delete comes first), not a request without a face or voice.
    if (personId !== null && !(await ownsPerson(db, user, personId))) throw notFound(MEDIA_MESSAGES.personNotFound);
    throw badRequest(useFace && faceImageId === null ? VIDEO_MESSAGES.faceRequired : VIDEO_MESSAGES.voiceRequired);
  }
  // Both voices are known to be there before anything is queued (decision 012).
  if (useVoice && (await templateNarration(deps, template))?.pitchMedianHz === null) throw badRequest(NARRATION_MESSAGES.noVoiceToChange);
  // A face or voice of a person names that person on the video.
  personId ??= (await personOf(db, faceImageId, voiceRecordingId)) ?? null;

  return insertAndQueueRender(deps, user, {
    userId: user.id,
    templateId: template.id,
    personId,
    title: input.title,
    description: input.description ?? null,
    faceImageId,
    voiceRecordingId,
    voiceOnly: !useFace,
  });
}

async function ownsPerson(db: Db, user: UserRow, personId: number): Promise<boolean> {
  const [person] = await db.select({ userId: people.userId }).from(people).where(eq(people.id, personId)).limit(1);
  return person?.userId === user.id;
}

async function chooseFace(db: Db, user: UserRow, faceImageId: number | null, personId: number | null): Promise<number | null> {
  if (faceImageId !== null) {
    const [face] = await db.select().from(faceImages).where(eq(faceImages.id, faceImageId)).limit(1);
    if (!face || face.userId !== user.id) throw notFound('Face image not found');
    return face.id;
  }
  if (personId === null) return null;
  const faces = await db.select().from(faceImages).where(eq(faceImages.personId, personId));
  return (faces.find((face) => face.isDefault) ?? faces[0])?.id ?? null;
}

/**
 * The named recording (the caller's, else 404), or the person's default (or first) one, or null. A
 * recording whose analysis heard no voice cannot be chosen (400, naming it): when none was named, the
 * person's default gives way to another of their recordings that has a voice.
 */
export async function chooseVoice(db: Db, user: UserRow, voiceRecordingId: number | null, personId: number | null): Promise<number | null> {
  if (voiceRecordingId !== null) {
    const [voice] = await db.select().from(voiceRecordings).where(eq(voiceRecordings.id, voiceRecordingId)).limit(1);
    if (!voice || voice.userId !== user.id) throw notFound('Voice recording not found');
    if (!hasVoice(voice)) throw badRequest(unusableRecordingMessage(voice.name));
    return voice.id;
  }
  if (personId === null) return null;
  const voices = await db.select().from(voiceRecordings).where(eq(voiceRecordings.personId, personId));
  const preferred = voices.find((voice) => voice.isDefault) ?? voices[0];
  if (!preferred || hasVoice(preferred)) return preferred?.id ?? null;
  const usable = voices.find(hasVoice);
  if (!usable) throw badRequest(unusableRecordingMessage(preferred.name));
  return usable.id;
}

/** False when the recording's analysis heard no voice in it; a recording not analysed yet is checked by the render. */
function hasVoice(recording: typeof voiceRecordings.$inferSelect): boolean {
  return heardVoice(recording.analysis as VoiceAnalysisSummary | null);
}

async function personOf(db: Db, faceImageId: number | null, voiceRecordingId: number | null): Promise<number | undefined> {
  if (faceImageId !== null) return (await db.select({ personId: faceImages.personId }).from(faceImages).where(eq(faceImages.id, faceImageId)))[0]?.personId;
  if (voiceRecordingId !== null) {
    return (await db.select({ personId: voiceRecordings.personId }).from(voiceRecordings).where(eq(voiceRecordings.id, voiceRecordingId)))[0]?.personId;
  }
  return undefined;
}

/**
 * A failed video made again with the same choices, or with another face or recording of the same person
 * (the one thing the parent changed). Every rule of a new video is checked again (the face and voice
 * still theirs and usable, the template still allowed, the month's allowance, which a failed video did
 * not use). Only a failed video can be retried (409 otherwise, also when two retries race).
 */
export async function retryProcessedVideo(
  deps: { db: Db; queue: JobQueue; storage: Storage; pipeline: PipelinePool },
  user: UserRow,
  row: ProcessedVideoRow,
  input: RetryProcessedVideoInput,
): Promise<ProcessedVideoRow> {
  const { db } = deps;
  if (row.status !== 'failed') throw conflict(VIDEO_MESSAGES.onlyFailedRetry);
  const [template] = row.templateId === null ? [] : await db.select().from(videoTemplates).where(eq(videoTemplates.id, row.templateId)).limit(1);
  if (template && !(await mayUseTemplate(db, user, template))) throw planLimit(PAYMENT_MESSAGES.premiumRequired);

  const useFace = !row.voiceOnly;
  if (!useFace && input.faceImageId != null) throw badRequest(VIDEO_MESSAGES.voiceOnlyRetry);
  // A video whose recording was deleted keeps `voiceOnly` (it needs a voice) but loses the id: it takes the person's.
  const useVoice = row.voiceOnly || row.voiceRecordingId !== null || input.voiceRecordingId != null;
  const faceImageId = useFace ? await chooseFace(db, user, input.faceImageId ?? row.faceImageId, row.personId) : null;
  const voiceRecordingId = useVoice ? await chooseVoice(db, user, input.voiceRecordingId ?? row.voiceRecordingId, row.personId) : null;
  if (useFace && faceImageId === null) throw badRequest(VIDEO_MESSAGES.faceRequired);
  if (useVoice && voiceRecordingId === null) throw badRequest(VIDEO_MESSAGES.voiceRequired);
  const personId = (await personOf(db, faceImageId, voiceRecordingId)) ?? row.personId;
  if (row.personId !== null && personId !== row.personId) throw badRequest(VIDEO_MESSAGES.samePersonRetry);
  if (useVoice && template && (await templateNarration(deps, template))?.pitchMedianHz === null) throw badRequest(NARRATION_MESSAGES.noVoiceToChange);
  const source = deps.storage.fromUrl(row.sourceUrl);
  if (row.sourceUrl !== null && !(source && existsSync(source.path))) throw badRequest(VOICE_ONLY_MESSAGES.sourceMissing);

  const [pending] = await withinMonthlyLimit(db, user, { personId, faceImageId, voiceRecordingId }, (tx) =>
    tx
      .update(processedVideos)
      .set({ status: 'pending', error: null, faceImageId, voiceRecordingId, personId, faceProgress: 0, voiceProgress: 0, startedAt: null, completedAt: null })
      .where(and(eq(processedVideos.id, row.id), eq(processedVideos.status, 'failed')))
      .returning(),
  );
  if (!pending) throw conflict(VIDEO_MESSAGES.onlyFailedRetry);
  try {
    await deps.queue.send('render', { processedVideoId: row.id });
  } catch (error) {
    await db.update(processedVideos).set({ status: 'failed', error: row.error }).where(eq(processedVideos.id, row.id));
    throw error;
  }
  return pending;
}

/**
 * Deletes the row and its files (output, thumbnail, a voice-only upload's source). A render still
 * running sees its row gone (the job's heartbeat is cancelled too) and keeps nothing of what it made.
 */
export async function deleteProcessedVideo(deps: { db: Db; storage: Storage; queue: JobQueue }, row: ProcessedVideoRow): Promise<void> {
  const [deleted] = await deps.db.delete(processedVideos).where(eq(processedVideos.id, row.id)).returning();
  if (!deleted) throw new HttpError(404, VIDEO_MESSAGES.videoNotFound);
  await deps.queue.cancelWhere('render', { processedVideoId: row.id });
  await Promise.all([deleted.outputUrl, deleted.thumbnailUrl, deleted.sourceUrl].map((url) => deps.storage.removeUrl(url)));
}

/**
 * How long a signed link works: a download starts at once; a TV streams the whole film with Range requests,
 * each of which must still pass.
 */
export const MEDIA_LINK_LIFETIME_MS: Record<MediaLinkPurpose, number> = { download: 10 * 60 * 1000, cast: 4 * 60 * 60 * 1000 };

export const VIDEO_NOT_READY = 'This video is not ready yet.';

/** A short-lived URL of a completed video's file that works without the cookie (a download, or a TV). */
export function createMediaLink(deps: { storage: Storage; mediaLinks: MediaLinkSigner }, row: ProcessedVideoRow, purpose: MediaLinkPurpose): MediaLink {
  const file = row.status === 'completed' ? deps.storage.fromUrl(row.outputUrl) : undefined;
  if (file?.kind !== 'processed-videos') throw conflict(VIDEO_NOT_READY);
  const expiresAt = new Date(Date.now() + MEDIA_LINK_LIFETIME_MS[purpose]);
  const link = deps.mediaLinks.sign(file.url, expiresAt, purpose === 'download' ? downloadFileName(row.title) : undefined);
  return { url: link.url, expiresAt: link.expiresAt.toISOString() };
}
