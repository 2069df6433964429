// Puts the person's face on the actor's: the person's photo aligned to the actor's face by a similarity
// transform on stable points (eyes, nose, mouth corners), the whole face from jaw to forehead under a
// feathered mask, its brightness and tint matched to the actor's face in this frame. The person keeps
// their own face shape and outline (what recognisers weigh most); the actor gives position, size, roll.
// Works in place on the yuv420p frame: luma at full resolution, chroma at half.
import { ALIGNMENT_POINTS, type Similarity, applySimilarity, fitSimilarity, invertSimilarity, pick } from './landmarks';
import type { EyeBlinks } from './eye-blink';
import type { MouthMotion } from './mouth-motion';
import type { PersonFace } from './person-face';
import { colourFigures } from './person-face';
import { type YuvFrame, sampleBilinear } from './yuv';

export const PASTE = {
  /** The brightness spread follows the actor's within these bounds (a dark actor must not flatten the face). */
  minSpreadRatio: 0.75,
  maxSpreadRatio: 1.33,
  /** Share of the tint difference applied (1 = the actor's mean U and V). */
  tint: 1,
} as const;

/** The transform from the person's cut-out to this frame. */
export function personToFrame(person: PersonFace, actorLandmarks: number[][]): Similarity {
  return fitSimilarity(pick(person.landmarks, ALIGNMENT_POINTS), pick(actorLandmarks, ALIGNMENT_POINTS));
}

/** The frame's colour figures under the person's mask (sampled on a coarse grid: a few hundred points). */
function actorColour(frame: YuvFrame, person: PersonFace, toPerson: Similarity, box: [number, number, number, number]) {
  const [x0, y0, x1, y1] = box;
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 1200)));
  const ys: number[] = [];
  const us: number[] = [];
  const vs: number[] = [];
  const half = frame.width >> 1;
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const [px, py] = applySimilarity(toPerson, [x + 0.5, y + 0.5]);
      if (px < 0 || py < 0 || px >= person.width - 1 || py >= person.height - 1) continue;
      if (person.core[Math.round(py - 0.5) * person.width + Math.round(px - 0.5)] !== 1) continue;
      ys.push(frame.y[y * frame.width + x]!);
      us.push(frame.u[(y >> 1) * half + (x >> 1)]!);
      vs.push(frame.v[(y >> 1) * half + (x >> 1)]!);
    }
  }
  return colourFigures({ y: ys, u: us, v: vs }, () => true, ys.length);
}

/**
 * Composites the person's face onto the frame where the actor's mesh is. `mouth`, when given, moves the
 * person's lower lip and jaw with the actor's (see mouth-motion.ts). Returns false when the face is
 * entirely outside the frame.
 */
export function pasteFace(frame: YuvFrame, person: PersonFace, actorLandmarks: number[][], mouth?: MouthMotion, blinks?: EyeBlinks): boolean {
  const toFrame = personToFrame(person, actorLandmarks);
  const toPerson = invertSimilarity(toFrame);
  const [mx0, my0, mx1, box1] = person.maskBox;
  // A dropped jaw moves the chin, and the mask with it, below the mask's box.
  const my1 = mouth?.active ? box1 + mouth.maxDrop : box1;
  const corners = [[mx0, my0], [mx1, my0], [mx0, my1], [mx1, my1]].map((p) => applySimilarity(toFrame, p as [number, number]));
  // Even bounds so the chroma loop covers the same pixels.
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[0])) / 2) * 2);
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[1])) / 2) * 2);
  const x1 = Math.min(frame.width, Math.ceil(Math.max(...corners.map((p) => p[0])) / 2) * 2);
  const y1 = Math.min(frame.height, Math.ceil(Math.max(...corners.map((p) => p[1])) / 2) * 2);
  if (x1 <= x0 || y1 <= y0) return false;

  const actor = actorColour(frame, person, toPerson, [x0, y0, x1, y1]);
  const own = person.colour;
  const gain = Math.min(PASTE.maxSpreadRatio, Math.max(PASTE.minSpreadRatio, actor.spreadY / own.spreadY));
  const offsetY = actor.meanY - own.meanY * gain;
  const shiftU = (actor.meanU - own.meanU) * PASTE.tint;
  const shiftV = (actor.meanV - own.meanV) * PASTE.tint;
  const { width: pw, height: ph, mask } = person;
  const warp = mouth?.active ? mouth : undefined;
  // While the actor blinks, their own eye shows through (eye-blink.ts).
  const blink = blinks?.active ? blinks : undefined;

  // Person coordinates of pixel centres: p = A·(x + 0.5, y + 0.5) + t, walked incrementally along a row.
  const { a, b, tx, ty } = toPerson;
  const source: [number, number] = [0, 0];
  for (let y = y0; y < y1; y++) {
    let px = a * (x0 + 0.5) - b * (y + 0.5) + tx - 0.5;
    let py = b * (x0 + 0.5) + a * (y + 0.5) + ty - 0.5;
    let at = y * frame.width + x0;
    for (let x = x0; x < x1; x++, px += a, py += b, at++) {
      if (px < 0 || py < 0 || px >= pw - 1 || py >= ph - 1) continue;
      let sx = px;
      let sy = py;
      let inside = 0;
      if (warp) {
        inside = warp.source(px, py, source);
        sx = source[0];
        sy = source[1];
      }
      // The mask moves with the warp: the person's chin drops with the actor's.
      let alpha = sampleBilinear(mask, pw, ph, sx, sy);
      if (blink) alpha *= 1 - blink.keepActor(x + 0.5, y + 0.5);
      if (alpha <= 0.002) continue;
      let value = sampleBilinear(person.y, pw, ph, sx, sy) * gain + offsetY;
      if (inside > 0) value += (warp!.interiorY - value) * inside;
      frame.y[at] = frame.y[at]! + alpha * ((value < 0 ? 0 : value > 255 ? 255 : value) - frame.y[at]!);
    }
  }
  const half = frame.width >> 1;
  for (let cy = y0 >> 1; cy < y1 >> 1; cy++) {
    // A chroma sample covers 2×2 luma pixels: its centre is at (2·cx + 1, 2·cy + 1).
    const fy = 2 * cy + 1;
    let px = a * (x0 + 1) - b * fy + tx - 0.5;
    let py = b * (x0 + 1) + a * fy + ty - 0.5;
    let at = cy * half + (x0 >> 1);
    for (let cx = x0 >> 1; cx < x1 >> 1; cx++, px += 2 * a, py += 2 * b, at++) {
      if (px < 0 || py < 0 || px >= pw - 1 || py >= ph - 1) continue;
      let sx = px;
      let sy = py;
      let inside = 0;
      if (warp) {
        inside = warp.source(px, py, source);
        sx = source[0];
        sy = source[1];
      }
      // The mask moves with the warp: the person's chin drops with the actor's.
      let alpha = sampleBilinear(mask, pw, ph, sx, sy);
      if (blink) alpha *= 1 - blink.keepActor(2 * cx + 1, fy);
      if (alpha <= 0.002) continue;
      let u = sampleBilinear(person.u, pw, ph, sx, sy) + shiftU;
      let v = sampleBilinear(person.v, pw, ph, sx, sy) + shiftV;
      if (inside > 0) {
        u += (128 - u) * inside;
        v += (warp!.interiorV - v) * inside;
      }
      frame.u[at] = frame.u[at]! + alpha * (u - frame.u[at]!);
      frame.v[at] = frame.v[at]! + alpha * (v - frame.v[at]!);
    }
  }
  return true;
}
