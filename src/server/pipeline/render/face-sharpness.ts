// A soft photo (out of focus, shaken, a small face enlarged) pasted on a sharp template looks like a smooth
// mask laid on the actor, and a face detector hardly sees a face in it: face-api's SSD found the talking
// man with sample4's face (out of focus in a party photo) at 0.43 of his own confidence, and one of those
// frames with the pasted face sharpened at 0.97 (decision 014, thirty-fifth part). So, once per render, on
// the first frame with a face, each of the person's images is sharpened until its face has the fine
// detail of the actor's face under it: an unsharp mask of the image's own luma, so no other picture's
// detail comes in (the actor's fine detail added instead brought his lashes' and brows' edges with it).
// Never softened: a photo as detailed as the template's face, or more (a grainy one), is left as it is.
//
// The fine detail is the bench's (the luma's spread about its 3×3 mean over its mean), in the frame's
// pixels, over the face as a whole, features and all (a soft photo's eyes, lashes and brows are what it
// lacks most, and what the detector reads a face by), where both faces are: inside each one's own outline
// (the person's as the paste draws it, the actor's by its own mesh), clear of the hairline, and off what
// the person's mask fades out (hair across the face). The skin alone was measured first, the person's bare
// skin against whatever of the actor's face lay under it: where the two faces' features did not meet, the
// actor's brows and lashes counted as his skin, and the talking woman's smooth, made-up face read 1.7 times as
// detailed as the laughing girl's (sample1.3 sharpened 1.25, her laugh's creases deepened, her identity
// 0.75 → 0.56; decision 014, thirty-sixth part). The actor's bare skin alone against the person's read
// sample4 three quarters as detailed as the man, where his detector and the bench find her far softer.
import { personToFrame } from './face-paste';
import { type Similarity, applySimilarity, invertSimilarity } from './landmarks';
import { PERSON_FACE, type PersonFace, innerFace } from './person-face';
import { boxBlur } from './planes';
import { type YuvFrame, sampleBilinear } from './yuv';

export const SHARPNESS = {
  /** The unsharp amounts tried, in order (the image's detail beyond its own blur is multiplied by 1 + amount). */
  amounts: [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2],
} as const;

/**
 * The fine detail where `inside` is 1: the spread of the luma minus its 3×3 mean (pores, fine lines, the
 * camera's grain, a feature's crisp edge), over the mean luma there (bench/render-measures.ts measures the
 * output against its template the same way).
 */
export function fineDetail(plane: Float32Array, width: number, height: number, inside: Uint8Array): number {
  const mean = Float32Array.from(plane);
  boxBlur(mean, width, height, 1);
  let count = 0;
  let sum = 0;
  let fine = 0;
  for (let i = 0; i < plane.length; i++) {
    if (inside[i] !== 1) continue;
    count++;
    sum += plane[i]!;
    fine += (plane[i]! - mean[i]!) ** 2;
  }
  return count > 0 ? Math.sqrt(fine / count) / Math.max(1, sum / count) : 0;
}

/**
 * The frame's box over the person's cut-out placed by `toFrame`, each pixel's place in the cut-out, and
 * which pixels are inside both faces (each one's own outline, clear of the hairline), off the person's hair.
 */
function faceInFrame(frame: YuvFrame, person: PersonFace, toFrame: Similarity, actorLandmarks: number[][]) {
  const toPerson = invertSimilarity(toFrame);
  const corners = [[0, 0], [person.width, 0], [0, person.height], [person.width, person.height]].map((p) => applySimilarity(toFrame, p as [number, number]));
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[0]))));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[1]))));
  const x1 = Math.min(frame.width, Math.ceil(Math.max(...corners.map((p) => p[0]))));
  const y1 = Math.min(frame.height, Math.ceil(Math.max(...corners.map((p) => p[1]))));
  const width = Math.max(0, x1 - x0);
  const height = Math.max(0, y1 - y0);
  const inside = innerFace(width, height, actorLandmarks.map(([x, y]) => [x! - x0, y! - y0]));
  const personFace = innerFace(person.width, person.height, person.landmarks);
  const source = new Float32Array(2 * width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [px, py] = applySimilarity(toPerson, [x0 + x + 0.5, y0 + y + 0.5]);
      const i = y * width + x;
      source[2 * i] = px - 0.5;
      source[2 * i + 1] = py - 0.5;
      const ix = Math.round(px - 0.5);
      const iy = Math.round(py - 0.5);
      const j = iy * person.width + ix;
      if (ix < 0 || iy < 0 || ix >= person.width || iy >= person.height || personFace[j] !== 1 || person.mask[j]! < PERSON_FACE.skinMask) inside[i] = 0;
    }
  }
  return { x0, y0, width, height, inside, source };
}

/** The person's luma as the paste draws it in the frame's box: bilinear at each box pixel's place in the cut-out. */
function resampled(plane: Float32Array, person: PersonFace, source: Float32Array, count: number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = sampleBilinear(plane, person.width, person.height, source[2 * i]!, source[2 * i + 1]!);
  return out;
}

/** The frame's luma over the box. */
function actorLuma(frame: YuvFrame, box: { x0: number; y0: number; width: number; height: number }): Float32Array {
  const luma = new Float32Array(box.width * box.height);
  for (let y = 0; y < box.height; y++) for (let x = 0; x < box.width; x++) luma[y * box.width + x] = frame.y[(box.y0 + y) * frame.width + box.x0 + x]!;
  return luma;
}

/** The fine detail of the person's face as the paste draws it into this frame, and of the actor's face on the same pixels. */
export function detailInFrame(frame: YuvFrame, person: PersonFace, actorLandmarks: number[][]): { person: number; actor: number } {
  const box = faceInFrame(frame, person, personToFrame(person, actorLandmarks), actorLandmarks);
  const measure = (plane: Float32Array) => fineDetail(plane, box.width, box.height, box.inside);
  return { person: measure(resampled(person.y, person, box.source, box.width * box.height)), actor: measure(actorLuma(frame, box)) };
}

/**
 * Sharpens the person's luma in place (this render's own copy of the face: loadPersonFace and a kept face's
 * reading give each render theirs) until its face's fine detail in the frame reaches the actor's there
 * (detailInFrame), trying SHARPNESS.amounts in turn (the last if none reaches it). Returns the amount used (0: as
 * detailed as the actor's face already, or none of the person's face in the frame).
 */
export function matchSharpness(frame: YuvFrame, person: PersonFace, actorLandmarks: number[][]): number {
  const toFrame = personToFrame(person, actorLandmarks);
  const box = faceInFrame(frame, person, toFrame, actorLandmarks);
  const count = box.width * box.height;
  if (!box.inside.includes(1)) return 0;
  const target = fineDetail(actorLuma(frame, box), box.width, box.height, box.inside);
  const drawn = resampled(person.y, person, box.source, count);
  if (fineDetail(drawn, box.width, box.height, box.inside) >= target) return 0;
  // The unsharp mask's blur in the cut-out's pixels: a frame pixel's size there.
  const radius = Math.max(1, Math.round(1 / Math.hypot(toFrame.a, toFrame.b)));
  const detail = Float32Array.from(person.y);
  boxBlur(detail, person.width, person.height, radius);
  boxBlur(detail, person.width, person.height, radius);
  for (let i = 0; i < detail.length; i++) detail[i] = person.y[i]! - detail[i]!;
  // Resampling is linear: the sharpened face as drawn is the face drawn plus the amount times its detail drawn.
  const drawnDetail = resampled(detail, person, box.source, count);
  const trial = new Float32Array(count);
  let used = 0;
  for (const amount of SHARPNESS.amounts) {
    used = amount;
    for (let i = 0; i < count; i++) trial[i] = drawn[i]! + amount * drawnDetail[i]!;
    if (fineDetail(trial, box.width, box.height, box.inside) >= target) break;
  }
  for (let i = 0; i < detail.length; i++) person.y[i] = Math.min(255, Math.max(0, person.y[i]! + used * detail[i]!));
  return used;
}
