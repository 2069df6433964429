// The work a pipeline worker thread can do, by name. `pipelineTasks` is the one registry: the pool's
// `run(name, input)` takes its names and types from it. To add a task, write
// `async function myTask(input: MyInput, context: TaskContext): Promise<MyOutput>` (here or in its own
// module) and add one line to `pipelineTasks`. Inputs and outputs cross threads by structured clone:
// plain data, typed arrays, no functions or class instances.
import sharp from 'sharp';
import { extractFaces } from './face-extraction';
import { recordActorTrack } from './render/actor-track';
import { renderFace } from './render/face-render';
import { keptPersonFace } from './render/kept-face';
import { PersonFaceError, photoFacing } from './render/person-face';
import { convertVoice } from './render/voice-conversion';
import { type VoiceAnalysis, analyseVoice } from './voice-analysis';
import type { AnalyseOptions, AnalysedFace, DetectOptions, DetectedFace, FaceEngine, Frame } from './face-engine';

/** What a task gets from its thread besides its input. */
export interface TaskContext {
  /** The thread's face engine: created on first use, then kept for every task of the thread. */
  faceEngine(): Promise<FaceEngine>;
  /** Reports progress to the caller (the `onProgress` of `pool.run`); absent outside a pool. */
  progress?(value: unknown): void;
  /** Aborted when the caller cancels the task (the `signal` of `pool.run`); absent outside a pool. */
  signal?: AbortSignal;
}

/** Largest picture `analyseImage` decodes: 40 megapixels (a 48 MP phone photo must be scaled down first). */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Most faces `analyseImage` analyses in one picture (each costs a few hundred ms). */
export const MAX_FACES_PER_IMAGE = 20;

/** Faces in one decoded frame (the renderer's call: `options.mesh` for the landmarks). */
export async function detectFaces(input: { frame: Frame; options?: DetectOptions }, context: TaskContext): Promise<DetectedFace[]> {
  const engine = await context.faceEngine();
  return engine.detect(input.frame, input.options);
}

/** Every face of one decoded frame, fully analysed (a job that picks frames of a clip: a few, not all). */
export async function analyseFrame(input: { frame: Frame; options?: AnalyseOptions }, context: TaskContext): Promise<AnalysedFace[]> {
  const engine = await context.faceEngine();
  return engine.analyse(input.frame, input.options);
}

export interface ImageAnalysis {
  /** Size of the picture as decoded, upright (EXIF orientation applied). */
  width: number;
  height: number;
  /** Every face found (up to MAX_FACES_PER_IMAGE), largest box first. */
  faces: AnalysedFace[];
  /** Where the largest face's eyes will look in the video (render/person-face.ts photoFacing); undefined when not read. */
  gaze: number | undefined;
  /** The share of the largest face the photo hides, filled from its other side in the video (photoFacing); undefined with no face. */
  hiddenShare: number | undefined;
}

/**
 * Decodes a picture (a file path, or its bytes: transfer `bytes.buffer` to avoid a copy) and analyses
 * every face in it, and how the largest one will show in the video (where its eyes look, how much of it
 * the photo hides). Pictures over MAX_IMAGE_PIXELS are refused before decoding.
 */
export async function analyseImage(input: { file: string } | { bytes: Uint8Array }, context: TaskContext): Promise<ImageAnalysis> {
  const source = 'file' in input ? input.file : input.bytes;
  let decoded: { data: Buffer; info: sharp.OutputInfo };
  try {
    // limitInputPixels makes sharp check the size from the header, before it decodes any pixel.
    decoded = await sharp(source, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate() // EXIF orientation: phone photos are often stored sideways
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    const message = (error as Error).message;
    if (/pixel limit/i.test(message)) throw new Error(`the picture is larger than ${MAX_IMAGE_PIXELS / 1e6} megapixels`, { cause: error });
    throw new Error(`the picture could not be decoded (${message})`, { cause: error });
  }
  const { data, info } = decoded;
  if (info.channels !== 3) throw new Error(`the picture decoded to ${info.channels} channels, expected RGB`);
  const engine = await context.faceEngine();
  const picture = { data, width: info.width, height: info.height };
  // Checked upright: a head tilted far over (a child with her head on her shoulder) is otherwise meshed
  // wrong, and her embedding, pose and eyes read off that (face-engine.ts DetectOptions.upright).
  const faces = await engine.analyse(picture, { maxFaces: MAX_FACES_PER_IMAGE, upright: true });
  faces.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const facing = faces.length > 0 ? await photoFacing(engine, picture) : undefined;
  return { width: info.width, height: info.height, faces, gaze: facing?.gaze, hiddenShare: facing?.hiddenShare };
}

/** A face training clip's best face crops (face-extraction.ts). */
async function extractFacesTask(input: { file: string; declaredExpression: string; durationSeconds?: number }, context: TaskContext) {
  return extractFaces(await context.faceEngine(), input);
}

/** A voice recording's pitch, loudness, speech share, fingerprint and warnings (voice-analysis.ts). */
async function analyseVoiceTask(input: { file: string; maxSeconds?: number; timeoutMs?: number }) {
  return analyseVoice(input.file, input);
}

/** The face stage of a render (render/face-render.ts); progress: the fraction of frames done. */
async function renderFaceTask(input: { template: string; personFace: string; personEyeOpening?: number; otherFaces?: string[]; output: string; actorTrack?: string; keepFaces?: boolean }, context: TaskContext) {
  return renderFace({ ...input, engine: await context.faceEngine(), signal: context.signal, onProgress: (fraction) => context.progress?.(fraction) });
}

/** A template's actor tracked and recorded ahead of its renders (render/actor-track.ts). */
async function recordActorTrackTask(input: { template: string; actorTrack: string }, context: TaskContext) {
  return recordActorTrack({ ...input, engine: await context.faceEngine(), signal: context.signal });
}

/**
 * An image's face prepared for its videos and kept beside it ahead of them (render/kept-face.ts); nothing
 * is done when it is kept already. Returns whether it was prepared now (false too for an image without a face).
 */
async function keepPersonFaceTask(input: { file: string; eyeOpening?: number }, context: TaskContext): Promise<{ prepared: boolean }> {
  try {
    return { prepared: !(await keptPersonFace(await context.faceEngine(), input.file, { eyeOpening: input.eyeOpening })).kept };
  } catch (error) {
    if (error instanceof PersonFaceError) return { prepared: false };
    throw error;
  }
}

/** The voice stage of a render (render/voice-conversion.ts); progress: the fraction done. */
async function convertVoiceTask(
  input: { narration: string; person: string; output: string; narratorAnalysis?: VoiceAnalysis; personAnalysis?: VoiceAnalysis },
  context: TaskContext,
) {
  return convertVoice({ ...input, signal: context.signal, onProgress: (fraction) => context.progress?.(fraction) });
}

export const pipelineTasks = {
  detectFaces,
  analyseFrame,
  analyseImage,
  extractFaces: extractFacesTask,
  analyseVoice: analyseVoiceTask,
  renderFace: renderFaceTask,
  recordActorTrack: recordActorTrackTask,
  keepPersonFace: keepPersonFaceTask,
  convertVoice: convertVoiceTask,
} satisfies Record<string, (input: never, context: TaskContext) => Promise<unknown>>;

export type PipelineTasks = typeof pipelineTasks;
