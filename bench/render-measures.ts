// Figures bench/render takes on a face to tell one real face from a pasted mask (issue 15): the spread
// of the skin's colour, the jitter of the mesh over consecutive frames, how far the head is turned.
// Each is taken the same way on the template and on the output, so the output is judged against its
// own template (lighting, compression and camera are the same in both).
import type { Frame, HeadPose } from '../src/server/pipeline/face-engine';
import { CHIN, FACE_OVAL, FOREHEAD, OUTER_LIPS, type Point, pick } from '../src/server/pipeline/render/landmarks';

// Contours of the 468-point mesh (MediaPipe's FACEMESH_* edge lists, put in order round each shape).
// Here rather than in src/: only the bench cuts the eyes and brows out of the face (the lips' outline is
// landmarks.ts OUTER_LIPS, which the render uses too).
const RIGHT_EYE = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246] as const;
const LEFT_EYE = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466] as const;
const RIGHT_BROW = [46, 53, 52, 65, 55, 107, 66, 105, 63, 70] as const;
const LEFT_BROW = [276, 283, 282, 295, 285, 336, 296, 334, 293, 300] as const;

export const SKIN = {
  /**
   * The outline is shrunk towards its centre by this: the mesh's jaw line wanders a few pixels either
   * side of the real one, and a thin band of neck, hair or background would dominate a spread.
   */
  outlineScale: 0.95,
  /**
   * The eye contour is the lid margin: lashes, liner and the eye's shadow lie just outside it, so the
   * hole is the contour grown this much from its centre. Brows and lips have sharper contours.
   */
  eyeScale: 1.6,
  browScale: 1.3,
  lipScale: 1.15,
  /** Box-blur radius in pixels at 720 rows (scaled with the frame's height, at least 1): x264 grain and pores are not colour blotches. */
  blurRadiusAt720: 2,
} as const;

/** The polygon grown (scale > 1) or shrunk about its centroid. */
function scaled(polygon: Point[], scale: number): Point[] {
  const cx = polygon.reduce((sum, p) => sum + p[0], 0) / polygon.length;
  const cy = polygon.reduce((sum, p) => sum + p[1], 0) / polygon.length;
  return polygon.map(([x, y]) => [cx + (x - cx) * scale, cy + (y - cy) * scale]);
}

/** Sets `value` in `mask` (width × height, origin x0, y0 in frame pixels) inside the polygon (even-odd, pixel centres). */
function fillPolygon(mask: Uint8Array, width: number, height: number, x0: number, y0: number, polygon: Point[], value: number) {
  for (let y = 0; y < height; y++) {
    const cy = y0 + y + 0.5;
    const crossings: number[] = [];
    for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
      const [xi, yi] = polygon[i]!;
      const [xj, yj] = polygon[j]!;
      if (yi > cy !== yj > cy) crossings.push(xi + ((cy - yi) / (yj - yi)) * (xj - xi));
    }
    crossings.sort((p, q) => p - q);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const from = Math.max(0, Math.ceil(crossings[k]! - x0 - 0.5));
      const to = Math.min(width - 1, Math.floor(crossings[k + 1]! - x0 - 0.5));
      for (let x = from; x <= to; x++) mask[y * width + x] = value;
    }
  }
}

/** Box blur of radius r along rows then columns, each channel, edges clamped. */
function boxBlur(pixels: Float32Array, width: number, height: number, channels: number, r: number): Float32Array {
  const pass = (source: Float32Array, horizontal: boolean) => {
    const out = new Float32Array(source.length);
    const length = horizontal ? width : height;
    const lines = horizontal ? height : width;
    for (let line = 0; line < lines; line++) {
      for (let c = 0; c < channels; c++) {
        const at = (i: number) => {
          const k = Math.min(length - 1, Math.max(0, i));
          return ((horizontal ? line * width + k : k * width + line) * channels) + c;
        };
        let sum = 0;
        for (let i = -r; i <= r; i++) sum += source[at(i)]!;
        for (let i = 0; i < length; i++) {
          out[at(i)] = sum / (2 * r + 1);
          sum += source[at(i + r + 1)]! - source[at(i - r)]!;
        }
      }
    }
    return out;
  };
  return pass(pass(pixels, true), false);
}

const linear = (v: number) => {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
const labF = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 / 116 + 16 / 116);

/** CIELAB a* and b* of an sRGB colour (D65). */
export function labAB(r: number, g: number, b: number): [number, number] {
  const R = linear(r), G = linear(g), B = linear(b);
  const x = (0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047;
  const y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const z = (0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883;
  const fx = labF(x), fy = labF(y), fz = labF(z);
  return [500 * (fx - fy), 200 * (fy - fz)];
}

export interface SkinSpread {
  /** Standard deviations of CIELAB a* and b* over the skin. */
  a: number;
  b: number;
  /**
   * The skin's fine detail: the spread of luma minus its 3×3 mean (pores, fine lines, the camera's grain)
   * over the same skin, divided by the skin's mean luma. A face pasted from a soft or small photo into a
   * sharp frame has less of it than the frame: a smooth mask.
   */
  detail: number;
  pixels: number;
}

/**
 * How blotchy the skin's colour is: the standard deviations of a* and b* inside the face outline without
 * the eyes, brows and lips, on a slightly blurred frame. A real face under one light varies little in
 * hue; a mask pasted with the wrong colours, ghosting or seams varies much more (field notes: broken
 * composites 1.7-2.4× their template).
 */
export function skinColourSpread(frame: Frame, landmarks: number[][]): SkinSpread | undefined {
  const channels = frame.data.length / (frame.width * frame.height);
  const outline = scaled(pick(landmarks, FACE_OVAL), SKIN.outlineScale);
  const radius = Math.max(1, Math.round((SKIN.blurRadiusAt720 * frame.height) / 720));
  // The outline's box, with room for the blur.
  const x0 = Math.max(0, Math.floor(Math.min(...outline.map((p) => p[0]))) - radius);
  const y0 = Math.max(0, Math.floor(Math.min(...outline.map((p) => p[1]))) - radius);
  const x1 = Math.min(frame.width, Math.ceil(Math.max(...outline.map((p) => p[0]))) + radius);
  const y1 = Math.min(frame.height, Math.ceil(Math.max(...outline.map((p) => p[1]))) + radius);
  const width = x1 - x0;
  const height = y1 - y0;
  if (width < 8 || height < 8) return undefined;
  const crop = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = ((y0 + y) * frame.width + x0 + x) * channels;
      const to = (y * width + x) * 3;
      crop[to] = frame.data[from]!;
      crop[to + 1] = frame.data[from + 1]!;
      crop[to + 2] = frame.data[from + 2]!;
    }
  }
  const blurred = boxBlur(crop, width, height, 3, radius);
  const mask = new Uint8Array(width * height);
  fillPolygon(mask, width, height, x0, y0, outline, 1);
  for (const [contour, scale] of [
    [RIGHT_EYE, SKIN.eyeScale],
    [LEFT_EYE, SKIN.eyeScale],
    [RIGHT_BROW, SKIN.browScale],
    [LEFT_BROW, SKIN.browScale],
    [OUTER_LIPS, SKIN.lipScale],
  ] as const) {
    fillPolygon(mask, width, height, x0, y0, scaled(pick(landmarks, contour), scale), 0);
  }
  const luma = Float32Array.from({ length: width * height }, (_, i) => 0.299 * crop[i * 3]! + 0.587 * crop[i * 3 + 1]! + 0.114 * crop[i * 3 + 2]!);
  const lumaMean = boxBlur(luma, width, height, 1, 1);
  let n = 0, sumA = 0, sumB = 0, sumA2 = 0, sumB2 = 0, sumY = 0, sumFine2 = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const [a, b] = labAB(blurred[i * 3]!, blurred[i * 3 + 1]!, blurred[i * 3 + 2]!);
    n++;
    sumA += a;
    sumB += b;
    sumA2 += a * a;
    sumB2 += b * b;
    sumY += luma[i]!;
    sumFine2 += (luma[i]! - lumaMean[i]!) ** 2;
  }
  if (n < 50) return undefined;
  const std = (sum: number, sum2: number) => Math.sqrt(Math.max(0, sum2 / n - (sum / n) ** 2));
  return { a: std(sumA, sumA2), b: std(sumB, sumB2), detail: Math.sqrt(sumFine2 / n) / Math.max(1, sumY / n), pixels: n };
}

/** Each eye's contour grown by this for eyeColourGap: the iris, the white and the lid margin. */
const EYE_COLOUR_SCALE = 1.3;

/**
 * How unlike in colour the two eyes are: the distance in CIELAB a*b* between the mean colours over each eye
 * (its contour grown by EYE_COLOUR_SCALE). A person's two eyes are one colour under one light; a photo lit
 * by two lamps carries each side's colour into its eye (sample3: her right eye warm brown, her left blue).
 */
export function eyeColourGap(frame: Frame, landmarks: number[][]): number | undefined {
  const channels = frame.data.length / (frame.width * frame.height);
  const means = [RIGHT_EYE, LEFT_EYE].map((contour) => {
    const polygon = scaled(pick(landmarks, contour), EYE_COLOUR_SCALE);
    const x0 = Math.max(0, Math.floor(Math.min(...polygon.map((p) => p[0]))));
    const y0 = Math.max(0, Math.floor(Math.min(...polygon.map((p) => p[1]))));
    const width = Math.min(frame.width, Math.ceil(Math.max(...polygon.map((p) => p[0])))) - x0;
    const height = Math.min(frame.height, Math.ceil(Math.max(...polygon.map((p) => p[1])))) - y0;
    if (width < 2 || height < 2) return undefined;
    const mask = new Uint8Array(width * height);
    fillPolygon(mask, width, height, x0, y0, polygon, 1);
    let n = 0, sumA = 0, sumB = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (!mask[y * width + x]) continue;
        const at = ((y0 + y) * frame.width + x0 + x) * channels;
        const [a, b] = labAB(frame.data[at]!, frame.data[at + 1]!, frame.data[at + 2]!);
        n++;
        sumA += a;
        sumB += b;
      }
    }
    return n >= 10 ? [sumA / n, sumB / n] : undefined;
  });
  const [right, left] = means;
  return right && left ? Math.hypot(right[0]! - left[0]!, right[1]! - left[1]!) : undefined;
}

/**
 * Landmark jitter over consecutive frames: the mean length of each mesh point's second temporal
 * difference (p[t+1] − 2·p[t] + p[t−1], in the picture's plane) over the 468 points, divided by the face
 * height (forehead to chin) at t, averaged over every t whose neighbours both have a face. A steady or
 * smoothly moving face scores near the detector's own noise; a paste that shakes against the head scores
 * more. In thousandths of the face height. The floor is the mesh model's own noise, not motion: ~5 on the
 * still astronaut portrait zooming smoothly, ~6 on talking-man, the same with the frame upscaled 2× (not
 * Human's rounding to whole pixels) and ~3 for the mesh's centroid alone (the noise moves the whole mesh).
 */
export function meshJitter(run: (number[][] | undefined)[]): { jitter: number; triples: number } {
  let sum = 0;
  let triples = 0;
  for (let t = 1; t + 1 < run.length; t++) {
    const [before, now, after] = [run[t - 1], run[t], run[t + 1]];
    if (!before || !now || !after) continue;
    const size = Math.hypot(now[FOREHEAD]![0]! - now[CHIN]![0]!, now[FOREHEAD]![1]! - now[CHIN]![1]!);
    if (size === 0) continue;
    let frameSum = 0;
    for (let i = 0; i < now.length; i++) {
      frameSum += Math.hypot(after[i]![0]! - 2 * now[i]![0]! + before[i]![0]!, after[i]![1]! - 2 * now[i]![1]! + before[i]![1]!);
    }
    sum += frameSum / now.length / size;
    triples++;
  }
  return { jitter: triples ? (1000 * sum) / triples : NaN, triples };
}

/** How far the head is turned or tilted, in Human's degrees: the larger of |yaw| and |roll|. */
export function headTurn(pose: HeadPose): { degrees: number; axis: 'yaw' | 'roll' } {
  return Math.abs(pose.yaw) >= Math.abs(pose.roll) ? { degrees: Math.abs(pose.yaw), axis: 'yaw' } : { degrees: Math.abs(pose.roll), axis: 'roll' };
}
