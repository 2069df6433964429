// The actor's face through a template, recorded once and replayed. The track depends only on the
// template's file and the tracker, not on the family: the first render of a template tracks the actor
// (the mesh model on every frame, about a third of a render's CPU) as it paints, and leaves the track
// beside the template's file (`<file>.track`); every later render of that template, for any family,
// replays it. Either way a frame is painted once the second after it is tracked, so what steadies
// the face looks at the frames after it as well as before (steady-pose.ts), and a render that records
// paints the same video as one that replays (the recorder gives back each face as the track keeps it).
// Storage removes it with the template's file (storage.ts: a stored file's `<name>.*` siblings). The
// 'actor-track' job records it ahead for templates that have none (jobs/actor-track.ts), so a family's
// render finds it; a render that does not, records it itself.
//
// Format: one line of JSON (the header), padding to a multiple of 4 bytes, then per frame the mesh's
// points as x, y float32 pairs (NaN where the frame had no face). The depth is not kept: nothing after
// tracking reads the actor's. Float32 is a ten-thousandth of a pixel at 720p.
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { FaceEngine } from '../face-engine';
import { type FaceTracker, TRACKING, type TrackedFace, createFaceTracker } from './face-track';
import { loadMeshModel } from './mesh-model';
import { decodeYuvFrames, evenSize, probeTemplate } from './video-pipes';
import { yuvFrame } from './yuv';

/** Changes with the format or with anything that changes what the tracker finds. */
const TRACK_VERSION = `1:${JSON.stringify(TRACKING)}`;

interface TrackHeader {
  version: string;
  /** The template file's size and modification time: a track belongs to one file. */
  size: number;
  mtimeMs: number;
  mode: FaceTracker['mode'];
  frames: number;
  points: number;
  stats: FaceTracker['stats'];
}

export interface RecordedTrack {
  header: TrackHeader;
  /** frames × points × 2 */
  points: Float32Array;
}

/** Where a template's track is kept. */
export function actorTrackFile(template: string): string {
  return `${template}.track`;
}

/** A tracker following the actor live: the mesh model alone between detections, or the engine's detect on a crop. */
export async function liveTracker(engine: FaceEngine, mode: FaceTracker['mode']): Promise<FaceTracker> {
  return createFaceTracker(engine, mode === 'mesh-only' ? await loadMeshModel() : undefined);
}

/** The header at the start of `bytes` and where the points start, when it is this template's and tracker's and the file is whole. */
async function validHeader(bytes: Buffer, fileLength: number, template: string, mode: FaceTracker['mode']): Promise<{ header: TrackHeader; offset: number } | undefined> {
  const end = bytes.indexOf(0x0a);
  if (end < 0) return undefined;
  const header = JSON.parse(bytes.subarray(0, end).toString('utf8')) as TrackHeader;
  const offset = align4(end + 1);
  const info = await stat(template);
  if (header.version !== TRACK_VERSION || header.mode !== mode || header.size !== info.size || header.mtimeMs !== info.mtimeMs) return undefined;
  if (fileLength !== offset + header.frames * header.points * 2 * 4) return undefined;
  return { header, offset };
}

/** Whether a whole track of this template and tracker is there (its header alone is read). */
export async function hasActorTrack(file: string, template: string, mode: FaceTracker['mode']): Promise<boolean> {
  const handle = await open(file).catch(() => undefined);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16 * 1024), 0, 16 * 1024, 0);
    return (await validHeader(buffer.subarray(0, bytesRead), size, template, mode)) !== undefined;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

/** The track recorded for this template by this tracker, or undefined (none yet, another file, another tracker, unreadable). */
export async function readActorTrack(file: string, template: string, mode: FaceTracker['mode']): Promise<RecordedTrack | undefined> {
  const bytes = await readFile(file).catch(() => undefined);
  if (!bytes) return undefined;
  try {
    const valid = await validHeader(bytes, bytes.length, template, mode);
    if (!valid) return undefined;
    const { header, offset } = valid;
    const count = header.frames * header.points * 2;
    // A copy: the file's buffer may sit at an offset that is not a multiple of 4 in Node's pool.
    const points = new Float32Array(count);
    new Uint8Array(points.buffer).set(bytes.subarray(offset));
    return { header, points };
  } catch {
    return undefined;
  }
}

/** A tracker that gives the recorded faces, one per frame in order (none past the end). */
export function replayTracker(track: RecordedTrack): FaceTracker & { readonly framesLeft: number } {
  const { frames, points } = track.header;
  let frame = 0;
  return {
    stats: { ...track.header.stats },
    mode: track.header.mode,
    get framesLeft() {
      return frames - frame;
    },
    async track() {
      if (frame >= frames) return undefined;
      const start = frame++ * points * 2;
      return points === 0 ? undefined : recordedFace(track.points.subarray(start, start + points * 2));
    },
  };
}

/** A frame's face as a track keeps it: the mesh's x, y as float32, no depth (undefined where it had none). */
function recordedFace(xy: Float32Array): TrackedFace | undefined {
  if (Number.isNaN(xy[0])) return undefined;
  const landmarks: number[][] = [];
  for (let i = 0; i < xy.length; i += 2) landmarks.push([xy[i]!, xy[i + 1]!, 0]);
  return { landmarks, score: 1, via: 'crop' };
}

/** Collects a live tracker's faces; `track` gives them as the template's track. */
export function createTrackRecorder() {
  const frames: (Float32Array | undefined)[] = [];
  let points = 0;
  return {
    /** Keeps a live tracker's face; gives it back as a replay of the track will (a render that records paints what the next one replays). */
    add(face: TrackedFace | undefined): TrackedFace | undefined {
      if (!face) return void frames.push(undefined);
      points = face.landmarks.length;
      const xy = new Float32Array(points * 2);
      face.landmarks.forEach(([x, y], i) => {
        xy[2 * i] = x!;
        xy[2 * i + 1] = y!;
      });
      frames.push(xy);
      return recordedFace(xy);
    },
    /** The faces collected, as this template's track by this tracker (a template without a face has a track of no points). */
    async track(template: string, tracker: FaceTracker): Promise<RecordedTrack> {
      const info = await stat(template);
      const header: TrackHeader = { version: TRACK_VERSION, size: info.size, mtimeMs: info.mtimeMs, mode: tracker.mode, frames: frames.length, points, stats: { ...tracker.stats } };
      const data = new Float32Array(frames.length * points * 2);
      frames.forEach((xy, i) => (xy ? data.set(xy, i * points * 2) : data.fill(Number.NaN, i * points * 2, (i + 1) * points * 2)));
      return { header, points: data };
    },
  };
}

/**
 * Writes a track to `file`: to a file of its own, then renamed, so a reader never sees half a track and
 * two writers of the same track leave one. A track of no points (no face anywhere) is not kept.
 */
export async function saveActorTrack(file: string, { header, points }: RecordedTrack): Promise<void> {
  if (header.points === 0) return;
  const line = Buffer.from(`${JSON.stringify(header)}\n`);
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, Buffer.concat([line, Buffer.alloc(align4(line.length) - line.length, 0x20), Buffer.from(points.buffer, points.byteOffset, points.byteLength)]));
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}

const align4 = (n: number) => Math.ceil(n / 4) * 4;

/**
 * The actor tracked through the whole template: decoded as a render decodes it, the actor followed in
 * every frame, nothing painted or encoded. `onFrame` hears how many frames are done.
 */
export async function trackTemplate(options: { template: string; engine: FaceEngine; mode?: FaceTracker['mode']; signal?: AbortSignal; timeoutMs?: number; onFrame?: (frames: number) => void }): Promise<RecordedTrack> {
  const video = await probeTemplate(options.template);
  const width = evenSize(video.width);
  const height = evenSize(video.height);
  const tracker = await liveTracker(options.engine, options.mode ?? 'mesh-only');
  const recorder = createTrackRecorder();
  let frames = 0;
  const decoded = decodeYuvFrames(options.template, video, { timeoutMs: options.timeoutMs ?? 60_000 + 5_000 * video.duration, signal: options.signal });
  try {
    for await (const bytes of decoded) {
      options.signal?.throwIfAborted();
      recorder.add(await tracker.track(yuvFrame(bytes, width, height)));
      options.onFrame?.(++frames);
    }
  } finally {
    await decoded.return(undefined);
  }
  return recorder.track(options.template, tracker);
}

/** Records a template's actor track ahead of any render (trackTemplate, then kept). Nothing is done when a valid track is there already. */
export async function recordActorTrack(options: { template: string; actorTrack: string; engine: FaceEngine; mode?: FaceTracker['mode']; signal?: AbortSignal; timeoutMs?: number }): Promise<{ recorded: boolean; frames: number }> {
  const mode = options.mode ?? 'mesh-only';
  if (await hasActorTrack(options.actorTrack, options.template, mode)) return { recorded: false, frames: 0 };
  const track = await trackTemplate({ ...options, mode });
  await saveActorTrack(options.actorTrack, track);
  return { recorded: true, frames: track.header.frames };
}
