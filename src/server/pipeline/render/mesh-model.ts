// The face mesh model alone, for tracking between detections: Human's own facemesh (the 468-point
// MediaPipe model shipped in @vladmandic/human/models) run on a 192×192 crop around the last mesh,
// without the face detector that `FaceEngine.detect` always runs first (measured: detector + mesh
// ~57 ms a frame on a crop, the mesh model alone ~12 ms). It uses the tfjs that the built-in face
// engine has set up in this thread (backend and file:// loader), so it is loaded after that engine.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as tfjs from '@tensorflow/tfjs';

const require = createRequire(import.meta.url);
/** The mesh model's input side. */
export const MESH_INPUT = 192;

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
