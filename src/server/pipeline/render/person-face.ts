// The person's face, prepared once per render: the photo decoded (EXIF orientation applied), its
// largest face found with the mesh, cut out with a margin, as float Y/U/V planes, with a feathered
// mask over the whole face (jaw to forehead: the outline carries the identity), its colour figures, and
// the photo's own light over bare skin (face-light.ts) with most of the skin's stray tint taken out.
import sharp from 'sharp';
import { isEyesClosed } from '../../../shared/face-analysis';
import { type FaceEngine, boxOverlap } from '../face-engine';
import { eyeGaze, eyeOpening, irisPositions } from './eye-blink';
import { findGlasses } from './glasses';
import { BLACK, type FaceCoordinates, type Lighting, MIN_SKIN, evaluate, fitLighting, toneShare } from './face-light';
import { type MeshTopology, forEachPixelIn, frontalise, meshTopology } from './frontal-face';
import { CHIN, EYE_CONTOURS, FACE_OVAL, LOWER_LIDS, LOWER_LIP_OUTER, MOUTH_CORNERS, NOSE_TIP, NOSE_WINGS, OUTER_LIPS, LEFT_EYE_CORNERS, type Point, RIGHT_EYE_CORNERS, EYES_WITH_BROWS, grownHull, pick } from './landmarks';
import { loadMeshModel, meshFittedUpright } from './mesh-model';
import { jawOpenedToPicture } from './mouth-motion';
import { boxBlur, fillPolygon, lipsMask, minimumAround } from './planes';
import { rgbToYuvPlanes, sampleBilinear } from './yuv';

export interface PersonFace {
  width: number;
  height: number;
  y: Float32Array;
  u: Float32Array;
  v: Float32Array;
  /** 0..1 per pixel: how much of the person shows (1 inside the face, feathered to 0 at the outline). */
  mask: Float32Array;
  /** 1 over the middle of the face (the outline shrunk to CORE_SCALE): where colours are compared, away from hair and background. */
  core: Uint8Array;
  /** The mask's bounding box [x0, y0, x1, y1] (pixels where it is > 0). */
  maskBox: [number, number, number, number];
  /** The 468-point mesh in this cut-out's pixels. */
  landmarks: number[][];
  /** Mean and spread of Y, and mean U and V, over the inside of the mask (for the colour match). */
  colour: ColourFigures;
  /** Faces found in the photo (the largest is used). */
  facesInPhoto: number;
  /** 1 on bare skin: inside the outline, off the eyes, brows, nose and lips, and not hair (face-light.ts). */
  skin: Uint8Array;
  /** The face coordinates the lighting surfaces are in. */
  coordinates: FaceCoordinates;
  /** The photo's own light and skin tone over `skin`; undefined when too little skin shows (the means are matched then). */
  lighting: Lighting | undefined;
  /** 0..1: the mouth and jaw, feathered (what another image of the person lends the anchor: face-choice.ts). */
  mouthArea: Float32Array;
  /** 0..1: each eye with its lids, feathered (what an image with open eyes lends an anchor whose eyes are shut). */
  eyeArea: Float32Array;
  /** The eye area's bounding box [x0, y0, x1, y1]: a paste of the eyes alone covers only that. */
  eyeBox: [number, number, number, number];
  /**
   * How open the eyes are, on the lids the iris model drew (face-engine.ts `refineEyes`), and whether that
   * is shut (at most EYES_CLOSED_OPENING); undefined and false when not measured (loadPersonFace's `eyes`).
   */
  eyeOpening: number | undefined;
  eyesShut: boolean;
  /** Where the eyes look across the face as it is pasted (eye-blink.ts eyeGaze); undefined when not measurable. */
  gaze: number | undefined;
  /** Where each iris is along its eye (eye-blink.ts irisPositions): where the eyes can turn to follow the actor's. */
  irises: (number | undefined)[];
  /**
   * The photo has no colours of its own: black and white, or one tone (a sepia or toned print), its every
   * colour following its brightness (toneSpread under PERSON_FACE.oneToneWithin). Its lips are then no
   * redder than its skin, and take the actor's lips' colour in the paste (face-paste.ts lipsWithoutColour).
   */
  colourless: boolean;
  /** Whether the person has a beard (hasBeard): the mask keeps it whole, as the person's own. */
  bearded: boolean;
  /**
   * 0..1 per pixel: a beard's hair (all 0 without a beard). It keeps the photo's own colour, and the paste
   * gives it none of the actor's skin tone (face-paste.ts): hair is not skin.
   */
  beardHair: Float32Array;
  /** Whether the person wears glasses (glasses.ts): the mask keeps their frames whole, as the person's own. */
  glasses: boolean;
  /** 0..1 per pixel: glasses' frames (all 0 without glasses); a blinking actor's eye does not show through them (face-paste.ts). */
  glassesFrames: Float32Array;
}

export interface ColourFigures {
  meanY: number;
  spreadY: number;
  meanU: number;
  meanV: number;
}

export const PERSON_FACE = {
  /** The cut-out: the face's landmark box grown by this share on each side. */
  margin: 0.5,
  /** The face (landmark box height) is scaled to about this many pixels: more than the largest face we paste. */
  faceSide: 320,
  /** Mask edge: feathered over this share of the face height, inside the outline. */
  feather: 0.1,
  /** The outline is pushed out (or in, < 1) from the face centre by this factor before feathering. */
  outlineScale: 1.0,
  /** The colour figures are taken inside the outline shrunk to this (cheeks, nose, eyes, mouth: no hair, no background). */
  coreScale: 0.7,
  /**
   * Pixels that do not look like the person's skin (hair across the face) are left out of the mask, except
   * the eyes, brows, nose and lips. A pixel is skin-like while its distance from the skin colour (in spreads
   * of U, V and, for darker pixels, Y) stays under this.
   */
  hairDistance: 3,
  /** The eyes with their brows, the nose and the lips are kept within their hulls grown by this. */
  featureScale: 1.25,
  /** The lighting is measured on skin inside the outline shrunk to this (clear of the hairline and the background). */
  skinScale: 0.9,
  /** A pixel counts as bare skin where the hair fade left at least this much of the mask. */
  skinMask: 0.9,
  /**
   * Share of the photo's own tint kept on the skin, about its smooth skin tone (the rest is the actor's,
   * face-light.ts): a coloured lamp, blotches and strands of hair lose their colour. Identity lives in the
   * brightness far more than in the tint. Measured on sample3 (a blue lamp on one side, a warm one on the
   * other): skin 0.35 and features 1 left b* spreads of 4.65 and 3.57 × the templates'; 0.15 and 0.6 gave
   * 2.65 and 2.04 with the same identity figures.
   */
  skinTintKept: 0.15,
  /** The same for the eyes and lips: they keep most of their own colour, but not all of a lamp's on them. */
  featureTintKept: 0.6,
  /**
   * Share of each lip pixel's own colour kept about the lips' mean (evenLipColour). Measured on the talking
   * man's first frame, the spread of CIELAB a* / b* over the output's lips (the outer lips less the opening,
   * on the output's own mesh; the template's 4.5 / 1.1): sample3 (a warm lamp on one side, a blue one on
   * the other) 6.3 / 8.0 → 3.9 / 5.9, sample5 5.0 / 3.5 → 4.3 / 3.2, sample6 3.8 / 2.8 → 2.3 / 1.6; keeping
   * 0.2 took little more off (sample3 3.1 / 5.4). What is left on sample3 is not the photo's own colour.
   */
  lipSpreadKept: 0.4,
  /** evenEyeColour: each eye's hull (its contour) grown by this, reaching its lid margin and liner. */
  eyeColourReach: 1.3,
  /**
   * evenEyeColour: the two eyes' own colours (means over those hulls, U and V units) are brought no closer
   * than this. Under one light they differ by 0.1-2.0 (the talking woman's and man's frames, face-api's
   * sample1, 2 and 5, the portrait; 2.0 on an eye glancing aside, the iris moved along it) and are left as
   * they are, with room to spare for a real family's photo; sample3 between a warm lamp and a blue one 11.7.
   * sample6 (3.3) and sample4 (2.5) are near the line: brought to 2, the video's eyes were no nearer one
   * colour (the bench's eye colour gap 2.26 → 2.30 on the talking man, 1.24 → 1.12 on the woman) and one
   * frame of woman · sample4 went over to the actor by face-api (decision 014, thirty-eighth part).
   */
  eyeColourGapKept: 3,
  /**
   * The skin's local tint, what a pixel's own colour is measured against, is the bare skin's colour
   * averaged around it over about this share of the face's height (two box blurs of this radius). A
   * quadratic over the whole face cannot follow a lamp's edge (sample3: blue light on one side, warm on
   * the other); measured against it, that edge counted as the pixels' own colour and was kept.
   */
  localTintRadius: 0.06,
  /** fadeOffSkin's limit, in the skin's own spreads about its light (Y only darker, U and V either way). */
  offSkinDistance: 4,
  /** fillFromMirror takes a covered pixel from the other side of the face only where that is clearer by this much. */
  mirrorGain: 0.05,
  /** …and only where the mirror place is at least this share of the face's height away (not at the midline). */
  mirrorMinDistance: 0.1,
  /**
   * The eyes an image with open eyes lends an anchor whose eyes are shut (eyeArea), in eye widths: along
   * the eye and across it (semi-axes). Full out to 60 % of these (the feather beyond): the portrait's
   * wide-open upper lid is 0.35 of the eye's width above the line between its corners; brows are further.
   */
  eyeAreaAlong: 0.8,
  eyeAreaAcross: 0.6,
  /**
   * A cut-out whose toneSpread is under this came from a photo without colours of its own (U and V units).
   * Black and white gives 0; sepia (the classic matrix) and toned prints (sharp's tint) made of face-api's
   * demo photos and the talking clips' frames gave 1.2-3.5, their JPEG's noise. 66 colour photos of real
   * people gave 4.4 and more: 4.4-7.6 for low-key studio portraits on black, most 8-50; lips, eyes, hair
   * and background each differ in colour at the same brightness (decision 014, fortieth part).
   */
  oneToneWithin: 4,
  /**
   * hasBeard: the chin's middle is under this share of the cheek's brightness. Measured on 11 photos of 7
   * bearded men (face-api.js's and face_recognition's examples): full dark beards and a goatee 0.19-0.47,
   * short or light beards 0.60-0.84 (not told); 54 beardless faces (face-api's demo photos, both clips'
   * frames, Human's samples, clean-shaven men; grins, a tongue out, hard shade) 0.60 and over (decision
   * 014, forty-second part).
   */
  beardBelow: 0.5,
} as const;

export class PersonFaceError extends Error {
  override name = 'PersonFaceError';
}

/**
 * The feathered whole-face mask: the outline polygon filled, blurred, then remapped so that it reaches
 * 1 a feather's width inside the outline and 0 at the outline itself (no person's pixels outside it).
 */
function scaledOutline(landmarks: number[][], scale: number): Point[] {
  const outline = pick(landmarks, FACE_OVAL);
  const centre = outline.reduce<Point>((sum, [x, y]) => [sum[0] + x / outline.length, sum[1] + y / outline.length], [0, 0]);
  return outline.map(([x, y]): Point => [centre[0] + (x - centre[0]) * scale, centre[1] + (y - centre[1]) * scale]);
}

export function faceMask(width: number, height: number, landmarks: number[][], options: { feather: number; outlineScale: number }) {
  const polygon = scaledOutline(landmarks, options.outlineScale);
  const ys = polygon.map(([, y]) => y);
  const faceHeight = Math.max(...ys) - Math.min(...ys);
  const mask = new Float32Array(width * height);
  fillPolygon(mask, width, height, polygon);
  const radius = Math.max(1, Math.round((options.feather * faceHeight) / 2));
  boxBlur(mask, width, height, radius);
  boxBlur(mask, width, height, radius);
  // After the blur the outline sits at 0.5: keep only the inside, stretched to 0..1 and eased.
  let x0 = width, y0 = height, x1 = 0, y1 = 0;
  for (let i = 0; i < mask.length; i++) {
    const t = Math.min(1, Math.max(0, (mask[i]! - 0.5) * 2));
    mask[i] = t * t * (3 - 2 * t);
    if (mask[i]! > 0) {
      const x = i % width;
      const y = (i - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return { mask, box: [x0, y0, x1 + 1, y1 + 1] as [number, number, number, number] };
}

export function colourFigures(planes: { y: ArrayLike<number>; u: ArrayLike<number>; v: ArrayLike<number> }, weight: (i: number) => boolean, count: number): ColourFigures {
  let n = 0, sy = 0, syy = 0, su = 0, sv = 0;
  for (let i = 0; i < count; i++) {
    if (!weight(i)) continue;
    const y = planes.y[i]!;
    n++; sy += y; syy += y * y; su += planes.u[i]!; sv += planes.v[i]!;
  }
  if (n === 0) return { meanY: 128, spreadY: 1, meanU: 128, meanV: 128 };
  const meanY = sy / n;
  return { meanY, spreadY: Math.sqrt(Math.max(1, syy / n - meanY * meanY)), meanU: su / n, meanV: sv / n };
}

/** Features that stay the person's whatever their colour: each eye with its brow, the nose, the lips. */
const FEATURES = [
  ...EYES_WITH_BROWS,
  [168, 6, 197, 195, 5, 4, 1, 19, 94, 2, 98, 97, 326, 327, 129, 358, 64, 294],
  OUTER_LIPS,
] as const;

/** U and V of a grey (no tint). */
const NEUTRAL = 128;

/** 1 inside the eyes with their brows, the nose and the lips (their hulls grown by `scale`). */
function featureMask(width: number, height: number, landmarks: number[][], scale: number): Float32Array {
  const features = new Float32Array(width * height);
  for (const group of FEATURES) fillPolygon(features, width, height, grownHull(pick(landmarks, group), scale));
  return features;
}

/** 1 inside the face's outline shrunk to PERSON_FACE.skinScale: the face, clear of the hairline and the background. */
export function innerFace(width: number, height: number, landmarks: number[][]): Uint8Array {
  const area = new Float32Array(width * height);
  fillPolygon(area, width, height, scaledOutline(landmarks, PERSON_FACE.skinScale));
  return Uint8Array.from(area);
}

/** Face coordinates: centred on the outline's middle, in units of the face's height. */
export function faceCoordinates(landmarks: number[][]): FaceCoordinates {
  const outline = pick(landmarks, FACE_OVAL);
  const ys = outline.map(([, y]) => y);
  return {
    cx: outline.reduce((sum, [x]) => sum + x, 0) / outline.length,
    cy: ys.reduce((sum, y) => sum + y, 0) / outline.length,
    scale: Math.max(1, Math.max(...ys) - Math.min(...ys)),
  };
}

/** Samples of Y, U, V at face coordinates where `keep` holds, on a grid of about 6,000 points. */
function skinSamples(planes: { y: Float32Array; u: Float32Array; v: Float32Array }, width: number, height: number, coordinates: FaceCoordinates, keep: (i: number) => boolean) {
  const samples: { x: number; y: number; Y: number; U: number; V: number }[] = [];
  const step = Math.max(1, Math.floor(Math.sqrt((width * height) / 6000)));
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      const i = y * width + x;
      if (!keep(i)) continue;
      samples.push({ x: (x + 0.5 - coordinates.cx) / coordinates.scale, y: (y + 0.5 - coordinates.cy) / coordinates.scale, Y: planes.y[i]!, U: planes.u[i]!, V: planes.v[i]! });
    }
  }
  return samples;
}

/**
 * Fades the mask out where the person's face is covered by something that is not skin (a fringe, strands
 * across a cheek, a hat's brim), so the actor's skin shows there instead of hair pasted onto it. The skin's
 * colour is measured in the core of the face; every pixel outside the eyes, brows, nose and lips is weighted
 * by its distance from it; the weight is smoothed so the mask keeps soft edges. Measured on face-api's
 * sample5 (strands over the forehead and a cheek): bench/render.bench.ts review sheets.
 */
export function fadeHair(
  mask: Float32Array,
  planes: { y: Float32Array; u: Float32Array; v: Float32Array },
  core: Uint8Array,
  width: number,
  height: number,
  landmarks: number[][],
  options: { hairDistance: number; featureScale: number },
) {
  // The skin's colour and spread, over the core of the face.
  let n = 0, sy = 0, syy = 0, su = 0, suu = 0, sv = 0, svv = 0;
  for (let i = 0; i < core.length; i++) {
    if (!core[i]) continue;
    const y = planes.y[i]!, u = planes.u[i]!, v = planes.v[i]!;
    n++; sy += y; syy += y * y; su += u; suu += u * u; sv += v; svv += v * v;
  }
  if (n < 50) return;
  const spread = (s: number, ss: number) => Math.sqrt(Math.max(4, ss / n - (s / n) ** 2));
  const [my, mu, mv] = [sy / n, su / n, sv / n];
  const [dy, du, dv] = [spread(sy, syy), spread(su, suu), spread(sv, svv)];

  const features = featureMask(width, height, landmarks, options.featureScale);
  const ys = pick(landmarks, FACE_OVAL).map(([, y]) => y);
  const radius = Math.max(1, Math.round(0.02 * (Math.max(...ys) - Math.min(...ys))));
  boxBlur(features, width, height, radius);

  const weight = new Float32Array(width * height).fill(1);
  for (let i = 0; i < weight.length; i++) {
    if (mask[i] === 0) continue;
    const darker = Math.max(0, (my - planes.y[i]!) / dy - 1);
    const distance = Math.hypot((planes.u[i]! - mu) / du, (planes.v[i]! - mv) / dv, darker);
    const skin = Math.min(1, Math.max(0, options.hairDistance + 1 - distance));
    weight[i] = 1 - (1 - Math.min(1, features[i]! * 2)) * (1 - skin);
  }
  boxBlur(weight, width, height, radius);
  boxBlur(weight, width, height, radius);
  for (let i = 0; i < mask.length; i++) mask[i]! *= weight[i]!;
}

/**
 * The second, finer pass over what covers the face (after fadeHair's coarse one): now that the skin's own
 * light and tint are known (`lighting`, fitted on the skin fadeHair left), a pixel outside the eyes, brows,
 * nose and lips that is much darker than the lit skin there, or off its tint, is a strand of hair, a
 * shadow cast across the face or a frame of glasses: the actor's skin shows there instead. Measured in the
 * skin's own spreads about its surfaces, which are far tighter than fadeHair's (taken over the whole
 * core, features included): dark strands across sample5's forehead and eye were within fadeHair's limit.
 */
/**
 * 0..1 per pixel: how far it looks like the skin's own light and tint there (1 within
 * PERSON_FACE.offSkinDistance of the skin's spreads, 0 a spread beyond; only darker counts for Y). With
 * `features` (a mask of the eyes, brows, nose and lips), 1 on them and near them: they are the person's,
 * whatever their colour, and are never faded or filled.
 */
function skinLikeness(
  planes: { y: Float32Array; u: Float32Array; v: Float32Array },
  width: number,
  height: number,
  features: Float32Array | undefined,
  coordinates: FaceCoordinates,
  lighting: Lighting,
  /** Count a pixel brighter than the lit skin as far as a darker one (a glint is no skin to borrow). */
  brighterToo = false,
): Float32Array {
  const near = features ? Float32Array.from(features) : new Float32Array(width * height);
  if (features) boxBlur(near, width, height, Math.max(1, Math.round(0.02 * coordinates.scale)));
  const likeness = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const fy = (y + 0.5 - coordinates.cy) / coordinates.scale;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const fx = (x + 0.5 - coordinates.cx) / coordinates.scale;
      const below = (evaluate(lighting.y, fx, fy) - planes.y[i]!) / lighting.residualY;
      const darker = Math.max(0, (brighterToo ? Math.abs(below) : below) - 1);
      const distance = Math.hypot(darker, (planes.u[i]! - evaluate(lighting.u, fx, fy)) / lighting.residualU, (planes.v[i]! - evaluate(lighting.v, fx, fy)) / lighting.residualV);
      const skin = Math.min(1, Math.max(0, PERSON_FACE.offSkinDistance + 1 - distance));
      likeness[i] = 1 - (1 - Math.min(1, near[i]! * 2)) * (1 - skin);
    }
  }
  return likeness;
}

/** The middle value (the upper of the two middle ones); 0 for none. Sorts `values` in place. */
function median(values: number[]): number {
  return values.sort((a, b) => a - b)[values.length >> 1] ?? 0;
}

/**
 * Whether the person has a beard: the middle of the chin, below the lower lip, far darker than the brighter
 * cheek under the eyes (PERSON_FACE.beardBelow; medians above video black, on the face turned frontal).
 * Head hair, a fringe or a strand does not reach there, and a smile's shade stays above it.
 */
function hasBeard(y: Float32Array, width: number, height: number, landmarks: number[][]): boolean {
  const medianIn = ([x0, y0, x1, y1]: number[]) => {
    const values: number[] = [];
    for (let row = Math.max(0, Math.round(y0!)); row < Math.min(height, Math.round(y1!)); row++) {
      for (let x = Math.max(0, Math.round(x0!)); x < Math.min(width, Math.round(x1!)); x++) values.push(y[row * width + x]! - BLACK);
    }
    return median(values);
  };
  const at = (i: number) => landmarks[i]!;
  const [left, right] = [at(MOUTH_CORNERS[0])[0]!, at(MOUTH_CORNERS[1])[0]!];
  const [lip, chin] = [at(LOWER_LIP_OUTER)[1]!, at(CHIN)[1]!];
  const inset = 0.2 * (right - left);
  const chinMiddle = medianIn([left + inset, lip + 0.2 * (chin - lip), right - inset, lip + 0.85 * (chin - lip)]);
  const wings = at(NOSE_WINGS[0])[1]!;
  const cheek = ([outer, inner]: readonly [number, number], lid: number) => {
    const [xs, top] = [[at(outer)[0]!, at(inner)[0]!], at(lid)[1]!];
    return medianIn([Math.min(...xs), top + 0.3 * (wings - top), Math.max(...xs), top + 0.8 * (wings - top)]);
  };
  const skin = Math.max(cheek(LEFT_EYE_CORNERS, LOWER_LIDS[0]), cheek(RIGHT_EYE_CORNERS, LOWER_LIDS[1]));
  return chinMiddle < PERSON_FACE.beardBelow * skin;
}

/**
 * 0..1: where a beard grows, the face below the nose's tip (feathered over PERSON_FACE.feather): the mask
 * keeps it whole, the mirror fill leaves it, and the lighting is fitted without it.
 */
function beardArea(width: number, height: number, landmarks: number[][], coordinates: FaceCoordinates): Float32Array {
  const area = new Float32Array(width * height);
  const top = landmarks[NOSE_TIP]![1]!;
  const feather = 0.5 * PERSON_FACE.feather * coordinates.scale;
  for (let y = 0; y < height; y++) {
    const t = Math.min(1, Math.max(0, (y - top) / feather + 0.5));
    if (t > 0) area.fill(t * t * (3 - 2 * t), y * width, (y + 1) * width);
  }
  return area;
}

function fadeOffSkin(
  mask: Float32Array,
  planes: { y: Float32Array; u: Float32Array; v: Float32Array },
  width: number,
  height: number,
  features: Float32Array,
  coordinates: FaceCoordinates,
  lighting: Lighting,
) {
  const radius = Math.max(1, Math.round(0.02 * coordinates.scale));
  const weight = skinLikeness(planes, width, height, features, coordinates, lighting);
  for (let i = 0; i < weight.length; i++) if (mask[i] === 0) weight[i] = 1;
  boxBlur(weight, width, height, radius);
  boxBlur(weight, width, height, radius);
  for (let i = 0; i < mask.length; i++) mask[i]! *= weight[i]!;
}

/**
 * What covers one side of the face (a strand of hair, a hand, a shadow cast across a cheek) is filled
 * from the same place on the other side, where that side is bare skin: the person's own skin there rather
 * than the actor's, whose texture and tone would show as a patch, and no half-faded strand. The mirror
 * place comes from the mesh (each triangle's mirror triangle, the face already turned to the camera); the
 * borrowed pixel is relit from its side's light to this side's (Y multiplies above black, U and V move
 * with the skin's surfaces), so a side-lit face gets no bright patch on its dark side. A pixel takes the
 * mirror's share of what it lacks in skin likeness (`likeness`, per pixel, unblurred). The eyes, brows,
 * nose and lips are left as they are. Where both sides are covered (a fringe across the whole forehead),
 * nothing changes: fadeOffSkin then lets the actor's skin show. Returns the share of the face filled.
 */
function fillFromMirror(
  planes: { y: Float32Array; u: Float32Array; v: Float32Array },
  /** likeness: skinLikeness with the features kept (what may be filled); bareSkin: without (what may be borrowed). */
  { likeness, bareSkin }: { likeness: Float32Array; bareSkin: Float32Array },
  outline: Float32Array,
  width: number,
  height: number,
  landmarks: number[][],
  mesh: MeshTopology,
  coordinates: FaceCoordinates,
  lighting: Lighting,
): number {
  const before = { y: Float32Array.from(planes.y), u: Float32Array.from(planes.u), v: Float32Array.from(planes.v) };
  // Each pixel's share to borrow, and the share times the borrowed value: both are blurred before use, so
  // the filled part blends in without an edge (a normalised blur: the borrowed values are not diluted).
  const share = new Float32Array(width * height);
  const borrowed = { y: new Float32Array(width * height), u: new Float32Array(width * height), v: new Float32Array(width * height) };
  const { triangles, mirror } = mesh;
  const light = (x: number, y: number) => {
    const fx = (x + 0.5 - coordinates.cx) / coordinates.scale;
    const fy = (y + 0.5 - coordinates.cy) / coordinates.scale;
    return { y: Math.max(MIN_SKIN, evaluate(lighting.y, fx, fy) - BLACK), u: evaluate(lighting.u, fx, fy), v: evaluate(lighting.v, fx, fy) };
  };
  let face = 0;
  let filled = 0;
  for (let t = 0; t < triangles.length / 3; t++) {
    const [a, b, c] = [triangles[3 * t]!, triangles[3 * t + 1]!, triangles[3 * t + 2]!];
    const [qa, qb, qc] = [landmarks[mirror[a]!]!, landmarks[mirror[b]!]!, landmarks[mirror[c]!]!];
    forEachPixelIn(landmarks[a]!, landmarks[b]!, landmarks[c]!, width, height, (x, y, la, lb, lc) => {
      const i = y * width + x;
      face++;
      const own = likeness[i]!;
      if (own >= 1 - PERSON_FACE.mirrorGain) return;
      const mx = la * qa[0]! + lb * qb[0]! + lc * qc[0]! - 0.5;
      const my = la * qa[1]! + lb * qb[1]! + lc * qc[1]! - 0.5;
      // Near the midline the mirror place is next door, under the same shadow (below the nose, the chin).
      if (Math.hypot(mx - x, my - y) < PERSON_FACE.mirrorMinDistance * coordinates.scale) return;
      // The mirror place must be bare skin inside the face (not the background past a turned cheek).
      const other = Math.min(sampleBilinear(bareSkin, width, height, mx, my), sampleBilinear(outline, width, height, mx, my));
      if (other < own + PERSON_FACE.mirrorGain) return;
      const here = light(x, y);
      const there = light(mx, my);
      const taken = (1 - own) * other;
      // The light's ratio is held within 0.6–1.6: past that the two sides' surfaces are a poor guess.
      const relight = Math.min(1.6, Math.max(0.6, here.y / there.y));
      share[i] = taken;
      borrowed.y[i] = taken * (BLACK + (sampleBilinear(before.y, width, height, mx, my) - BLACK) * relight);
      borrowed.u[i] = taken * (sampleBilinear(before.u, width, height, mx, my) - there.u + here.u);
      borrowed.v[i] = taken * (sampleBilinear(before.v, width, height, mx, my) - there.v + here.v);
      filled += taken;
    });
  }
  if (filled === 0) return 0;
  const radius = Math.max(1, Math.round(0.01 * coordinates.scale));
  for (const plane of [share, borrowed.y, borrowed.u, borrowed.v]) {
    boxBlur(plane, width, height, radius);
    boxBlur(plane, width, height, radius);
  }
  for (let i = 0; i < share.length; i++) {
    if (share[i]! < 1e-4) continue;
    planes.y[i] = before.y[i]! + borrowed.y[i]! - share[i]! * before.y[i]!;
    planes.u[i] = before.u[i]! + borrowed.u[i]! - share[i]! * before.u[i]!;
    planes.v[i] = before.v[i]! + borrowed.v[i]! - share[i]! * before.v[i]!;
  }
  return face ? filled / face : 0;
}

/** A photo as packed RGB. */
interface Photo {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The face at `points` (the mesh's, in photo pixels) cut out of the photo with PERSON_FACE.margin round it,
 * scaled so the face is about PERSON_FACE.faceSide high, as Y/U/V planes, and turned to face the camera
 * (frontal-face.ts): the actor's pose is given by the paste. `mesh`: the mesh's topology (undefined for an
 * engine without the mesh's reference data, a test double: the photo's own pose is kept).
 */
async function frontalCut(
  engine: FaceEngine,
  photo: Photo,
  points: number[][],
): Promise<{ planes: ReturnType<typeof rgbToYuvPlanes>; landmarks: number[][]; width: number; height: number; mesh: MeshTopology | undefined; hiddenShare: number }> {
  const xs = points.map((p) => p[0]!);
  const ys = points.map((p) => p[1]!);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const side = Math.max(maxX - minX, maxY - minY);
  const left = Math.max(0, Math.floor(minX - PERSON_FACE.margin * side));
  const top = Math.max(0, Math.floor(minY - PERSON_FACE.margin * side));
  const right = Math.min(photo.width, Math.ceil(maxX + PERSON_FACE.margin * side));
  const bottom = Math.min(photo.height, Math.ceil(maxY + PERSON_FACE.margin * side));
  const scale = Math.min(4, PERSON_FACE.faceSide / (maxY - minY));
  const width = Math.max(8, Math.round((right - left) * scale));
  const height = Math.max(8, Math.round((bottom - top) * scale));
  const cut = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
    .extract({ left, top, width: right - left, height: bottom - top })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  const cutPlanes = rgbToYuvPlanes({ data: cut, width, height });
  // A laugh the mesh reads as a nearly shut mouth has its jaw opened to the mouth the picture shows first:
  // the lower lip and chin are then part of the face turned frontal (mouth-motion.ts jawOpenedToPicture).
  const { landmarks: cutLandmarks } = jawOpenedToPicture({
    landmarks: points.map(([x, y, z]) => [(x! - left) * scale, (y! - top) * scale, (z ?? 0) * scale]),
    ...cutPlanes,
    width,
    height,
  });
  const reference = engine.meshReference?.();
  const mesh = reference && meshTopology(reference);
  const { planes, landmarks, mirroredShare } = mesh ? frontalise(cutPlanes, width, height, cutLandmarks, mesh) : { planes: cutPlanes, landmarks: cutLandmarks, mirroredShare: 0 };
  return { planes, landmarks, width, height, mesh, hiddenShare: mirroredShare };
}

/** Bins of brightness toneSpread compares colours within (Y levels each). */
const TONE_BIN = 8;

/**
 * How far the colours of a picture stray from one tone per brightness: each pixel's distance in U and V
 * from the median colour of the pixels as bright as it (bins of TONE_BIN levels), its 90th percentile,
 * over some 40,000 of its pixels. A black-and-white photo gives 0 and a sepia or toned print only its
 * noise (its tint is a function of brightness); a colour photo's lips, eyes, hair and background differ
 * at the same brightness. A percentile, not a mean: the face's small coloured parts count.
 */
function toneSpread(planes: { y: Float32Array; u: Float32Array; v: Float32Array }): number {
  const step = Math.max(1, Math.floor(planes.y.length / 40_000));
  const bins = Array.from({ length: Math.ceil(256 / TONE_BIN) }, () => ({ u: [] as number[], v: [] as number[] }));
  const samples: number[] = [];
  for (let i = 0; i < planes.y.length; i += step) {
    const bin = Math.min(bins.length - 1, Math.max(0, Math.floor(planes.y[i]! / TONE_BIN)));
    bins[bin]!.u.push(planes.u[i]!);
    bins[bin]!.v.push(planes.v[i]!);
    samples.push(i, bin);
  }
  const tones = bins.map(({ u, v }) => [median(u), median(v)] as const);
  const distances: number[] = [];
  for (let k = 0; k < samples.length; k += 2) {
    const [i, bin] = [samples[k]!, samples[k + 1]!];
    distances.push(Math.hypot(planes.u[i]! - tones[bin]![0], planes.v[i]! - tones[bin]![1]));
  }
  return distances.sort((a, b) => a - b)[Math.floor(0.9 * (distances.length - 1))] ?? 0;
}

/**
 * The photo's largest face (the person), its mesh fitted again on the face turned upright by its own eye
 * line (mesh-model.ts meshFittedUpright: on a tilted head the first mesh misreads the roll, and the face
 * turned frontal along it smears), and how many faces the photo shows; undefined when it shows none.
 */
async function largestFace(engine: FaceEngine, photo: Photo) {
  const faces = (await engine.detect(photo, { mesh: true, maxFaces: 10, upright: true })).filter((face) => face.landmarks);
  const face = faces.sort((p, q) => q.box[2] * q.box[3] - p.box[2] * p.box[3])[0];
  if (!face) return undefined;
  // The mesh model alone runs where the face engine set up its tfjs in this thread; elsewhere the first mesh stays.
  const model = await loadMeshModel();
  const points = model ? await meshFittedUpright(model, photo, face.landmarks!, { left: LEFT_EYE_CORNERS, right: RIGHT_EYE_CORNERS }) : face.landmarks!;
  return { face, points, faces };
}

/**
 * How the photo's largest face will show in the video, read on the face cut out and turned frontal as
 * loadPersonFace prepares it, for the photo's analysis on arrival (pipeline/tasks.ts analyseImage); undefined
 * when the photo has no face:
 * - `gaze`: where its eyes will look (eyeGaze on the mesh's own lids), undefined when too shut to read. The
 *   analysis' own lids are the iris model's, on which the gaze reads wrong (shared/face-analysis.ts GAZE_ASIDE).
 * - `hiddenShare`: the share of the face the turn takes from the other side because the photo hides it
 *   (frontal-face.ts mirroredShare; shared/face-analysis.ts TURNED_AWAY_HIDDEN_SHARE).
 */
export async function photoFacing(engine: FaceEngine, photo: Photo): Promise<{ gaze: number | undefined; hiddenShare: number } | undefined> {
  const found = await largestFace(engine, photo);
  if (!found) return undefined;
  const { planes, landmarks, width, height, hiddenShare } = await frontalCut(engine, photo, found.points);
  return { gaze: eyeGaze((x, y) => planes.y[y * width + x]!, width, height, landmarks), hiddenShare };
}

/**
 * Prepares the person's face from a photo (JPEG/PNG/WebP...). Throws PersonFaceError when it has no face.
 * `eyes`: measure whether the eyes are shut (one more detection, a quarter of the time this takes): the
 * anchor's always, the other images' only when the anchor's are shut or look aside (face-render.ts).
 * `eyeOpening`: the opening already measured on this photo (the face image's analysis, taken the same way
 * on the whole photo: face-engine.ts `analyse`), used instead of measuring it again. Where the eyes look
 * (`gaze`) needs no detection: it is read on the face turned frontal.
 */
export async function loadPersonFace(
  engine: FaceEngine,
  file: string | Uint8Array,
  { eyes = true, eyeOpening: measured }: { eyes?: boolean; eyeOpening?: number } = {},
): Promise<PersonFace> {
  const decoded = await sharp(file, { limitInputPixels: 40_000_000 }).rotate().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const photo = { data: decoded.data, width: decoded.info.width, height: decoded.info.height };
  const found = await largestFace(engine, photo);
  if (!found) throw new PersonFaceError('no face was found in the person’s photo');
  const { face, points, faces } = found;
  // Whether the eyes are shut, on the lids the iris model draws (the mesh alone draws shut lids open). Only
  // for that: the render's mesh stays the mesh's own, whose two eyes are always drawn alike (decision 014).
  const refined = eyes && measured === undefined ? (await engine.detect(photo, { mesh: true, maxFaces: 10, refineEyes: true, upright: true })).find((other) => other.landmarks && boxOverlap(other.box, face.box) > 0.5) : undefined;
  const opening = measured ?? (refined && eyeOpening(refined.landmarks!));
  const { planes, landmarks, width, height, mesh } = await frontalCut(engine, photo, points);
  // Before anything is filled, faded or tinted: the photo's own colours.
  const colourless = toneSpread(planes) < PERSON_FACE.oneToneWithin;
  const coordinates = faceCoordinates(landmarks);
  // Glasses are the person's own too: their frames are kept whole (glasses.ts).
  const glasses = findGlasses(planes.y, width, height, landmarks, coordinates.scale);
  // Measured on the face turned frontal, before anything is filled or faded: where its eyes will look in the video.
  const gaze = eyeGaze((x, y) => planes.y[y * width + x]!, width, height, landmarks);
  const irises = irisPositions((x, y) => planes.y[y * width + x]!, width, height, landmarks);
  // A beard is the person's own: kept, with its colour, where a fringe or a strand would be faded or filled.
  const beard = hasBeard(planes.y, width, height, landmarks) ? beardArea(width, height, landmarks, coordinates) : undefined;
  const { mask, box } = faceMask(width, height, landmarks, PERSON_FACE);
  const outline = Float32Array.from(mask);
  const inner = new Float32Array(width * height);
  fillPolygon(inner, width, height, scaledOutline(landmarks, PERSON_FACE.coreScale));
  const core = Uint8Array.from(inner);
  fadeHair(mask, planes, core, width, height, landmarks, PERSON_FACE);
  // Bare skin, for the lighting: inside the outline, off the features, where no hair was faded out.
  const skinArea = innerFace(width, height, landmarks);
  const features = featureMask(width, height, landmarks, PERSON_FACE.featureScale);
  // Plain loops over the cut-out's pixels: a typed array's from() with a mapping function took 100 ms each.
  const skin = new Uint8Array(width * height);
  for (let i = 0; i < skin.length; i++) skin[i] = skinArea[i] === 1 && features[i] === 0 && mask[i]! >= PERSON_FACE.skinMask && !(beard && beard[i]! >= 0.5) && !(glasses && glasses.reach[i]! >= 0.2) ? 1 : 0;
  const beardHair = new Float32Array(width * height);
  const samples = skinSamples(planes, width, height, coordinates, (i) => skin[i] === 1);
  const lighting = fitLighting(samples);
  if (lighting) {
    if (mesh) {
      // A strand's soft edges are within the skin's spreads but still darker: the fill reaches past them,
      // and takes nothing from next to one.
      const reach = Math.max(1, Math.round(0.01 * coordinates.scale));
      const likeness = minimumAround(skinLikeness(planes, width, height, features, coordinates, lighting), width, height, reach);
      if (beard) for (let i = 0; i < likeness.length; i++) likeness[i] = Math.max(likeness[i]!, beard[i]!);
      if (glasses) for (let i = 0; i < likeness.length; i++) likeness[i] = Math.max(likeness[i]!, glasses.reach[i]!);
      const bareSkin = minimumAround(skinLikeness(planes, width, height, undefined, coordinates, lighting, true), width, height, reach);
      const mirrored = fillFromMirror(planes, { likeness, bareSkin }, outline, width, height, landmarks, mesh, coordinates, lighting);
      // What was filled is skin now: the hair fade starts again from the outline on the filled face.
      if (mirrored > 0) {
        mask.set(outline);
        fadeHair(mask, planes, core, width, height, landmarks, PERSON_FACE);
      }
    }
    fadeOffSkin(mask, planes, width, height, features, coordinates, lighting);
    // The beard's hair, not the skin between its hairs or beside a goatee: that is tinted as the rest.
    if (beard) {
      const likeness = skinLikeness(planes, width, height, undefined, coordinates, lighting);
      for (let i = 0; i < beardHair.length; i++) beardHair[i] = beard[i]! * (1 - likeness[i]!);
      // Smoothed: a thin beard's skin-like gaps, each given the actor's skin tone, mottled it pink.
      const radius = Math.max(1, Math.round(0.01 * coordinates.scale));
      boxBlur(beardHair, width, height, radius);
      boxBlur(beardHair, width, height, radius);
    }
    keepLittleTint(planes, width, height, landmarks, coordinates, lighting, skin, beardHair);
  }
  if (beard) for (let i = 0; i < mask.length; i++) mask[i]! += beard[i]! * (outline[i]! - mask[i]!);
  if (glasses) for (let i = 0; i < mask.length; i++) mask[i]! += glasses.reach[i]! * (outline[i]! - mask[i]!);
  return {
    width,
    height,
    ...planes,
    mask,
    core,
    maskBox: box,
    landmarks,
    colour: colourFigures(planes, (i) => core[i] === 1, width * height),
    facesInPhoto: faces.length,
    skin,
    coordinates,
    lighting,
    mouthArea: mouthArea(width, height, landmarks),
    ...eyeArea(width, height, landmarks),
    eyeOpening: opening,
    eyesShut: opening !== undefined && isEyesClosed(opening),
    gaze,
    irises,
    colourless,
    bearded: beard !== undefined,
    beardHair,
    glasses: glasses !== undefined,
    glassesFrames: glasses?.frames ?? new Float32Array(width * height),
  };
}

/**
 * The skin's tint becomes its smooth tone (the surface the actor's replaces in the paste) plus
 * PERSON_FACE.skinTintKept of the pixel's own colour against the skin's local tint around it
 * (featureTintKept on the eyes and lips): a lamp's colour, blotches and strands go, a freckle's stays a little.
 * Far darker pixels take that tone in proportion to their brightness (face-light.ts LIGHT.fullToneAbove).
 */
function keepLittleTint(
  planes: { y: Float32Array; u: Float32Array; v: Float32Array },
  width: number,
  height: number,
  landmarks: number[][],
  coordinates: FaceCoordinates,
  lighting: Lighting,
  skin: Uint8Array,
  /** 0..1: a beard's hair, which keeps the photo's own colour. */
  beardHair: Float32Array,
) {
  // The local tint: bare skin's U and V averaged around each pixel (a normalised blur: only skin counts).
  const radius = Math.max(2, Math.round(PERSON_FACE.localTintRadius * coordinates.scale));
  const weight = Float32Array.from(skin);
  const localU = new Float32Array(width * height);
  const localV = new Float32Array(width * height);
  for (let i = 0; i < skin.length; i++) {
    localU[i] = planes.u[i]! * skin[i]!;
    localV[i] = planes.v[i]! * skin[i]!;
  }
  for (const plane of [weight, localU, localV]) {
    boxBlur(plane, width, height, radius);
    boxBlur(plane, width, height, radius);
  }
  // The eyes themselves (lid margins: the iris, the lashes, the liner) and the lips, not the lids' skin and
  // brows around the eyes: an eyeshadow lit by a coloured lamp was kept there as the eyes' own colour. The
  // lips' own hull, not grown: grown 1.1, a halo of skin round them kept a lamp's orange (man · sample3's
  // skin b* spread 1.37 × the template's; 1.30 with this and evenLipColour).
  const coloured = new Float32Array(width * height);
  for (const [group, grow] of [[EYE_CONTOURS[0], 1.3], [EYE_CONTOURS[1], 1.3], [OUTER_LIPS, 1]] as const) fillPolygon(coloured, width, height, grownHull(pick(landmarks, group), grow));
  boxBlur(coloured, width, height, Math.max(1, Math.round(0.015 * coordinates.scale)));
  // Each pixel's own colour: what is left once the skin's colour around it is taken out at its brightness
  // (a lamp's colour scales with the light it gives, so a dark iris carries less of it than the skin).
  const ownU = new Float32Array(width * height);
  const ownV = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const fy = (y + 0.5 - coordinates.cy) / coordinates.scale;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const fx = (x + 0.5 - coordinates.cx) / coordinates.scale;
      const u = evaluate(lighting.u, fx, fy);
      const v = evaluate(lighting.v, fx, fy);
      // Far from any bare skin (hair beyond the outline) the smooth tone stands for the local one.
      const share = Math.min(1, weight[i]! / 0.05);
      const aroundU = u + share * (localU[i]! / Math.max(weight[i]!, 1e-6) - u);
      const aroundV = v + share * (localV[i]! / Math.max(weight[i]!, 1e-6) - v);
      const lit = Math.min(1, Math.max(0, (planes.y[i]! - BLACK) / Math.max(MIN_SKIN, evaluate(lighting.y, fx, fy) - BLACK)));
      ownU[i] = planes.u[i]! - NEUTRAL - lit * (aroundU - NEUTRAL);
      ownV[i] = planes.v[i]! - NEUTRAL - lit * (aroundV - NEUTRAL);
    }
  }
  evenLipColour(ownU, ownV, width, height, landmarks, coordinates);
  evenEyeColour(ownU, ownV, width, height, landmarks, coordinates);
  for (let y = 0; y < height; y++) {
    const fy = (y + 0.5 - coordinates.cy) / coordinates.scale;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const fx = (x + 0.5 - coordinates.cx) / coordinates.scale;
      const kept = PERSON_FACE.skinTintKept + (PERSON_FACE.featureTintKept - PERSON_FACE.skinTintKept) * Math.min(1, coloured[i]! * 1.5);
      const u = evaluate(lighting.u, fx, fy);
      const v = evaluate(lighting.v, fx, fy);
      // A pixel far darker than the lit skin (a brow, lashes, a strand) has the skin's tint in proportion to
      // its brightness, as light gives it: at full strength a dark brow became a saturated brown. Skin in
      // the face's own shade (down to LIGHT.fullToneAbove of the lit skin) keeps the full tint; the paste
      // replaces the same share of it by the actor's (castShare).
      const bright = toneShare(planes.y[i]!, evaluate(lighting.y, fx, fy));
      const tintedU = NEUTRAL + bright * (u - NEUTRAL) + kept * ownU[i]!;
      const tintedV = NEUTRAL + bright * (v - NEUTRAL) + kept * ownV[i]!;
      // A beard keeps the photo's colour: given the skin's tone by its brightness, a black beard went maroon.
      planes.u[i] = tintedU + beardHair[i]! * (planes.u[i]! - tintedU);
      planes.v[i] = tintedV + beardHair[i]! * (planes.v[i]! - tintedV);
    }
  }
}

/**
 * Lips are one colour; a lamp lights part of them in its own (sample3: the lower lip orange under a warm
 * lamp, the upper one purple under a blue one), and the skin around them does not tell how much. Each lip
 * pixel's own colour (`ownU`/`ownV`, keepLittleTint: its colour against the skin's around it) is drawn
 * towards the lips' mean, keeping PERSON_FACE.lipSpreadKept of its difference: the lips keep their colour
 * and their shading, not the lamp's split. The lips are the outer lips less the opening (teeth are not
 * lips). Changed in place.
 */
function evenLipColour(ownU: Float32Array, ownV: Float32Array, width: number, height: number, landmarks: number[][], coordinates: FaceCoordinates) {
  const lips = lipsMask(width, height, landmarks);
  const { n, u: meanU, v: meanV } = meanOwnColour(ownU, ownV, lips);
  if (n === 0) return;
  // Softened at the lips' edge, so the change has no edge of its own.
  boxBlur(lips, width, height, Math.max(1, Math.round(0.01 * coordinates.scale)));
  const pull = 1 - PERSON_FACE.lipSpreadKept;
  for (let i = 0; i < lips.length; i++) {
    if (lips[i]! < 1e-3) continue;
    ownU[i] = ownU[i]! - lips[i]! * pull * (ownU[i]! - meanU);
    ownV[i] = ownV[i]! - lips[i]! * pull * (ownV[i]! - meanV);
  }
}

/** The mean of `ownU` and `ownV` over the pixels where `area` is set, and their count. */
function meanOwnColour(ownU: Float32Array, ownV: Float32Array, area: Float32Array): { n: number; u: number; v: number } {
  let n = 0;
  let u = 0;
  let v = 0;
  for (let i = 0; i < area.length; i++) {
    if (!area[i]) continue;
    n++;
    u += ownU[i]!;
    v += ownV[i]!;
  }
  return { n, u: u / Math.max(n, 1), v: v / Math.max(n, 1) };
}

/**
 * Two eyes are one colour; a lamp on one side lights one eye in its own (sample3: her right eye brown
 * under a warm lamp, her left blue-violet under a blue one, iris, white and lid margin alike), and the skin
 * around them does not tell it (the lamp's light gathers in the socket). The eyes' own colours (`ownU`/`ownV`,
 * keepLittleTint; means over each eye's hull grown PERSON_FACE.eyeColourReach) are brought to within
 * PERSON_FACE.eyeColourGapKept of each other: each eye gives up the colour that sets it apart from the other,
 * each pixel in proportion to how much of it it has (the lamp's colour lies where it shows, a glint on the
 * iris, the lid: shifted evenly, a white of the eye with none of it turned orange), the eye that has more
 * of it giving more. What differs inside an eye (iris, white, lashes) stays. Changed in place.
 */
function evenEyeColour(ownU: Float32Array, ownV: Float32Array, width: number, height: number, landmarks: number[][], coordinates: FaceCoordinates) {
  const hulls = EYE_CONTOURS.map((contour) => {
    const area = new Float32Array(width * height);
    fillPolygon(area, width, height, grownHull(pick(landmarks, contour), PERSON_FACE.eyeColourReach));
    return { area, ...meanOwnColour(ownU, ownV, area) };
  });
  const [first, second] = hulls as [(typeof hulls)[number], (typeof hulls)[number]];
  const gap = Math.hypot(first.u - second.u, first.v - second.v);
  if (first.n === 0 || second.n === 0 || gap <= PERSON_FACE.eyeColourGapKept) return;
  const eyes = hulls.map((eye, index) => {
    // The direction from the other eye's colour towards this one's, and how much of it the eye's pixels hold.
    const other = hulls[1 - index]!;
    const [du, dv] = [(eye.u - other.u) / gap, (eye.v - other.v) / gap];
    const along = (i: number) => Math.max(0, ownU[i]! * du + ownV[i]! * dv);
    let held = 0;
    for (let i = 0; i < eye.area.length; i++) if (eye.area[i]) held += along(i);
    return { ...eye, du, dv, along, held: held / eye.n };
  });
  // Half the way each where both can; an eye that holds too little of its colour leaves the rest to the other.
  const needed = gap - PERSON_FACE.eyeColourGapKept;
  const firstGives = Math.min(eyes[0]!.held, Math.max(needed / 2, needed - eyes[1]!.held));
  const gives = [firstGives, Math.min(eyes[1]!.held, needed - firstGives)];
  for (const [index, eye] of eyes.entries()) {
    const share = gives[index]! / Math.max(eye.held, 1e-6);
    if (share <= 0) continue;
    // Softened at the hull's edge, so the change has no edge of its own.
    boxBlur(eye.area, width, height, Math.max(1, Math.round(0.015 * coordinates.scale)));
    for (let i = 0; i < eye.area.length; i++) {
      if (eye.area[i]! < 1e-3) continue;
      const amount = eye.area[i]! * share * eye.along(i);
      ownU[i] = ownU[i]! - amount * eye.du;
      ownV[i] = ownV[i]! - amount * eye.dv;
    }
  }
}

/**
 * Both eyes with their lids, not the brows: an ellipse round each, PERSON_FACE.eyeAreaAlong eye widths
 * along the eye and eyeAreaAcross across it (semi-axes), full in its inner part and eased to 0 at its edge.
 */
function eyeArea(width: number, height: number, landmarks: number[][]): { eyeArea: Float32Array; eyeBox: [number, number, number, number] } {
  const area = new Float32Array(width * height);
  const box: [number, number, number, number] = [width, height, 0, 0];
  for (const [outerIndex, innerIndex] of [LEFT_EYE_CORNERS, RIGHT_EYE_CORNERS]) {
    const [outer, inner] = [landmarks[outerIndex]!, landmarks[innerIndex]!];
    const eyeWidth = Math.max(1, Math.hypot(inner[0]! - outer[0]!, inner[1]! - outer[1]!));
    const axis = [(inner[0]! - outer[0]!) / eyeWidth, (inner[1]! - outer[1]!) / eyeWidth];
    const centre = [(outer[0]! + inner[0]!) / 2, (outer[1]! + inner[1]!) / 2];
    const along = PERSON_FACE.eyeAreaAlong * eyeWidth;
    const across = PERSON_FACE.eyeAreaAcross * eyeWidth;
    const reach = Math.ceil(Math.max(along, across));
    for (let y = Math.max(0, Math.floor(centre[1]! - reach)); y < Math.min(height, Math.ceil(centre[1]! + reach)); y++) {
      for (let x = Math.max(0, Math.floor(centre[0]! - reach)); x < Math.min(width, Math.ceil(centre[0]! + reach)); x++) {
        const dx = x + 0.5 - centre[0]!;
        const dy = y + 0.5 - centre[1]!;
        const u = (dx * axis[0]! + dy * axis[1]!) / along;
        const v = (dy * axis[0]! - dx * axis[1]!) / across;
        const d = Math.sqrt(u * u + v * v);
        if (d >= 1) continue;
        const t = Math.min(1, (1 - d) / 0.4);
        const i = y * width + x;
        area[i] = Math.max(area[i]!, t * t * (3 - 2 * t));
        box[0] = Math.min(box[0], x);
        box[1] = Math.min(box[1], y);
        box[2] = Math.max(box[2], x + 1);
        box[3] = Math.max(box[3], y + 1);
      }
    }
  }
  return { eyeArea: area, eyeBox: box };
}

/**
 * The mouth and jaw as a soft ellipse: centred on the lips, across to 0.8 of the mouth's width beyond each
 * corner, up to just under the nose and down to the chin; full inside 60 % of it, eased to 0 at its edge.
 * Eyes, brows and gaze stay the anchor image's whatever image lends its mouth.
 */
function mouthArea(width: number, height: number, landmarks: number[][]): Float32Array {
  const area = new Float32Array(width * height);
  const point = (i: number) => landmarks[i]!;
  const [left, right] = [point(61), point(291)];
  const centre = [(left[0]! + right[0]! + point(13)[0]! + point(14)[0]!) / 4, (left[1]! + right[1]! + point(13)[1]! + point(14)[1]!) / 4];
  const mouthWidth = Math.hypot(right[0]! - left[0]!, right[1]! - left[1]!);
  const axis = [(right[0]! - left[0]!) / Math.max(1, mouthWidth), (right[1]! - left[1]!) / Math.max(1, mouthWidth)];
  const depth = (p: number[]) => (p[1]! - centre[1]!) * axis[0]! - (p[0]! - centre[0]!) * axis[1]!;
  const along = 1.3 * mouthWidth;
  const down = Math.max(1, depth(point(152)));
  const up = Math.max(1, 0.85 * -depth(point(2)));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x + 0.5 - centre[0]!;
      const dy = y + 0.5 - centre[1]!;
      const u = (dx * axis[0]! + dy * axis[1]!) / along;
      const across = dy * axis[0]! - dx * axis[1]!;
      const v = across / (across > 0 ? down : up);
      const d = Math.sqrt(u * u + v * v);
      if (d >= 1) continue;
      const t = Math.min(1, (1 - d) / 0.4);
      area[y * width + x] = t * t * (3 - 2 * t);
    }
  }
  return area;
}
