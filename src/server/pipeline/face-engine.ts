// Finds and analyses faces in pictures. The rest of the app sees only `FaceEngine`; the built-in engine
// is @vladmandic/human on tfjs with the WebAssembly backend (CPU, plain Node, models shipped in the npm
// package, nothing downloaded at run time). A faster engine can replace it behind the same interface.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as tfjs from '@tensorflow/tfjs';
import sharp from 'sharp';
import type { Config, FaceResult, Human } from '@vladmandic/human';
import { eyeOpening } from './render/eye-blink';

/** One decoded picture: tightly packed RGB (3 bytes a pixel) or RGBA (4), rows top to bottom. */
export interface Frame {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Head pose in degrees (0, 0, 0 = looking straight into the camera), from the mesh. Sides are the
 * PERSON's own, on an unmirrored picture (a camera file, not a selfie preview):
 * - `yaw` > 0: the head turns to the person's left, so the nose points towards the RIGHT edge of the
 *   picture; < 0: turned to the person's right (nose towards the picture's left edge).
 * - `pitch` > 0: the chin goes up (looking up); < 0: looking down.
 * - `roll` > 0: the head tilts towards the person's left shoulder, i.e. it turns clockwise in the
 *   picture; < 0: towards the right shoulder (anticlockwise).
 * Human's estimate from four mesh points (forehead, chin, both cheeks): right in sign, not a calibrated
 * angle. Yaw reads about half the real turn (three-quarter views 20-25°, full profiles 31-46°, varying
 * by a few degrees with the crop); pitch reads about -7° on a face looking straight at the camera.
 */
export interface HeadPose {
  yaw: number;
  pitch: number;
  roll: number;
}

/** The expression model's classes (Human's `emotion`, a 64×64 grey-face classifier). */
export const EMOTIONS = ['angry', 'disgust', 'fear', 'happy', 'sad', 'surprise', 'neutral'] as const;
export type Emotion = (typeof EMOTIONS)[number];
/** The model's softmax outputs (sum ≈ 1), as Human gives them: truncated to 2 decimals, capped at 0.99. */
export type ExpressionScores = Record<Emotion, number>;

export interface DetectedFace {
  /** [x, y, width, height] in pixels of the frame. */
  box: [number, number, number, number];
  /** 0..1: the mesh model's confidence that this is a face (the detector's when there is no mesh). */
  score: number;
  /** The 468-point face mesh, [x, y, z] in pixels of the frame, depth too (faceInFramePixels); absent when not computed. */
  landmarks?: number[][];
  /** Head pose from the mesh; absent without the mesh. */
  pose?: HeadPose;
  /** Mouth opening from the mesh (see `mouthOpening`); absent without the mesh. */
  mouthOpening?: number;
}

/** A face with everything the engine can tell: what `analyse` returns. */
export interface AnalysedFace extends DetectedFace {
  landmarks: number[][];
  pose: HeadPose;
  mouthOpening: number;
  /** Who this is: Human's faceres descriptor, EMBEDDING_LENGTH values of unit length (compare with `cosineSimilarity`). */
  embedding: number[];
  expressions: ExpressionScores;
  /** Detail in the face (see `faceSharpness`): higher is sharper; 0 for a flat crop. */
  sharpness: number;
  /** How much of the face's detail survives at the finer of two scales (see `faceDetailRatio`): low when blurred. */
  detailRatio: number;
  /** How open the eyes are (render/eye-blink.ts `eyeOpening`) on the lids the iris model refined: low when shut. */
  eyeOpening: number;
}

export interface AnalyseOptions {
  /** Most faces to return (default: the engine's `maxFaces`). */
  maxFaces?: number;
  /**
   * A still photo's mesh, checked on the face turned upright: the mesh model is trained on upright faces,
   * and Human feeds it the detector's box as it lies (`detector.rotation` off: the renderer's tracking and
   * every figure measured since were made that way). On a head tilted far over it fails outright: a girl
   * laughing with her head on her shoulder (face-api's sample1, the third largest face, rolled 45°) had
   * its eyes drawn on the nose and its mouth on the cheek, and her video showed one eye, a smear and a
   * mouth across the jaw. With this, the mesh is taken a second time on the face turned upright by the
   * detector's own eye points (Human's `detector.rotation`), and that mesh is used where the two disagree
   * by more than UPRIGHT_DISAGREEMENT of the face's height (an outright failure); otherwise the first,
   * as before. For `analyse`, every figure (pose, embedding, expressions, eyes) is then taken on the upright
   * mesh's face. Off by default (one more detection, about 0.14 s on a photo; `analyse` analyses again only
   * a face whose mesh failed).
   */
  upright?: boolean;
}

export interface DetectOptions extends AnalyseOptions {
  /** Compute the 468-point mesh, the head pose and the mouth opening (default: the engine's `mesh`). */
  mesh?: boolean;
  /**
   * With the mesh: the lids redrawn by Human's iris model (MediaPipe's eye-contour model run on each eye's
   * crop). The face mesh alone never shuts the lids: on a closed eye it draws them open, 8-16 px above the
   * lash line of a photo's 60 px eye (face-api's sample2), and reads a shut eye at 40-65 % of an open
   * one's opening; refined, at 10-25 %. Off by default: the renderer's tracking between detections
   * runs the mesh alone, and its points must not change model from one frame to the next.
   */
  refineEyes?: boolean;
}

/**
 * The mean distance between a photo's two meshes (as the box lies, and turned upright), in face heights,
 * beyond which the first has failed (DetectOptions.upright). Measured on the 21 faces of face-api's demo
 * photos (the largest in its photo, the others cut out): 19 at 0-0.077 (the upright crop moves the mesh a
 * little, to no clear gain on the ones looked at: sample1's and sample4's largest, 0.076 and 0.053); the tilted laughing girl 0.20; a woman
 * in profile with a finger at her lips (sample2's second face) 0.135, where neither mesh is on her face.
 */
export const UPRIGHT_DISAGREEMENT = 0.12;

export interface FaceEngine {
  /** Boxes, scores and, with the mesh, landmarks, pose and mouth opening: the fast call (the renderer's). */
  detect(frame: Frame, options?: DetectOptions): Promise<DetectedFace[]>;
  /** `detect` with the mesh (lids refined) plus the identity embedding, the expression scores and the sharpness (slow). */
  analyse(frame: Frame, options?: AnalyseOptions): Promise<AnalysedFace[]>;
  /**
   * The mesh's reference data, when the engine has it: the triangulation (three point indices per
   * triangle) and the canonical face's UV position of each point (render/frontal-face.ts).
   */
  meshReference?(): { triangles: number[]; uv: [number, number][] };
  close(): Promise<void>;
}

export interface HumanFaceEngineOptions {
  /** Most faces to return per frame (each costs a mesh pass, and with `analyse` two more models). */
  maxFaces?: number;
  /** Faces below this score are dropped. */
  minScore?: number;
  /** `detect`'s default for the mesh (landmarks); also makes the box and score tighter. Default true. */
  mesh?: boolean;
  /**
   * Load the embedding and expression models now (true) or on the first `analyse` (false, the
   * default: an engine that only detects, like the renderer's, never loads them).
   */
  preloadAnalysis?: boolean;
}

/** Length of faceres' descriptor. Anything else (an empty array, typically) is a broken model load. */
export const EMBEDDING_LENGTH = 1024;
/** The side of the square grey crop `faceSharpness` measures, so faces of any size compare. */
export const SHARPNESS_SIZE = 128;

const require = createRequire(import.meta.url);

/** The folder of an installed package, found from its main file (its exports map hides package.json). */
export function packageDir(name: string): string {
  const main = require.resolve(name);
  let dir = path.dirname(main);
  while (path.basename(dir) !== name.split('/').pop()) {
    if (path.dirname(dir) === dir) throw new Error(`cannot find the folder of ${name} from ${main}`);
    dir = path.dirname(dir);
  }
  return dir;
}

// Human keeps per-call state in module variables shared by every instance (the detector's boxes, the
// models): one frame at a time in the whole thread (each worker thread has its own module state).
let queue: Promise<unknown> = Promise.resolve();

type HumanModule = { Human: new (config?: Partial<Config>) => Human };
/** Human types its tfjs as `any`; it is tfjs-core 4.22, the one @tensorflow/tfjs re-exports. */
type Tf = typeof tfjs;

/**
 * tfjs in Node has no file:// loader (tfjs-node brings one, and we do not use tfjs-node). This one reads
 * the model JSON and its weight files from disk. It goes through `getModelArtifactsForJSON` so every
 * field of the JSON reaches the model, `signature` included: without it faceres returns an empty
 * embedding, silently.
 */
function registerFileLoader(tf: Tf) {
  if (tf.io.getLoadHandlers('file:///probe.json').length > 0) return; // already registered in this thread
  const router = (url: string | string[]): tfjs.io.IOHandler | null => {
    const href = Array.isArray(url) ? url[0] : url;
    if (typeof href !== 'string' || !href.startsWith('file://')) return null;
    const file = fileURLToPath(href);
    return {
      load: async () => {
        const json = JSON.parse(await readFile(file, 'utf8'));
        return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
          const specs = manifest.flatMap((group) => group.weights);
          const parts = await Promise.all(manifest.flatMap((group) => group.paths).map((name) => readFile(path.join(path.dirname(file), name))));
          const all = Buffer.concat(parts);
          // A fresh ArrayBuffer: a Buffer can be a window on a larger shared one.
          return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
        });
      },
    };
  };
  // tfjs types a router as always returning a handler; at run time null means "not mine".
  tf.io.registerLoadRouter(router as Parameters<Tf['io']['registerLoadRouter']>[0]);
}

/**
 * Runs `load` and takes off the process-wide 'uncaughtException' / 'unhandledRejection' listeners it
 * added. The wasm backend's Emscripten glue adds listeners that rethrow: any stray rejection anywhere
 * in the app would crash the process (and print a megabyte of minified code). Error handling belongs to
 * the app. In a worker thread `process.on` registers on the thread's own process object, and the same
 * clean-up applies.
 */
async function withoutAddedProcessListeners<T>(load: () => Promise<T>): Promise<T> {
  const before = { uncaught: process.listeners('uncaughtException'), unhandled: process.listeners('unhandledRejection') };
  try {
    return await load();
  } finally {
    for (const listener of process.listeners('uncaughtException')) {
      if (!before.uncaught.includes(listener)) process.removeListener('uncaughtException', listener);
    }
    for (const listener of process.listeners('unhandledRejection')) {
      if (!before.unhandled.includes(listener)) process.removeListener('unhandledRejection', listener);
    }
  }
}

function frameChannels(frame: Frame): number {
  const { data, width, height } = frame;
  const channels = data.length / (width * height);
  if (channels !== 3 && channels !== 4) throw new Error(`frame: expected RGB or RGBA ${width}×${height}, got ${data.length} bytes`);
  return channels;
}

/** The frame's luma (BT.601) at pixel (x, y): what eye-blink.ts eyeGaze reads on a photo or a video frame. */
export function lumaAt(frame: Frame): (x: number, y: number) => number {
  const channels = frameChannels(frame);
  const { data, width } = frame;
  return (x, y) => {
    const i = (y * width + x) * channels;
    return 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  };
}

/**
 * Frames larger than this on their longer side are detected on a copy this large, the boxes and meshes
 * scaled back. Handed whole, a phone's 12-megapixel photo is a square int32 tensor of 195 MB, and on
 * face-api's sample5 scaled to 4032 × 2936 the largest face went unfound (another one of the group was
 * analysed and pasted) where the 1920-pixel original and a 2048-pixel copy find it. The mesh's input is
 * 192 pixels: a face larger than that in the copy is found as precisely. Sharpness and detail are still
 * read on the frame itself.
 */
export const DETECT_MAX_SIDE = 2048;

/** The frame as RGB at width × height (an area-averaging reduction). */
async function reducedFrame(frame: Frame, width: number, height: number): Promise<Frame> {
  const data = await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frameChannels(frame) as 3 | 4 } })
    .removeAlpha()
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
  return { data, width, height };
}

/** The side of the square crop Human's face mesh model reads (its input: the facemesh model's 192 pixels). */
export const MESH_INPUT = 192;

/**
 * A face found on the copy searched (`inputSide`: the side of the square tensor it was), in the frame's own
 * pixels (x scaled by sx, y by sy), its mesh's depth in pixels as well. Human gives the mesh's x and y in
 * the input's pixels but its depth in the mesh crop's (MESH_INPUT across the crop, whatever the face's size):
 * as given, the same face photographed at half the size read 49-54° turned against 28-34°. The crop's size
 * is the box Human returns (facemesh calculateFaceBox keeps the crop's size and moves its centre; `boxRaw`
 * is it unclamped, as shares of the input's sides).
 */
function faceInFramePixels(face: FaceResult, inputSide: number, sx: number, sy: number): FaceResult {
  const [x, y, w, h] = face.box;
  const depth = ((face.boxRaw[2] * inputSide) / MESH_INPUT) * sx;
  return { ...face, box: [x * sx, y * sy, w * sx, h * sy], mesh: face.mesh.map(([px, py, pz]) => [px! * sx, py! * sy, (pz ?? 0) * depth]) as FaceResult['mesh'] };
}

/**
 * Copies the frame into an RGB int32 tensor padded to a square (black on the right or bottom, so pixel
 * coordinates stay those of the frame). Square because Human's mesh comes out ~15 % too large on a
 * non-square input; int32 because Human casts it in one step (a float32 copy made here is slower).
 */
function squareTensor(tf: Tf, frame: Frame) {
  const { data, width, height } = frame;
  const channels = frameChannels(frame);
  const side = Math.max(width, height);
  const pixels = new Int32Array(side * side * 3);
  for (let y = 0; y < height; y++) {
    let from = y * width * channels;
    let to = y * side * 3;
    for (let x = 0; x < width; x++, from += channels, to += 3) {
      pixels[to] = data[from]!;
      pixels[to + 1] = data[from + 1]!;
      pixels[to + 2] = data[from + 2]!;
    }
  }
  return tf.tensor(pixels, [1, side, side, 3], 'int32');
}

/** Cosine of the angle between two embeddings: 1 same direction, 0 unrelated. Equal to the dot product for unit vectors. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) throw new Error(`cosineSimilarity: lengths ${a.length} and ${b.length} differ or are 0`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  if (normA === 0 || normB === 0) throw new Error('cosineSimilarity: a vector is all zeros');
  return dot / Math.sqrt(normA * normB);
}

/** Checks faceres' descriptor and scales it to unit length. Wrong length or non-finite values throw: never a silent bad identity. */
export function normaliseEmbedding(raw: ArrayLike<number> | undefined): number[] {
  const length = raw?.length ?? 0;
  if (!raw || length !== EMBEDDING_LENGTH) {
    throw new Error(`face embedding: expected ${EMBEDDING_LENGTH} values, got ${length} (the faceres model did not load with its signature?)`);
  }
  let sum = 0;
  for (let i = 0; i < length; i++) {
    if (!Number.isFinite(raw[i])) throw new Error(`face embedding: value ${i} is ${raw[i]}`);
    sum += raw[i]! * raw[i]!;
  }
  if (sum === 0) throw new Error('face embedding: all zeros');
  const scale = 1 / Math.sqrt(sum);
  return Array.from(raw, (value) => value * scale);
}

const distance = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);

// Mesh points (MediaPipe's 468-point topology): the inner lip contour, upper and lower, at the centre
// and a little to each side; the top of the forehead and the chin.
const INNER_LIP_PAIRS = [
  [82, 87],
  [13, 14],
  [312, 317],
] as const;
const FOREHEAD = 10;
const CHIN = 152;

/**
 * How open the mouth is: the mean gap between the inner lips (three points across the middle of the
 * mouth) divided by the face height (forehead to chin), in the picture's plane. Face height rather
 * than mouth width because a smile widens the mouth, and turning the head shrinks widths, not heights.
 * Measured: closed lips 0.001-0.035 (photos and clips), speech and a wide "ah" 0.05-0.17 (the
 * talking-man clip), a smile showing teeth 0.045-0.09.
 */
export function mouthOpening(landmarks: number[][]): number {
  if (landmarks.length < 468) throw new Error(`mouthOpening: expected the 468-point mesh, got ${landmarks.length} points`);
  const height = distance(landmarks[FOREHEAD]!, landmarks[CHIN]!);
  if (height === 0) return 0;
  const gap = INNER_LIP_PAIRS.reduce((sum, [upper, lower]) => sum + distance(landmarks[upper]!, landmarks[lower]!), 0) / INNER_LIP_PAIRS.length;
  return gap / height;
}

/**
 * Sharpness of the face: the variance of the 4-neighbour Laplacian of the face box, in grey (0-255),
 * resampled to SHARPNESS_SIZE × SHARPNESS_SIZE (area average when shrinking, bilinear when enlarging)
 * so that faces of any size compare. A small face enlarged has little detail at that size and scores
 * low, which is what choosing a face crop wants. Contrast counts too (a dim face scores lower).
 */
export function faceSharpness(frame: Frame, box: [number, number, number, number], size = SHARPNESS_SIZE): number {
  const channels = frameChannels(frame);
  const { data, width, height } = frame;
  const x0 = Math.max(0, Math.floor(box[0]));
  const y0 = Math.max(0, Math.floor(box[1]));
  const x1 = Math.min(width, Math.ceil(box[0] + box[2]));
  const y1 = Math.min(height, Math.ceil(box[1] + box[3]));
  const cropWidth = x1 - x0;
  const cropHeight = y1 - y0;
  if (cropWidth < 2 || cropHeight < 2) return 0;
  const luma = (x: number, y: number) => {
    const at = (y * width + x) * channels;
    return 0.299 * data[at]! + 0.587 * data[at + 1]! + 0.114 * data[at + 2]!;
  };
  const grey = new Float64Array(size * size);
  const stepX = cropWidth / size;
  const stepY = cropHeight / size;
  for (let oy = 0; oy < size; oy++) {
    for (let ox = 0; ox < size; ox++) {
      let value: number;
      if (stepX >= 1 && stepY >= 1) {
        // Shrinking: the mean of the source pixels under the output pixel.
        const sx0 = x0 + Math.floor(ox * stepX);
        const sx1 = Math.max(sx0 + 1, x0 + Math.floor((ox + 1) * stepX));
        const sy0 = y0 + Math.floor(oy * stepY);
        const sy1 = Math.max(sy0 + 1, y0 + Math.floor((oy + 1) * stepY));
        let sum = 0;
        for (let sy = sy0; sy < sy1; sy++) for (let sx = sx0; sx < sx1; sx++) sum += luma(sx, sy);
        value = sum / ((sx1 - sx0) * (sy1 - sy0));
      } else {
        // Enlarging: bilinear between the four nearest source pixels.
        const fx = Math.min(x1 - 1, Math.max(x0, x0 + (ox + 0.5) * stepX - 0.5));
        const fy = Math.min(y1 - 1, Math.max(y0, y0 + (oy + 0.5) * stepY - 0.5));
        const ix = Math.min(x1 - 2, Math.floor(fx));
        const iy = Math.min(y1 - 2, Math.floor(fy));
        const tx = fx - ix;
        const ty = fy - iy;
        const top = luma(ix, iy) * (1 - tx) + luma(ix + 1, iy) * tx;
        const bottom = luma(ix, iy + 1) * (1 - tx) + luma(ix + 1, iy + 1) * tx;
        value = top * (1 - ty) + bottom * ty;
      }
      grey[oy * size + ox] = value;
    }
  }
  let sum = 0;
  let sumSquares = 0;
  for (let y = 1; y < size - 1; y++) {
    for (let x = 1; x < size - 1; x++) {
      const at = y * size + x;
      const laplacian = grey[at - 1]! + grey[at + 1]! + grey[at - size]! + grey[at + size]! - 4 * grey[at]!;
      sum += laplacian;
      sumSquares += laplacian * laplacian;
    }
  }
  const count = (size - 2) * (size - 2);
  const mean = sum / count;
  return sumSquares / count - mean * mean;
}

/**
 * Whether the face is blurred, whatever its light and size: `faceSharpness` with the face at 64 pixels
 * against the same at 32. A sharp face keeps about as much detail at the finer scale as natural pictures
 * do (0.30–0.57 on face-api's demo photos, the NASA portrait and frames of both talking clips, also with
 * the face shrunk to 80 pixels wide); blurring takes the fine scale first (0.18–0.23 with a blur of 1 % of
 * the face's width, 0.08 with 3 %). Contrast cancels out, so a dim sharp face is not called blurred; 64
 * pixels rather than 128 so that a small sharp face, enlarged to measure, is not either.
 * `BLURRED_DETAIL_RATIO` (shared/face-analysis.ts) is the line. 0 for a flat crop.
 */
export function faceDetailRatio(frame: Frame, box: [number, number, number, number]): number {
  const coarse = faceSharpness(frame, box, 32);
  return coarse > 0 ? faceSharpness(frame, box, 64) / coarse : 0;
}

const DEGREES = 180 / Math.PI;

/**
 * Human's `rotation.angle` (radians) in degrees with our signs (see HeadPose): Human's yaw and pitch
 * have the opposite signs to ours, its roll the same (checked on photos turned, mirrored and rotated).
 */
function headPose(face: FaceResult): HeadPose {
  const angle = face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 };
  // `+ 0` turns a -0 into 0.
  return { yaw: -angle.yaw * DEGREES + 0, pitch: -angle.pitch * DEGREES + 0, roll: angle.roll * DEGREES + 0 };
}

function expressionScores(face: FaceResult): ExpressionScores {
  const scores = Object.fromEntries(EMOTIONS.map((emotion) => [emotion, 0])) as ExpressionScores;
  for (const { emotion, score } of face.emotion ?? []) scores[emotion] = score;
  return scores;
}

/** Two boxes' overlap: their intersection over their union. */
export function boxOverlap(a: [number, number, number, number], b: [number, number, number, number]): number {
  const width = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]));
  const height = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  const shared = width * height;
  return shared / Math.max(1, a[2] * a[3] + b[2] * b[3] - shared);
}

/** The mean distance between two meshes' points, in the first's face height (forehead to chin). */
function meshDisagreement(a: number[][], b: number[][]): number {
  const height = Math.hypot(a[FOREHEAD]![0]! - a[CHIN]![0]!, a[FOREHEAD]![1]! - a[CHIN]![1]!);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.hypot(a[i]![0]! - b[i]![0]!, a[i]![1]! - b[i]![1]!);
  return sum / a.length / Math.max(1, height);
}

/**
 * The face of `upright` (the same photo's faces meshed turned upright) that stands for `face` when the mesh
 * of `face` failed as its box lay: they overlap, and their meshes disagree by more than
 * UPRIGHT_DISAGREEMENT (DetectOptions.upright); undefined when it did not fail.
 */
function uprightIfFailed<T extends DetectedFace>(face: DetectedFace, upright: T[]): T | undefined {
  const turned = upright.find((other) => other.landmarks && boxOverlap(other.box, face.box) > 0.5);
  return face.landmarks && turned && meshDisagreement(face.landmarks, turned.landmarks!) > UPRIGHT_DISAGREEMENT ? turned : undefined;
}

/** Human on tfjs + WebAssembly: face detector, mesh and, for `analyse`, faceres and the expression model. Load once, reuse. */
export async function createHumanFaceEngine(options: HumanFaceEngineOptions = {}): Promise<FaceEngine> {
  const { maxFaces = 3, minScore = 0.5, mesh: meshByDefault = true, preloadAnalysis = false } = options;
  // `require('@vladmandic/human')` picks the tfjs-node build, whose install downloads and fails; the
  // exports map has no './' so a subpath import fails too. Load the wasm build by its file path.
  const humanDir = packageDir('@vladmandic/human');
  const { Human: HumanClass } = require(path.join(humanDir, 'dist', 'human.node-wasm.js')) as HumanModule;
  // No caching between calls anywhere (skipFrames/skipTime 0, cacheSensitivity 0): every frame is
  // analysed afresh. A renderer that tracks faces does that itself, where it knows frames are consecutive.
  const fresh = { skipFrames: 0, skipTime: 0 };
  const config: Partial<Config> = {
    backend: 'wasm',
    // A folder path, not a URL: the wasm backend reads the .wasm files from disk in Node.
    wasmPath: `${path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')}${path.sep}`,
    modelBasePath: `${pathToFileURL(path.join(humanDir, 'models')).href}/`,
    cacheModels: false,
    debug: false,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: maxFaces, minConfidence: minScore, ...fresh, return: false },
      mesh: { enabled: meshByDefault },
      attention: { enabled: false },
      iris: { enabled: false },
      // minConfidence 0: every class's score, not only those above Human's default 0.1.
      emotion: { enabled: preloadAnalysis, minConfidence: 0, ...fresh },
      description: { enabled: preloadAnalysis, minConfidence: 0, ...fresh },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
  };
  const human = new HumanClass(config);
  const tf = human.tf as Tf;
  registerFileLoader(tf);
  await withoutAddedProcessListeners(() => human.load());
  // Never call human.reset(): it restores the default config, which re-enables every model (3-4× slower).
  let analysisLoaded = preloadAnalysis;
  let irisLoaded = false;

  let closed = false;

  /** Human merges a per-call config into its own and keeps it: every call states every switch. */
  async function detectNow(frame: Frame, mesh: boolean, analyse: boolean, maxDetected = maxFaces, refineEyes = false, upright = false): Promise<FaceResult[]> {
    const iris = mesh && refineEyes;
    const perCall = { detector: { maxDetected, rotation: upright }, mesh: { enabled: mesh }, iris: { enabled: iris }, emotion: { enabled: analyse }, description: { enabled: analyse } };
    if (analyse && !analysisLoaded) {
      // The analysis models load on first use (Human loads every enabled model that is missing).
      await withoutAddedProcessListeners(() => human.load({ face: { emotion: { enabled: true }, description: { enabled: true } } }));
      analysisLoaded = true;
    }
    if (iris && !irisLoaded) {
      await withoutAddedProcessListeners(() => human.load({ face: { iris: { enabled: true } } }));
      irisLoaded = true;
    }
    const side = Math.max(frame.width, frame.height);
    const reduce = DETECT_MAX_SIDE / side;
    const small = reduce < 1 ? await reducedFrame(frame, Math.max(1, Math.round(frame.width * reduce)), Math.max(1, Math.round(frame.height * reduce))) : frame;
    const input = squareTensor(tf, small);
    try {
      const result = await human.detect(input, { face: perCall });
      if (result.error) throw new Error(`face detection failed: ${result.error}`);
      return result.face.map((face) => faceInFramePixels(face, Math.max(small.width, small.height), frame.width / small.width, frame.height / small.height));
    } finally {
      tf.dispose(input);
    }
  }

  function toDetectedFace(frame: Frame, face: FaceResult, mesh: boolean): DetectedFace {
    const [x, y, w, h] = face.box;
    // The padding is black and never holds a face, but a box may still reach into it: clip it.
    const right = Math.min(x + w, frame.width);
    const bottom = Math.min(y + h, frame.height);
    const detected: DetectedFace = { box: [x, y, right - x, bottom - y], score: face.score };
    if (mesh && face.mesh.length >= 468) {
      // The iris model redraws the lids among the 468 points and adds ten iris points after them: kept out.
      detected.landmarks = face.mesh.slice(0, 468).map(([px, py, pz]) => [px, py, pz ?? 0]);
      detected.pose = headPose(face);
      detected.mouthOpening = mouthOpening(detected.landmarks);
    }
    return detected;
  }

  function toAnalysedFace(frame: Frame, face: FaceResult): AnalysedFace {
    const detected = toDetectedFace(frame, face, true);
    return {
      ...(detected as Required<DetectedFace>),
      embedding: normaliseEmbedding(face.embedding),
      expressions: expressionScores(face),
      sharpness: faceSharpness(frame, detected.box),
      detailRatio: faceDetailRatio(frame, detected.box),
      eyeOpening: eyeOpening(detected.landmarks!),
    };
  }

  function enqueue<T>(work: () => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new Error('face engine is closed'));
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    meshReference: () => ({ triangles: human.faceTriangulation, uv: human.faceUVMap }),
    detect(frame, detectOptions = {}) {
      const mesh = detectOptions.mesh ?? meshByDefault;
      return enqueue(async () => {
        const faces = (await detectNow(frame, mesh, false, detectOptions.maxFaces, detectOptions.refineEyes)).map((face) => toDetectedFace(frame, face, mesh));
        if (!mesh || !detectOptions.upright) return faces;
        const upright = (await detectNow(frame, mesh, false, detectOptions.maxFaces, detectOptions.refineEyes, true)).map((face) => toDetectedFace(frame, face, mesh));
        return faces.map((face) => uprightIfFailed(face, upright) ?? face);
      });
    },
    analyse(frame, analyseOptions = {}) {
      const { maxFaces: most, upright } = analyseOptions;
      return enqueue(async () => {
        // Without the mesh Human cannot crop the face for the other models: such a face is not analysable.
        const analysed = (await detectNow(frame, true, true, most, true)).filter((face) => face.mesh.length >= 468);
        if (!upright || analysed.length === 0) return analysed.map((face) => toAnalysedFace(frame, face));
        // The mesh alone first (cheap); the whole analysis again only when a face's mesh failed as it lay.
        const turned = (await detectNow(frame, true, false, most, true, true)).map((face) => toDetectedFace(frame, face, true));
        const failed = analysed.filter((face) => uprightIfFailed(toDetectedFace(frame, face, true), turned));
        const again = failed.length > 0 ? (await detectNow(frame, true, true, most, true, true)).filter((face) => face.mesh.length >= 468) : [];
        return analysed.map((face) => {
          const redone = failed.includes(face) ? again.find((other) => boxOverlap(other.box, face.box) > 0.5) : undefined;
          return toAnalysedFace(frame, redone ?? face);
        });
      });
    },
    async close() {
      closed = true;
      await queue;
      // The models live in tfjs's module state for the thread; they are reused by the next engine.
    },
  };
}
