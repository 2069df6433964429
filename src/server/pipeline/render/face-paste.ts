// Puts the person's face on the actor's: the person's photo aligned to the actor's face by a similarity
// transform on stable points (eyes, nose, mouth corners), the whole face from jaw to forehead under a
// feathered mask, lit as the actor's face is in this frame (face-light.ts: the photo's own light out, the
// actor's in). The person keeps their own face shape and outline (what recognisers weigh most): the frame
// round the actor's face is first moved so that the actor's outline is the person's (face-shape.ts). The
// actor gives position, size, roll, light, and what shows inside an open mouth (their real teeth and tongue).
// Works in place on the yuv420p frame: luma at full resolution, chroma at half.
import { ALIGNMENT_POINTS, LOWER_INNER_LIP, OUTER_LIPS, type Similarity, UPPER_INNER_LIP, applySimilarity, composeSimilarity, fitSimilarity, grownHull, insidePolygon, invertSimilarity, lipsAndOpening, pick } from './landmarks';
import type { EyeBlinks, EyeMotion } from './eye-blink';
import { type OutlineFollower, fitOutline } from './face-shape';
import { BLACK, type LightFollower, type LightTransfer, castShare, evaluate, fitLighting, lightTransfer, sampleActorSkin, transferLuma } from './face-light';
import { MOUTH, type MouthMotion, type MouthSample } from './mouth-motion';
import type { PersonFace } from './person-face';
import { colourFigures } from './person-face';
import { boxBlur, lipsMask } from './planes';
import { type YuvFrame, sampleBilinear } from './yuv';

export const PASTE = {
  /** The brightness spread follows the actor's within these bounds (never flattened: LIGHT.minDetailRatio). */
  minSpreadRatio: 1,
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

/** The part of the actor's opening (0 upper inner lip … 1 lower) stretched into the person's. */
const MOUTH_INSIDE = [0.2, 0.8] as const;

/**
 * The actor's own mouth in this frame, copied before the paste covers it: what shows between the person's
 * parted lips is sampled from it, stretched from the actor's upper inner lip to their lower one (real
 * teeth, tongue and shade; a nearly closed actor mouth gives its dark seam, stretched). Sampled by how far
 * across the opening (0 upper lip … 1 lower) and where along the lips (0 left corner … 1 right).
 */
function actorMouth(frame: YuvFrame, actorLandmarks: number[][]) {
  const upper = pick(actorLandmarks, UPPER_INNER_LIP);
  const lower = pick(actorLandmarks, LOWER_INNER_LIP);
  const xs = [...upper, ...lower].map(([x]) => x);
  const ys = [...upper, ...lower].map(([, y]) => y);
  const half = frame.width >> 1;
  // Even bounds, so the chroma copy lines up with the luma one.
  const x0 = Math.max(0, (Math.floor(Math.min(...xs)) - 4) & ~1);
  const y0 = Math.max(0, (Math.floor(Math.min(...ys)) - 4) & ~1);
  const x1 = Math.min(frame.width, (Math.ceil(Math.max(...xs)) + 6) & ~1);
  const y1 = Math.min(frame.height, (Math.ceil(Math.max(...ys)) + 6) & ~1);
  const w = Math.max(2, x1 - x0);
  const h = Math.max(2, y1 - y0);
  const copyY = new Float32Array(w * h);
  const copyU = new Float32Array((w >> 1) * (h >> 1));
  const copyV = new Float32Array((w >> 1) * (h >> 1));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) copyY[y * w + x] = frame.y[Math.min(frame.height - 1, y0 + y) * frame.width + Math.min(frame.width - 1, x0 + x)]!;
  for (let y = 0; y < h >> 1; y++) {
    for (let x = 0; x < w >> 1; x++) {
      const at = Math.min((frame.height >> 1) - 1, (y0 >> 1) + y) * half + Math.min(half - 1, (x0 >> 1) + x);
      copyU[y * (w >> 1) + x] = frame.u[at]!;
      copyV[y * (w >> 1) + x] = frame.v[at]!;
    }
  }
  /** The point of a polyline at fraction s of its points (not its length: the lips' points are evenly spread). */
  const along = (line: [number, number][], s: number): [number, number] => {
    const f = s * (line.length - 1);
    const i = Math.min(line.length - 2, Math.floor(f));
    const t = f - i;
    return [line[i]![0] + t * (line[i + 1]![0] - line[i]![0]), line[i]![1] + t * (line[i + 1]![1] - line[i]![1])];
  };
  const point = (sample: MouthSample): [number, number] => {
    const top = along(upper, sample[3]);
    const bottom = along(lower, sample[3]);
    // The middle of the actor's opening, clear of the lips' own edges (a small opening is mostly edge).
    const across = MOUTH_INSIDE[0] + (MOUTH_INSIDE[1] - MOUTH_INSIDE[0]) * sample[2];
    return [top[0] + across * (bottom[0] - top[0]) - x0, top[1] + across * (bottom[1] - top[1]) - y0];
  };
  return {
    y(sample: MouthSample): number {
      const [x, y] = point(sample);
      return sampleBilinear(copyY, w, h, x - 0.5, y - 0.5);
    },
    uv(sample: MouthSample): [number, number] {
      const [x, y] = point(sample);
      return [sampleBilinear(copyU, w >> 1, h >> 1, x / 2 - 0.5, y / 2 - 0.5), sampleBilinear(copyV, w >> 1, h >> 1, x / 2 - 0.5, y / 2 - 0.5)];
    },
  };
}

const colourlessLips = new WeakMap<PersonFace, Float32Array | null>();

/**
 * The lips of a face from a photo without colours of its own (black and white, sepia: PersonFace.colourless),
 * softened at their edge, in the person's cut-out; null for a face in colour. Such lips have no colour of
 * their own against the skin (keepLittleTint keeps only that), so they would take the skin's tone:
 * skin-coloured lips. They take the actor's lips' colour instead (actorLipColour).
 */
function lipsWithoutColour(person: PersonFace): Float32Array | null {
  let lips = colourlessLips.get(person);
  if (lips !== undefined) return lips;
  lips = null;
  if (person.colourless) {
    const { width, height } = person;
    lips = lipsMask(width, height, person.landmarks);
    boxBlur(lips, width, height, Math.max(1, Math.round(0.01 * person.coordinates.scale)));
  }
  colourlessLips.set(person, lips);
  return lips;
}

/**
 * The actor's lips' own colour in this frame: their mean U and V (the opening left out) less the skin's in a
 * ring around them (from 1.2 to 1.6 times the lips' hull); undefined when either is off the frame.
 */
function actorLipColour(frame: YuvFrame, actorLandmarks: number[][]): { u: number; v: number } | undefined {
  const { lips, opening } = lipsAndOpening(actorLandmarks);
  const outer = pick(actorLandmarks, OUTER_LIPS);
  const [ringIn, ringOut] = [grownHull(outer, 1.2), grownHull(outer, 1.6)];
  const xs = ringOut.map((p) => p[0]);
  const ys = ringOut.map((p) => p[1]);
  const half = frame.width >> 1;
  // Count, U and V summed, of the lips and of the ring.
  const sums: Record<'lips' | 'ring', [number, number, number]> = { lips: [0, 0, 0], ring: [0, 0, 0] };
  // Each chroma sample at its centre (2·x + 1, 2·y + 1) in the frame's pixels.
  for (let cy = Math.max(0, Math.floor(Math.min(...ys) / 2)); cy <= Math.min((frame.height >> 1) - 1, Math.ceil(Math.max(...ys) / 2)); cy++) {
    for (let cx = Math.max(0, Math.floor(Math.min(...xs) / 2)); cx <= Math.min(half - 1, Math.ceil(Math.max(...xs) / 2)); cx++) {
      const [x, y] = [2 * cx + 1, 2 * cy + 1];
      const sum = insidePolygon(lips, x, y) ? (insidePolygon(opening, x, y) ? undefined : sums.lips) : insidePolygon(ringOut, x, y) && !insidePolygon(ringIn, x, y) ? sums.ring : undefined;
      if (!sum) continue;
      sum[0]++;
      sum[1] += frame.u[cy * half + cx]!;
      sum[2] += frame.v[cy * half + cx]!;
    }
  }
  const [n, u, v] = sums.lips;
  const [m, ringU, ringV] = sums.ring;
  if (n < 4 || m < 4) return undefined;
  return { u: u / n - ringU / m, v: v / n - ringV / m };
}

/**
 * The actor's lighting in this frame against the person's, when both can be fitted; else the means and
 * spread matched (a face with little bare skin showing, a frame where the face is mostly off-screen).
 */
function transferFor(frame: YuvFrame, person: PersonFace, toPerson: Similarity, box: [number, number, number, number], light?: LightFollower): LightTransfer {
  const fit = person.lighting && fitLighting(sampleActorSkin(frame, toPerson, box, person.skin, person.width, person.height, person.coordinates));
  if (person.lighting && fit) return lightTransfer(person.lighting, light ? light.follow(fit) : fit);
  const actor = actorColour(frame, person, toPerson, box);
  const own = person.colour;
  const gain = Math.min(PASTE.maxSpreadRatio, Math.max(PASTE.minSpreadRatio, actor.spreadY / own.spreadY));
  const flat = (value: number) => [value, 0, 0, 0, 0, 0] as LightTransfer['personY'];
  return { gain, personY: flat(own.meanY), actorY: flat(actor.meanY), shiftU: flat((actor.meanU - own.meanU) * PASTE.tint), shiftV: flat((actor.meanV - own.meanV) * PASTE.tint) };
}

/** What moves and follows over frames (each optional: a still photo pasted as it is without them). */
export interface PasteMotion {
  /** Moves the person's lower lip and jaw with the actor's (mouth-motion.ts). */
  mouth?: MouthMotion;
  /** Lets the actor's eye show while it blinks (eye-blink.ts). */
  blinks?: EyeBlinks;
  /** Opens and narrows the person's eyes with the actor's (eye-blink.ts). */
  eyes?: EyeMotion;
  /** Follows the actor's lighting over frames (face-light.ts). */
  light?: LightFollower;
  /** A correction applied after the placement, in the frame (the steadied placement: steady-pose.ts). */
  settle?: Similarity;
  /** How much of the person shows (1, or less while cross-fading between two of their images). */
  opacity?: number;
  /**
   * Only part of this image, another image lending the anchor that part: the mouth and jaw
   * (PersonFace.mouthArea), or the eyes with their lids (PersonFace.eyeArea).
   */
  only?: 'mouth' | 'eyes';
  /** Moves the frame round the actor's face so that its outline is the person's (face-shape.ts; made for this image). */
  shape?: OutlineFollower;
}

/** A box of the person's cut-out in the frame: the frame's pixels it covers, even-aligned (the chroma loop covers the same); undefined when none. */
function frameBounds(frame: YuvFrame, toFrame: Similarity, [bx0, by0, bx1, by1]: [number, number, number, number]): [number, number, number, number] | undefined {
  const corners = [[bx0, by0], [bx1, by0], [bx0, by1], [bx1, by1]].map((p) => applySimilarity(toFrame, p as [number, number]));
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[0])) / 2) * 2);
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[1])) / 2) * 2);
  const x1 = Math.min(frame.width, Math.ceil(Math.max(...corners.map((p) => p[0])) / 2) * 2);
  const y1 = Math.min(frame.height, Math.ceil(Math.max(...corners.map((p) => p[1])) / 2) * 2);
  return x1 > x0 && y1 > y0 ? [x0, y0, x1, y1] : undefined;
}

/**
 * Composites the person's face onto the frame where the actor's mesh is. Returns false when the face is
 * entirely outside the frame.
 */
export function pasteFace(frame: YuvFrame, person: PersonFace, actorLandmarks: number[][], { mouth, blinks, eyes, light, settle, opacity = 1, only, shape }: PasteMotion = {}): boolean {
  const placed = personToFrame(person, actorLandmarks);
  const toFrame = settle ? composeSimilarity(placed, settle) : placed;
  const toPerson = invertSimilarity(toFrame);
  // A dropped jaw moves the chin, and the mask with it, below the mask's box.
  const [mx0, my0, mx1, box1] = person.maskBox;
  const whole = frameBounds(frame, toFrame, [mx0, my0, mx1, mouth?.active ? box1 + mouth.maxDrop : box1]);
  if (!whole) return false;
  // The eyes alone cover only their box (the light is still fitted over the whole face's).
  const bounds = only === 'eyes' ? frameBounds(frame, toFrame, person.eyeBox) : whole;
  if (!bounds) return false;
  const [x0, y0, x1, y1] = bounds;

  const warp = mouth?.active ? mouth : undefined;
  // The actor's mouth is copied, and their lips' colour read, before the frame is moved or pasted over.
  const interior = warp ? actorMouth(frame, actorLandmarks) : undefined;
  const lips = lipsWithoutColour(person);
  const actorLips = lips ? actorLipColour(frame, actorLandmarks) : undefined;
  // The whole face's paste gives the face the person's shape (face-shape.ts); a part lent by another image does not.
  if (shape && !only) {
    const { from, to } = shape.follow(actorLandmarks, toFrame, mouth?.opening ?? 0);
    fitOutline(frame, from, to);
  }
  const transfer = transferFor(frame, person, toPerson, whole, light);
  const look = eyes?.active ? eyes : undefined;
  const area = only === 'mouth' ? person.mouthArea : only === 'eyes' ? person.eyeArea : undefined;
  // While the actor blinks, their own eye shows through (eye-blink.ts).
  const blink = blinks?.active ? blinks : undefined;

  const lipTint = lips && actorLips ? { lips, ...actorLips } : undefined;

  const pass: PixelPass = { frame, person, transfer, toPerson, x0, y0, x1, y1, opacity, look, warp, area, blink, interior, lipTint };
  pasteLuma(pass);
  pasteChroma(pass);
  return true;
}

/** What the pixel loops of one paste read (set up once per paste, per image). */
interface PixelPass {
  frame: YuvFrame;
  person: PersonFace;
  transfer: LightTransfer;
  toPerson: Similarity;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  opacity: number;
  look?: EyeMotion;
  warp?: MouthMotion;
  area?: Float32Array;
  blink?: EyeBlinks;
  interior?: ReturnType<typeof actorMouth>;
  /** Added over a colourless face's lips (lipsWithoutColour): the actor's lips' colour against their skin (actorLipColour). */
  lipTint?: { lips: Float32Array; u: number; v: number };
}

// The luma and chroma loops are functions of their own, not part of pasteFace: V8 inlines calls into a
// function up to a budget per function, and a call it does not inline boxes every number passed to it
// and returned (a heap allocation, collected by the GC on the same cores as the render). So the loops
// make few calls per pixel: the bilinear position is worked out once per pixel for every plane of the
// person (`lerpAt`: sampleBilinear's arithmetic, bit for bit), and the eye and mouth warps are called
// (and the blink's) only inside their bounds, where they change anything.

/** sampleBilinear at a position worked out once: the top-left sample's index and the fractions. */
function lerpAt(plane: Float32Array, at: number, width: number, tx: number, ty: number): number {
  const top = plane[at]! + (plane[at + 1]! - plane[at]!) * tx;
  const bottom = plane[at + width]! + (plane[at + width + 1]! - plane[at + width]!) * tx;
  return top + (bottom - top) * ty;
}

const inBox = (box: Float64Array, x: number, y: number) => x > box[0]! && x < box[2]! && y > box[1]! && y < box[3]!;

/** The person's luma over the frame's, under the mask. */
function pasteLuma({ frame, person, transfer, toPerson, x0, y0, x1, y1, opacity, look, warp, area, blink, interior }: PixelPass) {
  const { cx, cy, scale } = person.coordinates;
  const { width: pw, height: ph, mask } = person;
  const maxX = pw - 1.001;
  const maxY = ph - 1.001;
  // Person coordinates of pixel centres: p = A·(x + 0.5, y + 0.5) + t, walked incrementally along a row.
  const { a, b, tx: ox, ty: oy } = toPerson;
  const source: MouthSample = [0, 0, 0, 0, 0];
  for (let y = y0; y < y1; y++) {
    let px = a * (x0 + 0.5) - b * (y + 0.5) + ox - 0.5;
    let py = b * (x0 + 0.5) + a * (y + 0.5) + oy - 0.5;
    let at = y * frame.width + x0;
    for (let x = x0; x < x1; x++, px += a, py += b, at++) {
      if (px < 0 || py < 0 || px >= pw - 1 || py >= ph - 1) continue;
      let sx = px;
      let sy = py;
      let inside = 0;
      let seam = 0;
      if (look && inBox(look.bounds, sx, sy)) {
        look.source(px, py, source);
        sx = source[0];
        sy = source[1];
      }
      if (warp && inBox(warp.bounds, sx, sy)) {
        inside = warp.source(sx, sy, source);
        seam = source[4];
        sx = source[0];
        sy = source[1];
      }
      const fx = sx < 0 ? 0 : sx > maxX ? maxX : sx;
      const fy = sy < 0 ? 0 : sy > maxY ? maxY : sy;
      const ix = fx | 0;
      const iy = fy | 0;
      const tx = fx - ix;
      const ty = fy - iy;
      const from = iy * pw + ix;
      // The mask moves with the warp: the person's chin drops with the actor's. Inside the opened mouth the
      // actor's own mouth shows (real teeth, tongue and shade, in this frame's light); where a photo's
      // parted lips are closed, the line where they meet is shaded (MOUTH.seamDark).
      let alpha = lerpAt(mask, from, pw, tx, ty) * opacity;
      if (area) alpha *= lerpAt(area, from, pw, tx, ty);
      if (blink && inBox(blink.bounds, x + 0.5, y + 0.5)) alpha *= 1 - blink.keepActor(x + 0.5, y + 0.5) * keptThroughBlink(person, from, pw, tx, ty);
      if (alpha <= 0.002) continue;
      let value = transferLuma(transfer, lerpAt(person.y, from, pw, tx, ty), (px - cx) / scale, (py - cy) / scale);
      if (inside > 0) value += (interior!.y(source) - value) * inside;
      if (seam > 0) value = BLACK + (value - BLACK) * (1 - MOUTH.seamDark * seam);
      frame.y[at] = frame.y[at]! + alpha * (value - frame.y[at]!);
    }
  }
}

/** How far a blinking actor's eye may show at a person's pixel: not through glasses' frames, which stay the person's. */
function keptThroughBlink(person: PersonFace, from: number, pw: number, tx: number, ty: number): number {
  return person.glasses ? 1 - lerpAt(person.glassesFrames, from, pw, tx, ty) : 1;
}

/** The person's chroma (with the actor's light's tint) over the frame's, under the mask. */
function pasteChroma({ frame, person, transfer, toPerson, x0, y0, x1, y1, opacity, look, warp, area, blink, interior, lipTint }: PixelPass) {
  const { cx, cy, scale } = person.coordinates;
  const { width: pw, height: ph, mask } = person;
  const maxX = pw - 1.001;
  const maxY = ph - 1.001;
  const { shiftU, shiftV } = transfer;
  const { a, b, tx: ox, ty: oy } = toPerson;
  const source: MouthSample = [0, 0, 0, 0, 0];
  const half = frame.width >> 1;
  for (let chromaY = y0 >> 1; chromaY < y1 >> 1; chromaY++) {
    // A chroma sample covers 2×2 luma pixels: its centre is at (2·chromaX + 1, 2·chromaY + 1).
    const centreY = 2 * chromaY + 1;
    let px = a * (x0 + 1) - b * centreY + ox - 0.5;
    let py = b * (x0 + 1) + a * centreY + oy - 0.5;
    let at = chromaY * half + (x0 >> 1);
    for (let chromaX = x0 >> 1; chromaX < x1 >> 1; chromaX++, px += 2 * a, py += 2 * b, at++) {
      if (px < 0 || py < 0 || px >= pw - 1 || py >= ph - 1) continue;
      let sx = px;
      let sy = py;
      let inside = 0;
      if (look && inBox(look.bounds, sx, sy)) {
        look.source(px, py, source);
        sx = source[0];
        sy = source[1];
      }
      if (warp && inBox(warp.bounds, sx, sy)) {
        inside = warp.source(sx, sy, source);
        sx = source[0];
        sy = source[1];
      }
      const fx = sx < 0 ? 0 : sx > maxX ? maxX : sx;
      const fy = sy < 0 ? 0 : sy > maxY ? maxY : sy;
      const ix = fx | 0;
      const iy = fy | 0;
      const tx = fx - ix;
      const ty = fy - iy;
      const from = iy * pw + ix;
      let alpha = lerpAt(mask, from, pw, tx, ty) * opacity;
      if (area) alpha *= lerpAt(area, from, pw, tx, ty);
      if (blink && inBox(blink.bounds, 2 * chromaX + 1, centreY)) alpha *= 1 - blink.keepActor(2 * chromaX + 1, centreY) * keptThroughBlink(person, from, pw, tx, ty);
      if (alpha <= 0.002) continue;
      const faceX = (px - cx) / scale;
      const faceY = (py - cy) / scale;
      let cast = castShare(transfer, lerpAt(person.y, from, pw, tx, ty), faceX, faceY);
      // A beard's hair takes none of the actor's skin tone (the photo's own colour, person-face.ts).
      if (person.bearded) cast *= 1 - lerpAt(person.beardHair, from, pw, tx, ty);
      let u = lerpAt(person.u, from, pw, tx, ty) + cast * evaluate(shiftU, faceX, faceY);
      let v = lerpAt(person.v, from, pw, tx, ty) + cast * evaluate(shiftV, faceX, faceY);
      if (lipTint) {
        const onLips = lerpAt(lipTint.lips, from, pw, tx, ty);
        u += onLips * lipTint.u;
        v += onLips * lipTint.v;
      }
      if (inside > 0) {
        const [mouthU, mouthV] = interior!.uv(source);
        u += (mouthU - u) * inside;
        v += (mouthV - v) * inside;
      }
      frame.u[at] = frame.u[at]! + alpha * (u - frame.u[at]!);
      frame.v[at] = frame.v[at]! + alpha * (v - frame.v[at]!);
    }
  }
}
