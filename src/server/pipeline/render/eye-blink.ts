// The actor's eyes on the pasted photo. Blinks: a still photo never blinks, and a face that never blinks looks
// wrong at once. When the actor's eye is closed (its opening well under the widest seen lately), the
// actor's own eye shows through the paste in a soft ellipse around it, for as long as it stays closed:
// a few frames per blink, so the person's identity is kept in the rest. Openness and gaze (createEyeMotion):
// the person's eyes widen and narrow with the actor's, and turn to look where the actor's look.
import { EYE_CONTOURS, type Point, insidePolygon, pick, rowCrossings } from './landmarks';

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
    const [left0, top0] = [Math.max(0, Math.floor(Math.min(...xs))), Math.max(0, Math.floor(Math.min(...ys)))];
    const [right0, bottom0] = [Math.min(width - 1, Math.ceil(Math.max(...xs))), Math.min(height - 1, Math.ceil(Math.max(...ys)))];
    // The pixels inside, in reused typed arrays: it runs on every frame of a render whose eyes follow the actor's.
    const most = Math.max(0, right0 - left0 + 1) * Math.max(0, bottom0 - top0 + 1);
    if (gazeScratch.values.length < most) gazeScratch = { values: new Float64Array(most), xs: new Float64Array(most), ys: new Float64Array(most), sorted: new Float64Array(most) };
    const { values, xs: insideX, ys: insideY, sorted } = gazeScratch;
    let count = 0;
    for (let y = top0; y <= bottom0; y++) {
      const crossings = rowCrossings(lidMargin, y + 0.5);
      for (let k = 0; k + 1 < crossings.length; k += 2) {
        const to = Math.min(right0, Math.floor(crossings[k + 1]! - 0.5));
        for (let x = Math.max(left0, Math.ceil(crossings[k]! - 0.5)); x <= to; x++) {
          values[count] = lumaAt(x, y);
          insideX[count] = x + 0.5;
          insideY[count] = y + 0.5;
          count++;
        }
      }
    }
    if (count < GAZE.minPixels) return undefined;
    sorted.set(values.subarray(0, count));
    const middle = sorted.subarray(0, count).sort()[count >> 1]!;
    let weight = 0, cx = 0, cy = 0;
    for (let i = 0; i < count; i++) {
      const w = Math.max(0, middle - values[i]!);
      weight += w;
      cx += w * insideX[i]!;
      cy += w * insideY[i]!;
    }
    if (weight === 0) return undefined;
    const [left, right] = [landmarks[corners[0]]!, landmarks[corners[1]]!];
    const eyeWidth = Math.max(1, distance(left, right));
    const along = (cx / weight - (left[0]! + right[0]!) / 2) * (right[0]! - left[0]!) + (cy / weight - (left[1]! + right[1]!) / 2) * (right[1]! - left[1]!);
    sum += along / (eyeWidth * eyeWidth);
  }
  return sum / EYES.length;
}

/** eyeGaze's pixels, grown as needed. */
let gazeScratch = { values: new Float64Array(0), xs: new Float64Array(0), ys: new Float64Array(0), sorted: new Float64Array(0) };

/** Samples of an eye's lid margin along the eye, for LidOpening. */
const LID_SAMPLES = 41;

/**
 * An eye's opening between its lids along the eye: at LID_SAMPLES points from one corner to the other
 * (u from −0.5 to 0.5 eye widths), the middle of the opening and half its height, across the eye in pixels.
 */
interface LidOpening {
  middle: Float64Array;
  half: Float64Array;
}

function lidOpening(margin: Point[], centre: Point, axis: Point, width: number): LidOpening {
  const along = margin.map(([x, y]) => ((x - centre[0]) * axis[0] + (y - centre[1]) * axis[1]) / width);
  const across = margin.map(([x, y]) => (y - centre[1]) * axis[0] - (x - centre[0]) * axis[1]);
  const middle = new Float64Array(LID_SAMPLES);
  const half = new Float64Array(LID_SAMPLES);
  for (let k = 0; k < LID_SAMPLES; k++) {
    const u = k / (LID_SAMPLES - 1) - 0.5;
    let low = Infinity;
    let high = -Infinity;
    for (let i = 0; i < margin.length; i++) {
      const j = (i + 1) % margin.length;
      const [ui, uj] = [along[i]!, along[j]!];
      if ((ui <= u) === (uj <= u)) continue;
      const v = across[i]! + ((u - ui) / (uj - ui)) * (across[j]! - across[i]!);
      low = Math.min(low, v);
      high = Math.max(high, v);
    }
    if (high > low) {
      middle[k] = (low + high) / 2;
      half[k] = (high - low) / 2;
    }
  }
  return { middle, half };
}

/** A LidOpening's table read at u (eye widths from the middle), linearly between samples. */
function lidAt(table: Float64Array, u: number): number {
  const at = Math.min(LID_SAMPLES - 1.000001, Math.max(0, (u + 0.5) * (LID_SAMPLES - 1)));
  const k = at | 0;
  return table[k]! + (table[k + 1]! - table[k]!) * (at - k);
}

/**
 * An iris's radius in eye widths (irisPositions' disc), and how far from the eye's middle its centre is looked
 * for: an iris found there is at a corner (or the corner's shade was darker), and gazeShift turns that eye
 * no further.
 */
const IRIS_RADIUS = 0.2;
const IRIS_REACH = 0.3;

/**
 * Where each eye's iris is along that eye (eye widths from its middle, + towards the picture's right), or
 * undefined for an eye too shut to show it: the darkest disc of an iris's size (a fifth of the eye's width
 * across its radius) between the lids, its centre on the opening's middle line. One eye's figure, unlike
 * eyeGaze's mean of two, cannot cancel the lashes' shade at its outer corner; a disc as wide as an iris
 * darkens on the iris, which the thin line of lashes cannot match. (A drawn iris only 0.3 of the eye's width
 * across was matched by the lashes' corner; real irises are about 0.4, and a misread eye disagrees with the
 * other one: EYE_MOTION.irisesAgreeWithin.)
 */
export function irisPositions(lumaAt: (x: number, y: number) => number, width: number, height: number, landmarks: number[][]): (number | undefined)[] {
  return EYES.map(({ corners }, k) => {
    const [left, right] = [landmarks[corners[0]]!, landmarks[corners[1]]!];
    const eyeWidth = distance(left, right);
    const margin = pick(landmarks, EYE_CONTOURS[k]!);
    const ys = margin.map(([, y]) => y);
    if (eyeWidth < 8 || Math.max(...ys) - Math.min(...ys) < 3) return undefined;
    const centre: Point = [(left[0]! + right[0]!) / 2, (left[1]! + right[1]!) / 2];
    const axis: Point = [(right[0]! - left[0]!) / eyeWidth, (right[1]! - left[1]!) / eyeWidth];
    const lids = lidOpening(margin, centre, axis, eyeWidth);
    const radius = IRIS_RADIUS * eyeWidth;
    let darkest = Infinity;
    let found: number | undefined;
    for (let u = -IRIS_REACH; u <= IRIS_REACH + 1e-9; u += 0.01) {
      const middle = lidAt(lids.middle, u);
      const [x0, y0] = [centre[0] + u * eyeWidth * axis[0] - middle * axis[1], centre[1] + u * eyeWidth * axis[1] + middle * axis[0]];
      let sum = 0;
      let count = 0;
      for (let y = Math.max(0, Math.floor(y0 - radius)); y <= Math.min(height - 1, Math.ceil(y0 + radius)); y++) {
        for (let x = Math.max(0, Math.floor(x0 - radius)); x <= Math.min(width - 1, Math.ceil(x0 + radius)); x++) {
          if (Math.hypot(x + 0.5 - x0, y + 0.5 - y0) > radius || !insidePolygon(margin, x + 0.5, y + 0.5)) continue;
          sum += lumaAt(x, y);
          count++;
        }
      }
      if (count >= GAZE.minPixels && sum / count < darkest) {
        darkest = sum / count;
        found = u;
      }
    }
    return found;
  });
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
  /**
   * Where the actor looks (eyeGaze, eye widths from the middle) is followed from `gazeFollowFrom`, fully from
   * `gazeFullFrom`; nearer the middle the actor looks at the camera, and the person's eyes stay as their
   * image has them. Measured on the talking clips' tracks: at the camera |gaze| ≤ 0.05 (the man's −0.02 to
   * −0.07), glances 0.15-0.24, the woman's 0.05-0.09 stretches unsure between.
   */
  gazeFollowFrom: 0.08,
  gazeFullFrom: 0.14,
  /**
   * Half the width, in eye widths, taken to move as one with the iris: an adult's iris is about 0.4 of the
   * eye's width, a young child's nearer half, so a little white round it moves too rather than the iris's
   * edge being stretched.
   */
  irisHalfWidth: 0.24,
  /**
   * The corners (this share of the eye's width at each end: where the lids meet, the inner corner's pink)
   * stay; between them the eyeball turns: what is ahead of the iris slides under the corner it moves towards,
   * and the white behind it is stretched, at most `maxStretch` times, to fill the way back. (Pressing the
   * white ahead instead left a bright rim along the lids at that corner.)
   */
  cornerWidth: 0.05,
  maxStretch: 2.5,
  /** Eyes opened less than this (lid gap over width, the mesh's) do not follow the gaze: cast down, the iris hardly shows. */
  gazeMinOpening: 0.2,
  /**
   * Nor do eyes whose irises were found further apart than this along their eyes (eye widths): both eyes look
   * the same way, so one of them was misread (sample4's downcast eyes: 0.17 and −0.10; at the camera the
   * talking woman's read 0.01 and 0.08).
   */
  irisesAgreeWithin: 0.15,
  /** Beyond the lid margin, where the iris's move fades out (in half-openings of the eye there): the lids stay. */
  lidFade: 0.5,
} as const;

export interface EyeMotion {
  /** Whether this frame moves the eyes at all. */
  readonly active: boolean;
  /** Whether these eyes can turn to follow the actor's gaze (createEyeMotion's `look`): callers read the actor's only then. */
  readonly followsGaze: boolean;
  /** `actorGaze`: where the actor looks in this frame (eyeGaze, steadied by the caller); undefined keeps the last. */
  update(actorLandmarks: number[][], actorGaze?: number): void;
  /** Where to sample the person's picture for the output point (px, py), written into out[0], out[1]. */
  source(px: number, py: number, out: number[]): void;
  /** Outside this box (x0, y0, x1, y1, person pixels) `source` leaves every point where it is: callers skip it there. */
  readonly bounds: Float64Array;
}

/** Where the person's eyes look in their image (eyeGaze), and where each iris is (irisPositions). */
export interface PersonLook {
  gaze: number;
  irises: (number | undefined)[];
}

const smoothstep = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

/**
 * How far the irises move along their eyes (eye widths, + towards the picture's right) to look where the
 * actor looks: none while the actor looks at the camera, the whole way from the person's own gaze to the
 * actor's once the actor looks aside, as far as the white beside both irises allows (`irises`: where each
 * is, irisPositions). An iris at a corner does not move back: that would need white that is not there
 * (decision 014, eighteenth part).
 */
export function gazeShift(personGaze: number, irises: readonly number[], actorGaze: number): number {
  const { gazeFollowFrom, gazeFullFrom, irisHalfWidth, cornerWidth, maxStretch } = EYE_MOTION;
  const follow = smoothstep((Math.abs(actorGaze) - gazeFollowFrom) / (gazeFullFrom - gazeFollowFrom));
  if (follow === 0) return 0;
  let lowest = -Infinity;
  let highest = Infinity;
  for (const iris of irises) {
    // The white between the iris and each corner.
    const left = iris - irisHalfWidth + 0.5 - cornerWidth;
    const right = 0.5 - cornerWidth - iris - irisHalfWidth;
    if (left <= 0 || right <= 0) return 0;
    lowest = Math.max(lowest, -left, -(maxStretch - 1) * right);
    highest = Math.min(highest, right, (maxStretch - 1) * left);
  }
  return Math.min(highest, Math.max(lowest, follow * (actorGaze - personGaze)));
}

/**
 * The actor's eyes opening wider or narrowing (surprise, a smile's squint) and looking aside, carried onto
 * the person's. Openness: around each of the person's eyes their picture is stretched or squeezed across
 * the eye, about the line between its corners, by how open the actor's eye is against its usual opening.
 * Gaze (`look`: where the person's eyes look in their image and where each iris is; none for eyes too shut to
 * show their irises): between the lids the eyeball turns, the iris with a little white round it sliding along
 * the eye as one piece, gazeShift's way; the lids and the corners stay. Blinks are left to createEyeBlinks
 * (the actor's own closed eye shows).
 */
export function createEyeMotion(personLandmarks: number[][], look?: PersonLook): EyeMotion {
  // Eyes that follow the actor's gaze: both irises found where they agree, the eyes open enough to show them whole.
  const found = look?.irises.every((iris) => iris !== undefined) ? (look.irises as number[]) : undefined;
  const irises = found && Math.max(...found) - Math.min(...found) <= EYE_MOTION.irisesAgreeWithin && eyeOpening(personLandmarks) >= EYE_MOTION.gazeMinOpening ? found : undefined;
  const eyes = EYES.map(({ corners }, k) => {
    const [outer, inner] = [personLandmarks[corners[0]]!, personLandmarks[corners[1]]!];
    const width = Math.max(1, distance(outer, inner));
    const centre: Point = [(outer[0]! + inner[0]!) / 2, (outer[1]! + inner[1]!) / 2];
    const axis: Point = [(inner[0]! - outer[0]!) / width, (inner[1]! - outer[1]!) / width];
    return {
      centre,
      axis,
      width,
      along: EYE_MOTION.along * width,
      across: EYE_MOTION.across * width,
      iris: irises?.[k] ?? 0,
      lids: lidOpening(pick(personLandmarks, EYE_CONTOURS[k]!), centre, axis, width),
      usual: 0,
      ratio: 1,
    };
  });
  let active = false;
  /** How far both irises are moved along their eyes in this frame (gazeShift). */
  let turn = 0;
  const bounds = new Float64Array(4);

  /** The point of the person's eye (before the iris moved) that shows at (x, y): out[0], out[1]. */
  function beforeGaze(eye: (typeof eyes)[number], x: number, y: number, out: number[]) {
    out[0] = x;
    out[1] = y;
    const dx = x - eye.centre[0];
    const dy = y - eye.centre[1];
    const u = (dx * eye.axis[0] + dy * eye.axis[1]) / eye.width;
    if (u <= -0.5 || u >= 0.5) return;
    const v = dy * eye.axis[0] - dx * eye.axis[1];
    const halfThere = lidAt(eye.lids.half, u);
    if (halfThere < 0.5) return;
    const middleThere = lidAt(eye.lids.middle, u);
    const beyond = Math.abs(v - middleThere) / halfThere - 1;
    const weight = beyond <= 0 ? 1 : 1 - smoothstep(beyond / EYE_MOTION.lidFade);
    if (weight === 0) return;
    // Along the eye (gazeShift keeps the iris between the corners): the corners stay; the iris and what is
    // ahead of it slide as one, and the white behind it stretches back to its corner.
    const end = 0.5 - EYE_MOTION.cornerWidth;
    if (u <= -end || u >= end) return;
    const d = turn;
    const trailing = d > 0 ? eye.iris - EYE_MOTION.irisHalfWidth : eye.iris + EYE_MOTION.irisHalfWidth;
    const from = d > 0 ? (u >= trailing + d ? u - d : -end + ((u + end) * (trailing + end)) / (trailing + d + end)) : u <= trailing + d ? u - d : end - ((end - u) * (end - trailing)) / (end - trailing - d);
    // Across: the same share of the way from the opening's middle line to the lid, so the lid's own edge
    // inside the mesh's margin stays an edge.
    const across = lidAt(eye.lids.middle, from) + ((v - middleThere) * lidAt(eye.lids.half, from)) / halfThere;
    const su = u + weight * (from - u);
    const sv = v + weight * (across - v);
    out[0] = eye.centre[0] + su * eye.width * eye.axis[0] - sv * eye.axis[1];
    out[1] = eye.centre[1] + su * eye.width * eye.axis[1] + sv * eye.axis[0];
  }

  return {
    get active() {
      return active;
    },
    followsGaze: irises !== undefined,
    bounds,
    update(landmarks, actorGaze) {
      active = false;
      bounds.set([Infinity, Infinity, -Infinity, -Infinity]);
      let blinking = false;
      EYES.forEach((_, i) => {
        const eye = eyes[i]!;
        const opening = openingOf(landmarks, EYES[i]!);
        if (eye.usual === 0) eye.usual = opening;
        // A blink (well under the usual opening) is not part of the usual, and is shown by the blink path.
        if (opening > BLINK.openAbove * eye.usual) eye.usual += EYE_MOTION.usualSmoothing * (opening - eye.usual);
        else blinking = true;
        // The mesh's noise about the usual opening is ignored, and the rest follows on without a step.
        const change = opening / eye.usual - 1;
        const beyond = Math.sign(change) * Math.max(0, Math.abs(change) - EYE_MOTION.deadBand);
        eye.ratio = Math.min(EYE_MOTION.maxRatio, Math.max(EYE_MOTION.minRatio, 1 + beyond));
      });
      // A closing eye's gaze reads the lashes: the last one is kept through a blink.
      if (irises && actorGaze !== undefined && !blinking) turn = gazeShift(look!.gaze, irises, actorGaze);
      for (const eye of eyes) {
        if (eye.ratio === 1 && turn === 0) continue;
        active = true;
        const [x0, y0, x1, y1] = ellipseBox(eye);
        bounds.set([Math.min(bounds[0]!, x0), Math.min(bounds[1]!, y0), Math.max(bounds[2]!, x1), Math.max(bounds[3]!, y1)]);
      }
    },
    source(px, py, out) {
      out[0] = px;
      out[1] = py;
      for (const eye of eyes) {
        if (eye.ratio === 1 && turn === 0) continue;
        const d = inEllipse(eye, px, py);
        if (d >= 1) continue;
        let x = px;
        let y = py;
        if (eye.ratio !== 1) {
          const v = acrossEllipse(eye, px, py);
          // Full stretch in the middle, none at the edge of the region: no seam.
          const t = 1 - d;
          const scale = 1 + (eye.ratio - 1) * t * t * (3 - 2 * t);
          // Across the eye, a point at v came from v / scale.
          const shift = (v * eye.across) * (1 / scale - 1);
          x = px - shift * eye.axis[1];
          y = py + shift * eye.axis[0];
        }
        if (turn !== 0) beforeGaze(eye, x, y, out);
        else {
          out[0] = x;
          out[1] = y;
        }
        return;
      }
    },
  };
}
