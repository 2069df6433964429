// The face stage of the renderer: the template decoded to raw frames through a pipe, the actor's face
// tracked, the person's face put on it, the frames encoded through a pipe to an MP4 (faststart, the
// template's frame rate and frame count; the template's audio kept as AAC so the file is watchable
// before the voice stage replaces it). A library: files and options in, a report out, progress through
// a callback; no HTTP, database or queue.
import { rm } from 'node:fs/promises';
import { isLookingAside } from '../../../shared/face-analysis';
import { type FaceEngine, createHumanFaceEngine } from '../face-engine';
import { createLightFollower } from './face-light';
import { createOutlineFollower } from './face-shape';
import { pasteFace, personToFrame } from './face-paste';
import { createFaceChoice, eyeLender, mouthLook } from './face-choice';
import { BETWEEN_EYES, CHIN, type Point, type Similarity, composeSimilarity, invertSimilarity } from './landmarks';
import { createSteadyPlacements } from './steady-pose';
import { createTrackRecorder, liveTracker, readActorTrack, replayTracker, saveActorTrack } from './actor-track';
import type { TrackedFace } from './face-track';
import { createEyeBlinks, createEyeMotion, eyeGaze } from './eye-blink';
import { MOUTH, createMouthMotion } from './mouth-motion';
import { keptPersonFace } from './kept-face';
import { matchSharpness } from './face-sharpness';
import { type PersonFace, PersonFaceError, loadPersonFace } from './person-face';
import { createFramePool, decodeYuvFrames, evenSize, openEncoder, probeTemplate, yuvFrameBytes } from './video-pipes';
import { type YuvFrame, yuvFrame } from './yuv';

export interface RenderFaceOptions {
  template: string;
  /** A photo of the person (JPEG, PNG...): its largest face is used. The anchor: their identity and resting face. */
  personFace: string;
  /** The anchor's eye opening as its face image's analysis recorded it (saves measuring it again); measured when absent. */
  personEyeOpening?: number;
  /**
   * More images of the same person (other photos, crops from their clips; the caller has checked they
   * are the same person): each frame shows the one whose mouth matches the actor's (face-choice.ts).
   */
  otherFaces?: string[];
  /** The MP4 to write (removed again if the render fails). */
  output: string;
  /** 0..1, after each frame (at most every 1 %). */
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
  /** A face engine to reuse (a worker thread's); one is created otherwise. */
  engine?: FaceEngine;
  /**
   * Read each image's prepared face from beside it, and keep it there when it is not (kept-face.ts): for
   * stored images, whose later renders read it. Default false: every image is prepared afresh.
   */
  keepFaces?: boolean;
  /** Move the person's mouth with the actor's (default true). */
  mouth?: boolean;
  /** Let the actor's eye show while it blinks (default true). */
  blinks?: boolean;
  /** Open and narrow the person's eyes with the actor's (default true). */
  eyes?: boolean;
  /** Turn the person's eyes to look where the actor's look (default true; with `eyes`). */
  gaze?: boolean;
  /** Move the frame round the actor's face so that its outline is the person's (default true: face-shape.ts). */
  shape?: boolean;
  /** Sharpen a person's image that is softer than the actor's face to its fine detail (default true: face-sharpness.ts). */
  sharpen?: boolean;
  /** Track the mesh with the mesh model alone between detections (default true; false: the engine's detect on a crop). */
  meshTracking?: boolean;
  /**
   * Where this template's actor track is kept (actor-track.ts): replayed when it is there and belongs to
   * this file and tracker, else the actor is tracked as the render paints and the track written there at
   * the end. Without it every render tracks the actor itself.
   */
  actorTrack?: string;
  /** x264 preset (default veryfast). */
  preset?: string;
  /** ffmpeg's threads for the decoder and for x264 (default RENDER.ffmpegThreads; 0: ffmpeg's own choice). */
  ffmpegThreads?: number;
  /** Stop ffmpeg after this long (default: 60 s + 1 s per template second... see RENDER.timeout). */
  timeoutMs?: number;
}

export interface RenderReport {
  frames: number;
  templateFrames: number;
  framesWithFace: number;
  framesReplaced: number;
  /** Frames in which the actor's eye was (at least partly) closed and showed through. */
  framesBlinking: number;
  /** Most faces seen in one full detection; the largest is the one replaced. */
  mostFacesInTemplate: number;
  /** Said plainly when it matters: which face was replaced. */
  notes: string[];
  /** The chosen image's eyes were shut, and another image of the person lent its open ones (face-choice.ts eyeLender). */
  eyesLent: boolean;
  /** The chosen image's eyes look aside (shared/face-analysis.ts GAZE_ASIDE), and no other image of the person lent eyes that look ahead. */
  eyesAside: boolean;
  /** The person's images whose prepared face was read from beside them (`keepFaces`), and those prepared in this render. */
  personFaces: { kept: number; prepared: number };
  /** Per image of the person, the unsharp amount that matched its detail to the actor's face (face-sharpness.ts; 0: left as it was). */
  sharpened: number[];
  /** `recorded`: the actor's face came from the template's recorded track (the figures are the recording's). */
  tracking: { mode: 'mesh-only' | 'detect-on-crop'; recorded: boolean; fullDetections: number; cropTracks: number; lostInCrop: number };
  method: 'aligned-paste' | 'aligned-paste+mouth';
  /** Wall time waited on each stage in the render loop (decode and encode run in their own ffmpeg processes, overlapped). */
  ms: { prepare: number; decode: number; track: number; compose: number; encode: number; total: number };
  fps: number;
  width: number;
  height: number;
  frameRate: string;
}

export const RENDER = {
  /** ffmpeg's time limit: a fixed part plus this many ms per second of template (a slow machine renders ~5 fps). */
  timeoutBaseMs: 60_000,
  timeoutPerSecondMs: 10_000,
  /**
   * ffmpeg's threads for the decoder and x264; 0 is ffmpeg's own choice (6 and 7 on 2 cores). One each
   * spends ~5 % less x264 CPU per frame, but on a quiet machine it made one render 38 fps against 42 and
   * two at once 23.8 + 24.6 against 23.7 + 23.6 fps (within the noise): the single render pays, two gain
   * nothing measurable (decision 010, "Two renders at once").
   */
  ffmpegThreads: 0,
} as const;

export async function renderFace(options: RenderFaceOptions): Promise<RenderReport> {
  const started = performance.now();
  const engine = options.engine ?? (await createHumanFaceEngine({ maxFaces: 3 }));
  try {
    return await render(options, engine, started);
  } catch (error) {
    await rm(options.output, { force: true });
    throw error;
  } finally {
    if (!options.engine) await engine.close();
  }
}

async function render(options: RenderFaceOptions, engine: FaceEngine, started: number): Promise<RenderReport> {
  const { signal } = options;
  // The template is probed (ffprobe: a tenth of a second, in its own process) while the person's faces load.
  const probing = probeTemplate(options.template);
  probing.catch(() => undefined); // awaited below: not unhandled while the faces load
  const { persons, notes: personNotes, kept } = await loadPersons(engine, options);
  const video = await probing;
  const person = persons[0]!;
  const width = evenSize(video.width);
  const height = evenSize(video.height);
  const timeoutMs = options.timeoutMs ?? RENDER.timeoutBaseMs + RENDER.timeoutPerSecondMs * video.duration;
  const threads = (options.ffmpegThreads ?? RENDER.ffmpegThreads) || undefined;
  // The actor's face, from the template's recorded track; a template without one is tracked as it is
  // painted (the mesh model alone between detections, when the engine is the built-in one: it sets up
  // tfjs), and its track kept for next time. Either way each frame is painted once the frames in the
  // STEADY.lookaheadSeconds after it are tracked, so the placement is steadied over the frames after it as
  // well as before (steady-pose.ts); the recorder gives each face back as a replay will, so the two paint
  // the same video.
  const mode = options.meshTracking === false ? 'detect-on-crop' : 'mesh-only';
  const found = options.actorTrack ? await readActorTrack(options.actorTrack, options.template, mode) : undefined;
  const replay = found ? replayTracker(found) : undefined;
  const notes: string[] = [];
  const live = replay ? undefined : { tracker: await liveTracker(engine, mode), recorder: createTrackRecorder() };
  const trackFace = async (frame: YuvFrame) => (replay ? replay.track(frame) : live!.recorder.add(await live!.tracker.track(frame)));
  // Per image of the person: its mouth (opened or closed from its own lips' gap) and eyes follow the actor's.
  const mouths = persons.map((each) => (options.mouth === false ? undefined : createMouthMotion(each)));
  // An anchor whose eyes are shut or look aside borrows them from another image of the person (face-choice.ts
  // eyeLender); the eyes that show are the ones that follow the actor's.
  const eyesFrom = eyeLender(persons);
  const eyesShown = persons[eyesFrom ?? 0]!;
  const look = options.gaze === false || eyesShown.eyesShut || eyesShown.gaze === undefined ? undefined : { gaze: eyesShown.gaze, irises: eyesShown.irises };
  const eyes = [options.eyes === false ? undefined : createEyeMotion(eyesShown.landmarks, look)];
  const eyeLight = createLightFollower();
  const choice = persons.length > 1 ? createFaceChoice(persons.map((each) => mouthLook(each.landmarks)), MOUTH.gain) : undefined;
  const blinks = options.blinks === false ? undefined : createEyeBlinks();
  const light = createLightFollower();
  // Each image follows the actor's light on its own skin points (the anchor's follower is `light`).
  const lights = persons.map((_, i) => (i === 0 ? light : createLightFollower()));
  // One steadied placement per frame, from the anchor's, shared by every image pasted in it.
  const [betweenEyes, chin] = [person.landmarks[BETWEEN_EYES]!, person.landmarks[CHIN]!];
  const steady = createSteadyPlacements(video.fps, [betweenEyes, chin] as [Point, Point], Math.hypot(chin[0]! - betweenEyes[0]!, chin[1]! - betweenEyes[1]!));
  const outline = options.shape === false ? undefined : createOutlineFollower(video.fps, person.landmarks);
  // The frames go round from the decoder to the encoder and back (video-pipes.ts createFramePool).
  const pool = createFramePool(yuvFrameBytes(width, height));
  const encoder = openEncoder({
    output: options.output, width, height, rate: video.rate, audioFrom: video.hasAudio ? options.template : undefined,
    preset: options.preset, timeoutMs, signal, threads, pool,
  });
  const ms = { prepare: performance.now() - started, decode: 0, track: 0, compose: 0, encode: 0, total: 0 };
  let frames = 0;
  let framesWithFace = 0;
  let framesReplaced = 0;
  let framesBlinking = 0;
  let reported = -1;
  /** Frames tracked and waiting for their steadied placement, with where the actor looks in each (eyeGaze). */
  const held: { bytes: Buffer; frame: YuvFrame; face: TrackedFace | undefined; gaze: number | undefined }[] = [];
  let lastGaze: number | undefined;
  /** Set at the first frame with a face: each image sharpened to the actor's face there (face-sharpness.ts). */
  let sharpened: number[] | undefined;

  /** Paints the oldest frame held at its steadied placement and sends it to the encoder. */
  async function paintNext(placement: Similarity | undefined) {
    const { bytes, frame, face, gaze } = held.shift()!;
    // A glance is steadied over this frame and its neighbours (a one-frame misreading goes; a glance lasts several).
    const actorGaze = gaze === undefined ? undefined : middleOf(lastGaze ?? gaze, gaze, held[0]?.gaze ?? gaze);
    lastGaze = gaze;
    if (!face) outline?.reset();
    if (face && placement) {
      framesWithFace++;
      const mark = performance.now();
      // Before anything is pasted on the first frame with a face: the actor's own face is the measure.
      sharpened ??= persons.map((each) => (options.sharpen === false ? 0 : matchSharpness(frame, each, face.landmarks)));
      for (const each of mouths) each?.update(face.landmarks);
      for (const each of eyes) each?.update(face.landmarks, actorGaze);
      blinks?.update(face.landmarks);
      choice?.update(face.landmarks);
      if (blinks?.active) framesBlinking++;
      // The correction that moves this frame's raw placement onto the steadied one.
      const settle = composeSimilarity(invertSimilarity(personToFrame(person, face.landmarks)), placement);
      // The anchor gives the whole face; another image lends only its mouth and jaw (its eyes, gaze and
      // brows may differ from the anchor's: a crop from a clip where the person glanced aside), and one
      // with open eyes that look ahead lends its eyes when the anchor's are shut or look aside, the same
      // image in every frame.
      if (pasteFace(frame, person, face.landmarks, { mouth: mouths[0], blinks, eyes: eyesFrom === undefined ? eyes[0] : undefined, light, settle, shape: outline })) framesReplaced++;
      if (eyesFrom !== undefined) pasteFace(frame, persons[eyesFrom]!, face.landmarks, { blinks, eyes: eyes[0], light: eyeLight, settle, only: 'eyes' });
      for (const { index, opacity } of choice?.shown ?? []) {
        if (index !== 0) pasteFace(frame, persons[index]!, face.landmarks, { mouth: mouths[index], light: lights[index], settle, opacity, only: 'mouth' });
      }
      ms.compose += performance.now() - mark;
    }
    const mark = performance.now();
    await encoder.write(bytes);
    ms.encode += performance.now() - mark;
    frames++;
    const done = Math.min(1, frames / Math.max(1, video.frames));
    if (options.onProgress && Math.floor(done * 100) !== reported) {
      reported = Math.floor(done * 100);
      options.onProgress(done);
    }
  }

  const decoded = decodeYuvFrames(options.template, video, { timeoutMs, signal, threads, pool });
  try {
    for (;;) {
      let mark = performance.now();
      const next = await decoded.next();
      ms.decode += performance.now() - mark;
      if (next.done) break;
      signal?.throwIfAborted();
      const frame = yuvFrame(next.value, width, height);
      mark = performance.now();
      const face = await trackFace(frame);
      ms.track += performance.now() - mark;
      // Read before any paste: the actor's own eyes (a frame is painted once the second after it is tracked).
      held.push({ bytes: next.value, frame, face, gaze: face && eyes[0]?.followsGaze ? eyeGaze((x, y) => frame.y[y * frame.width + x]!, frame.width, frame.height, face.landmarks) : undefined });
      for (const placement of steady.push(face ? personToFrame(person, face.landmarks) : undefined)) await paintNext(placement);
    }
    for (const placement of steady.finish()) await paintNext(placement);
    const mark = performance.now();
    await encoder.finish();
    ms.encode += performance.now() - mark;
  } catch (error) {
    encoder.abort();
    throw error;
  } finally {
    // Runs the decoder's clean-up (kills ffmpeg) when the loop stopped early.
    await decoded.return(undefined);
  }
  const tracker = replay ?? live!.tracker;
  if (replay && replay.framesLeft !== 0) {
    // The same file decodes to the same frames: a track of another length is not this file's. Gone, so the retry tracks afresh.
    await rm(options.actorTrack!, { force: true });
    throw new Error(`the recorded actor track has ${found!.header.frames} frames, the template decoded to ${frames}: removed`);
  }
  if (live && options.actorTrack) {
    // The video is made; a track that cannot be kept costs the next render time, not this one its video.
    await saveActorTrack(options.actorTrack, await live.recorder.track(options.template, live.tracker)).catch((error: unknown) => notes.push(`the actor's track could not be kept: ${(error as Error).message}`));
  }
  ms.total = performance.now() - started;
  const { mostFaces, ...tracking } = tracker.stats;
  if (mostFaces > 1) notes.push(`the template shows up to ${mostFaces} faces at once: the largest was replaced`);
  if (person.facesInPhoto > 1) notes.push(`the person's photo shows ${person.facesInPhoto} faces: the largest was used`);
  notes.push(...personNotes);
  if (person.eyesShut) notes.push(eyesFrom === undefined ? "the person's eyes are shut in the chosen image, and no other image of theirs has them open" : `the person's eyes are shut in the chosen image: image ${eyesFrom + 1} lent its open eyes`);
  else if (isLookingAside(person.gaze)) notes.push(eyesFrom === undefined ? "the person's eyes look aside in the chosen image, and no other image of theirs looks ahead" : `the person's eyes look aside in the chosen image: image ${eyesFrom + 1} lent eyes that look ahead`);
  if (choice) notes.push(`${persons.length} images of the person were used: ${choice.framesShown.map((count, i) => `image ${i + 1} in ${count} frames`).join(', ')}`);
  if (framesWithFace < frames) notes.push(`${frames - framesWithFace} of ${frames} frames had no face and were kept as they were`);
  options.onProgress?.(1);
  const round = (value: number) => Math.round(value);
  return {
    frames,
    templateFrames: video.frames,
    framesWithFace,
    framesReplaced,
    framesBlinking,
    mostFacesInTemplate: mostFaces,
    notes,
    eyesLent: person.eyesShut && eyesFrom !== undefined,
    eyesAside: !person.eyesShut && isLookingAside(person.gaze) && eyesFrom === undefined,
    personFaces: { kept, prepared: persons.length - kept },
    sharpened: sharpened ?? persons.map(() => 0),
    tracking: { mode: tracker.mode, recorded: found !== undefined, ...tracking },
    method: options.mouth === false ? 'aligned-paste' : 'aligned-paste+mouth',
    ms: { prepare: round(ms.prepare), decode: round(ms.decode), track: round(ms.track), compose: round(ms.compose), encode: round(ms.encode), total: round(ms.total) },
    fps: Number((frames / (ms.total / 1000)).toFixed(1)),
    width,
    height,
    frameRate: video.rate,
  };
}

/** The middle one of three values. */
const middleOf = (a: number, b: number, c: number) => Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));

/** At most this many of the person's other images are loaded (each costs a cut-out in memory and a mesh at start). */
const MAX_OTHER_FACES = 8;

/** The anchor (its failure fails the render) and the other images that have a face (the rest are noted and left out); `kept`: how many were read as kept. */
async function loadPersons(engine: FaceEngine, options: RenderFaceOptions): Promise<{ persons: PersonFace[]; notes: string[]; kept: number }> {
  let kept = 0;
  const load = async (file: string, settings: { eyes?: boolean; eyeOpening?: number }) => {
    if (!options.keepFaces) return loadPersonFace(engine, file, settings);
    const found = await keptPersonFace(engine, file, settings);
    if (found.kept) kept++;
    return found.face;
  };
  const persons = [await load(options.personFace, { eyeOpening: options.personEyeOpening })];
  const notes: string[] = [];
  for (const file of (options.otherFaces ?? []).slice(0, MAX_OTHER_FACES)) {
    options.signal?.throwIfAborted();
    try {
      // Whether their eyes are shut is measured only when they may lend theirs (face-choice.ts eyeLender).
      persons.push(await load(file, { eyes: persons[0]!.eyesShut || isLookingAside(persons[0]!.gaze) }));
    } catch (error) {
      if (!(error instanceof PersonFaceError)) throw error;
      notes.push('one of the person’s other images has no face and was left out');
    }
  }
  return { persons, notes, kept };
}
