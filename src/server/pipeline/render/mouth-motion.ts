// The actor's mouth movement carried onto the pasted photo: a local warp of the person's lower lip and
// jaw, in the person's picture, driven by how much more open the actor's mouth is in this frame than at
// rest (the smallest opening seen so far). The person's mouth is opened or closed to that opening (scaled
// to the person's face), measured from their lips meeting: a photo with parted lips (a smile showing
// teeth, the most common photo of a child) closes when the actor's mouth closes, its lower lip rising
// over the teeth column by column by that column's own gap. Opened past the photo's own gap, the
// lower lip moves down, the skin between it and the chin stretches, and the gap between the lips shows the
// actor's own mouth (face-paste.ts): the person's own parted lips too, so a smiling photo's teeth never
// show above the actor's (one mouth, not two). The person's own face shape is untouched elsewhere.
import { mouthOpening } from '../face-engine';
import { BLACK, MIN_SKIN } from './face-light';
import { CHIN, FACE_OVAL, FOREHEAD, LOWER_INNER_LIP, MOUTH_CORNERS, OUTER_LIPS, UPPER_INNER_LIP, UPPER_LIP_CENTRE, pick } from './landmarks';
import type { PersonFace } from './person-face';

export const MOUTH = {
  /** The actor's opening (share of face height) is multiplied by this on the person. */
  gain: 1.5,
  /** The jaw region moved is this many mouth half-widths wide. */
  widthFactor: 1.25,
  /** This many person pixels of opening are ignored (the mesh's noise at rest). */
  minPixels: 1.5,
  /**
   * A gap between the inner lips up to this share of the face's height (forehead to chin) is a closed
   * mouth: the mesh reads 0.001-0.009 on closed lips (the talking clips at rest, face-api's sample2),
   * 0.024-0.082 on smiles showing teeth (face-api's demo photos, the NASA portrait). face-choice.ts wants
   * such a mouth at the actor's rest.
   */
  closedOpening: 0.01,
  /**
   * Closed lips overlap by this share of the face's height (about a pixel of the 320-pixel cut-out), so no
   * hairline of what lay between them shows. It was 15 % of each column's gap, for the teeth the mesh
   * leaves above its upper inner lip on a toothy smile (sample6); those are now found by colour
   * (insideBeyond), and on a wide gap the 15 % rose over a thin upper lip and hid it (sample5, sample3).
   */
  closeOverlap: 0.003,
  /** A pixel beyond a lip's inner edge is a tooth while it is lighter than that lip by this much (Y)… */
  teethLighter: 5,
  /** …and less red by this much (V). */
  teethLessRed: 2,
  /**
   * Below the lower lip (mouthInside's 'deep'), a tooth is also whiter than the face's skin: less red for its
   * light (redness) than the skin round the mouth (skinRedness) by this much. The skin below the lips is
   * lighter and less red than they are, as teeth are, and was taken for teeth down to the search's end: the
   * jaw of closed mouths opened (jawOpenedToPicture), the actor's mouth showing down the chin in every
   * frame. So on the talking woman at rest (24-54 pixels of a 480-pixel frame, 16 of her 63 frames sampled)
   * and on 7 of 58 photos of real people (Human's samples, not in the repository; lipstick made it worst);
   * none now, or under 2.2 pixels. The teeth of a laugh the mesh reads as shut stay found: their median is
   * 0.04-0.17 less red than the skin (the laughing girl 0.044), the skin's own 0-0.02.
   */
  teethWhiterThanSkin: 0.03,
  /**
   * A pixel there darker than that lip by this much (Y) is the mouth's dark inside: a mouth open in
   * speech is dark at its corners below the mesh's inner lips (face-api's sample5), and closed from the
   * mesh's curves it kept them as dark hooks at the corners of the seam, a frown.
   */
  insideDarker: 25,
  /**
   * Closed lips meet in a thin line of shade. A photo's parted lips closed over their gap showed none
   * (sample5's closed mouth a plain pink shape), so a seam is drawn where they meet: the light above black
   * multiplied by 1 − seamDark at its middle, over seamWidth of the face's height each side, fading out
   * towards the corners where the photo's gap narrows under seamFullGap of the face's height.
   */
  seamDark: 0.35,
  seamWidth: 0.006,
  seamFullGap: 0.02,
  /**
   * A pixel less red for its light than this share of the lips' redness is the mouth's inside whatever its
   * light (mouthInside): teeth in shade. Red for its light (V over Y), not V itself: V falls with the
   * light, and the shaded edge of a dark red lip (face-api's sample1) was less red than its lit middle.
   */
  insideRedness: 0.75,
  /**
   * A pixel darker than this share of the lips' light (Y) is the mouth's dark inside (mouthInside). A share,
   * not insideDarker's difference: the lower lip of a laughing mouth lies in its own shade, 20-35 darker
   * than the upper lip, and was taken for the inside.
   */
  insideDarkShare: 0.6,
  /**
   * Up to this share of the face's height of pixels that are neither lip-coloured nor inside is crossed as
   * the blur between teeth and the dark behind them (mouthInside): 3 pixels of the laughing girl's face,
   * whose lips are 15 thick…
   */
  insideBridge: 0.01,
  /** …and any number of them (up to three times as many) where the light falls by this much (Y) a pixel: the blur's slope. */
  insideBlurSlope: 3,
  /**
   * Below the mouth's corners the lips part less than the jaw drops (they close at the corners): the skin
   * takes up the difference over this share of the way from the lips to the chin.
   */
  cornerStretch: 0.5,
  /** The lower lip drops at most this share of the way from the lips to the chin. */
  maxDropShare: 0.45,
  /** The jaw's shift fades out at this many times the lips-to-chin depth (beyond the chin: outside the mask). */
  fadeBeyondChin: 1.4,
  /**
   * jawOpenedToPicture opens the mesh's jaw in full once the mouth's inside ends this share of the face's
   * height below the mesh's lower lip's outer edge (in part from where it ends on that edge). Of face-api's
   * 21 demo faces at least 60 pixels wide, two open: the laughing girl (sample1's third face, by 25 pixels
   * of her 320-pixel cut) and a woman in profile biting a fingertip (sample2's second, by 13).
   */
  jawBeyondLip: 0.01,
  /**
   * The lips' gap (pixels) changes by at most this from one column of the mouth to the next (lipsApart):
   * the laughing girl's closed mouth without the line down her chin from its corner. 1 lowered her gap
   * towards both corners so far that her teeth showed there.
   */
  gapSlope: 2,
} as const;

export interface MouthMotion {
  /** Whether this frame moves the mouth at all (opens it further, or closes a photo's parted lips). */
  readonly active: boolean;
  /** Sets this frame's opening from the actor's mesh. */
  update(actorLandmarks: number[][]): void;
  /**
   * Writes where to sample the person's picture for the output point (px, py) into out[0], out[1]; returns
   * how much is mouth interior (0..1). Inside the mouth, out[2] is how far across the opening the point is
   * (0 at the upper lip, 1 at the lower) and out[3] where along the lips (0 at the left corner, 1 at the
   * right): the actor's own mouth is sampled there (face-paste.ts). out[4] is how much the closed lips'
   * seam darkens the point (0..1; 0 unless the photo's parted lips are being closed).
   */
  source(px: number, py: number, out: MouthSample): number;
  /** The actor's opening above rest in this frame (share of face height). */
  readonly opening: number;
  /** The most the chin can move down, in the person's pixels. */
  readonly maxDrop: number;
  /** Outside this box (x0, y0, x1, y1, person pixels) `source` leaves every point where it is and returns 0: callers skip it there. */
  readonly bounds: Float64Array;
}

/** 0 outside, 1 from two pixels inside an edge `inside` pixels away (negative: outside). */
const softEdge = (inside: number) => Math.max(0, Math.min(1, inside / 2));

/** See MouthMotion.source. */
export type MouthSample = [number, number, number, number, number];

/**
 * `person`: the image's mesh and, when given, its picture (Y and V), in which the mouth's inside (teeth,
 * its dark) is found where the picture shows it, so that closing covers all of it and the lips meet at
 * their own edges, whatever the mesh's lips say (lipsApart).
 */
export function createMouthMotion(person: Pick<PersonFace, 'landmarks'> & MouthPicture): MouthMotion {
  const lm = person.landmarks;
  const { faceHeight, halfWidth, ax, ay, nx, ny, ox, oy, toPicture, curves } = mouthFrame(lm);
  const chinDepth = (lm[CHIN]![0]! - ox) * nx + (lm[CHIN]![1]! - oy) * ny;
  const reach = halfWidth * MOUTH.widthFactor;
  // The jaw below moves with the lower lip and fades out beyond the chin (outside the mask, where the
  // actor's own jaw has dropped too).
  const fadeEnd = chinDepth * MOUTH.fadeBeyondChin;
  // Each column's gap between the lips (u across the mouth, 0 at its middle): a smile's gap narrows
  // towards the corners, and closing must not lift the lower lip past the upper one there.
  const lips = lipsApart(person, toPicture, halfWidth, reach, faceHeight, curves);
  // The photo's own opening mid-mouth, from the upper lip's edge (gapTop) to the lower one's…
  const gapTop = lips.topAt(0);
  const lipGap = Math.max(0, lips.bottomAt(0) - gapTop);
  // …and beyond closed lips: what the actor's opening is measured against.
  const ownGap = Math.max(0, lipGap - MOUTH.closedOpening * faceHeight);
  // The lower lip never drops more than about half the way to the chin.
  const maxDrop = Math.max(0, (chinDepth - gapTop - lipGap) * MOUTH.maxDropShare);
  // Below the corners, where the lips part less than the jaw drops, the skin takes up the difference over this depth.
  const stretch = Math.max(1, (chinDepth - gapTop - lipGap) * MOUTH.cornerStretch);
  const overlap = MOUTH.closeOverlap * faceHeight;
  const seamWidth = MOUTH.seamWidth * faceHeight;
  let rest = Infinity;
  let open = 0;
  let extra = 0;
  // The region `source` moves: u in (−reach, reach), v in (top, fadeEnd), where top is the highest of the
  // upper lip's edges, where the lips part or meet (a smile's corners curve up above the middle), with the
  // overlap and the seam's shade above it; its corners' box and a pixel more.
  const top = Math.min(gapTop, ...lips.tops) - overlap - seamWidth;
  const corners = [[-reach, top], [reach, top], [-reach, fadeEnd], [reach, fadeEnd]].map(([u, v]) => toPicture(u!, v!));
  const bounds = Float64Array.from([
    Math.min(...corners.map(([x]) => x!)) - 1,
    Math.min(...corners.map(([, y]) => y!)) - 1,
    Math.max(...corners.map(([x]) => x!)) + 1,
    Math.max(...corners.map(([, y]) => y!)) + 1,
  ]);

  return {
    get active() {
      return extra !== 0;
    },
    maxDrop,
    bounds,
    get opening() {
      return open;
    },
    update(actorLandmarks) {
      const now = mouthOpening(actorLandmarks);
      rest = Math.min(rest, now);
      open = now - rest;
      // The opening wanted beyond closed lips, against the photo's own: negative closes its parted lips.
      const wanted = Math.max(0, open * faceHeight * MOUTH.gain - MOUTH.minPixels);
      extra = Math.min(maxDrop, Math.max(-ownGap, wanted - ownGap));
    },
    source(px, py, out) {
      const u = (px - ox) * ax + (py - oy) * ay;
      const v = (px - ox) * nx + (py - oy) * ny;
      out[0] = px;
      out[1] = py;
      out[4] = 0;
      if (v >= fadeEnd || u <= -reach || u >= reach) return 0;
      if (extra < 0) {
        // Closing: this column's lower lip rises by the closing's share of its own gap (all of it when the
        // actor's lips meet: a seam left open showed the teeth as a white line), and the skin below with it,
        // fading out beyond the chin; above it the photo stays as it is.
        const gap = lips.gapAt(u);
        if (gap <= 0) return 0;
        const bottom = lips.bottomAt(u);
        // The seam, and the overlap, fade out where the gap narrows towards the corners: a pixel's overlap
        // beside none at the corner's last column moved the skin below it as a line down the chin.
        const full = Math.min(1, gap / (MOUTH.seamFullGap * faceHeight));
        const closing = -extra / ownGap;
        const rise = closing * (gap + overlap * full);
        const from = bottom - rise;
        if (rise <= 0) return 0;
        out[4] = closing * Math.max(0, 1 - Math.abs(v - from) / seamWidth) * full * lips.seamAt(u);
        if (v < from) return 0;
        const shift = rise * Math.max(0, Math.min(1, (fadeEnd - v) / Math.max(1, fadeEnd - from)));
        out[0] = px + shift * nx;
        out[1] = py + shift * ny;
        return 0;
      }
      // Opening, column by column: w is how far down from this column's upper lip edge, and the lips part
      // at their own seam there. At the mid-mouth's seam all along, a smile's opening lay below its corners,
      // which curve up: the actor's mouth showed as a dark dash in the skin below a corner, and the photo's
      // teeth stayed above it (talking woman, sample5).
      const upperEdge = lips.topAt(u);
      const gap = lips.gapAt(u);
      const w = v - upperEdge;
      if (w <= 0) return 0;
      // The jaw drops across its width (fading out past the mouth's corners); the lips part only between
      // their corners, closing there. Parted as wide as the jaw, the opening ran past the person's corners
      // and showed the actor's dark corners there, stretched into whiskers (talking woman, sample3).
      const jaw = extra * (1 - (u / reach) * (u / reach));
      const t = u / halfWidth;
      const drop = t * t < 1 ? Math.min(jaw, extra * (1 - t * t * t * t)) : 0;
      const gapEnd = gap + drop;
      if (w < gapEnd && drop > 0) {
        // The opened mouth runs from the upper lip's edge to the dropped lower one. The person's own picture
        // there: their upper half-gap as it is, the lips' seam where the opening was inserted (for what
        // little shows through its soft edge), their lower half-gap moved down with the jaw.
        const back = w <= gap * 0.5 ? 0 : Math.min(drop, w - gap * 0.5);
        out[0] = px - back * nx;
        out[1] = py - back * ny;
        out[2] = Math.min(1, Math.max(0, w / gapEnd));
        out[3] = Math.min(1, Math.max(0, 0.5 + u / (2 * halfWidth)));
        // Inside the inserted part, the actor's mouth; soft over two pixels at its edges.
        const inserted = softEdge(Math.min(w - gap * 0.5, gap * 0.5 + drop - w));
        // The person's own parted lips (their teeth in a smiling photo) give way to the actor's mouth as the
        // actor opens past them: one row of teeth, not the photo's above the actor's.
        const own = softEdge(Math.min(w, gapEnd - w)) * Math.min(1, drop / Math.max(MOUTH.minPixels, gap));
        return Math.max(inserted, own);
      }
      if (w <= gap * 0.5) return 0;
      // Below the gap: shifted down by `drop` at the lip, by the jaw's drop further down (the skin below the
      // corners stretches), fading to 0 beyond the chin.
      const fade = Math.max(0, Math.min(1, (fadeEnd - v) / Math.max(1, fadeEnd - upperEdge - gapEnd)));
      const shift = (drop + (jaw - drop) * Math.max(0, Math.min(1, (w - gapEnd) / stretch))) * fade;
      out[0] = px - shift * nx;
      out[1] = py - shift * ny;
      return 0;
    },
  };
}

/**
 * The mouth's own coordinates on a mesh: u along the lips (corner to corner), v down towards the chin, the
 * origin at the upper lip's inner edge mid-mouth as the mesh draws it; and the lips' curves in them (the
 * outer corners close the inner curves: the mesh's inner corners can fall short of a wide smile's).
 */
function mouthFrame(lm: number[][]) {
  const [left, right] = MOUTH_CORNERS.map((i) => lm[i]!);
  const upper = lm[UPPER_LIP_CENTRE]!;
  const faceHeight = Math.hypot(lm[FOREHEAD]![0]! - lm[CHIN]![0]!, lm[FOREHEAD]![1]! - lm[CHIN]![1]!);
  const halfWidth = Math.hypot(right![0]! - left![0]!, right![1]! - left![1]!) / 2;
  const ax = (right![0]! - left![0]!) / (2 * halfWidth);
  const ay = (right![1]! - left![1]!) / (2 * halfWidth);
  const [nx, ny] = [-ay, ax];
  const [ox, oy] = [upper[0]!, upper[1]!];
  const toMouth = ([x, y]: [number, number]) => [(x - ox) * ax + (y - oy) * ay, (x - ox) * nx + (y - oy) * ny] as const;
  const toPicture: ToPicture = (u, v) => [ox + u * ax + v * nx, oy + u * ay + v * ny];
  const curves: LipCurves = {
    upperInner: lipCurve(pick(lm, [...MOUTH_CORNERS, ...UPPER_INNER_LIP]).map(toMouth)),
    lowerInner: lipCurve(pick(lm, [...MOUTH_CORNERS, ...LOWER_INNER_LIP]).map(toMouth)),
    upperOuter: lipCurve(pick(lm, [...OUTER_LIPS.slice(10), OUTER_LIPS[0]]).map(toMouth)),
    lowerOuter: lipCurve(pick(lm, OUTER_LIPS.slice(0, 11)).map(toMouth)),
  };
  return { faceHeight, halfWidth, ax, ay, nx, ny, ox, oy, toPicture, curves };
}

/**
 * The mesh's jaw opened to the mouth the picture shows. On a wide laugh the mesh reads the mouth nearly
 * shut (face-api's sample1, third face: its whole lower lip drawn across her teeth and the dark beneath
 * them, her real lower lip a twelfth of the face's height further down, her chin as far): the face cut out
 * along that mesh lost its lower lip and chin, and closed, the dark inside stood in for the lower lip, a
 * grey smear under the upper one. Where the mouth's inside (mouthInside) reaches below the mesh's lower lip
 * altogether, that lip cannot be on the lip: the lower lip and the jaw are moved down until the lip's inner
 * edge lies where the inside ends mid-mouth, all of it from the lower inner lip down and none at the
 * corners' line, and at the sides fading out from the mouth's corners to the face's widest (a jaw turns
 * about its hinges). A mesh whose lower lip lies at least partly on the lip is left as it is: there the
 * mouth's motion finds the lip's edge itself (lipsApart). Returns new landmarks, and the move (pixels).
 */
export function jawOpenedToPicture(person: Pick<PersonFace, 'landmarks'> & Required<MouthPicture>): { landmarks: number[][]; shift: number } {
  const lm = person.landmarks;
  const { faceHeight, halfWidth, ax, ay, nx, ny, ox, oy, toPicture, curves } = mouthFrame(lm);
  const [lowerInner, lowerOuter] = [curves.lowerInner(0), curves.lowerOuter(0)];
  const insideEnd = mouthInside(person, toPicture, halfWidth, faceHeight, curves)?.bottom(0);
  if (lowerInner === undefined || lowerOuter === undefined || insideEnd === undefined) return { landmarks: lm, shift: 0 };
  // From nothing while the inside ends on the mesh's lip to all of it a little beyond (no step between two
  // nearly alike photos).
  const beyond = Math.max(0, Math.min(1, (insideEnd - lowerOuter) / (MOUTH.jawBeyondLip * faceHeight)));
  const shift = beyond * Math.max(0, insideEnd - lowerInner);
  if (shift === 0) return { landmarks: lm, shift };
  // v from the corners' line: the corners are where the jaw's move starts.
  const cornersV = MOUTH_CORNERS.reduce((sum, i) => sum + ((lm[i]![0]! - ox) * nx + (lm[i]![1]! - oy) * ny) / 2, 0);
  const widest = Math.max(...FACE_OVAL.map((i) => Math.abs((lm[i]![0]! - ox) * ax + (lm[i]![1]! - oy) * ay)));
  const landmarks = lm.map(([x, y, ...rest]) => {
    const u = (x! - ox) * ax + (y! - oy) * ay;
    const v = (x! - ox) * nx + (y! - oy) * ny;
    const down = Math.max(0, Math.min(1, (v - cornersV) / Math.max(1, lowerInner - cornersV)));
    const side = Math.abs(u) <= halfWidth ? 1 : Math.max(0, (widest - Math.abs(u)) / Math.max(1, widest - halfWidth));
    return [x! + shift * down * side * nx, y! + shift * down * side * ny, ...rest];
  });
  return { landmarks, shift };
}

/**
 * A lip's inner edge as a function of u across the mouth: v linear between its points (sorted by u),
 * undefined outside them. Called for every pixel of the mouth in every frame, so the points are packed and
 * the segment of the last call is where the search starts (neighbouring pixels share it).
 */
function lipCurve(points: (readonly [number, number])[]): ((u: number) => number | undefined) & { us: Float64Array; vs: Float64Array } {
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  const us = Float64Array.from(sorted, ([u]) => u);
  const vs = Float64Array.from(sorted, ([, v]) => v);
  const last = us.length - 1;
  let i = 0;
  const at = (u: number) => {
    if (u <= us[0]! || u >= us[last]!) return undefined;
    // The segment whose start is the last point before u.
    while (i > 0 && us[i]! >= u) i--;
    while (us[i + 1]! < u) i++;
    return vs[i]! + ((u - us[i]!) / Math.max(1e-6, us[i + 1]! - us[i]!)) * (vs[i + 1]! - vs[i]!);
  };
  return Object.assign(at, { us, vs });
}

/**
 * Where the lips' inner edges are in each column across the mouth, and how far apart: `topAt(u)` the upper
 * lip's, `bottomAt(u)` the lower one's, `gapAt(u)` between them (mouth coordinates: v down from the origin),
 * from −reach to reach. Without the picture, the mesh's inner lips. With it, the mouth's inside as the
 * picture shows it (mouthInside), and below the lower lip any teeth or dark the mesh's curve leaves there
 * (insideBeyond). Beyond the mouth's corners the gap fades out to the edge of the region moved: held at
 * the corner's and cut off there, it moved the skin beside the corner as a step down the chin; for the same
 * reason the gap changes by at most MOUTH.gapSlope from one column to the next. `seamAt(u)`: how much of
 * the lips' seam is drawn (1 between the corners).
 */
function lipsApart(
  person: Pick<PersonFace, 'landmarks'> & MouthPicture,
  toPicture: ToPicture,
  halfWidth: number,
  reach: number,
  faceHeight: number,
  curves: LipCurves,
) {
  const { upperInner, lowerInner, lowerOuter } = curves;
  const teethBelow = insideBeyond(person, toPicture, halfWidth, lowerInner, lowerOuter);
  const inside = mouthInside(person, toPicture, halfWidth, faceHeight, curves);
  // The corners: where both curves are defined, and the searches (half the mouth's width each side of its middle).
  const first = Math.max(upperInner.us[0]!, lowerInner.us[0]!, -halfWidth);
  const last = Math.min(upperInner.us[upperInner.us.length - 1]!, lowerInner.us[lowerInner.us.length - 1]!, halfWidth);
  const span = Math.ceil(reach);
  const tops = new Float32Array(2 * span + 1);
  const bottoms = new Float32Array(2 * span + 1);
  const gaps = new Float32Array(2 * span + 1);
  const seams = new Float32Array(2 * span + 1);
  for (let k = 0; k <= 2 * span; k++) {
    const u = k - span;
    const within = Math.min(last - 1e-3, Math.max(first + 1e-3, u));
    const [upper, lower] = [upperInner(within)!, lowerInner(within)!];
    tops[k] = inside?.top(within) ?? upper;
    bottoms[k] = Math.max(lower + teethBelow(within), inside?.bottom(within) ?? lower);
    const beyond = u < first ? (first - u) / Math.max(1, first + reach) : u > last ? (u - last) / Math.max(1, reach - last) : 0;
    gaps[k] = Math.max(0, bottoms[k]! - tops[k]!) * Math.max(0, 1 - beyond);
    // The lips' seam ends soon after the corner: drawn all along the skin lifted beside it, it showed as a
    // line slanting down from the corner (sample3).
    seams[k] = Math.max(0, 1 - 3 * beyond);
  }
  // The gap changes by at most MOUTH.gapSlope from one column to the next (lowered where it would change
  // faster): the skin below rises by its column's gap, and a laugh's gap, held to the lips' own reach at
  // the mesh's corner, fell from 9 pixels to half of one in a single column: a line down the chin.
  for (let k = 1; k <= 2 * span; k++) gaps[k] = Math.min(gaps[k]!, gaps[k - 1]! + MOUTH.gapSlope);
  for (let k = 2 * span - 1; k >= 0; k--) gaps[k] = Math.min(gaps[k]!, gaps[k + 1]! + MOUTH.gapSlope);
  const at = (values: Float32Array) => (u: number) => {
    const x = Math.min(2 * span, Math.max(0, u + span));
    const k = Math.min(2 * span - 1, Math.floor(x));
    return values[k]! + (x - k) * (values[k + 1]! - values[k]!);
  };
  return { tops, topAt: at(tops), bottomAt: at(bottoms), gapAt: at(gaps), seamAt: at(seams) };
}

type LipCurve = ReturnType<typeof lipCurve>;
/** The person's picture the mouth's inside is read on (Y and V), when given. */
type MouthPicture = Partial<Pick<PersonFace, 'y' | 'v' | 'width' | 'height'>>;
/** Mouth coordinates (u across, v down) to the picture's pixels. */
type ToPicture = (u: number, v: number) => [number, number];
type LipCurves = Record<'upperInner' | 'lowerInner' | 'upperOuter' | 'lowerOuter', LipCurve>;

/**
 * How far below the lower lip's inner edge by the mesh, into the lip, teeth or the mouth's dark inside
 * reach, per column u across the mouth (person pixels; 0 without the picture). On a wide smile the mesh
 * draws that lip along the lower teeth's top edge (face-api's sample3: 7 pixels of teeth below it in a
 * 320-pixel face), and a mouth closed from there kept them as a white seam; a mouth open in speech keeps
 * its dark inside below the mesh's curves at its corners (sample5). Teeth are lighter and less red than
 * the lip, the inside far darker. The lip is taken at its middle, between its inner edge and its outer one
 * (`outerAt`), and the search goes no further. Teeth are told from the lip in the same column: a lamp on one
 * side of the mouth made sample3's lip bluer and lighter there than mid-mouth. The dark inside is told from
 * the lip mid-mouth, or the column's where that is lighter: towards the corners the lip's own middle is in
 * the mouth's shade (sample5), and against it the dark corners were lip, kept as hooks along the seam.
 * mouthInside finds the rest of the inside, where the mesh's lip is not on the lip.
 */
function insideBeyond(
  person: MouthPicture,
  toPicture: ToPicture,
  halfWidth: number,
  edgeAt: LipCurve,
  outerAt: LipCurve,
): (u: number) => number {
  const { y, v: chroma, width, height } = person;
  if (!y || !chroma || !width || !height) return () => 0;
  const at = (plane: Float32Array, point: [number, number]) => pixelAt(plane, width, height, point);
  const lipMiddle = (u: number) => {
    const edge = edgeAt(u);
    const outer = outerAt(u);
    return edge === undefined || outer === undefined ? undefined : { edge, depth: Math.abs(outer - edge) / 2, point: toPicture(u, (edge + outer) / 2) };
  };
  const midMouth = lipMiddle(0);
  const midY = midMouth ? at(y, midMouth.point) : 0;
  const columns = Math.max(2, Math.ceil(2 * halfWidth));
  const depths = new Float32Array(columns + 1);
  for (let c = 0; c <= columns; c++) {
    const u = -halfWidth + (2 * halfWidth * c) / columns;
    const lip = lipMiddle(u);
    if (!lip) continue;
    const lipY = at(y, lip.point);
    const lipV = at(chroma, lip.point);
    const darkBelow = Math.max(lipY, midY) - MOUTH.insideDarker;
    let depth = 0;
    while (depth < lip.depth) {
      const point = toPicture(u, lip.edge + depth + 0.5);
      const tooth = at(y, point) > lipY + MOUTH.teethLighter && at(chroma, point) < lipV - MOUTH.teethLessRed;
      if (!tooth && !(at(y, point) < darkBelow)) break;
      depth++;
    }
    depths[c] = depth;
  }
  // Over a fifth of the mouth's width.
  const smooth = smoothAcross(depths, Math.max(1, Math.round(columns / 10)));
  return (u) => {
    const c = Math.round(((u + halfWidth) / (2 * halfWidth)) * columns);
    return c < 0 || c > columns ? 0 : smooth[c]!;
  };
}

/**
 * Where the mouth's inside (teeth, tongue, its dark) lies in each column u across the mouth, as the picture
 * shows it: from `top(u)` (the upper lip's inner edge) to `bottom(u)` (the lower lip's), mouth coordinates;
 * undefined outside the corners or without the picture. The mesh reads a wide laugh as a mouth nearly shut:
 * on a girl laughing (face-api's sample1, third face) it drew the lower inner lip across the middle of her
 * upper teeth and the lower lip's outer edge in the dark beneath them, her real lower lip 25 pixels further
 * down, and its upper inner lip 10 pixels up in her upper lip; closed from those curves, her teeth and the
 * dark stayed in every frame and half her upper lip was covered. So the inside is found by its colour: the
 * first inside pixel down from the mesh's upper inner lip (no further than the middle of its lower lip) and
 * from there up and down while the pixels are inside, across short runs of the blur between teeth and dark
 * (MOUTH.insideBridge, insideBlurSlope: on her, 4-5 pixels going from light to dark, between lip and
 * teeth in their light), down to two lips' depths beyond the mesh's lower lip. A pixel is inside when it
 * is a tooth (lighter and less red than the lips), less red for its light than the lips (teeth in shade:
 * MOUTH.insideRedness) or far darker than they (MOUTH.insideDarkShare); with three limits, each from a
 * face it failed on: above the seed only teeth; past the middle of the mesh's lower lip only on from a
 * tooth; below the mesh's lower lip only teeth and the dark (see `where` and `lowerMiddle`). The lips'
 * colour is taken in each column from the columns around it (a lamp on one side of the mouth makes them
 * bluer and lighter there, sample3): the redder quarter of what lies between the mesh's lip curves, whose
 * upper lip is on the lip even where its lower one is on the teeth. Where the run found holds no tooth and
 * a tooth lies further down within the seed's reach, the longer of the two runs is the inside (a laugh's
 * corners). A column where no inside is found has its lips meeting halfway between the mesh's curves.
 */
function mouthInside(
  person: Pick<PersonFace, 'landmarks'> & MouthPicture,
  toPicture: ToPicture,
  halfWidth: number,
  faceHeight: number,
  { upperInner, lowerInner, upperOuter, lowerOuter }: LipCurves,
): { top: (u: number) => number | undefined; bottom: (u: number) => number | undefined } | undefined {
  const { y, v: chroma, width, height } = person;
  if (!y || !chroma || !width || !height) return undefined;
  const at = (plane: Float32Array, point: [number, number]) => pixelAt(plane, width, height, point);
  const columns = Math.max(2, Math.ceil(2 * halfWidth));
  const uOf = (c: number) => -halfWidth + (2 * halfWidth * c) / columns;
  // Over a fifth of the mouth's width, as insideBeyond smooths.
  const window = Math.max(1, Math.round(columns / 10));
  const samples: { red: number; luma: number }[][] = [];
  for (let c = 0; c <= columns; c++) {
    const u = uOf(c);
    const column: { red: number; luma: number }[] = [];
    for (const [from, to] of [[upperOuter(u), upperInner(u)], [lowerInner(u), lowerOuter(u)]]) {
      if (from === undefined || to === undefined) continue;
      for (let v = Math.min(from, to); v < Math.max(from, to); v++) {
        const point = toPicture(u, v + 0.5);
        column.push({ red: at(chroma, point), luma: at(y, point) });
      }
    }
    samples.push(column);
  }
  const lipColour = Array.from({ length: columns + 1 }, (_, c) => {
    const around = samples.slice(Math.max(0, c - window), c + window + 1).flat();
    if (around.length === 0) return undefined;
    const reds = around.map(({ red }) => red).sort((a, b) => a - b);
    const red = reds[Math.floor(0.75 * (reds.length - 1))]!;
    const lumas = around.filter((sample) => sample.red >= red - MOUTH.teethLessRed).map(({ luma }) => luma).sort((a, b) => a - b);
    const luma = lumas[lumas.length >> 1]!;
    // How red for its light, left out the dark (the mouth's inside is red for its light).
    const rednesses = around.filter((sample) => sample.luma >= luma * MOUTH.insideDarkShare).map(({ red: r, luma: l }) => redness(r, l)).sort((a, b) => a - b);
    return { red, luma, redness: rednesses.length ? rednesses[Math.floor(0.75 * (rednesses.length - 1))]! : 0 };
  });
  // The dark inside is told from the lips mid-mouth too, where they are lighter: towards the corners the
  // lips are in the mouth's shade, and against them the dark there was lip (as insideBeyond's).
  const midLuma = lipColour[columns >> 1]?.luma ?? 0;
  const skin = skinRedness(person);
  const lumaAt = (u: number, v: number) => at(y, toPicture(u, v));
  const isTooth = (lip: { red: number; luma: number }, u: number, v: number) => {
    const point = toPicture(u, v);
    return at(y, point) > lip.luma + MOUTH.teethLighter && at(chroma, point) < lip.red - MOUTH.teethLessRed;
  };
  // `where`: 'up', above the seed, where only teeth are taken (the shaded inner edge of a dark red upper lip
  // was taken for the dark, and covered: sample1); 'deep', below the mesh's lower lip, where teeth and the
  // dark are (a lip's pale lower edge and the skin below it are less red for their light than the lip,
  // sample3's third face).
  const isInside = (lip: { red: number; luma: number; redness: number }, u: number, v: number, where: 'up' | 'down' | 'deep' = 'down') => {
    const point = toPicture(u, v);
    const [luma, red] = [at(y, point), at(chroma, point)];
    const pale = where !== 'deep' && redness(red, luma) < lip.redness * MOUTH.insideRedness;
    const dark = where !== 'up' && luma < Math.max(lip.luma, midLuma) * MOUTH.insideDarkShare;
    const tooth = isTooth(lip, u, v) && (where !== 'deep' || skin === undefined || redness(red, luma) < skin - MOUTH.teethWhiterThanSkin);
    return tooth || pale || dark;
  };
  const bridge = Math.max(1, Math.round(MOUTH.insideBridge * faceHeight));
  const tops = new Float32Array(columns + 1).fill(NaN);
  const bottoms = new Float32Array(columns + 1).fill(NaN);
  // How far each column's search goes: up to its upper lip's middle, down to two lips' depths below.
  const highest = new Float32Array(columns + 1).fill(NaN);
  const lowest = new Float32Array(columns + 1).fill(NaN);
  for (let c = 0; c <= columns; c++) {
    const u = uOf(c);
    const [upper, lower, upperOut, lowerOut, lip] = [upperInner(u), lowerInner(u), upperOuter(u), lowerOuter(u), lipColour[c]];
    if (upper === undefined || lower === undefined || upperOut === undefined || lowerOut === undefined || !lip) continue;
    highest[c] = (upper + upperOut) / 2;
    lowest[c] = lowerOut + 2 * (lowerOut - lower);
    // The seed: the first inside pixel down from the upper inner lip, no further than the lower lip's middle.
    const seedEnd = Math.max((lower + lowerOut) / 2, upper + 1);
    let seed = upper;
    while (seed < seedEnd && !isInside(lip, u, seed + 0.5)) seed++;
    if (!isInside(lip, u, seed + 0.5)) {
      tops[c] = bottoms[c] = (upper + lower) / 2;
      continue;
    }
    // From the seed up and down, as long as the pixels are inside or the blur between two parts of it.
    // Past the middle of the mesh's lower lip only on teeth: there the mesh's lip lies on them (the laugh);
    // elsewhere that half is lip, and dark red lips in shade (sample1's second face) were taken for the dark.
    const lowerMiddle = (lower + lowerOut) / 2;
    const walk = (seed: number, to: number, step: 1 | -1) => {
      let last = seed;
      let [flat, run, before] = [0, 0, lumaAt(u, seed + 0.5)];
      for (let v = seed + step; step > 0 ? v < to : v > to; v += step) {
        if (step > 0 && v >= lowerMiddle && v - 1 < lowerMiddle && !(last === v - 1 && isTooth(lip, u, last + 0.5))) break;
        const luma = lumaAt(u, v + 0.5);
        if (isInside(lip, u, v + 0.5, step < 0 ? 'up' : v > lowerOut ? 'deep' : 'down')) [last, flat, run] = [v, 0, 0];
        else {
          // Darkening fast, the pixel is on the blur's slope from teeth to what lies beyond them, not lip yet;
          // the light rising is the lip's own rounding, from its edge to its middle (sample3's third face).
          if (before - luma < MOUTH.insideBlurSlope) flat++;
          if (flat > bridge || ++run > 3 * bridge) break;
        }
        before = luma;
      }
      return last;
    };
    let top = walk(seed, highest[c]!, -1);
    let bottom = walk(seed, lowest[c]!, 1) + 1;
    // Teeth further down, still above the lower lip's middle, lead the mouth's inside when what was found
    // holds none and is shorter: towards a laugh's corners the mesh's upper inner lip lies high in the
    // upper lip, and the first inside pixel below it was the shade in its crease, the teeth and the dark
    // beyond a band of lip (sample1's third face: a dark wedge left at her closed mouth's corner).
    let toothless = true;
    for (let v = top; v < bottom && toothless; v++) toothless = !isTooth(lip, u, v + 0.5);
    for (let next = bottom + 1; toothless && next < seedEnd; next++) {
      if (!isTooth(lip, u, next + 0.5)) continue;
      const [nextTop, nextBottom] = [walk(next, highest[c]!, -1), walk(next, lowest[c]!, 1) + 1];
      if (nextBottom - nextTop > bottom - top) [top, bottom] = [nextTop, nextBottom];
      break;
    }
    tops[c] = top;
    bottoms[c] = bottom;
  }
  // Smoothed, and held to each column's own reach: towards the corners the lips close in, and the deep
  // inside of the middle, spread there, moved the skin beside a laugh's corner in a long streak.
  const curve = (raw: Float32Array) => {
    const values = smoothAcross(raw, window).map((value, c) => Math.min(lowest[c]!, Math.max(highest[c]!, value)));
    return (u: number) => {
      const c = Math.round(((u + halfWidth) / (2 * halfWidth)) * columns);
      return c < 0 || c > columns || Number.isNaN(values[c]!) ? undefined : values[c]!;
    };
  };
  return { top: curve(tops), bottom: curve(bottoms) };
}

/** A plane of the person's picture at the pixel holding the point (x, y), held to the picture. */
function pixelAt(plane: Float32Array, width: number, height: number, [x, y]: [number, number]): number {
  return plane[Math.min(height - 1, Math.max(0, Math.round(y - 0.5))) * width + Math.min(width - 1, Math.max(0, Math.round(x - 0.5)))]!;
}

/** How red a pixel is for its light: V's distance from grey over Y's above black. */
const redness = (red: number, luma: number) => (red - 128) / Math.max(MIN_SKIN, luma - BLACK);

/** Mesh points on bare skin round the mouth (MediaPipe's numbering): both cheeks, and the chin below the lips. */
const SKIN_ROUND_MOUTH = [50, 101, 118, 117, 123, 187, 205, 36, 280, 330, 347, 346, 352, 411, 425, 266, 18, 200, 199, 175, 83, 313, 201, 421, 208, 428];

/** The skin's redness round the mouth: the median over 5×5 pixels at each of SKIN_ROUND_MOUTH; undefined without the picture. */
function skinRedness({ landmarks, y, v, width, height }: Pick<PersonFace, 'landmarks'> & MouthPicture): number | undefined {
  if (!y || !v || !width || !height) return undefined;
  const values: number[] = [];
  for (const index of SKIN_ROUND_MOUTH) {
    const [x0, y0] = landmarks[index] ?? [];
    if (x0 === undefined || y0 === undefined) continue;
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) values.push(redness(pixelAt(v, width, height, [x0 + dx, y0 + dy]), pixelAt(y, width, height, [x0 + dx, y0 + dy])));
  }
  return values.length ? values.sort((a, b) => a - b)[values.length >> 1] : undefined;
}

/**
 * A value per column smoothed across the mouth: one column's search strays (a glint on the lip, a dark
 * gap between teeth), so the median over `window` columns each side, then the mean over the same window (a
 * step between two columns showed as a line down the chin). NaN (no value) is left out, and stays NaN.
 */
function smoothAcross(values: Float32Array, window: number): Float32Array {
  const around = (from: Float32Array, c: number) => Array.from(from.subarray(Math.max(0, c - window), Math.min(from.length, c + window + 1))).filter((d) => !Number.isNaN(d));
  const median = Float32Array.from(values, (value, c) => {
    if (Number.isNaN(value)) return NaN;
    const sorted = around(values, c).sort((a, b) => a - b);
    return sorted[sorted.length >> 1]!;
  });
  return Float32Array.from(median, (value, c) => {
    if (Number.isNaN(value)) return NaN;
    const near = around(median, c);
    return near.reduce((sum, d) => sum + d, 0) / near.length;
  });
}
