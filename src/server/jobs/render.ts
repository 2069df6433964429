// The render job: a processed video's template (or, voice-only, the parent's own upload) with the
// person's face (render/face-render.ts) and voice (render/voice-conversion.ts), made in the pipeline's
// threads with real progress per stage, then muxed, given a thumbnail from its own frames and moved into
// storage in one step. Without a face the picture is kept as it is (copied, or made H.264 when a browser
// could not play it). pending → processing → completed | failed (with words a parent understands). Work
// happens in a temporary folder that goes either way; a video deleted while it renders keeps nothing.
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import { RENDER_NOTICES, VIDEO_MESSAGES, chosenImageNotices, faceMissingMessage, voiceMissingMessage } from '../../shared/video-rules';
import { SAME_PERSON_COSINE, isBlurred, isEyesClosed, isSmallFace, isTurnedAway } from '../../shared/face-analysis';
import { unusableRecordingMessage } from '../../shared/voice-analysis';
import { VOICE_ONLY_MESSAGES } from '../../shared/voice-only-rules';
import { faceImages, people, processedVideos, videoTemplates, voiceRecordings } from '../db/schema';
import { MEDIA_TIMEOUTS, probe, runFfmpeg, runFfprobe } from '../media/ffmpeg';
import { cosineSimilarity } from '../pipeline/face-engine';
import { actorTrackFile } from '../pipeline/render/actor-track';
import type { RenderReport } from '../pipeline/render/face-render';
import { VOICE_CONVERSION_MESSAGES, muxAudio } from '../pipeline/render/voice-conversion';
import type { StoredFile } from '../storage/storage';
import type { JobContext } from './queue';
import type { JobData, JobDeps } from './registry';

/** Progress is written at most this often (each write is a query). */
const PROGRESS_EVERY_MS = 500;
const PARENT_FACING = new Set<string>(Object.values(VOICE_CONVERSION_MESSAGES));

class RenderProblem extends Error {}

export async function renderJob(deps: JobDeps, { processedVideoId }: JobData['render'], context: JobContext): Promise<void> {
  const { db, storage } = deps;
  const [row] = await db.select().from(processedVideos).where(eq(processedVideos.id, processedVideoId)).limit(1);
  if (!row || row.status === 'completed' || row.status === 'failed') return;
  await db
    .update(processedVideos)
    .set({ status: 'processing', startedAt: new Date(), faceProgress: 0, voiceProgress: 0, error: null, notices: [] })
    .where(eq(processedVideos.id, row.id));

  const dir = await storage.tempPath();
  await mkdir(dir);
  try {
    const sourceFile = await sourceOf(deps, row);
    const face = row.faceImageId === null ? undefined : (await db.select().from(faceImages).where(eq(faceImages.id, row.faceImageId)))[0];
    const voice = row.voiceRecordingId === null ? undefined : (await db.select().from(voiceRecordings).where(eq(voiceRecordings.id, row.voiceRecordingId)))[0];
    const faceFile = row.faceImageId === null ? undefined : await existing(storage.fromUrl(face?.imageUrl), faceMissingMessage(face?.name));
    const voiceFile = row.voiceRecordingId === null ? undefined : await existing(storage.fromUrl(voice?.audioUrl), voiceMissingMessage(voice?.name));

    // Both voices are checked before minutes of face rendering: a recording or a narration without a
    // voice fails now, in words a parent can act on (decision 012).
    const voices = voiceFile ? await analyseBothVoices(deps, sourceFile.path, voiceFile.path, voice!.name) : undefined;

    let picture = sourceFile.path;
    if (faceFile) {
      picture = path.join(dir, 'face.mp4');
      const collection = await collectionOf(deps, face!);
      // A template's actor is tracked once and replayed for every family (actor-track.ts); a parent's own upload is theirs alone.
      const actorTrack = sourceFile.kind === 'templates' ? actorTrackFile(sourceFile.path) : undefined;
      // Each image's prepared face is kept beside it for the person's next video (kept-face.ts).
      const report = await deps.pipeline.run(
        'renderFace',
        { template: sourceFile.path, personFace: faceFile.path, personEyeOpening: eyeOpeningOf(face!), otherFaces: collection.files, output: picture, actorTrack, keepFaces: true },
        undefined,
        progressWriter(deps, row.id, 'faceProgress'),
        context.signal,
      );
      const notices = videoNotices(collection.notices, face!.name, report);
      deps.log.info({ processedVideoId: row.id, notes: [...notices, ...report.notes] }, 'face rendered');
      await db.update(processedVideos).set({ faceProgress: 100, notices }).where(eq(processedVideos.id, row.id));
      context.signal.throwIfAborted();
    }
    let final = picture;
    if (voiceFile) {
      const audio = path.join(dir, 'voice.m4a');
      await deps.pipeline.run('convertVoice', { narration: sourceFile.path, person: voiceFile.path, output: audio, ...voices }, undefined, progressWriter(deps, row.id, 'voiceProgress'), context.signal);
      if (!faceFile) picture = await playablePicture(sourceFile.path, dir);
      context.signal.throwIfAborted();
      final = path.join(dir, 'video.mp4');
      await muxAudio(picture, audio, final);
      await setProgress(deps, row.id, { voiceProgress: 100 });
      context.signal.throwIfAborted();
    }
    if (final === sourceFile.path) throw new RenderProblem(VIDEO_MESSAGES.nothingToDo);

    const thumbnail = path.join(dir, 'thumbnail.jpg');
    const seconds = (await probe(final)).duration ?? 2;
    await runFfmpeg(['-v', 'error', '-y', '-ss', String(Math.min(2, seconds / 2)), '-i', final, '-frames:v', '1', '-q:v', '3', thumbnail], { timeoutMs: 30_000 });
    await keep(deps, row, final, thumbnail);
  } catch (error) {
    const message = error instanceof RenderProblem || (error instanceof Error && PARENT_FACING.has(error.message)) ? (error as Error).message : undefined;
    if (message || context.lastAttempt) await markFailed(deps, row.id, message ?? VIDEO_MESSAGES.renderFailed);
    else await db.update(processedVideos).set({ status: 'pending' }).where(and(eq(processedVideos.id, row.id), eq(processedVideos.status, 'processing')));
    // A problem with the parent's material is final; anything else is retried.
    if (!message) throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The narration's and the person's voice analysed (in the pipeline's threads); a missing voice is a RenderProblem. */
async function analyseBothVoices(deps: JobDeps, narration: string, person: string, recordingName: string) {
  const [narratorAnalysis, personAnalysis] = await Promise.all([
    deps.pipeline.run('analyseVoice', { file: narration, maxSeconds: 600, timeoutMs: 120_000 }),
    deps.pipeline.run('analyseVoice', { file: person }),
  ]);
  if (personAnalysis.pitchMedianHz === null) throw new RenderProblem(unusableRecordingMessage(recordingName));
  if (narratorAnalysis.pitchMedianHz === null) throw new RenderProblem(VOICE_CONVERSION_MESSAGES.noNarratorVoice);
  return { narratorAnalysis, personAnalysis };
}

/** pg-boss gave up (the worker died on every attempt): say so on the row. */
export async function renderGaveUp(deps: JobDeps, { processedVideoId }: JobData['render-gave-up']): Promise<void> {
  await deps.db
    .update(processedVideos)
    .set({ status: 'failed', error: VIDEO_MESSAGES.renderFailed })
    .where(and(eq(processedVideos.id, processedVideoId), inArray(processedVideos.status, ['pending', 'processing'])));
}

/** The video the render starts from: a voice-only upload's own file, else the template's. */
async function sourceOf(deps: JobDeps, row: typeof processedVideos.$inferSelect): Promise<StoredFile> {
  if (row.sourceUrl !== null) return existing(deps.storage.fromUrl(row.sourceUrl), VOICE_ONLY_MESSAGES.sourceMissing);
  const [template] = row.templateId === null ? [] : await deps.db.select().from(videoTemplates).where(eq(videoTemplates.id, row.templateId)).limit(1);
  // Only a template file can be a template's picture (never a family's media named by its URL).
  const file = deps.storage.fromUrl(template?.videoUrl);
  return existing(file?.kind === 'templates' ? file : undefined, VIDEO_MESSAGES.templateMissing);
}

/**
 * The picture to mux, kept as it is when every browser plays it in MP4 (H.264, 8-bit 4:2:0); anything
 * else (a phone's HEVC, an AVI's MPEG-4, a WebM's VP8) is encoded to H.264 first, picture unchanged.
 */
async function playablePicture(video: string, dir: string): Promise<string> {
  const { stdout } = await runFfprobe(
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,pix_fmt', '-of', 'json', video],
    { timeoutMs: MEDIA_TIMEOUTS.probeMs },
  );
  const stream = (JSON.parse(stdout) as { streams?: { codec_name?: string; pix_fmt?: string }[] }).streams?.[0];
  if (stream?.codec_name === 'h264' && (stream.pix_fmt === 'yuv420p' || stream.pix_fmt === 'yuvj420p')) return video;
  const output = path.join(dir, 'picture.mp4');
  await runFfmpeg(
    [
      '-nostdin', '-v', 'error', '-y', '-i', video, '-map', '0:v:0', '-an',
      '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p',
      '-movflags', '+faststart', output,
    ],
    { timeoutMs: 30 * 60_000 },
  );
  return output;
}

/** At most this many of the person's other images go to the render (face-render.ts loads up to 8). */
const COLLECTION_SIZE = 8;

/**
 * The person's other face images that show the same face as the chosen one (issue 15: the collection
 * drives the render; a sibling's clip added to the wrong person must not). Same face: faceres cosine to
 * the chosen image's embedding at least SAME_PERSON_COSINE. Measured here: frames of one person 0.76-0.93,
 * different people (the demo photos and both clips) at most 0.64, 99 % under 0.57. Photos turned far to
 * one side, blurred ones and ones whose face is small are left out (the chosen one is used whatever it is:
 * the parent chose it). Without an embedding on the chosen image nothing can be checked, and only it is
 * used. The notices (RENDER_NOTICES, shown with the video) say what the parent can put right: the chosen
 * image's own warnings (turned, blurred, small, eyes closed), and how many of the others were left out and why.
 */
export async function collectionOf(deps: JobDeps, chosen: typeof faceImages.$inferSelect): Promise<{ files: string[]; notices: string[] }> {
  const warnings = {
    name: chosen.name,
    turnedAway: isTurnedAway(chosen.analysis?.pose, chosen.analysis?.hiddenShare),
    blurred: isBlurred(chosen.analysis?.detailRatio, chosen.analysis?.box),
    smallFace: isSmallFace(chosen.analysis?.box),
    eyesClosed: isEyesClosed(chosen.analysis?.eyeOpening),
  };
  const anchor = chosen.faceEmbedding;
  if (!anchor?.length) return { files: [], notices: chosenImageNotices(warnings) };
  const rows = await deps.db
    .select()
    .from(faceImages)
    .where(and(eq(faceImages.personId, chosen.personId), ne(faceImages.id, chosen.id)))
    .orderBy(desc(faceImages.createdAt));
  const files: string[] = [];
  let otherFace = 0;
  let blurred = 0;
  let small = 0;
  for (const row of rows) {
    if (files.length >= COLLECTION_SIZE) break;
    if (!row.faceEmbedding?.length || isTurnedAway(row.analysis?.pose, row.analysis?.hiddenShare)) continue;
    if (cosineSimilarity(anchor, row.faceEmbedding) < SAME_PERSON_COSINE) {
      otherFace++;
      continue;
    }
    // A blurred mouth lent to a sharp face would show as a smudge; so would a small face's, which has no
    // detail to enlarge.
    if (isBlurred(row.analysis?.detailRatio, row.analysis?.box)) {
      blurred++;
      continue;
    }
    if (isSmallFace(row.analysis?.box)) {
      small++;
      continue;
    }
    const file = deps.storage.fromUrl(row.imageUrl);
    if (file && (await stat(file.path).catch(() => undefined))) files.push(file.path);
  }
  const notices = chosenImageNotices(warnings);
  if (otherFace > 0 || blurred > 0 || small > 0) {
    const [person] = await deps.db.select({ name: people.name }).from(people).where(eq(people.id, chosen.personId));
    const name = person?.name ?? 'this person';
    if (otherFace > 0) notices.push(RENDER_NOTICES.otherFace(otherFace, name));
    if (blurred > 0) notices.push(RENDER_NOTICES.blurred(blurred, name));
    if (small > 0) notices.push(RENDER_NOTICES.smallFace(small, name));
  }
  return { files, notices };
}

/** The eye opening the face image's analysis recorded (older images have none: the render measures it). */
function eyeOpeningOf(image: typeof faceImages.$inferSelect): number | undefined {
  const opening = image.analysis?.eyeOpening;
  return typeof opening === 'number' ? opening : undefined;
}

/**
 * The video's notices once the face is rendered: the collection's, less the chosen image's shut eyes when
 * the render gave it open ones from another image of the person (face-choice.ts eyeLender): then there is
 * nothing to put right. Only the render knows: the lender must show the same face, with open eyes, and load.
 * Likewise eyes that look aside: only the render measures them (on the face turned frontal, as it pastes
 * it), and says so when no other image of the person lent eyes that look ahead.
 */
export function videoNotices(collectionNotices: string[], chosenName: string, report: Pick<RenderReport, 'eyesLent' | 'eyesAside'>): string[] {
  const notices = report.eyesLent ? collectionNotices.filter((notice) => notice !== RENDER_NOTICES.chosenEyesClosed(chosenName)) : collectionNotices;
  return report.eyesAside ? [...notices, RENDER_NOTICES.chosenLooksAside(chosenName)] : notices;
}

async function existing(file: StoredFile | undefined, message: string): Promise<StoredFile> {
  if (!file) throw new RenderProblem(message);
  try {
    await probe(file.path, { maxSeconds: 1 });
  } catch {
    throw new RenderProblem(message);
  }
  return file;
}

async function markFailed(deps: JobDeps, id: number, message: string) {
  await deps.db.update(processedVideos).set({ status: 'failed', error: message }).where(eq(processedVideos.id, id));
}

function setProgress(deps: JobDeps, id: number, values: { faceProgress?: number; voiceProgress?: number }) {
  return deps.db.update(processedVideos).set(values).where(eq(processedVideos.id, id));
}

/** Writes a stage's progress (0..1 from the task) as a percentage, at most every PROGRESS_EVERY_MS. */
function progressWriter(deps: JobDeps, id: number, column: 'faceProgress' | 'voiceProgress') {
  let last = 0;
  let shown = 0;
  return (value: unknown) => {
    const percent = Math.min(99, Math.floor(Number(value) * 100));
    if (!Number.isFinite(percent) || percent <= shown || Date.now() - last < PROGRESS_EVERY_MS) return;
    last = Date.now();
    shown = percent;
    setProgress(deps, id, { [column]: percent }).catch((error: unknown) => deps.log.warn({ err: error }, 'progress write failed'));
  };
}

/** Moves the result in and completes the row in one transaction; a row deleted meanwhile keeps nothing. */
async function keep(deps: JobDeps, row: typeof processedVideos.$inferSelect, video: string, thumbnail: string) {
  const { db, storage } = deps;
  const movedVideo = await storage.moveIn(video, 'processed-videos', row.userId, 'mp4');
  const movedThumbnail = await storage.moveIn(thumbnail, 'processed-videos', row.userId, 'jpg').catch(async (error: unknown) => {
    await storage.removeUrl(movedVideo.url);
    throw error;
  });
  try {
    const [updated] = await db
      .update(processedVideos)
      .set({
        status: 'completed',
        videoUrl: movedVideo.url,
        outputUrl: movedVideo.url,
        thumbnailUrl: movedThumbnail.url,
        faceProgress: row.faceImageId === null ? 0 : 100,
        voiceProgress: row.voiceRecordingId === null ? 0 : 100,
        completedAt: new Date(),
        error: null,
      })
      .where(eq(processedVideos.id, row.id))
      .returning({ id: processedVideos.id });
    if (!updated) throw new Error('deleted while rendering');
  } catch (error) {
    await Promise.all([storage.removeUrl(movedVideo.url), storage.removeUrl(movedThumbnail.url)]);
    if ((error as Error).message === 'deleted while rendering') return;
    throw error;
  }
}
