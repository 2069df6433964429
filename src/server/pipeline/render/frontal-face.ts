// The person's face turned to look straight at the camera (issue 15, 'turned and tilted photos'): the
// mesh's 3-D points give the head's axes; each mesh triangle of the photo is warped to where it lies once
// the head is turned frontal (the person's own shape, only the pose removed); triangles the photo shows
// foreshortened or hidden (the far cheek of a turned head) are filled from their mirror triangle on the
// other side of the face, in this side's light (a lamp on one side stays on that side); an eye or a brow
// comes whole from one side, never half from each (wholeFeatures). Done once per
// render, on the person's cut-out, before the mask and the light are measured, so the rest of the
// renderer sees a frontal face.
import { BLACK } from './face-light';
import { BROWS, EYE_CONTOURS, FACE_OVAL, LOWER_INNER_LIP, UPPER_INNER_LIP, grownHull, insidePolygon, pick } from './landmarks';
import { boxBlur, fillPolygon } from './planes';
import { sampleBilinear } from './yuv';

export interface MeshTopology {
  /** Triangles of the 468-point mesh, three point indices each. */
  triangles: Uint16Array;
  /** Each point's mirror point across the face's midline (a midline point is its own mirror). */
  mirror: Uint16Array;
  /** -1 for points on the picture's left of a frontal face, 1 on its right, 0 on the midline. */
  side: Int8Array;
}

let cached: { reference: object; topology: MeshTopology } | undefined;

/**
 * The mesh's triangles and mirror points from the face engine's reference data (MediaPipe's
 * triangulation and UV map, as Human ships them). The mirror of a point is the point nearest to its UV
 * position flipped left to right.
 */
export function meshTopology(reference: { triangles: number[]; uv: [number, number][] }): MeshTopology {
  if (cached?.reference === reference.uv) return cached.topology;
  const { uv } = reference;
  const mirror = new Uint16Array(uv.length);
  for (let i = 0; i < uv.length; i++) {
    const [u, v] = uv[i]!;
    let best = i;
    let bestDistance = Infinity;
    for (let j = 0; j < uv.length; j++) {
      const distance = (uv[j]![0] - (1 - u)) ** 2 + (uv[j]![1] - v) ** 2;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = j;
      }
    }
    mirror[i] = best;
  }
  const side = Int8Array.from(uv, ([u], i) => (mirror[i] === i ? 0 : u < 0.5 ? -1 : 1));
  const topology = { triangles: Uint16Array.from(reference.triangles), mirror, side };
  cached = { reference: uv, topology };
  return topology;
}

type Vector = [number, number, number];
const sub = (a: Vector, b: Vector): Vector => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vector, b: Vector) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vector, b: Vector): Vector => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: Vector): Vector => {
  const length = Math.hypot(...a) || 1;
  return [a[0] / length, a[1] / length, a[2] / length];
};

/** Midline points from the chin up to the top of the forehead (they carry the head's up direction). */
const MIDLINE_LOW = [152, 175, 199, 200, 18, 17] as const;
const MIDLINE_HIGH = [168, 6, 197, 9, 151, 10] as const;

export interface HeadAxes {
  /** Unit vectors in the mesh's space (x right, y down, z depth): the face's own right-to-left across the picture, chin to forehead, and towards the camera. */
  right: Vector;
  up: Vector;
  forward: Vector;
  centre: Vector;
}

/**
 * The head's axes from the mesh alone: `right` is the average of the vectors from each point on the
 * picture's left of the face to its mirror; `up` runs from the chin's midline points to the forehead's
 * (made square to `right`); `forward` completes them, pointing out of the face.
 */
export function headAxes(landmarks: number[][], topology: MeshTopology): HeadAxes {
  const point = (i: number): Vector => [landmarks[i]![0]!, landmarks[i]![1]!, landmarks[i]![2] ?? 0];
  let across: Vector = [0, 0, 0];
  for (let i = 0; i < landmarks.length; i++) {
    if (topology.side[i] !== -1) continue;
    across = [across[0] + point(topology.mirror[i]!)[0] - point(i)[0], across[1] + point(topology.mirror[i]!)[1] - point(i)[1], across[2] + point(topology.mirror[i]!)[2] - point(i)[2]];
  }
  const right = unit(across);
  const mean = (indices: readonly number[]) => indices.map(point).reduce<Vector>((sum, p) => [sum[0] + p[0] / indices.length, sum[1] + p[1] / indices.length, sum[2] + p[2] / indices.length], [0, 0, 0]);
  const rawUp = sub(mean(MIDLINE_HIGH), mean(MIDLINE_LOW));
  const up = unit(sub(rawUp, [right[0] * dot(rawUp, right), right[1] * dot(rawUp, right), right[2] * dot(rawUp, right)]));
  let forward = unit(cross(right, up));
  // Out of the face: the nose tip lies in front of the face's centre.
  const centre = mean(landmarks.map((_, i) => i));
  if (dot(sub(point(NOSE_TIP), centre), forward) < 0) forward = [-forward[0], -forward[1], -forward[2]];
  // The chin-to-forehead line leans back on a face that looks straight ahead: turn both axes by that lean.
  const lean = (FRONTAL.leanDegrees * Math.PI) / 180;
  const [c, s] = [Math.cos(lean), Math.sin(lean)];
  return {
    right,
    up: [c * up[0] - s * forward[0], c * up[1] - s * forward[1], c * up[2] - s * forward[2]],
    forward: [c * forward[0] + s * up[0], c * forward[1] + s * up[1], c * forward[2] + s * up[2]],
    centre,
  };
}

const NOSE_TIP = 1;

export const FRONTAL = {
  /**
   * Human's mesh depth (in the photo's pixels: face-engine.ts faceInFramePixels) reads shallower than the
   * face is. Depth is multiplied by this before the head is turned. On face-api's six demo photos the five
   * turned faces (sample1-4, 6) come out most symmetric at 1.15-1.2 (mirror points' mean offset from their
   * mirror image 2.8 % of the face's width), nearly so at 1.1 (3.1 %), against 4.3 % with the depth as given
   * and 14.6 % before turning (src/server/pipeline/render/frontal-face.test.ts measures it). 1.1 is taken: of
   * the nearly as symmetric, the one whose videos measured best (decision 014, thirty-third part: the talking
   * man with sample4's face found by the detector at 0.45 of his own confidence, against 0.02 at 1.2). A face
   * reads the same turn at half and twice its size (within 1°; in the mesh crop's units, as the depth once
   * was, a face half the size read 20° more turned).
   */
  depthScale: 1.1,
  /**
   * Degrees the mesh's chin-to-forehead line leans back from upright on a face looking straight at the
   * camera (the forehead recedes): with the depth above, the talkers of ../shared/media read 12.3° (her) and
   * 12.9° (him) when facing the camera, the portrait (assets/astronaut.jpg) 12.0° (9-12° while the depth was
   * in the mesh crop's units, which read their large faces flatter).
   */
  leanDegrees: 12,
  /** Below this turn (degrees between the face's forward axis and the camera's) the photo is used as it is. */
  minTurnDegrees: 6,
  /**
   * How much of a triangle's own pixels are used, by how foreshortened the photo shows it (its area in the
   * photo ÷ its area once frontal): all of them from `full` up, none at `none` and below (its mirror then).
   */
  visibility: { none: 0.35, full: 0.75 },
  /** The light a mirrored pixel is carried into is averaged over this share of the face's height (localLight)… */
  lightRadius: 0.08,
  /** …and its brightness scaled by at most this either way (past it the two sides' light is a poor guess). */
  maxRelight: 1.6,
  /** An eye, or a brow, is taken whole from one side over its hull grown by this (wholeFeatures): an eye's reaches its liner's wing. */
  featureReach: { eye: 1.5, brow: 1.3 },
} as const;

type Planes = { y: Float32Array; u: Float32Array; v: Float32Array };

/**
 * The mouth's opening as triangles: MediaPipe's mesh has none between the inner lips, so the teeth of a
 * smile stayed where the unturned photo had them, cut off by the lips' turned edges (a jagged white seam
 * when the mouth closes, mouth-motion.ts). A strip from the upper inner lip to the lower one, corner to
 * corner, carries them with the lips.
 */
const MOUTH_OPENING = UPPER_INNER_LIP.slice(0, -1).flatMap((upper, k) => {
  const [nextUpper, lower, nextLower] = [UPPER_INNER_LIP[k + 1]!, LOWER_INNER_LIP[k]!, LOWER_INNER_LIP[k + 1]!];
  return [upper, nextUpper, nextLower, upper, nextLower, lower];
});

export interface FrontalFace {
  planes: Planes;
  landmarks: number[][];
  /** Degrees the head was turned from the camera (yaw and pitch together; roll is not a turn). */
  turnDegrees: number;
  /** Share of the face's area taken from the mirrored side (0 for a frontal photo). */
  mirroredShare: number;
}

/**
 * The light on the photo's face at each pixel: its Y, U and V averaged over the face (inside the mesh's
 * outline) around it, over FRONTAL.lightRadius of the face's height (a normalised blur: the background
 * beyond the outline does not count).
 */
function localLight(planes: Planes, width: number, height: number, landmarks: number[][]): Planes {
  const inside = new Float32Array(width * height);
  const outline = pick(landmarks, FACE_OVAL);
  fillPolygon(inside, width, height, outline);
  const ys = outline.map(([, y]) => y);
  const radius = Math.max(1, Math.round(FRONTAL.lightRadius * (Math.max(...ys) - Math.min(...ys))));
  const light: Planes = { y: new Float32Array(width * height), u: new Float32Array(width * height), v: new Float32Array(width * height) };
  for (let i = 0; i < inside.length; i++) {
    light.y[i] = planes.y[i]! * inside[i]!;
    light.u[i] = planes.u[i]! * inside[i]!;
    light.v[i] = planes.v[i]! * inside[i]!;
  }
  for (const plane of [inside, light.y, light.u, light.v]) {
    boxBlur(plane, width, height, radius);
    boxBlur(plane, width, height, radius);
  }
  for (let i = 0; i < inside.length; i++) {
    const weight = Math.max(inside[i]!, 1e-3);
    light.y[i] = light.y[i]! / weight;
    light.u[i] = light.u[i]! / weight;
    light.v[i] = light.v[i]! / weight;
  }
  return light;
}

const smooth = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

/**
 * The person's cut-out with their face turned frontal (see the top of this file). A photo within
 * FRONTAL.minTurnDegrees of frontal is returned as it is.
 */
export function frontalise(planes: Planes, width: number, height: number, meshPoints: number[][], mesh: MeshTopology): FrontalFace {
  const landmarks = meshPoints.map(([x, y, z]) => [x!, y!, (z ?? 0) * FRONTAL.depthScale]);
  const axes = headAxes(landmarks, mesh);
  const turnDegrees = (Math.acos(Math.min(1, -axes.forward[2])) * 180) / Math.PI;
  if (turnDegrees < FRONTAL.minTurnDegrees) return { planes, landmarks, turnDegrees, mirroredShare: 0 };
  const { right, up, forward, centre } = axes;
  const frontal = landmarks.map((p) => {
    const d: Vector = [p[0]! - centre[0], p[1]! - centre[1], (p[2] ?? 0) - centre[2]];
    return [centre[0] + dot(d, right), centre[1] - dot(d, up), centre[2] - dot(d, forward)];
  });
  const { triangles, mirror } = mesh;
  const count = triangles.length / 3;
  const area = (points: number[][], a: number, b: number, c: number) =>
    (points[b]![0]! - points[a]![0]!) * (points[c]![1]! - points[a]![1]!) - (points[c]![0]! - points[a]![0]!) * (points[b]![1]! - points[a]![1]!);
  // Each triangle's own share: how fully the photo shows it, unless its mirror is shown no better.
  const ownShare = new Float32Array(count);
  for (let t = 0; t < count; t++) {
    const [a, b, c] = [triangles[3 * t]!, triangles[3 * t + 1]!, triangles[3 * t + 2]!];
    const [ma, mb, mc] = [mirror[a]!, mirror[b]!, mirror[c]!];
    const visibility = (points: number[][], i: number, j: number, k: number) => area(points, i, j, k) / (area(frontal, i, j, k) || 1e-9);
    const own = smooth((visibility(landmarks, a, b, c) - FRONTAL.visibility.none) / (FRONTAL.visibility.full - FRONTAL.visibility.none));
    const other = smooth((visibility(landmarks, ma, mb, mc) - FRONTAL.visibility.none) / (FRONTAL.visibility.full - FRONTAL.visibility.none));
    ownShare[t] = own >= other ? 1 : own + (1 - own) * (1 - other) ;
  }
  // Per point, the average of its triangles' shares: the blend is smooth across triangle edges.
  const pointShare = new Float32Array(landmarks.length);
  const pointTriangles = new Float32Array(landmarks.length);
  for (let t = 0; t < count; t++) {
    for (let k = 0; k < 3; k++) {
      pointShare[triangles[3 * t + k]!]! += ownShare[t]!;
      pointTriangles[triangles[3 * t + k]!]! += 1;
    }
  }
  for (let i = 0; i < pointShare.length; i++) pointShare[i] = pointTriangles[i]! ? pointShare[i]! / pointTriangles[i]! : 1;
  wholeFeatures(pointShare, frontal);

  const out: Planes = { y: Float32Array.from(planes.y), u: Float32Array.from(planes.u), v: Float32Array.from(planes.v) };
  // The photo's light, for the mirrored pixels: worked out when the first one is.
  let light: Planes | undefined;
  let pixels = 0;
  let mirrored = 0;
  const drawn = [...triangles, ...MOUTH_OPENING];
  for (let t = 0; t < drawn.length / 3; t++) {
    const [a, b, c] = [drawn[3 * t]!, drawn[3 * t + 1]!, drawn[3 * t + 2]!];
    const [pa, pb, pc] = [landmarks[a]!, landmarks[b]!, landmarks[c]!];
    const [qa, qb, qc] = [landmarks[mirror[a]!]!, landmarks[mirror[b]!]!, landmarks[mirror[c]!]!];
    forEachPixelIn(frontal[a]!, frontal[b]!, frontal[c]!, width, height, (x, y, la, lb, lc) => {
      const share = la * pointShare[a]! + lb * pointShare[b]! + lc * pointShare[c]!;
      const i = y * width + x;
      const sx = la * pa[0]! + lb * pb[0]! + lc * pc[0]! - 0.5;
      const sy = la * pa[1]! + lb * pb[1]! + lc * pc[1]! - 0.5;
      let yValue = sampleBilinear(planes.y, width, height, sx, sy);
      let uValue = sampleBilinear(planes.u, width, height, sx, sy);
      let vValue = sampleBilinear(planes.v, width, height, sx, sy);
      if (share < 0.999) {
        const mx = la * qa[0]! + lb * qb[0]! + lc * qc[0]! - 0.5;
        const my = la * qa[1]! + lb * qb[1]! + lc * qc[1]! - 0.5;
        // The other side's pixel in this side's light: its brightness above black scaled, its tint moved.
        light ??= localLight(planes, width, height, landmarks);
        const hereY = sampleBilinear(light.y, width, height, sx, sy);
        const thereY = sampleBilinear(light.y, width, height, mx, my);
        const gain = Math.min(FRONTAL.maxRelight, Math.max(1 / FRONTAL.maxRelight, (hereY - BLACK) / Math.max(1, thereY - BLACK)));
        const mirrorY = BLACK + (sampleBilinear(planes.y, width, height, mx, my) - BLACK) * gain;
        const mirrorU = sampleBilinear(planes.u, width, height, mx, my) + sampleBilinear(light.u, width, height, sx, sy) - sampleBilinear(light.u, width, height, mx, my);
        const mirrorV = sampleBilinear(planes.v, width, height, mx, my) + sampleBilinear(light.v, width, height, sx, sy) - sampleBilinear(light.v, width, height, mx, my);
        yValue += (1 - share) * (mirrorY - yValue);
        uValue += (1 - share) * (mirrorU - uValue);
        vValue += (1 - share) * (mirrorV - vValue);
      }
      out.y[i] = yValue;
      out.u[i] = uValue;
      out.v[i] = vValue;
      pixels++;
      mirrored += 1 - share;
    });
  }
  return { planes: out, landmarks: frontal, turnDegrees, mirroredShare: pixels ? mirrored / pixels : 0 };
}

/**
 * Each eye, and each brow, comes whole from one side: the photo's own when it shows the feature at least
 * half (the mean share of its points), else the mirror's, over the feature's hull grown by
 * FRONTAL.featureReach. A mix showed both sides' features at once, each half there, where the mirror's do
 * not fall exactly on the photo's own (sample2's far eye: two eyeliner wings and two brow tails, one of
 * each a grey ghost). The eye and its brow are decided apart: a turn hides the brow's tail and the temple
 * first (sample1 and sample4 show their far eyes 0.60, their brows 0.32-0.33), and a mirrored eye looks the
 * mirrored way (sample1's far eye would have looked away from the other). Round the hulls the share still
 * changes smoothly, over skin.
 */
function wholeFeatures(pointShare: Float32Array, frontal: number[][]) {
  const decided = new Map<number, number>();
  for (const [features, reach] of [[EYE_CONTOURS, FRONTAL.featureReach.eye], [BROWS, FRONTAL.featureReach.brow]] as const) {
    for (const feature of features) {
      const own = feature.reduce((sum, i) => sum + pointShare[i]!, 0) / feature.length >= 0.5 ? 1 : 0;
      const hull = grownHull(pick(frontal, feature), reach);
      frontal.forEach(([x, y], i) => {
        if (!decided.has(i) && insidePolygon(hull, x!, y!)) decided.set(i, own);
      });
    }
  }
  for (const [i, own] of decided) pointShare[i] = own;
}

/**
 * Calls `visit` for each pixel of a width × height picture whose centre lies in the triangle a, b, c (points
 * [x, y, …]), with the centre's barycentric coordinates: where a mesh triangle's pixels are carried to
 * another triangle (here, and person-face.ts's fill from the mirror side).
 */
export function forEachPixelIn(
  a: number[],
  b: number[],
  c: number[],
  width: number,
  height: number,
  visit: (x: number, y: number, la: number, lb: number, lc: number) => void,
): void {
  const [ax, ay] = a as [number, number];
  const [bx, by] = b as [number, number];
  const [cx, cy] = c as [number, number];
  const det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
  if (Math.abs(det) < 1e-6) return;
  const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx)));
  const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(ay, by, cy)));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5 - ax;
      const py = y + 0.5 - ay;
      const lb = (px * (cy - ay) - py * (cx - ax)) / det;
      const lc = (py * (bx - ax) - px * (by - ay)) / det;
      const la = 1 - lb - lc;
      if (la < -1e-4 || lb < -1e-4 || lc < -1e-4) continue;
      visit(x, y, la, lb, lc);
    }
  }
}
