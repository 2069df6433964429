// Follows the actor's face through the template: a full detection (whole frame) on the first frame,
// when the face is lost or its confidence drops, and every `redetectEvery` frames; in between, the face
// engine runs on a small crop around the last mesh (the detector and the mesh see a ~256 px picture
// instead of the whole frame). The face SHAPE (the mesh with the head's position, size and roll taken
// out) is smoothed over frames; the head's motion is not, so the face does not lag behind the head.
import type { DetectedFace, FaceEngine } from '../face-engine';
import { ALIGNMENT_POINTS, LEFT_EYE_CORNERS, RIGHT_EYE_CORNERS } from './landmarks';
import { MESH_INPUT, type MeshModel } from './mesh-model';
import { type YuvFrame, regionToRgb, regionToRgbFloats } from './yuv';

export const TRACKING = {
  /** A full detection at least this often (frames), to notice a new or larger face. */
  redetectEvery: 30,
  /** Below this mesh confidence the crop result is not trusted: full detection. */
  minScore: 0.6,
  /** The crop around the last mesh: its side is this many times the mesh's size... */
  cropFactor: 1.8,
  /** ...shrunk to at most this many pixels (the mesh model's input is 192). */
  cropPixels: 256,
  /**
   * The mesh model's crop: the engine's own crop size (measured at each detection) times this. Measured
   * (mouth-opening correlation output vs template, talking-man / talking-woman, mouth gain 1.5): 1 →
   * 0.77 / 0.62; 1.08 → 0.90 / 0.19; 1.15 → 0.92 / 0.28; 1.15 with a detection every 10 frames → 0.93 /
   * 0.23. At 1 the mesh loses a wide-open "O" (reads 0.03 against 0.14 by full detection) until the next
   * detection; larger crops follow it but lose the woman's small movements.
   */
  meshCropScale: 1,
  /** Full detections run on the frame shrunk to at most this side (the detector's input is 256). */
  detectPixels: 1280,
  /** Shape smoothing: the weight of this frame's shape (1 = none). Lower is smoother but lags expressions. */
  shapeWeight: 0.6,
  /**
   * After a full detection the mesh runs again on the same frame, on the crop around its own last result,
   * up to this many times, until its points move less than `settledMove` of the eye distance on average.
   * The detector's crop and the tracking crop differ, so the two meshes of one picture differ by a pixel
   * or two, and the crop's mesh drifts to its own over several frames: on a still template the face
   * shifted after every detection and settled over ten frames (a pulse every `redetectEvery` frames; mean
   * change in the face's box 0.1-0.4 grey levels a frame, against 0 in the template). Three runs reach
   * the crop's own mesh.
   */
  settleRuns: 3,
  settledMove: 0.002,
} as const;

export interface TrackedFace {
  /** The 468-point mesh in frame pixels, shape-smoothed. */
  landmarks: number[][];
  score: number;
  /** How this frame's mesh was found. */
  via: 'detection' | 'crop';
}

export interface FaceTracker {
  track(frame: YuvFrame): Promise<TrackedFace | undefined>;
  readonly stats: { fullDetections: number; cropTracks: number; lostInCrop: number; mostFaces: number };
  /** 'mesh-only': the mesh model alone on a crop; 'detect-on-crop': the engine's detect (detector + mesh) on a crop. */
  readonly mode: 'mesh-only' | 'detect-on-crop';
}

const area = (face: DetectedFace) => face.box[2] * face.box[3];

interface Pose {
  cx: number;
  cy: number;
  scale: number;
  cos: number;
  sin: number;
}

/** Position, size and roll of a mesh, from its eyes and stable points. */
function poseOf(landmarks: number[][]): Pose {
  let cx = 0, cy = 0;
  for (const i of ALIGNMENT_POINTS) {
    cx += landmarks[i]![0]!;
    cy += landmarks[i]![1]!;
  }
  cx /= ALIGNMENT_POINTS.length;
  cy /= ALIGNMENT_POINTS.length;
  const mid = (indices: readonly number[]) => [
    (landmarks[indices[0]!]![0]! + landmarks[indices[1]!]![0]!) / 2,
    (landmarks[indices[0]!]![1]! + landmarks[indices[1]!]![1]!) / 2,
  ];
  const [lx, ly] = mid(LEFT_EYE_CORNERS);
  const [rx, ry] = mid(RIGHT_EYE_CORNERS);
  const scale = Math.hypot(rx! - lx!, ry! - ly!) || 1;
  return { cx, cy, scale, cos: (rx! - lx!) / scale, sin: (ry! - ly!) / scale };
}

const meshSide = (landmarks: number[][]) => {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of landmarks) {
    if (x! < x0) x0 = x!;
    if (x! > x1) x1 = x!;
    if (y! < y0) y0 = y!;
    if (y! > y1) y1 = y!;
  }
  return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, side: Math.max(x1 - x0, y1 - y0) };
};

/**
 * `meshModel`: the mesh model alone (mesh-model.ts) for the frames between detections; without it the
 * engine's detect runs on a crop (the detector's cost stays).
 */
export function createFaceTracker(engine: FaceEngine, meshModel?: MeshModel, options: Partial<typeof TRACKING> = {}): FaceTracker {
  const settings = { ...TRACKING, ...options };
  /** The engine's box for the mesh (Human: the detector's box × 1.4, squared) over the mesh's own size: the crop the model expects. */
  let cropRatio = 1.5;
  const stats = { fullDetections: 0, cropTracks: 0, lostInCrop: 0, mostFaces: 0 };
  let last: number[][] | undefined;
  let lastScore = 0;
  let sinceDetection = 0;
  /** The smoothed shape, in the head's own frame (centre 0, eye distance 1, no roll). */
  let shape: number[][] | undefined;

  async function detectWhole(frame: YuvFrame): Promise<number[][] | undefined> {
    stats.fullDetections++;
    const scale = Math.min(1, settings.detectPixels / Math.max(frame.width, frame.height));
    const rgb = regionToRgb(frame, { x: 0, y: 0, width: frame.width, height: frame.height }, scale);
    const faces = (await engine.detect(rgb, { mesh: true })).filter((face) => face.landmarks);
    stats.mostFaces = Math.max(stats.mostFaces, faces.length);
    const face = faces.sort((p, q) => area(q) - area(p))[0];
    if (!face) return undefined;
    lastScore = face.score;
    const landmarks = face.landmarks!.map(([x, y, z]) => [x! / scale, y! / scale, (z ?? 0) / scale]);
    const { side } = meshSide(landmarks);
    const box = Math.max(face.box[2], face.box[3]) / scale;
    // A box clipped by the frame's edge says nothing about the crop: keep the last ratio.
    if (side > 0 && face.box[0] > 0 && face.box[1] > 0 && face.box[0] + face.box[2] < rgb.width && face.box[1] + face.box[3] < rgb.height) {
      cropRatio = Math.min(2.2, Math.max(1.1, box / side));
    }
    return landmarks;
  }

  async function meshInCrop(frame: YuvFrame, around: number[][], model: MeshModel): Promise<number[][] | undefined> {
    const { cx, cy, side: mesh } = meshSide(around);
    const side = mesh * cropRatio * settings.meshCropScale;
    const region = { x: cx - side / 2, y: cy - side / 2, width: side, height: side };
    const { points, score } = await model.run(regionToRgbFloats(frame, region, MESH_INPUT));
    if (score < settings.minScore) return undefined;
    stats.cropTracks++;
    lastScore = score;
    const step = side / MESH_INPUT;
    const landmarks: number[][] = [];
    for (let i = 0; i < points.length; i += 3) landmarks.push([region.x + points[i]! * step, region.y + points[i + 1]! * step, points[i + 2]! * step]);
    return landmarks;
  }

  async function detectInCrop(frame: YuvFrame, around: number[][]): Promise<number[][] | undefined> {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [x, y] of around) {
      if (x! < x0) x0 = x!;
      if (x! > x1) x1 = x!;
      if (y! < y0) y0 = y!;
      if (y! > y1) y1 = y!;
    }
    const side = Math.max(x1 - x0, y1 - y0) * settings.cropFactor;
    const region = { x: Math.round((x0 + x1 - side) / 2), y: Math.round((y0 + y1 - side) / 2), width: Math.round(side), height: Math.round(side) };
    const scale = Math.min(1, settings.cropPixels / side);
    const rgb = regionToRgb(frame, region, scale);
    const face = (await engine.detect(rgb, { mesh: true, maxFaces: 1 }))[0];
    if (!face?.landmarks || face.score < settings.minScore) return undefined;
    stats.cropTracks++;
    lastScore = face.score;
    const step = region.width / rgb.width;
    return face.landmarks.map(([x, y, z]) => [region.x + x! * step, region.y + y! * step, (z ?? 0) * step]);
  }

  /** The detection's mesh run again on crops of the same frame until it stays put (TRACKING.settleRuns). */
  async function settle(frame: YuvFrame, detected: number[][]): Promise<number[][]> {
    let mesh = detected;
    const limit = settings.settledMove * poseOf(detected).scale * mesh.length;
    for (let run = 0; run < settings.settleRuns; run++) {
      const next = meshModel ? await meshInCrop(frame, mesh, meshModel) : await detectInCrop(frame, mesh);
      if (!next) break;
      let moved = 0;
      for (let i = 0; i < next.length; i++) moved += Math.hypot(next[i]![0]! - mesh[i]![0]!, next[i]![1]! - mesh[i]![1]!);
      mesh = next;
      if (moved < limit) break;
    }
    return mesh;
  }

  /** Smooths the shape in the head's frame and puts it back with this frame's (unsmoothed) pose. */
  function smooth(raw: number[][], fresh: boolean): number[][] {
    const pose = poseOf(raw);
    const normalised = raw.map(([x, y, z]) => {
      const dx = (x! - pose.cx) / pose.scale;
      const dy = (y! - pose.cy) / pose.scale;
      return [dx * pose.cos + dy * pose.sin, -dx * pose.sin + dy * pose.cos, z! / pose.scale];
    });
    if (!shape || fresh) shape = normalised;
    else {
      const w = settings.shapeWeight;
      shape = shape.map((old, i) => old.map((value, k) => value + w * (normalised[i]![k]! - value)));
    }
    return shape.map(([x, y, z]) => [
      pose.cx + (x! * pose.cos - y! * pose.sin) * pose.scale,
      pose.cy + (x! * pose.sin + y! * pose.cos) * pose.scale,
      z! * pose.scale,
    ]);
  }

  return {
    stats,
    mode: meshModel ? 'mesh-only' : 'detect-on-crop',
    async track(frame) {
      let raw: number[][] | undefined;
      let via: TrackedFace['via'] = 'crop';
      const due = sinceDetection >= settings.redetectEvery;
      if (last && !due && lastScore >= settings.minScore) {
        raw = meshModel ? await meshInCrop(frame, last, meshModel) : await detectInCrop(frame, last);
        if (!raw) stats.lostInCrop++;
      }
      const lost = !last;
      if (!raw) {
        raw = await detectWhole(frame);
        via = 'detection';
        sinceDetection = 0;
        if (raw) raw = await settle(frame, raw);
      } else {
        sinceDetection++;
      }
      if (!raw) {
        last = undefined;
        shape = undefined;
        return undefined;
      }
      last = raw;
      return { landmarks: smooth(raw, lost), score: lastScore, via };
    },
  };
}
