// Glasses on the person's photo, kept whole as the person's own (person-face.ts), as a beard is: people who
// wear glasses are known by them, to their family and to the face embedders alike. Taken off (their frames
// filled from the skin round them, decision 014's forty-third part), the video was less like the person by
// both embedders (faceres: closer to the person in 0 and 5 of 16 frames on two people, all 16 with them);
// left to the hair fades, their arms faded out at the temples and a brown shade stayed round the rims.
// Frames are dark lines, narrower than the features round the eyes: what is far darker than the brightest
// round it within GLASSES.frameReach (a black-hat: a closing less the picture) near the eyes. A face has
// glasses when their bridge shows, a dark bar across the nose between the eyes.
import { BLACK } from './face-light';
import { BROWS, EYE_CONTOURS, FACE_OVAL, LEFT_EYE_CORNERS, RIGHT_EYE_CORNERS, grownHull, pick } from './landmarks';
import { boxBlur, fillPolygon, maximumAround, minimumAround } from './planes';

export const GLASSES = {
  /** The widest frame, as a share of the face's height: what the black-hat finds (twice this across). */
  frameReach: 0.03,
  /**
   * A face has glasses where the bridge, the darkest row across the nose between the inner ends of the brows
   * and the nose's top (the mesh's point 6), is darker than this share of its surroundings above black
   * (`darkness`). Measured on face-api.js's example photos of three people in glasses (11, grey and colour):
   * 0.64-0.98; sunglasses (a photo of Human's) 0.44; 78 faces without glasses (face-api's demo photos, both
   * clips' frames, face-api.js's other portraits, Human's samples, face_recognition's examples, bearded men,
   * grins, hard shade) at most 0.28, a turned face whose nose's top the frontal turn shades, the rest 0.09
   * and under (decision 014, forty-third part).
   */
  bridgeAbove: 0.4,
  /** A pixel near the eyes is frame from this darkness, and wholly from `frameFull` (a soft edge between). */
  frameFrom: 0.15,
  frameFull: 0.3,
  /** Where frames may be, round each eye's centre, in eye widths (half-sides of a rounded rectangle): along the eye and across it. */
  zoneAlong: 1.5,
  zoneAcross: 1.1,
  /** …and the arms: a band out from each eye to the face's edge, this far above and below its centre (eye widths). */
  armsAbove: 0.8,
  armsBelow: 0.5,
  /** The eyes themselves, their hulls grown by this, are not frame (lashes and lid margins are as dark): a blinking actor's eye shows there. */
  eyeGrow: 1.25,
  /** A frame's soft edge, as a share of the face's height: the mask keeps twice this round it. */
  edge: 0.006,
} as const;

/** A box of pixels, [x0, y0, x1, y1): from x0 and y0, up to but not including x1 and y1. */
type Box = [number, number, number, number];

/**
 * 0..1 per pixel in `box` (0 elsewhere): how much darker it is than the brightest within `reach` round it
 * (the closing), as a share of that above black. A frame or a brow near 1, skin near 0. Only the box and
 * twice `reach` round it are read: telling glasses looks at the bridge alone.
 */
function darkness(y: Float32Array, width: number, height: number, reach: number, [x0, y0, x1, y1]: Box): Float32Array {
  const [left, top] = [Math.max(0, x0 - 2 * reach), Math.max(0, y0 - 2 * reach)];
  const [right, bottom] = [Math.min(width, x1 + 2 * reach), Math.min(height, y1 + 2 * reach)];
  const partWidth = right - left;
  const part = new Float32Array(partWidth * Math.max(0, bottom - top));
  for (let row = top; row < bottom; row++) part.set(y.subarray(row * width + left, row * width + right), (row - top) * partWidth);
  const closed = minimumAround(maximumAround(Float32Array.from(part), partWidth, bottom - top, reach), partWidth, bottom - top, reach);
  const dark = new Float32Array(width * height);
  for (let row = Math.max(0, y0); row < Math.min(height, y1); row++) {
    for (let x = Math.max(0, x0); x < Math.min(width, x1); x++) {
      const j = (row - top) * partWidth + x - left;
      dark[row * width + x] = Math.max(0, closed[j]! - part[j]!) / Math.max(8, closed[j]! - BLACK);
    }
  }
  return dark;
}

/** Where the bridge is looked for: across the nose between the brows' inner ends and the nose's top (the mesh's point 6). */
function bridgeBox(width: number, height: number, landmarks: number[][], reach: number): Box {
  const at = (i: number) => landmarks[i]!;
  const middle = Math.round((at(LEFT_EYE_CORNERS[1])[0]! + at(RIGHT_EYE_CORNERS[0])[0]!) / 2);
  const top = Math.round(Math.min(at(BROWS[0][5])[1]!, at(BROWS[1][9])[1]!));
  return [Math.max(0, middle - reach), Math.max(0, top), Math.min(width, middle + reach + 1), Math.min(height, Math.round(at(6)[1]!) + 1)];
}

/** How dark the bridge is: the darkest row of the bridge's box by the darkness most of it reaches (its lower quartile). */
function bridgeDarkness(dark: Float32Array, width: number, [x0, y0, x1, y1]: Box): number {
  // A bridge crosses the whole nose; the inner end of a brow on a turned face only reaches in from one side.
  let darkest = 0;
  for (let row = y0; row < y1; row++) {
    const values = Array.from(dark.subarray(row * width + x0, row * width + x1)).sort((a, b) => a - b);
    if (values.length) darkest = Math.max(darkest, values[Math.floor(0.25 * (values.length - 1))]!);
  }
  return darkest;
}

/** 1 where frames may be (GLASSES' zone round each eye and the arms' bands, inside the face's outline's box), and that zone's box. */
function frameZone(width: number, height: number, landmarks: number[][]): { zone: Float32Array; box: Box } {
  const zone = new Float32Array(width * height);
  const outline = pick(landmarks, FACE_OVAL);
  const [left, right] = [Math.max(0, Math.floor(Math.min(...outline.map(([x]) => x)))), Math.min(width, Math.ceil(Math.max(...outline.map(([x]) => x))))];
  const box: Box = [width, height, 0, 0];
  for (const [outerIndex, innerIndex] of [LEFT_EYE_CORNERS, RIGHT_EYE_CORNERS]) {
    const [outer, inner] = [landmarks[outerIndex]!, landmarks[innerIndex]!];
    const eyeWidth = Math.max(1, Math.hypot(inner[0]! - outer[0]!, inner[1]! - outer[1]!));
    // Along: outwards from the centre, towards the temple; across: downwards.
    const axis = [(outer[0]! - inner[0]!) / eyeWidth, (outer[1]! - inner[1]!) / eyeWidth];
    const centre = [(outer[0]! + inner[0]!) / 2, (outer[1]! + inner[1]!) / 2];
    const down = axis[0]! < 0 ? -1 : 1;
    const reach = 1.5 * Math.max(GLASSES.zoneAlong, GLASSES.zoneAcross, GLASSES.armsAbove) * eyeWidth;
    for (let y = Math.max(0, Math.floor(centre[1]! - reach)); y < Math.min(height, Math.ceil(centre[1]! + reach)); y++) {
      for (let x = left; x < right; x++) {
        const dx = x + 0.5 - centre[0]!;
        const dy = y + 0.5 - centre[1]!;
        const along = (dx * axis[0]! + dy * axis[1]!) / eyeWidth;
        const across = ((dy * axis[0]! - dx * axis[1]!) * down) / eyeWidth;
        // A rounded rectangle (a superellipse): a lens's corners reach further than an ellipse's.
        const inLens = (along / GLASSES.zoneAlong) ** 4 + (across / GLASSES.zoneAcross) ** 4 < 1;
        const inArms = along > 0 && across > -GLASSES.armsAbove && across < GLASSES.armsBelow;
        if (!inLens && !inArms) continue;
        zone[y * width + x] = 1;
        box[0] = Math.min(box[0], x);
        box[1] = Math.min(box[1], y);
        box[2] = Math.max(box[2], x + 1);
        box[3] = Math.max(box[3], y + 1);
      }
    }
  }
  return { zone, box };
}

/**
 * The glasses' frames on the cut-out turned frontal, or undefined when the face has none (bridgeDarkness under
 * GLASSES.bridgeAbove): `frames`, 0..1 per pixel, how much of it is frame (off the eyes and brows, where a
 * blinking actor's eye shows); `reach`, the frames grown by their soft edge, what the mask keeps whole.
 */
export function findGlasses(y: Float32Array, width: number, height: number, landmarks: number[][], scale: number): { frames: Float32Array; reach: Float32Array } | undefined {
  const widest = Math.max(1, Math.round(GLASSES.frameReach * scale));
  const bridge = bridgeBox(width, height, landmarks, widest);
  if (bridgeDarkness(darkness(y, width, height, widest, bridge), width, bridge) < GLASSES.bridgeAbove) return undefined;
  const { zone, box } = frameZone(width, height, landmarks);
  const dark = darkness(y, width, height, widest, box);
  const frames = new Float32Array(width * height);
  for (let i = 0; i < frames.length; i++) {
    if (zone[i]) frames[i] = Math.min(1, Math.max(0, (dark[i]! - GLASSES.frameFrom) / (GLASSES.frameFull - GLASSES.frameFrom)));
  }
  const edge = Math.max(1, Math.round(GLASSES.edge * scale));
  const reach = maximumAround(Float32Array.from(frames), width, height, 2 * edge);
  boxBlur(reach, width, height, edge);
  // Where a frame runs into an eye or a brow it gives way over a few pixels, not at the hull's edge.
  const own = new Float32Array(width * height);
  for (const contour of EYE_CONTOURS) fillPolygon(own, width, height, grownHull(pick(landmarks, contour), GLASSES.eyeGrow));
  for (const brow of BROWS) fillPolygon(own, width, height, grownHull(pick(landmarks, brow), 1));
  boxBlur(own, width, height, edge);
  for (let i = 0; i < frames.length; i++) frames[i] = frames[i]! * (1 - Math.min(1, 2 * own[i]!));
  return { frames, reach };
}
