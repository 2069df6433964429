// Finds faces in video frames. The rest of the app sees only `FaceEngine`; the built-in engine is
// @vladmandic/human on tfjs with the WebAssembly backend (CPU, plain Node, models shipped in the npm
// package, nothing downloaded at run time). A faster engine can replace it behind the same interface.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as tfjs from '@tensorflow/tfjs';
import type { Config, Human } from '@vladmandic/human';

/** One decoded picture: tightly packed RGB (3 bytes a pixel) or RGBA (4), rows top to bottom. */
export interface Frame {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface DetectedFace {
  /** [x, y, width, height] in pixels of the frame. */
  box: [number, number, number, number];
  /** 0..1: the mesh model's confidence that this is a face (the detector's when there is no mesh). */
  score: number;
  /** The 468-point face mesh, [x, y, z] with x and y in pixels of the frame; absent when not computed. */
  landmarks?: number[][];
}

export interface FaceEngine {
  detect(frame: Frame): Promise<DetectedFace[]>;
  close(): Promise<void>;
}

export interface HumanFaceEngineOptions {
  /** Most faces to return per frame (each costs a mesh pass). */
  maxFaces?: number;
  /** Faces below this score are dropped. */
  minScore?: number;
  /** Compute the 468-point mesh (landmarks); also makes the box and score tighter. */
  mesh?: boolean;
}

const require = createRequire(import.meta.url);

/** The folder of an installed package, found from its main file (its exports map hides package.json). */
function packageDir(name: string): string {
  const main = require.resolve(name);
  let dir = path.dirname(main);
  while (path.basename(dir) !== name.split('/').pop()) {
    if (path.dirname(dir) === dir) throw new Error(`cannot find the folder of ${name} from ${main}`);
    dir = path.dirname(dir);
  }
  return dir;
}

// Human keeps per-call state in module variables shared by every instance (the detector's boxes, the
// models): one frame at a time in the whole process.
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
  if (tf.io.getLoadHandlers('file:///probe.json').length > 0) return; // already registered in this process
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
 * Copies the frame into an RGB int32 tensor padded to a square (black on the right or bottom, so pixel
 * coordinates stay those of the frame). Square because Human's mesh comes out ~15 % too large on a
 * non-square input; int32 because Human casts it in one step (a float32 copy made here is slower).
 */
function squareTensor(tf: Tf, frame: Frame) {
  const { data, width, height } = frame;
  const channels = data.length / (width * height);
  if (channels !== 3 && channels !== 4) throw new Error(`frame: expected RGB or RGBA ${width}×${height}, got ${data.length} bytes`);
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

/** Human on tfjs + WebAssembly with only the face detector and (optionally) the mesh. Load once, reuse. */
export async function createHumanFaceEngine(options: HumanFaceEngineOptions = {}): Promise<FaceEngine> {
  const { maxFaces = 3, minScore = 0.5, mesh = true } = options;
  // `require('@vladmandic/human')` picks the tfjs-node build, whose install downloads and fails; the
  // exports map has no './' so a subpath import fails too. Load the wasm build by its file path.
  const humanDir = packageDir('@vladmandic/human');
  const { Human: HumanClass } = require(path.join(humanDir, 'dist', 'human.node-wasm.js')) as HumanModule;
  const config: Partial<Config> = {
    backend: 'wasm',
    // A folder path, not a URL: the wasm backend reads the .wasm files from disk in Node.
    wasmPath: `${path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')}${path.sep}`,
    modelBasePath: `${pathToFileURL(path.join(humanDir, 'models')).href}/`,
    cacheModels: false,
    debug: false,
    warmup: 'none',
    // Every frame is analysed afresh: no reuse of the previous frame's boxes (a renderer that tracks
    // faces does that itself, where it knows the frames are consecutive).
    cacheSensitivity: 0,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: maxFaces, minConfidence: minScore, skipFrames: 0, skipTime: 0, return: false },
      mesh: { enabled: mesh },
      attention: { enabled: false },
      iris: { enabled: false },
      emotion: { enabled: false },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
  };
  const human = new HumanClass(config);
  const tf = human.tf as Tf;
  registerFileLoader(tf);
  // The wasm backend's Emscripten glue adds process-wide 'uncaughtException' and 'unhandledRejection'
  // listeners that rethrow: any stray rejection anywhere in the app would crash the process (and print
  // a megabyte of minified code). Error handling belongs to the app: take them off again.
  const before = { uncaught: process.listeners('uncaughtException'), unhandled: process.listeners('unhandledRejection') };
  await human.load();
  for (const listener of process.listeners('uncaughtException')) {
    if (!before.uncaught.includes(listener)) process.removeListener('uncaughtException', listener);
  }
  for (const listener of process.listeners('unhandledRejection')) {
    if (!before.unhandled.includes(listener)) process.removeListener('unhandledRejection', listener);
  }
  // Never call human.reset(): it restores the default config, which re-enables every model (3-4× slower).

  let closed = false;

  async function detectNow(frame: Frame): Promise<DetectedFace[]> {
    const input = squareTensor(tf, frame);
    try {
      const result = await human.detect(input);
      if (result.error) throw new Error(`face detection failed: ${result.error}`);
      return result.face.map((face) => {
        const [x, y, w, h] = face.box;
        // The padding is black and never holds a face, but a box may still reach into it: clip it.
        const right = Math.min(x + w, frame.width);
        const bottom = Math.min(y + h, frame.height);
        return {
          box: [x, y, right - x, bottom - y],
          score: face.score,
          ...(mesh && face.mesh.length >= 468 ? { landmarks: face.mesh.map(([px, py, pz]) => [px, py, pz ?? 0]) } : {}),
        } satisfies DetectedFace;
      });
    } finally {
      tf.dispose(input);
    }
  }

  return {
    detect(frame) {
      if (closed) return Promise.reject(new Error('face engine is closed'));
      const run = queue.then(() => detectNow(frame));
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      closed = true;
      await queue;
      // The models live in tfjs's module state for the process; they are reused by the next engine.
    },
  };
}
