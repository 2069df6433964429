// The face engine at 720p (1280×720): ms per frame for detect + mesh and for the full analysis
// (embedding + expressions), in the bench's own thread and through the worker pool (2 threads, frames
// submitted concurrently: frames/s and per-frame latency). Frames: a clip zooming on the astronaut
// portrait, and ../shared/media/talking-woman.mp4 when it exists (a real talking face, padded to 720p).
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
function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** One frame after another in this thread: ms per frame (median, p90) and the share of frames with a face. */
async function inThisThread(frames: Frame[], detect: (frame: Frame) => Promise<unknown[]>) {
  await detect(frames[0]!); // the first call sets up the kernels
  const times: number[] = [];
  let found = 0;
  for (const frame of frames) {
    const started = performance.now();
    const faces = await detect(frame);
    times.push(performance.now() - started);
    if (faces.length > 0) found++;
  }
  const median = percentile(times, 0.5);
  return {
    frames: frames.length,
    faceFound: `${found}/${frames.length}`,
    // p10 is the cost with little preemption: on a shared machine the median also measures the neighbours.
    msPerFrameP10: round(percentile(times, 0.1)),
    msPerFrameMedian: round(median),
    msPerFrameP90: round(percentile(times, 0.9)),
    framesPerSecond: round(1000 / median),
  };
}

/**
 * Through the pool: every frame submitted at once (throughput), then `inFlight` frames at a time
 * (latency without queueing: the time from `run` to the result, transfer and result copy included).
 */
async function throughPool(frames: Frame[], submit: (frame: Frame) => Promise<unknown[]>, inFlight: number) {
  await Promise.all(frames.slice(0, inFlight).map((frame) => submit(copy(frame)))); // every thread loads its engine
  const burst = frames.map(copy);
  const started = performance.now();
  await Promise.all(burst.map((frame) => submit(frame)));
  const wallMs = performance.now() - started;

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
  await Promise.all(Array.from({ length: inFlight }, lane));
  return {
    frames: frames.length,
    allAtOnce: { wallMs: Math.round(wallMs), framesPerSecond: round((frames.length * 1000) / wallMs) },
    [`${inFlight}InFlight`]: {
      latencyMsP10: round(percentile(latencies, 0.1)),
      latencyMsMedian: round(percentile(latencies, 0.5)),
      latencyMsP90: round(percentile(latencies, 0.9)),
    },
  };
}

async function measure(frames: Frame[], analysedFrames: Frame[], engine: FaceEngine, pool: PipelinePool) {
  const detectInPool = (frame: Frame) => pool.run('detectFaces', { frame, options: { mesh: true } }, [frame.data.buffer as ArrayBuffer]);
  const analyseInPool = (frame: Frame) => pool.run('analyseFrame', { frame }, [frame.data.buffer as ArrayBuffer]);
  const pooled = `pool${POOL_THREADS}Threads`;
  return {
    detectAndMesh: {
      singleThread: await inThisThread(frames, (frame) => engine.detect(frame, { mesh: true })),
      [pooled]: await throughPool(frames, detectInPool, POOL_THREADS),
    },
    // detect + mesh + faceres embedding + expression model (+ sharpness and pose, negligible)
    fullAnalysis: {
      singleThread: await inThisThread(analysedFrames, (frame) => engine.analyse(frame)),
      [pooled]: await throughPool(analysedFrames, analyseInPool, POOL_THREADS),
    },
  };
}

export async function benchFaceEngine() {
  const loadStarted = performance.now();
  const engine = await createHumanFaceEngine({ preloadAnalysis: true });
  const loadMs = Math.round(performance.now() - loadStarted);
  const pool = createPipelinePool({ size: POOL_THREADS });
  try {
    const astronaut = astronautFrames(40);
    const results: Record<string, unknown> = {
      resolution: `${WIDTH}x${HEIGHT}`,
      loadMs,
      loadAverageAtStart: os.loadavg().map(round),
      astronautClip: await measure(astronaut, astronaut.slice(0, 12), engine, pool),
    };
    if (existsSync(TALKING)) {
      const talking = talkingFrames(40);
      results.talkingWoman = await measure(talking, talking.slice(0, 12), engine, pool);
    }
    results.loadAverageAtEnd = os.loadavg().map(round);
    return results;
  } finally {
    await engine.close();
    await pool.close();
  }
}
