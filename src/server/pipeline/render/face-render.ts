// The face stage of the renderer: the template decoded to raw frames through a pipe, the actor's face
// tracked, the person's face put on it, the frames encoded through a pipe to an MP4 (faststart, the
// template's frame rate and frame count; the template's audio kept as AAC so the file is watchable
// before the voice stage replaces it). A library: files and options in, a report out, progress through
// a callback; no HTTP, database or queue.
import { rm } from 'node:fs/promises';
import { type FaceEngine, createHumanFaceEngine } from '../face-engine';
import { createLightFollower } from './face-light';
import { pasteFace } from './face-paste';
import { createFaceTracker } from './face-track';
import { loadMeshModel } from './mesh-model';
import { createEyeBlinks } from './eye-blink';
import { createMouthMotion } from './mouth-motion';
import { loadPersonFace } from './person-face';
import { decodeYuvFrames, evenSize, openEncoder, probeTemplate } from './video-pipes';
import { yuvFrame } from './yuv';

export interface RenderFaceOptions {
  template: string;
  /** A photo of the person (JPEG, PNG...): its largest face is used. */
  personFace: string;
  /** The MP4 to write (removed again if the render fails). */
  output: string;
  /** 0..1, after each frame (at most every 1 %). */
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
  /** A face engine to reuse (a worker thread's); one is created otherwise. */
  engine?: FaceEngine;
  /** Move the person's mouth with the actor's (default true). */
  mouth?: boolean;
  /** Let the actor's eye show while it blinks (default true). */
  blinks?: boolean;
  /** Track the mesh with the mesh model alone between detections (default true; false: the engine's detect on a crop). */
  meshTracking?: boolean;
  /** x264 preset (default veryfast). */
  preset?: string;
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
  tracking: { mode: 'mesh-only' | 'detect-on-crop'; fullDetections: number; cropTracks: number; lostInCrop: number };
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
  const video = await probeTemplate(options.template);
  const person = await loadPersonFace(engine, options.personFace);
  const width = evenSize(video.width);
  const height = evenSize(video.height);
  const timeoutMs = options.timeoutMs ?? RENDER.timeoutBaseMs + RENDER.timeoutPerSecondMs * video.duration;
  // The mesh model alone between detections, when the engine is the built-in one (it sets up tfjs).
  const tracker = createFaceTracker(engine, options.meshTracking === false ? undefined : await loadMeshModel());
  const mouth = options.mouth === false ? undefined : createMouthMotion(person);
  const blinks = options.blinks === false ? undefined : createEyeBlinks();
  const light = createLightFollower();
  const encoder = openEncoder({
    output: options.output, width, height, rate: video.rate, audioFrom: video.hasAudio ? options.template : undefined,
    preset: options.preset, timeoutMs, signal,
  });
  const ms = { prepare: performance.now() - started, decode: 0, track: 0, compose: 0, encode: 0, total: 0 };
  let frames = 0;
  let framesWithFace = 0;
  let framesReplaced = 0;
  let framesBlinking = 0;
  let reported = -1;
  const decoded = decodeYuvFrames(options.template, video, { timeoutMs, signal });
  try {
    for (;;) {
      let mark = performance.now();
      const next = await decoded.next();
      ms.decode += performance.now() - mark;
      if (next.done) break;
      signal?.throwIfAborted();
      const frame = yuvFrame(next.value, width, height);

      mark = performance.now();
      const face = await tracker.track(frame);
      ms.track += performance.now() - mark;

      if (face) {
        framesWithFace++;
        mark = performance.now();
        mouth?.update(face.landmarks);
        blinks?.update(face.landmarks);
        if (blinks?.active) framesBlinking++;
        if (pasteFace(frame, person, face.landmarks, mouth, blinks, light)) framesReplaced++;
        ms.compose += performance.now() - mark;
      }

      mark = performance.now();
      await encoder.write(next.value);
      ms.encode += performance.now() - mark;
      frames++;
      const fraction = Math.min(1, frames / Math.max(1, video.frames));
      if (options.onProgress && Math.floor(fraction * 100) !== reported) {
        reported = Math.floor(fraction * 100);
        options.onProgress(fraction);
      }
    }
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
  ms.total = performance.now() - started;
  const notes: string[] = [];
  const { mostFaces, ...tracking } = tracker.stats;
  if (mostFaces > 1) notes.push(`the template shows up to ${mostFaces} faces at once: the largest was replaced`);
  if (person.facesInPhoto > 1) notes.push(`the person's photo shows ${person.facesInPhoto} faces: the largest was used`);
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
    tracking: { mode: tracker.mode, ...tracking },
    method: mouth ? 'aligned-paste+mouth' : 'aligned-paste',
    ms: { prepare: round(ms.prepare), decode: round(ms.decode), track: round(ms.track), compose: round(ms.compose), encode: round(ms.encode), total: round(ms.total) },
    fps: Number((frames / (ms.total / 1000)).toFixed(1)),
    width,
    height,
    frameRate: video.rate,
  };
}
