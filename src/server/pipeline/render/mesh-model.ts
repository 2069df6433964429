// The face mesh model alone, for tracking between detections: Human's own facemesh (the 468-point
// MediaPipe model shipped in @vladmandic/human/models) run on a 192×192 crop around the last mesh,
// without the face detector that `FaceEngine.detect` always runs first (measured: detector + mesh
// ~57 ms a frame on a crop, the mesh model alone ~12 ms). It uses the tfjs that the built-in face
// engine has set up in this thread (backend and file:// loader), so it is loaded after that engine.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as tfjs from '@tensorflow/tfjs';
import { MESH_INPUT } from '../face-engine';

const require = createRequire(import.meta.url);
export { MESH_INPUT };

export interface MeshModel {
  /**
   * Runs the mesh on a MESH_INPUT² RGB crop (floats 0..1). Returns the 468 points in crop pixels and
   * the model's face confidence (0..1).
   */
  run(crop: Float32Array): Promise<{ points: Float32Array; score: number }>;
}

let loaded: Promise<MeshModel | undefined> | undefined;

/** The mesh model, or undefined when it cannot be loaded here (another face engine, a missing file). */
export function loadMeshModel(): Promise<MeshModel | undefined> {
  loaded ??= (async () => {
    try {
      const tf = require('@tensorflow/tfjs') as typeof tfjs;
      if (tf.getBackend() !== 'wasm' || tf.io.getLoadHandlers('file:///probe.json').length === 0) return undefined;
      const humanDir = path.dirname(path.dirname(require.resolve('@vladmandic/human')));
      const model = await tf.loadGraphModel(pathToFileURL(path.join(humanDir, 'models', 'facemesh.json')).href);
      return {
        async run(crop) {
          const input = tf.tensor4d(crop, [1, MESH_INPUT, MESH_INPUT, 3]);
          const outputs = model.execute(input) as tfjs.Tensor[];
          try {
            const flag = outputs.find((t) => t.shape.at(-1) === 1)!;
            const mesh = outputs.find((t) => t.shape.at(-1) === 1404)!;
            const [score, points] = await Promise.all([flag.data(), mesh.data()]);
            return { points: points as Float32Array, score: score[0]! };
          } finally {
            tf.dispose([input, ...outputs]);
          }
        },
      };
    } catch {
      return undefined;
    }
  })();
  return loaded;
}

export const UPRIGHT_MESH = {
  /** The crop's side over the mesh's own size, as Human crops for the mesh model (its box × 1.4, squared: face-track.ts measures 1.3-1.7). */
  cropRatio: 1.5,
  /** At most this many runs, each on the crop the last mesh gives... */
  runs: 4,
  /** ...until its points move less than this share of the face's size on average. */
  settled: 0.003,
  /**
   * Where the fitted mesh reads the head's roll within `keepRoll` degrees of the first, the first stays: on
   * an upright face the fit moves the points by about 1 % of the face's height (face-api's demo faces: 0.6-1.5 %),
   * to no gain seen, and every figure tuned on those meshes stays. From `fitRoll` degrees on, the fitted mesh;
   * in between, a blend of the two, so that nearly alike photos do not fall either side of a step. The demo
   * faces whose first mesh misread the roll: sample1's second (10° against 30°), sample4's second to fourth
   * (11-18° off); sample2's largest and sample5's second 5° off; the others within 2.3°.
   */
  keepRoll: 4,
  fitRoll: 8,
} as const;

/**
 * A still photo's mesh fitted again on its face turned upright by the mesh's own eye line, the crop the
 * mesh itself gives (MediaPipe's "region of interest from landmarks"), until it settles. The mesh model is
 * trained on upright faces centred in their crop; Human crops by the detector's box as it lies (turned, with
 * the face engine's `upright` check, past 11.5° of the detector's own roll: a coarse guess). On a head tilted 30° (face-api's sample1,
 * second face) the first mesh read the roll as 10°, put the far eye's points on the lid above it and the
 * mouth's corner below the lip, and the face turned frontal along it showed the far eye smeared; fitted
 * again upright it reads 30°, the eye and mouth where the picture has them. Used where the first mesh
 * misread the roll (UPRIGHT_MESH.keepRoll, fitRoll); otherwise the first is returned as it is. The points
 * are in `photo`'s pixels, depth too (as the face engine gives it).
 */
export async function meshFittedUpright(model: MeshModel, photo: { data: Uint8Array; width: number; height: number }, landmarks: number[][], eyes: { left: readonly number[]; right: readonly number[] }): Promise<number[][]> {
  const { data, width, height } = photo;
  const channel = (x: number, y: number, c: number) => {
    const fx = x < 0 ? 0 : x > width - 1.001 ? width - 1.001 : x;
    const fy = y < 0 ? 0 : y > height - 1.001 ? height - 1.001 : y;
    const ix = fx | 0;
    const iy = fy | 0;
    const tx = fx - ix;
    const ty = fy - iy;
    const at = (iy * width + ix) * 3 + c;
    const upper = data[at]! + (data[at + 3]! - data[at]!) * tx;
    const lower = data[at + 3 * width]! + (data[at + 3 * width + 3]! - data[at + 3 * width]!) * tx;
    return upper + (lower - upper) * ty;
  };
  const crop = new Float32Array(MESH_INPUT * MESH_INPUT * 3);
  let mesh = landmarks;
  for (let run = 0; run < UPRIGHT_MESH.runs; run++) {
    const roll = (eyeLineDegrees(mesh, eyes) * Math.PI) / 180;
    const [cos, sin] = [Math.cos(roll), Math.sin(roll)];
    // The mesh's box in the upright frame: its middle is the crop's, its size the crop's over cropRatio.
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [x, y] of mesh) {
      const [u, v] = [cos * x! + sin * y!, -sin * x! + cos * y!];
      [x0, y0, x1, y1] = [Math.min(x0, u), Math.min(y0, v), Math.max(x1, u), Math.max(y1, v)];
    }
    const step = (Math.max(x1 - x0, y1 - y0) * UPRIGHT_MESH.cropRatio) / MESH_INPUT;
    const [midU, midV] = [(x0 + x1) / 2, (y0 + y1) / 2];
    const toPhoto = (cx: number, cy: number): [number, number] => {
      const [u, v] = [midU + (cx - MESH_INPUT / 2) * step, midV + (cy - MESH_INPUT / 2) * step];
      return [cos * u - sin * v, sin * u + cos * v];
    };
    for (let cy = 0; cy < MESH_INPUT; cy++) {
      for (let cx = 0; cx < MESH_INPUT; cx++) {
        const [x, y] = toPhoto(cx + 0.5, cy + 0.5);
        for (let c = 0; c < 3; c++) crop[(cy * MESH_INPUT + cx) * 3 + c] = channel(x - 0.5, y - 0.5, c) / 255;
      }
    }
    const { points } = await model.run(crop);
    const next: number[][] = [];
    for (let i = 0; i < points.length; i += 3) next.push([...toPhoto(points[i]!, points[i + 1]!), points[i + 2]! * step]);
    let moved = 0;
    for (let i = 0; i < next.length; i++) moved += Math.hypot(next[i]![0]! - mesh[i]![0]!, next[i]![1]! - mesh[i]![1]!);
    mesh = next;
    if (moved / next.length < UPRIGHT_MESH.settled * Math.max(x1 - x0, y1 - y0)) break;
  }
  const misread = Math.abs(eyeLineDegrees(mesh, eyes) - eyeLineDegrees(landmarks, eyes));
  const fitted = Math.min(1, Math.max(0, (misread - UPRIGHT_MESH.keepRoll) / (UPRIGHT_MESH.fitRoll - UPRIGHT_MESH.keepRoll)));
  if (fitted === 0) return landmarks;
  return landmarks.map((point, i) => point.map((value, k) => value + fitted * (mesh[i]![k]! - value)));
}

/** The angle of a mesh's eye line from level, in degrees. */
export function eyeLineDegrees(mesh: number[][], eyes: { left: readonly number[]; right: readonly number[] }): number {
  const middle = ([a, b]: readonly number[]) => [(mesh[a!]![0]! + mesh[b!]![0]!) / 2, (mesh[a!]![1]! + mesh[b!]![1]!) / 2];
  const [left, right] = [middle(eyes.left), middle(eyes.right)];
  return (Math.atan2(right[1]! - left[1]!, right[0]! - left[0]!) * 180) / Math.PI;
}
