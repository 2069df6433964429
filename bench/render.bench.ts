// The renderer's face stage (src/server/pipeline/render/face-render.ts) on a 720p25 template made from
// the astronaut portrait (10 s, zooming and swaying), and on ../shared/media/talking-woman.mp4 and
// talking-man.mp4 when they exist (local material: real talkers who turn, blink and speak). The person
// is the largest face of @vladmandic/face-api's demo/sample5.jpg (a different real face).
// - Speed: frames/s of the render and of a plain decode → raw yuv420p → x264 round trip of the same file
//   in the same run (the ceiling), for x264 veryfast (the default) and ultrafast; ms per stage.
// - Identity, by two independent embedders: Human's faceres (the face engine) and face-api's 128-d
//   descriptor (on the same tfjs wasm backend): the share of sampled output frames (with a face) closer
//   to the person's photo than to the actor (the template's own frames, averaged).
// - Mouth: correlation over frames of the mouth opening (mesh) of the output and the template.
// - A review sheet per template (/tmp/render-review-<name>.png): template above, output below, at the
//   start, middle, end and the worst frame by faceres.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { type FaceEngine, type Frame, cosineSimilarity, createHumanFaceEngine, mouthOpening } from '../src/server/pipeline/face-engine';
import { renderFace } from '../src/server/pipeline/render/face-render';
import { createPipelinePool } from '../src/server/pipeline/worker-pool';
import { decodeYuvFrames, evenSize, openEncoder, probeTemplate } from '../src/server/pipeline/render/video-pipes';

const require = createRequire(import.meta.url);
const PORTRAIT = fileURLToPath(new URL('../assets/astronaut.jpg', import.meta.url));
const FACE_API_DIR = path.dirname(require.resolve('@vladmandic/face-api/package.json'));
const PERSON_PHOTO = path.join(FACE_API_DIR, 'demo', 'sample5.jpg');
const LOCAL = ['talking-woman', 'talking-man'].map((name) => ({ name, file: path.resolve(`../shared/media/${name}.mp4`) }));
/** Frames analysed by both embedders per video. */
const IDENTITY_SAMPLES = Number(process.env.RENDER_BENCH_SAMPLES ?? 16);
const SPEED_ROUNDS = Number(process.env.RENDER_BENCH_ROUNDS ?? 2);

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

function ffmpeg(args: string[]) {
  execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', ...args], { timeout: 120_000 });
}

/** The frames at `indices` (sorted) as RGB. */
function framesAt(file: string, indices: number[], width: number, height: number): Frame[] {
  const select = indices.map((i) => `eq(n\\,${i})`).join('+');
  const raw = execFileSync(ffmpegBinary(), ['-v', 'error', '-i', file, '-vf', `select='${select}'`, '-vsync', '0', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    maxBuffer: 1 << 30,
    timeout: 120_000,
  });
  const size = width * height * 3;
  return Array.from({ length: Math.floor(raw.length / size) }, (_, i) => ({ data: new Uint8Array(raw.subarray(i * size, (i + 1) * size)), width, height }));
}

/** face-api's 128-d descriptor of the largest face, on the tfjs (wasm) that Human already set up. */
async function loadFaceApi() {
  const faceapi = require(path.join(FACE_API_DIR, 'dist', 'face-api.node-wasm.js'));
  const model = path.join(FACE_API_DIR, 'model');
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(model);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(model);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(model);
  return {
    backend: faceapi.tf.getBackend() as string,
    async describe(frame: Frame): Promise<Float32Array | undefined> {
      const tensor = faceapi.tf.tensor3d(Int32Array.from(frame.data), [frame.height, frame.width, 3], 'int32');
      try {
        const found = await faceapi.detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.3, maxResults: 5 })).withFaceLandmarks().withFaceDescriptors();
        found.sort((a: { detection: { box: { area: number } } }, b: { detection: { box: { area: number } } }) => b.detection.box.area - a.detection.box.area);
        return found[0]?.descriptor;
      } finally {
        tensor.dispose();
      }
    },
  };
}
type FaceApi = Awaited<ReturnType<typeof loadFaceApi>>;

const distance = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.sqrt(Array.from(a).reduce((sum, value, i) => sum + (value - b[i]!) ** 2, 0));
function mean(vectors: ArrayLike<number>[]): number[] {
  const sum = new Array<number>(vectors[0]!.length).fill(0);
  for (const vector of vectors) for (let i = 0; i < sum.length; i++) sum[i]! += vector[i]!;
  return sum.map((value) => value / vectors.length);
}

/** The largest face's embedding. maxFaces is generous: the detector keeps its best-scored faces, not the largest. */
async function faceresOf(engine: FaceEngine, frame: Frame) {
  const faces = await engine.analyse(frame, { maxFaces: 10 });
  return faces.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0]?.embedding;
}

/** Decode → raw yuv420p → x264 through the renderer's own pipes, nothing done to the frames: the ceiling. */
async function roundTrip(template: string, output: string, preset: string) {
  const video = await probeTemplate(template);
  const started = performance.now();
  const encoder = openEncoder({ output, width: evenSize(video.width), height: evenSize(video.height), rate: video.rate, preset, timeoutMs: 600_000 });
  let frames = 0;
  for await (const frame of decodeYuvFrames(template, video, { timeoutMs: 600_000 })) {
    await encoder.write(frame);
    frames++;
  }
  await encoder.finish();
  return { frames, fps: round(frames / ((performance.now() - started) / 1000)) };
}

function pearson(xs: number[], ys: number[]) {
  const mx = xs.reduce((s, v) => s + v, 0) / xs.length;
  const my = ys.reduce((s, v) => s + v, 0) / ys.length;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Mouth opening of the largest face in every `step`-th frame of both videos; the correlation over frames where both have a face. */
export async function mouthCorrelation(engine: FaceEngine, template: string, output: string, frames: number, width: number, height: number, step = 3) {
  const indices = Array.from({ length: Math.floor(frames / step) }, (_, i) => i * step);
  const open = async (file: string) => {
    const values: (number | undefined)[] = [];
    // In chunks, so a long clip is not held in memory at once.
    for (let from = 0; from < indices.length; from += 60) {
      for (const frame of framesAt(file, indices.slice(from, from + 60), width, height)) {
        const face = (await engine.detect(frame, { mesh: true })).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
        values.push(face?.landmarks ? mouthOpening(face.landmarks) : undefined);
      }
    }
    return values;
  };
  const before = await open(template);
  const after = await open(output);
  const pairs = before.flatMap((value, i) => (value !== undefined && after[i] !== undefined ? [[value, after[i]!]] : []));
  return { frames: pairs.length, correlation: round(pearson(pairs.map((p) => p[0]!), pairs.map((p) => p[1]!)), 2) };
}

async function reviewSheet(name: string, template: string, output: string, indices: number[], width: number, height: number) {
  const rowHeight = 300;
  const tileWidth = Math.round((width / height) * rowHeight);
  const tiles = async (file: string) =>
    Promise.all(
      framesAt(file, [...indices].sort((a, b) => a - b), width, height).map((frame) =>
        sharp(frame.data, { raw: { width, height, channels: 3 } }).resize(tileWidth, rowHeight).png().toBuffer(),
      ),
    );
  // framesAt returns frames in file order; `indices` is sorted by the caller's labels below.
  const top = await tiles(template);
  const bottom = await tiles(output);
  const file = path.join(tmpdir(), `render-review-${name}.png`);
  await sharp({ create: { width: tileWidth * top.length, height: rowHeight * 2, channels: 3, background: '#000' } })
    .composite([...top.map((input, i) => ({ input, left: i * tileWidth, top: 0 })), ...bottom.map((input, i) => ({ input, left: i * tileWidth, top: rowHeight }))])
    .png()
    .toFile(file);
  return file;
}

async function benchTemplate(name: string, template: string, engine: FaceEngine, faceApi: FaceApi, person: { faceres: number[]; faceApi: Float32Array }, dir: string, options: { presets: string[]; mouth: boolean }) {
  const video = await probeTemplate(template);
  const speed: Record<string, unknown> = {};
  let output = '';
  for (const preset of options.presets) {
    // Ceiling and render alternate, SPEED_ROUNDS times; the best of each (the machine is shared: the
    // best run is the one the neighbours disturbed least).
    let ceiling = { frames: 0, fps: 0 };
    let best: Awaited<ReturnType<typeof renderFace>> | undefined;
    for (let round = 0; round < SPEED_ROUNDS; round++) {
      const trip = await roundTrip(template, path.join(dir, `${name}-ceiling-${preset}.mp4`), preset);
      if (trip.fps > ceiling.fps) ceiling = trip;
      output = path.join(dir, `${name}-${preset}.mp4`);
      const report = await renderFace({ template, personFace: PERSON_PHOTO, output, engine, preset });
      if (!best || report.fps > best.fps) best = report;
    }
    const report = best!;
    const perFrame = (ms: number) => round(ms / report.frames, 1);
    speed[preset] = {
      renderFps: report.fps,
      ceilingFps: ceiling.fps,
      ratioToCeiling: round(report.fps / ceiling.fps, 2),
      msPerFrame: { decode: perFrame(report.ms.decode), track: perFrame(report.ms.track), compose: perFrame(report.ms.compose), encode: perFrame(report.ms.encode) },
      prepareMs: report.ms.prepare,
      frames: report.frames,
      framesWithFace: report.framesWithFace,
      framesReplaced: report.framesReplaced,
      framesBlinking: report.framesBlinking,
      method: report.method,
      tracking: report.tracking,
      notes: report.notes,
      loadAverage: os.loadavg().map((value) => round(value, 1)),
    };
    console.log(name, preset, JSON.stringify(speed[preset]));
  }
  // Identity on frames spread over the output (the first preset's render is as good as any: same pixels before x264).
  const width = evenSize(video.width);
  const height = evenSize(video.height);
  const indices = Array.from({ length: IDENTITY_SAMPLES }, (_, i) => Math.round(((i + 0.5) * video.frames) / IDENTITY_SAMPLES));
  const templateFrames = framesAt(template, indices, width, height);
  const outputFrames = framesAt(output, indices, width, height);
  const actorFaceres: number[][] = [];
  const actorFaceApi: Float32Array[] = [];
  for (const frame of templateFrames) {
    const embedding = await faceresOf(engine, frame);
    if (embedding) actorFaceres.push(embedding);
    const descriptor = await faceApi.describe(frame);
    if (descriptor) actorFaceApi.push(descriptor);
  }
  const actor = { faceres: mean(actorFaceres), faceApi: mean(actorFaceApi) };
  const faceres = { frames: 0, closerToPerson: 0, toPerson: 0, toActor: 0 };
  const faceApiCounts = { frames: 0, closerToPerson: 0, distanceToPerson: 0, distanceToActor: 0 };
  const margins: { index: number; margin: number }[] = [];
  for (const [i, frame] of outputFrames.entries()) {
    const embedding = await faceresOf(engine, frame);
    if (embedding) {
      const toPerson = cosineSimilarity(embedding, person.faceres);
      const toActor = cosineSimilarity(embedding, actor.faceres);
      faceres.frames++;
      faceres.toPerson += toPerson;
      faceres.toActor += toActor;
      if (toPerson > toActor) faceres.closerToPerson++;
      margins.push({ index: indices[i]!, margin: toPerson - toActor });
    }
    const descriptor = await faceApi.describe(frame);
    if (descriptor) {
      const toPerson = distance(descriptor, person.faceApi);
      const toActor = distance(descriptor, actor.faceApi);
      faceApiCounts.frames++;
      faceApiCounts.distanceToPerson += toPerson;
      faceApiCounts.distanceToActor += toActor;
      if (toPerson < toActor) faceApiCounts.closerToPerson++;
    }
  }
  const identity = {
    faceres: {
      framesWithFace: faceres.frames,
      shareCloserToPerson: round(faceres.closerToPerson / Math.max(1, faceres.frames), 2),
      meanCosineToPerson: round(faceres.toPerson / Math.max(1, faceres.frames), 3),
      meanCosineToActor: round(faceres.toActor / Math.max(1, faceres.frames), 3),
    },
    faceApi: {
      framesWithFace: faceApiCounts.frames,
      shareCloserToPerson: round(faceApiCounts.closerToPerson / Math.max(1, faceApiCounts.frames), 2),
      meanDistanceToPerson: round(faceApiCounts.distanceToPerson / Math.max(1, faceApiCounts.frames), 3),
      meanDistanceToActor: round(faceApiCounts.distanceToActor / Math.max(1, faceApiCounts.frames), 3),
    },
  };
  console.log(name, 'identity', JSON.stringify(identity));
  const mouth = options.mouth ? await mouthCorrelation(engine, template, output, video.frames, width, height) : undefined;
  if (mouth) console.log(name, 'mouth', JSON.stringify(mouth));
  const worst = margins.sort((a, b) => a.margin - b.margin)[0]?.index ?? 0;
  const sheetIndices = [...new Set([0, Math.floor(video.frames / 2), video.frames - 1, worst])];
  const sheet = await reviewSheet(name, template, output, sheetIndices, width, height);
  return { template: { width: video.width, height: video.height, fps: round(video.fps, 2), frames: video.frames }, speed, identity, mouth, reviewSheet: sheet, worstFrame: worst };
}

/**
 * Both cores busy, as on a server rendering two videos: two renders of the same template at once, each
 * in its own pipeline thread (as two render jobs run), x264 veryfast. Frames/s of each and together.
 */
async function benchTwoAtOnce(template: string, dir: string) {
  const pool = createPipelinePool({ size: 2 });
  try {
    // Warm both threads (models loaded) so the measurement is the render alone.
    const warm = path.join(dir, 'warm.jpg');
    ffmpeg(['-i', PERSON_PHOTO, '-vf', 'scale=320:-2', warm]);
    await Promise.all([0, 1].map(() => pool.run('analyseImage', { bytes: new Uint8Array(readFileSync(warm)) })));
    const started = performance.now();
    const reports = await Promise.all(
      [0, 1].map((n) => pool.run('renderFace', { template, personFace: PERSON_PHOTO, output: path.join(dir, `busy-${n}.mp4`) })),
    );
    const seconds = (performance.now() - started) / 1000;
    const frames = reports.reduce((sum, report) => sum + report.frames, 0);
    return {
      perRenderFps: reports.map((report) => report.fps),
      togetherFps: round(frames / seconds),
      loadAverage: os.loadavg().map((value) => round(value, 1)),
    };
  } finally {
    await pool.close();
  }
}

export async function benchRender() {
  const dir = mkdtempSync(path.join(tmpdir(), 'familystar-render-bench-'));
  try {
    const engine = await createHumanFaceEngine({ maxFaces: 3 });
    const faceApi = await loadFaceApi();
    const photo = await sharp(PERSON_PHOTO).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const personFrame = { data: photo.data, width: photo.info.width, height: photo.info.height };
    const person = { faceres: (await faceresOf(engine, personFrame))!, faceApi: (await faceApi.describe(personFrame))! };

    const portrait = path.join(dir, 'portrait-720p25.mp4');
    const zoom = `zoompan=z='1.1+0.15*sin(on/40)':x='560-iw/zoom/2+40*sin(on/23)':y='300-ih/zoom/2+15*sin(on/31)':d=1:s=1280x720:fps=25`;
    ffmpeg(['-loop', '1', '-i', PORTRAIT, '-vf', `scale=1280:1280,crop=1280:720:0:0,${zoom}`, '-frames:v', '250', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', portrait]);

    const results: Record<string, unknown> = { faceApiBackend: faceApi.backend, person: 'face-api demo/sample5.jpg, largest face' };
    results['portrait-720p25'] = await benchTemplate('portrait-720p25', portrait, engine, faceApi, person, dir, { presets: ['veryfast', 'ultrafast'], mouth: false });
    results['portrait-720p25 two at once'] = await benchTwoAtOnce(portrait, dir);
    console.log('portrait-720p25 two at once', JSON.stringify(results['portrait-720p25 two at once']));
    for (const { name, file } of LOCAL) {
      if (!existsSync(file)) continue;
      results[name] = await benchTemplate(name, file, engine, faceApi, person, dir, { presets: ['veryfast'], mouth: true });
    }
    await engine.close();
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchRender(), null, 2));
}
