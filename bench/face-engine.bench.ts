// The face engine at 720p (1280×720): ms per frame for detect + mesh and for the full analysis
// (embedding + expressions), in the bench's own thread and through the worker pool (2 threads, frames
// submitted concurrently: frames/s and per-frame latency), in alternating rounds. Frames: a clip zooming
// on the astronaut portrait, and ../shared/media/talking-woman.mp4 when it exists (a real talking face,
// padded to 720p; local material, not in CI).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { type FaceEngine, type Frame, createHumanFaceEngine } from '../src/server/pipeline/face-engine';
import { type PipelinePool, createPipelinePool } from '../src/server/pipeline/worker-pool';

const WIDTH = 1280;
const HEIGHT = 720;
const POOL_THREADS = 2;
const ROUNDS = 3;
const PORTRAIT = fileURLToPath(new URL('../assets/astronaut.jpg', import.meta.url));
const TALKING = fileURLToPath(new URL('../../shared/media/talking-woman.mp4', import.meta.url));

/** Decodes `count` frames of 1280×720 RGB, each with its own ArrayBuffer (so a transfer moves only it). */
function decode(args: string[], filter: string, count: number): Frame[] {
  const raw = execFileSync(ffmpegBinary(), ['-v', 'error', ...args, '-vf', filter, '-frames:v', String(count), '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    maxBuffer: 1024 * 1024 * 1024,
  });
  const size = WIDTH * HEIGHT * 3;
  return Array.from({ length: Math.floor(raw.length / size) }, (_, index) => ({
    data: new Uint8Array(raw.subarray(index * size, (index + 1) * size)),
    width: WIDTH,
    height: HEIGHT,
  }));
}

/**
 * The portrait (512²) scaled to 1280² and cut to its top 1280×720 (her face at about (560, 300), 360 px),
 * then a slow zoom towards the face, to 1.3×: the face moves and grows like in a template.
 */
function astronautFrames(count: number): Frame[] {
  const zoom = `zoompan=z='min(1+0.3*on/${count},1.3)':x='560-iw/zoom/2':y='300-ih/zoom/2':d=1:s=${WIDTH}x${HEIGHT}:fps=25`;
  return decode(['-loop', '1', '-i', PORTRAIT], `scale=${WIDTH}:${WIDTH},crop=${WIDTH}:${HEIGHT}:0:0,${zoom}`, count);
}

function talkingFrames(count: number): Frame[] {
  return decode(['-i', TALKING], `fps=10,scale=-2:${HEIGHT},pad=${WIDTH}:${HEIGHT}:(ow-iw)/2:0`, count);
}

const copy = (frame: Frame): Frame => ({ ...frame, data: new Uint8Array(frame.data) });
const round = (value: number) => Number(value.toFixed(1));
const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1]!;

/**
 * CPU time of the whole process (every thread) in ms. On a machine shared with other work the wall
 * clock also measures the neighbours; CPU time per frame is the cost of the work itself.
 */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One frame after another in this thread (the pool's threads idle): median ms per frame, CPU ms per frame, frames with a face. */
async function inThisThread(frames: Frame[], detect: (frame: Frame) => Promise<unknown[]>) {
  const times: number[] = [];
  let found = 0;
  const cpuBefore = cpuMs();
  for (const frame of frames) {
    const started = performance.now();
    const faces = await detect(frame);
    times.push(performance.now() - started);
    if (faces.length > 0) found++;
  }
  return { msPerFrame: median(times), cpuMsPerFrame: (cpuMs() - cpuBefore) / frames.length, found };
}

/**
 * Through the pool: every frame submitted at once (frames/s), then POOL_THREADS frames in flight at a
 * time (latency without queueing: `run` to result, the transfer and the result's copy included).
 */
async function throughPool(frames: Frame[], submit: (frame: Frame) => Promise<unknown[]>) {
  const burst = frames.map(copy);
  const started = performance.now();
  const cpuBefore = cpuMs();
  await Promise.all(burst.map((frame) => submit(frame)));
  const cpuMsPerFrame = (cpuMs() - cpuBefore) / frames.length;
  const framesPerSecond = (frames.length * 1000) / (performance.now() - started);
  const latencies: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < frames.length) {
      const frame = copy(frames[next++]!);
      const submitted = performance.now();
      await submit(frame);
      latencies.push(performance.now() - submitted);
    }
  };
  await Promise.all(Array.from({ length: POOL_THREADS }, lane));
  return { framesPerSecond, latencyMs: median(latencies), cpuMsPerFrame };
}

/**
 * Single thread and pool in alternating rounds, so that both see the same neighbours on a shared
 * machine; each figure is given per round and as the best round.
 */
async function measure(frames: Frame[], analysedFrames: Frame[], engine: FaceEngine, pool: PipelinePool) {
  const detectInPool = (frame: Frame) => pool.run('detectFaces', { frame, options: { mesh: true } }, [frame.data.buffer as ArrayBuffer]);
  const analyseInPool = (frame: Frame) => pool.run('analyseFrame', { frame }, [frame.data.buffer as ArrayBuffer]);
  // Warm-up: the kernels of this thread's engine, and every pool thread with its engine and analysis models.
  await engine.analyse(copy(frames[0]!));
  await Promise.all(Array.from({ length: POOL_THREADS }, () => analyseInPool(copy(frames[0]!))));
  type Round = { single: Awaited<ReturnType<typeof inThisThread>>; pool: Awaited<ReturnType<typeof throughPool>> };
  const rounds: [detect: Round, analysis: Round][] = [];
  for (let index = 0; index < ROUNDS; index++) {
    rounds.push([
      // A fresh copy per call, made outside the timing, as a decoder hands over fresh frames.
      { single: await inThisThread(frames.map(copy), (frame) => engine.detect(frame, { mesh: true })), pool: await throughPool(frames, detectInPool) },
      { single: await inThisThread(analysedFrames.map(copy), (frame) => engine.analyse(frame)), pool: await throughPool(analysedFrames, analyseInPool) },
    ]);
  }
  const report = (which: 0 | 1, count: number) => {
    const of = rounds.map((pair) => pair[which]);
    const figure = (values: number[], best: (...values: number[]) => number) => ({ best: round(best(...values)), rounds: values.map(round) });
    return {
      frames: count,
      faceFound: `${Math.min(...of.map((r) => r.single.found))}/${count}`,
      singleThread: {
        msPerFrame: figure(of.map((r) => r.single.msPerFrame), Math.min),
        cpuMsPerFrame: figure(of.map((r) => r.single.cpuMsPerFrame), Math.min),
      },
      [`pool${POOL_THREADS}Threads`]: {
        framesPerSecond: figure(of.map((r) => r.pool.framesPerSecond), Math.max),
        latencyMs: figure(of.map((r) => r.pool.latencyMs), Math.min),
        // All threads' CPU per frame: the pool's overhead over the single thread (copies, messages).
        cpuMsPerFrame: figure(of.map((r) => r.pool.cpuMsPerFrame), Math.min),
      },
    };
  };
  return {
    detectAndMesh: report(0, frames.length),
    // detect + mesh + faceres embedding + expression model (+ sharpness and pose, negligible)
    fullAnalysis: report(1, analysedFrames.length),
  };
}

export async function benchFaceEngine() {
  const loadStarted = performance.now();
  const engine = await createHumanFaceEngine({ preloadAnalysis: true });
  const loadMs = Math.round(performance.now() - loadStarted);
  const pool = createPipelinePool({ size: POOL_THREADS });
  try {
    const astronaut = astronautFrames(24);
    const results: Record<string, unknown> = {
      resolution: `${WIDTH}x${HEIGHT}`,
      loadMs,
      loadAverageAtStart: os.loadavg().map(round),
      astronautClip: await measure(astronaut, astronaut.slice(0, 8), engine, pool),
    };
    if (existsSync(TALKING)) {
      const talking = talkingFrames(24);
      results.talkingWoman = await measure(talking, talking.slice(0, 8), engine, pool);
    }
    results.loadAverageAtEnd = os.loadavg().map(round);
    return results;
  } finally {
    await engine.close();
    await pool.close();
  }
}
