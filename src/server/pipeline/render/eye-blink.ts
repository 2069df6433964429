// The actor's eyes on the pasted photo. Blinks: a still photo never blinks, and a face that never blinks looks
// wrong at once. When the actor's eye is closed (its opening well under the widest seen lately), the
// actor's own eye shows through the paste in a soft ellipse around it, for as long as it stays closed:
// a few frames per blink, so the person's identity is kept in the rest. Openness (createEyeMotion): the
// person's eyes widen and narrow with the actor's.
import { EYE_CONTOURS, type Point, insidePolygon, pick } from './landmarks';

export const BLINK = {
  /**
   * An eye counts as fully closed under this share of its recent widest opening, open above `openAbove`.
   * The mesh never quite shuts the lids: on the talking-woman clip a fully closed eye reads 0.46 of her
   * open eye, a squint 0.57, an open eye 0.85 to 1.
   */
  closedBelow: 0.5,
  openAbove: 0.7,
  /** The widest opening is forgotten slowly (per frame: 6 % in two seconds), so a long closed stretch stays closed. */
  baselineDecay: 0.999,
  /** The ellipse around the eye, in eye widths (corner to corner): along the eye and across it. */
  along: 0.8,
  across: 0.5,
} as const;

/** Upper lid, lower lid, outer and inner corner: left eye then right eye (MediaPipe mesh). */
const EYES = [
  { lids: [159, 145], corners: [33, 133] },
  { lids: [386, 374], corners: [362, 263] },
] as const;

interface EyeState extends EyeEllipse {
  baseline: number;
  closed: number;
}

export interface EyeBlinks {
  /** Whether any eye is closing in this frame. */
  readonly active: boolean;
  update(actorLandmarks: number[][]): void;
  /** How much of the actor to keep at frame point (x, y): 0 (the person's face) to 1 (the actor's eye). */
  keepActor(x: number, y: number): number;
  /** Outside this box (x0, y0, x1, y1, frame pixels) `keepActor` is 0: callers skip it there. */
  readonly bounds: Float64Array;
}

const distance = (p: number[], q: number[]) => Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!);

/** How open the eyes are: the gap between the lids over the eye's width, both eyes averaged. */
export function eyeOpening(landmarks: number[][]): number {
  return EYES.reduce((sum, eye) => sum + openingOf(landmarks, eye), 0) / EYES.length;
}

/** One eye's lid gap over its width. */
function openingOf(landmarks: number[][], { lids, corners }: (typeof EYES)[number]): number {
  return distance(landmarks[lids[0]]!, landmarks[lids[1]]!) / Math.max(1, distance(landmarks[corners[0]]!, landmarks[corners[1]]!));
}

export const GAZE = {
  /** Fewer pixels than this between one eye's lids (a shut eye, a tiny face) and the gaze is not measured. */
  minPixels: 12,
  /** Eyes nearer than this to the middle look ahead (shared/face-analysis.ts GAZE_ASIDE: further than that, aside). */
  aheadBelow: 0.1,
} as const;

/**
 * Where the eyes look across the face: how far the iris sits from the middle of the eye, along the line
 * from the eye's picture-left corner to its picture-right one, in eye widths (+ towards the picture's right),
 * both eyes averaged; undefined when an eye shows too little between its lids. The iris is the darker half
 * of what lies inside the lid margin, each pixel weighted by how much darker it is than the middle value:
 * the sclera weighs nothing. Human's iris model put the iris on the white of one eye whenever she looked
 * aside (talking-woman.mp4); the darkness does not. Lashes shade each eye's outer corner, pulling that eye's
 * figure outwards by about 0.1: the two eyes' outer corners are on opposite sides, so the mean cancels it.
 */
export function eyeGaze(lumaAt: (x: number, y: number) => number, width: number, height: number, landmarks: number[][]): number | undefined {
  let sum = 0;
  for (const [k, { corners }] of EYES.entries()) {
    const lidMargin = pick(landmarks, EYE_CONTOURS[k]!);
    const xs = lidMargin.map(([x]) => x);
    const ys = lidMargin.map(([, y]) => y);
    const inside: { x: number; y: number; value: number }[] = [];
    for (let y = Math.max(0, Math.floor(Math.min(...ys))); y <= Math.min(height - 1, Math.ceil(Math.max(...ys))); y++) {
      for (let x = Math.max(0, Math.floor(Math.min(...xs))); x <= Math.min(width - 1, Math.ceil(Math.max(...xs))); x++) {
        if (insidePolygon(lidMargin, x + 0.5, y + 0.5)) inside.push({ x: x + 0.5, y: y + 0.5, value: lumaAt(x, y) });
      }
    }
    if (inside.length < GAZE.minPixels) return undefined;
    const middle = inside.map((p) => p.value).sort((a, b) => a - b)[inside.length >> 1]!;
    let weight = 0, cx = 0, cy = 0;
    for (const p of inside) {
      const w = Math.max(0, middle - p.value);
      weight += w;
      cx += w * p.x;
      cy += w * p.y;
    }
    if (weight === 0) return undefined;
    const [left, right] = [landmarks[corners[0]]!, landmarks[corners[1]]!];
    const eyeWidth = Math.max(1, distance(left, right));
    const along = (cx / weight - (left[0]! + right[0]!) / 2) * (right[0]! - left[0]!) + (cy / weight - (left[1]! + right[1]!) / 2) * (right[1]! - left[1]!);
    sum += along / (eyeWidth * eyeWidth);
  }
  return sum / EYES.length;
}

/** An ellipse around an eye: its centre, the unit vector along the eye, and its semi-axes in pixels. */
interface EyeEllipse {
  centre: Point;
  axis: Point;
  along: number;
  across: number;
}

/**
 * Where (x, y) lies across the ellipse (1 at its edge). Two functions, not one returning a pair: they run
 * for every pasted pixel, and a pair is an allocation per pixel.
 */
function acrossEllipse(eye: EyeEllipse, x: number, y: number): number {
  return ((y - eye.centre[1]) * eye.axis[0] - (x - eye.centre[0]) * eye.axis[1]) / eye.across;
}

/** The squared distance of (x, y) from the ellipse's centre (1 at its edge). */
function inEllipse(eye: EyeEllipse, x: number, y: number): number {
  const u = ((x - eye.centre[0]) * eye.axis[0] + (y - eye.centre[1]) * eye.axis[1]) / eye.along;
  const v = acrossEllipse(eye, x, y);
  return u * u + v * v;
}

/** The box around an ellipse (and a pixel more). */
function ellipseBox(eye: EyeEllipse): [number, number, number, number] {
  const halfX = Math.hypot(eye.along * eye.axis[0], eye.across * eye.axis[1]) + 1;
  const halfY = Math.hypot(eye.along * eye.axis[1], eye.across * eye.axis[0]) + 1;
  return [eye.centre[0] - halfX, eye.centre[1] - halfY, eye.centre[0] + halfX, eye.centre[1] + halfY];
}

export function createEyeBlinks(): EyeBlinks {
  const eyes: EyeState[] = EYES.map(() => ({ baseline: 0, closed: 0, centre: [0, 0], axis: [1, 0], along: 0, across: 0 }));
  let active = false;
  const bounds = new Float64Array(4);
  return {
    get active() {
      return active;
    },
    bounds,
    update(landmarks) {
      active = false;
      bounds.set([Infinity, Infinity, -Infinity, -Infinity]);
      EYES.forEach(({ corners }, i) => {
        const eye = eyes[i]!;
        const [outer, inner] = [landmarks[corners[0]]!, landmarks[corners[1]]!];
        const width = distance(outer, inner);
        if (width < 2) {
          eye.closed = 0;
          return;
        }
        const opening = openingOf(landmarks, EYES[i]!);
        eye.baseline = Math.max(opening, eye.baseline * BLINK.baselineDecay);
        const open = BLINK.openAbove * eye.baseline;
        const shut = BLINK.closedBelow * eye.baseline;
        eye.closed = opening >= open ? 0 : opening <= shut ? 1 : (open - opening) / (open - shut);
        eye.centre = [(outer[0]! + inner[0]!) / 2, (outer[1]! + inner[1]!) / 2];
        eye.axis = [(inner[0]! - outer[0]!) / width, (inner[1]! - outer[1]!) / width];
        eye.along = BLINK.along * width;
        eye.across = BLINK.across * width;
        if (eye.closed === 0) return;
        active = true;
        const [x0, y0, x1, y1] = ellipseBox(eye);
        bounds.set([Math.min(bounds[0]!, x0), Math.min(bounds[1]!, y0), Math.max(bounds[2]!, x1), Math.max(bounds[3]!, y1)]);
      });
    },
    keepActor(x, y) {
      let keep = 0;
      for (const eye of eyes) {
        if (eye.closed === 0) continue;
        const d = inEllipse(eye, x, y);
        if (d >= 1) continue;
        // Soft edge: full inside half the radius, eased to nothing at the ellipse.
        const t = Math.min(1, (1 - d) / 0.75);
        keep = Math.max(keep, eye.closed * t * t * (3 - 2 * t));
      }
      return keep;
    },
  };
}

export const EYE_MOTION = {
  /** The actor's usual opening is followed slowly (share of each open frame mixed in), blinks left out. */
  usualSmoothing: 0.02,
  /** The person's eyes open at most this much more, and close at most to this share, of their own opening. */
  maxRatio: 1.35,
  minRatio: 0.55,
  /** Changes under this share of the opening are the mesh's noise, not the actor's. */
  deadBand: 0.06,
  /** The region moved around each eye, in eye widths: along the eye, and across it (lids, not brows). */
  along: 0.75,
  across: 0.55,
} as const;

export interface EyeMotion {
  /** Whether this frame moves the eyes at all. */
  readonly active: boolean;
  update(actorLandmarks: number[][]): void;
  /** Where to sample the person's picture for the output point (px, py), written into out[0], out[1]. */
  source(px: number, py: number, out: number[]): void;
  /** Outside this box (x0, y0, x1, y1, person pixels) `source` leaves every point where it is: callers skip it there. */
  readonly bounds: Float64Array;
}


/**
 * The actor's eyes opening wider or narrowing (surprise, a smile's squint) carried onto the person's:
 * around each of the person's eyes their picture is stretched or squeezed across the eye, about the line
 * between its corners, by how open the actor's eye is against its usual opening. Blinks are left to
 * createEyeBlinks (the actor's own closed eye shows).
 */
export function createEyeMotion(personLandmarks: number[][]): EyeMotion {
  const eyes = EYES.map(({ corners }) => {
    const [outer, inner] = [personLandmarks[corners[0]]!, personLandmarks[corners[1]]!];
    const width = Math.max(1, distance(outer, inner));
    return {
      centre: [(outer[0]! + inner[0]!) / 2, (outer[1]! + inner[1]!) / 2] as Point,
      axis: [(inner[0]! - outer[0]!) / width, (inner[1]! - outer[1]!) / width] as Point,
      along: EYE_MOTION.along * width,
      across: EYE_MOTION.across * width,
      usual: 0,
      ratio: 1,
    };
  });
  let active = false;
  const bounds = new Float64Array(4);
  return {
    get active() {
      return active;
    },
    bounds,
    update(landmarks) {
      active = false;
      bounds.set([Infinity, Infinity, -Infinity, -Infinity]);
      EYES.forEach((_, i) => {
        const eye = eyes[i]!;
        const opening = openingOf(landmarks, EYES[i]!);
        if (eye.usual === 0) eye.usual = opening;
        // A blink (well under the usual opening) is not part of the usual, and is shown by the blink path.
        if (opening > BLINK.openAbove * eye.usual) eye.usual += EYE_MOTION.usualSmoothing * (opening - eye.usual);
        // The mesh's noise about the usual opening is ignored, and the rest follows on without a step.
        const change = opening / eye.usual - 1;
        const beyond = Math.sign(change) * Math.max(0, Math.abs(change) - EYE_MOTION.deadBand);
        eye.ratio = Math.min(EYE_MOTION.maxRatio, Math.max(EYE_MOTION.minRatio, 1 + beyond));
        if (eye.ratio === 1) return;
        active = true;
        const [x0, y0, x1, y1] = ellipseBox(eye);
        bounds.set([Math.min(bounds[0]!, x0), Math.min(bounds[1]!, y0), Math.max(bounds[2]!, x1), Math.max(bounds[3]!, y1)]);
      });
    },
    source(px, py, out) {
      out[0] = px;
      out[1] = py;
      for (const eye of eyes) {
        if (eye.ratio === 1) continue;
        const d = inEllipse(eye, px, py);
        if (d >= 1) continue;
        const v = acrossEllipse(eye, px, py);
        // Full stretch in the middle, none at the edge of the region: no seam.
        const t = 1 - d;
        const scale = 1 + (eye.ratio - 1) * t * t * (3 - 2 * t);
        // Across the eye, a point at v came from v / scale.
        const shift = (v * eye.across) * (1 / scale - 1);
        out[0] = px - shift * eye.axis[1];
        out[1] = py + shift * eye.axis[0];
        return;
      }
    },
  };
}
