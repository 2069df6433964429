// The pasted face takes the actor's light and skin tone, and loses the photo's own: a colour cast, a lamp
// on one side, a bright forehead. Each of Y, U and V is modelled over the skin (no eyes, brows, nose,
// lips, hair) as a smooth quadratic surface in the face's own coordinates, once on the person's photo and
// in every frame on the actor's face (the same skin points, found through the alignment). The person's
// surface is taken away and the actor's put in its place; what is left (the person's features, their
// skin's texture) is the person's. Six numbers per channel cannot carry a face's shape, so identity stays
// (a smoothed brightness difference at 12 % of the face could, and did: decision 010's traps).
// The actor's surfaces are smoothed over frames, so the light does not flicker with the tracking.
import { type Similarity, applySimilarity } from './landmarks';
import type { YuvFrame } from './yuv';

/** c0 + c1·x + c2·y + c3·x² + c4·x·y + c5·y², with (x, y) the face coordinates (see FaceCoordinates). */
export type Surface = [number, number, number, number, number, number];

export interface Lighting {
  y: Surface;
  u: Surface;
  v: Surface;
  /** The spread of Y about its surface: the skin's texture and shading detail. */
  residualY: number;
  /** The spreads of U and V about theirs (how far a pixel may be from the skin's tint and still be skin). */
  residualU: number;
  residualV: number;
}

/** Face coordinates: the person's cut-out pixels centred on the face and divided by its height. */
export interface FaceCoordinates {
  cx: number;
  cy: number;
  scale: number;
}

export const LIGHT = {
  /** Fewer skin samples than this and only the means are matched. */
  minSamples: 60,
  /** Points further than this many spreads from the first fit (a hand, a strand, a glint) are left out of the second. */
  outlierSpreads: 2.5,
  /** Share of this frame's fit mixed into the smoothed one (the rest is the previous frames'). */
  smoothing: 0.35,
  /**
   * The brightness detail follows the actor's within these bounds: up to a third more where the actor's skin
   * shows more relief than the photo's, never less than the photo's own. A smoother actor (or a photo whose
   * residual holds shade the surface did not take) once scaled the person's relief down to 0.75, eyes and
   * brows with it, and the face went flat for face-api's detector: its confidence against the template's,
   * with the floor at 1, talking-man · sample5's third face 0.59 → 0.90, talking-woman · sample4 0.57 → 0.91
   * (bench/render; decision 014, twenty-ninth part).
   */
  minDetailRatio: 1,
  maxDetailRatio: 1.33,
  /**
   * A pixel brighter than the lit skin by more than this share (a glint, a lamp's highlight on the nose
   * or a cheek: the photo's light, not the face) brightens by only `highlightSlope` of the rest: under a
   * bright actor's light a photo's glint on the nose went white.
   */
  highlightKnee: 0.2,
  highlightSlope: 0.3,
  /**
   * Pixels darker than this share of the lit skin (brows, lashes, an iris, strands) have the skin's tone in
   * proportion to their brightness, as light gives it; lighter ones, the face's own shade included, have all
   * of it. The same share is what the person's face is given of its own tone (person-face.ts
   * keepLittleTint) and what the paste replaces of it by the actor's (castShare): while the paste replaced
   * only the pixel's brightness share, up to 40 % of the photo's tone stayed on an iris, a brow or a crease
   * (decision 014, eighth part: one of sample3's eyes orange under a warm lamp, the other blue).
   */
  fullToneAbove: 0.6,
} as const;

/** The face's skin lies within about ±0.5 face heights of its centre: beyond, a quadratic is not extrapolated. */
const REACH = 0.6;

export function evaluate(surface: Surface, x: number, y: number): number {
  const cx = x < -REACH ? -REACH : x > REACH ? REACH : x;
  const cy = y < -REACH ? -REACH : y > REACH ? REACH : y;
  return surface[0] + surface[1] * cx + surface[2] * cy + surface[3] * cx * cx + surface[4] * cx * cy + surface[5] * cy * cy;
}

/**
 * Least squares of the six terms (normal equations, Gaussian elimination with pivoting); undefined when
 * singular. In typed arrays: it runs six times a frame over some fifteen hundred points.
 */
function solve(points: { x: number; y: number }[], values: number[], keep: (i: number) => boolean): Surface | undefined {
  // Six rows of seven: the normal matrix and, last, the right-hand side.
  const ata = new Float64Array(42);
  const b = new Float64Array(6);
  for (let i = 0; i < points.length; i++) {
    if (!keep(i)) continue;
    const { x, y } = points[i]!;
    b[0] = 1;
    b[1] = x;
    b[2] = y;
    b[3] = x * x;
    b[4] = x * y;
    b[5] = y * y;
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 6; c++) ata[7 * r + c] = ata[7 * r + c]! + b[r]! * b[c]!;
      ata[7 * r + 6] = ata[7 * r + 6]! + b[r]! * values[i]!;
    }
  }
  // A little ridge on the quadratic terms: a face seen from the side has few points on one half.
  for (let r = 3; r < 6; r++) ata[7 * r + r] = ata[7 * r + r]! + 1e-3 * (ata[0]! || 1);
  for (let col = 0; col < 6; col++) {
    let pivot = col;
    for (let r = col + 1; r < 6; r++) if (Math.abs(ata[7 * r + col]!) > Math.abs(ata[7 * pivot + col]!)) pivot = r;
    if (Math.abs(ata[7 * pivot + col]!) < 1e-9) return undefined;
    for (let c = 0; c < 7; c++) [ata[7 * col + c], ata[7 * pivot + c]] = [ata[7 * pivot + c]!, ata[7 * col + c]!];
    for (let r = 0; r < 6; r++) {
      if (r === col) continue;
      const f = ata[7 * r + col]! / ata[7 * col + col]!;
      for (let c = col; c < 7; c++) ata[7 * r + c] = ata[7 * r + c]! - f * ata[7 * col + c]!;
    }
  }
  return Array.from({ length: 6 }, (_, r) => ata[7 * r + 6]! / ata[7 * r + r]!) as Surface;
}

/**
 * A robust fit: once on every point, once more without the points far from the first surface (a strand
 * of hair, a glint). "Far" is in the first fit's own spread: a stricter, median-based cut was measured to
 * cost identity on sample5 (bench/render), by leaving too little of an unevenly lit face in the fit.
 */
function fitSurface(points: { x: number; y: number }[], values: number[]): { surface: Surface; spread: number } | undefined {
  const first = solve(points, values, () => true);
  if (!first) return undefined;
  const residuals = values.map((value, i) => value - evaluate(first, points[i]!.x, points[i]!.y));
  const limit = LIGHT.outlierSpreads * (Math.sqrt(residuals.reduce((sum, r) => sum + r * r, 0) / residuals.length) || 1);
  const surface = solve(points, values, (i) => Math.abs(residuals[i]!) <= limit) ?? first;
  const kept = residuals.filter((r) => Math.abs(r) <= limit);
  return { surface, spread: Math.sqrt(kept.reduce((sum, r) => sum + r * r, 0) / Math.max(1, kept.length)) || 1 };
}

/** The three surfaces over samples of Y, U, V at face coordinates; undefined when too few or degenerate. */
export function fitLighting(samples: { x: number; y: number; Y: number; U: number; V: number }[]): Lighting | undefined {
  if (samples.length < LIGHT.minSamples) return undefined;
  const y = fitSurface(samples, samples.map((s) => s.Y));
  const u = fitSurface(samples, samples.map((s) => s.U));
  const v = fitSurface(samples, samples.map((s) => s.V));
  if (!y || !u || !v) return undefined;
  return { y: y.surface, u: u.surface, v: v.surface, residualY: Math.max(1, y.spread), residualU: Math.max(1, u.spread), residualV: Math.max(1, v.spread) };
}

/** The actor's skin in this frame, sampled on a coarse grid (about 1,500 points) where the person's skin maps. */
export function sampleActorSkin(
  frame: YuvFrame,
  toPerson: Similarity,
  box: [number, number, number, number],
  skin: Uint8Array,
  personWidth: number,
  personHeight: number,
  coordinates: FaceCoordinates,
) {
  const [x0, y0, x1, y1] = box;
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 1500)));
  const half = frame.width >> 1;
  const samples: { x: number; y: number; Y: number; U: number; V: number }[] = [];
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const [px, py] = applySimilarity(toPerson, [x + 0.5, y + 0.5]);
      const ix = Math.round(px - 0.5);
      const iy = Math.round(py - 0.5);
      if (ix < 0 || iy < 0 || ix >= personWidth || iy >= personHeight || skin[iy * personWidth + ix] !== 1) continue;
      samples.push({
        x: (px - coordinates.cx) / coordinates.scale,
        y: (py - coordinates.cy) / coordinates.scale,
        Y: frame.y[y * frame.width + x]!,
        U: frame.u[(y >> 1) * half + (x >> 1)]!,
        V: frame.v[(y >> 1) * half + (x >> 1)]!,
      });
    }
  }
  return samples;
}

/**
 * What turns a person's pixel into the output's at face coordinates (x, y). Light multiplies the skin's
 * colour, in gamma-coded Y as well (a power of a product is the product of the powers), so the person's
 * lit skin P(x, y) is divided out and the actor's A(x, y) multiplied in, both above black (16):
 *   Y' = 16 + A · (1 + gain · r), r = (Y − 16) / P − 1, for pixels darker than the lit skin (r < 0);
 *   Y' = 16 + A + gain · r · min(A, P) for brighter ones (highlights keep at most their own size, and r is
 *   softened past LIGHT.highlightKnee).
 * An added shift would lift dark brows and lashes as much as skin (grey brows) and tint them as much
 * (blue lashes under a warm-to-cool change: seen on sample4 and sample5). A colour cast scales with the
 * brightness too:
 *   U' = U + shiftU · min(1, (Y − 16) / (LIGHT.fullToneAbove · P)) (toneShare); V' likewise.
 * `gain` follows the actor's skin detail (its relative spread about the surface) within LIGHT's bounds.
 */
export interface LightTransfer {
  gain: number;
  personY: Surface;
  actorY: Surface;
  shiftU: Surface;
  shiftV: Surface;
}

/** Video black (Y of limited-range video): light multiplies what is above it. */
export const BLACK = 16;
/** A lit-skin surface is never taken as darker than this above black (a division by nearly nothing). */
export const MIN_SKIN = 8;

/** The output's Y for a person's Y at face coordinates (x, y). */
export function transferLuma(transfer: LightTransfer, value: number, x: number, y: number): number {
  const own = Math.max(MIN_SKIN, evaluate(transfer.personY, x, y) - BLACK);
  const target = Math.max(MIN_SKIN, evaluate(transfer.actorY, x, y) - BLACK);
  let relative = (value - BLACK) / own - 1;
  // Darker than the lit skin (brows, lashes, creases): in proportion to the new light. Brighter (a glint,
  // a lamp's highlight the smooth surface did not take): never larger than it was, and softened past the
  // knee, or a bright actor's light turns it white.
  if (relative > LIGHT.highlightKnee) relative = LIGHT.highlightKnee + LIGHT.highlightSlope * (relative - LIGHT.highlightKnee);
  const out = BLACK + target + transfer.gain * relative * (relative < 0 ? target : Math.min(target, own));
  return out < 0 ? 0 : out > 255 ? 255 : out;
}

/** How much of the skin's tone a pixel of this brightness has, the lit skin's being `litSkin` (LIGHT.fullToneAbove). */
export function toneShare(value: number, litSkin: number): number {
  const share = (value - BLACK) / Math.max(MIN_SKIN, litSkin - BLACK) / LIGHT.fullToneAbove;
  return share < 0 ? 0 : share > 1 ? 1 : share;
}

/** How much of the colour shift a pixel of the person's brightness takes (toneShare: 1 for skin, less for darker pixels). */
export function castShare(transfer: LightTransfer, value: number, x: number, y: number): number {
  return toneShare(value, evaluate(transfer.personY, x, y));
}

/** The transfer from the person's lighting to the actor's: the person's surface out, the actor's in. */
export function lightTransfer(person: Lighting, actor: Lighting): LightTransfer {
  const relative = (lighting: Lighting) => lighting.residualY / Math.max(MIN_SKIN, lighting.y[0] - BLACK);
  const gain = Math.min(LIGHT.maxDetailRatio, Math.max(LIGHT.minDetailRatio, relative(actor) / relative(person)));
  const minus = (a: Surface, b: Surface) => a.map((value, i) => value - b[i]!) as Surface;
  return { gain, personY: person.y, actorY: actor.y, shiftU: minus(actor.u, person.u), shiftV: minus(actor.v, person.v) };
}

/** Follows the actor's lighting over frames (exponential smoothing of the surfaces), so it does not flicker. */
export function createLightFollower() {
  let current: Lighting | undefined;
  const mix = (a: Surface, b: Surface) => a.map((value, i) => value + LIGHT.smoothing * (b[i]! - value)) as Surface;
  return {
    /** This frame's fit in, the smoothed lighting out (the fit itself on the first frame). */
    follow(fit: Lighting): Lighting {
      current = current
        ? { ...fit, y: mix(current.y, fit.y), u: mix(current.u, fit.u), v: mix(current.v, fit.v), residualY: current.residualY + LIGHT.smoothing * (fit.residualY - current.residualY) }
        : fit;
      return current;
    },
  };
}
export type LightFollower = ReturnType<typeof createLightFollower>;
