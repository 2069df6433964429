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
import { CHIN, FOREHEAD, LOWER_INNER_LIP, LOWER_LIP_CENTRE, MOUTH_CORNERS, OUTER_LIPS, UPPER_INNER_LIP, UPPER_LIP_CENTRE, pick } from './landmarks';
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
  /** The lower lip drops at most this share of the way from the lips to the chin. */
  maxDropShare: 0.45,
  /** The jaw's shift fades out at this many times the lips-to-chin depth (beyond the chin: outside the mask). */
  fadeBeyondChin: 1.4,
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
 * `person`: the image's mesh and, when given, its picture (Y and V), in which the teeth and the dark
 * inside that the mesh leaves beyond its inner lips are found, so that closing covers them too and the
 * lips meet at their own edges (insideBeyond).
 */
export function createMouthMotion(person: Pick<PersonFace, 'landmarks'> & Partial<Pick<PersonFace, 'y' | 'v' | 'width' | 'height'>>): MouthMotion {
  const lm = person.landmarks;
  const [left, right] = MOUTH_CORNERS.map((i) => lm[i]!);
  const upper = lm[UPPER_LIP_CENTRE]!;
  const lower = lm[LOWER_LIP_CENTRE]!;
  const faceHeight = Math.hypot(lm[FOREHEAD]![0]! - lm[CHIN]![0]!, lm[FOREHEAD]![1]! - lm[CHIN]![1]!);
  const halfWidth = Math.hypot(right![0]! - left![0]!, right![1]! - left![1]!) / 2;
  // Mouth axes: along the lips (corner to corner) and down towards the chin.
  const ax = (right![0]! - left![0]!) / (2 * halfWidth);
  const ay = (right![1]! - left![1]!) / (2 * halfWidth);
  const nx = -ay;
  const ny = ax;
  // Origin: the inner edge of the upper lip, mid-mouth.
  const ox = upper[0]!;
  const oy = upper[1]!;
  const lipGap = Math.max(0, (lower[0]! - ox) * nx + (lower[1]! - oy) * ny);
  const chinDepth = (lm[CHIN]![0]! - ox) * nx + (lm[CHIN]![1]! - oy) * ny;
  const reach = halfWidth * MOUTH.widthFactor;
  // The lower lip never drops more than about half the way to the chin.
  const maxDrop = Math.max(0, (chinDepth - lipGap) * MOUTH.maxDropShare);
  // The jaw below moves with the lower lip and fades out beyond the chin (outside the mask, where the
  // actor's own jaw has dropped too).
  const fadeEnd = chinDepth * MOUTH.fadeBeyondChin;
  // The photo's own opening beyond closed lips: what the actor's opening is measured against.
  const ownGap = Math.max(0, lipGap - MOUTH.closedOpening * faceHeight);
  // Each column's gap between the inner lips (u across the mouth, 0 at its middle): a smile's gap narrows
  // towards the corners, and closing must not lift the lower lip past the upper one there.
  const toMouth = ([x, y]: [number, number]) => [(x - ox) * ax + (y - oy) * ay, (x - ox) * nx + (y - oy) * ny] as const;
  // The outer corners close both curves: the mesh's inner corners can fall short of a wide smile's.
  const upperInner = lipCurve(pick(lm, [...MOUTH_CORNERS, ...UPPER_INNER_LIP]).map(toMouth));
  const lowerInner = lipCurve(pick(lm, [...MOUTH_CORNERS, ...LOWER_INNER_LIP]).map(toMouth));
  const toPicture = (u: number, v: number): [number, number] => [ox + u * ax + v * nx, oy + u * ay + v * ny];
  const below = insideBeyond(person, toPicture, halfWidth, lowerInner, lipCurve(pick(lm, OUTER_LIPS.slice(0, 11)).map(toMouth)), 1);
  const above = insideBeyond(person, toPicture, halfWidth, upperInner, lipCurve(pick(lm, [...OUTER_LIPS.slice(10), OUTER_LIPS[0]]).map(toMouth)), -1);
  const overlap = MOUTH.closeOverlap * faceHeight;
  let rest = Infinity;
  let open = 0;
  let extra = 0;
  // The region `source` moves: u in (−reach, reach), v in (top, fadeEnd), where top is 0 (the upper lip's
  // inner edge mid-mouth) or, closing, the highest point of the lower inner lip (a smile's corners curve
  // up above it) or of the teeth above the upper one, with the overlap; its corners' box and a pixel more.
  const top = Math.min(0, ...lowerInner.vs, ...Array.from(upperInner.vs, (v, i) => v - above(upperInner.us[i]!))) - overlap;
  const corners = [[-reach, top], [reach, top], [-reach, fadeEnd], [reach, fadeEnd]].map(([u, v]) => [ox + u! * ax + v! * nx, oy + u! * ay + v! * ny]);
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
        const upperEdge = upperInner(u);
        const lowerEdge = lowerInner(u);
        if (upperEdge === undefined || lowerEdge === undefined) return 0;
        // The teeth and dark inside below the mesh's lower lip, at the corners too: a wide smile's gap narrows
        // to nothing there but its teeth reach below the curve (held to the column's gap, they stayed as a
        // white fleck: sample6), and a mouth open in speech is dark there (sample5).
        const bottom = lowerEdge + below(u);
        // Up to the upper lip's own edge: on a toothy smile the mesh draws it a pixel or two low, on the teeth.
        const lipTop = upperEdge - above(u);
        const gap = Math.max(0, bottom - lipTop);
        // The seam, and the overlap, fade out where the gap narrows towards the corners: a pixel's overlap
        // beside none at the corner's last column moved the skin below it as a line down the chin.
        const full = Math.min(1, gap / (MOUTH.seamFullGap * faceHeight));
        const closing = -extra / ownGap;
        const rise = closing * (gap + overlap * full);
        const from = bottom - rise;
        if (rise <= 0) return 0;
        const seamWidth = MOUTH.seamWidth * faceHeight;
        out[4] = closing * Math.max(0, 1 - Math.abs(v - from) / seamWidth) * full;
        if (v < from) return 0;
        const shift = rise * Math.max(0, Math.min(1, (fadeEnd - v) / Math.max(1, fadeEnd - from)));
        out[0] = px + shift * nx;
        out[1] = py + shift * ny;
        return 0;
      }
      if (v <= 0) return 0;
      const across = 1 - (u / reach) * (u / reach);
      const drop = extra * across;
      const gapEnd = lipGap + drop;
      if (v < gapEnd && drop > 0) {
        // The opened mouth runs from the upper inner lip to the dropped lower one. The person's own picture
        // there: their upper half-gap as it is, the lips' seam where the opening was inserted (for what
        // little shows through its soft edge), their lower half-gap moved down with the jaw.
        const back = v <= lipGap * 0.5 ? 0 : Math.min(drop, v - lipGap * 0.5);
        out[0] = px - back * nx;
        out[1] = py - back * ny;
        out[2] = Math.min(1, Math.max(0, v / gapEnd));
        out[3] = Math.min(1, Math.max(0, 0.5 + u / (2 * halfWidth)));
        // Inside the inserted part, the actor's mouth; soft over two pixels at its edges.
        const inserted = softEdge(Math.min(v - lipGap * 0.5, lipGap * 0.5 + drop - v));
        // The person's own parted lips (their teeth in a smiling photo) give way to the actor's mouth as the
        // actor opens past them: one row of teeth, not the photo's above the actor's.
        const own = softEdge(Math.min(v, gapEnd - v)) * Math.min(1, drop / Math.max(MOUTH.minPixels, lipGap));
        return Math.max(inserted, own);
      }
      if (v <= lipGap * 0.5) return 0;
      // Below the gap: shifted down by `drop` at the lip, fading to 0 beyond the chin.
      const fade = Math.max(0, Math.min(1, (fadeEnd - v) / Math.max(1, fadeEnd - gapEnd)));
      const shift = drop * fade;
      out[0] = px - shift * nx;
      out[1] = py - shift * ny;
      return 0;
    },
  };
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
 * How far beyond a lip's inner edge, into the lip, the teeth or the mouth's dark inside reach, per column u
 * across the mouth (person pixels; 0 without the picture). `side` 1: down from the lower inner lip; on a
 * wide smile the mesh draws that lip along the lower teeth's top edge (face-api's sample3: 7 pixels of
 * teeth below it in a 320-pixel face), and a mouth closed from there kept them as a white seam; a mouth
 * open in speech keeps its dark inside below the mesh's curves at its corners (sample5). `side` −1: up from
 * the upper inner lip, which the mesh draws a pixel or two low on a toothy smile (sample6). Teeth are
 * lighter and less red than the lip, the inside far darker. The lip is taken at its middle, between its
 * inner edge and its outer one (`outerAt`), and the search goes no further. Teeth are told from the lip
 * in the same column: a lamp on one side of the mouth made sample3's upper lip bluer and lighter there
 * than mid-mouth, and it read as teeth against the mid-mouth colour. The dark inside is told from the lip
 * mid-mouth, or the column's where that is lighter: towards the corners the lip's own middle is in the
 * mouth's shade (sample5), and against it the dark corners were lip, kept as hooks along the seam.
 */
function insideBeyond(
  person: Partial<Pick<PersonFace, 'y' | 'v' | 'width' | 'height'>>,
  toPicture: (u: number, v: number) => [number, number],
  halfWidth: number,
  edgeAt: (u: number) => number | undefined,
  outerAt: (u: number) => number | undefined,
  side: 1 | -1,
): (u: number) => number {
  const { y, v: chroma, width, height } = person;
  if (!y || !chroma || !width || !height) return () => 0;
  const at = (plane: Float32Array, [x, yy]: [number, number]) => plane[Math.min(height - 1, Math.max(0, Math.round(yy - 0.5))) * width + Math.min(width - 1, Math.max(0, Math.round(x - 0.5)))]!;
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
      const point = toPicture(u, lip.edge + side * (depth + 0.5));
      const tooth = at(y, point) > lipY + MOUTH.teethLighter && at(chroma, point) < lipV - MOUTH.teethLessRed;
      if (!tooth && !(at(y, point) < darkBelow)) break;
      depth++;
    }
    depths[c] = depth;
  }
  // One column's search strays (a glint on the lip, a dark gap between teeth): the median over a fifth of
  // the mouth's width…
  const window = Math.max(1, Math.round(columns / 10));
  const median = Float32Array.from(depths, (_, c) => {
    const around = Array.from(depths.subarray(Math.max(0, c - window), Math.min(columns + 1, c + window + 1))).sort((a, b) => a - b);
    return around[around.length >> 1]!;
  });
  // …then averaged over the same window: a step between two columns showed as a line down the chin.
  const smooth = Float32Array.from(median, (_, c) => {
    const around = median.subarray(Math.max(0, c - window), Math.min(columns + 1, c + window + 1));
    return around.reduce((sum, d) => sum + d, 0) / around.length;
  });
  return (u) => {
    const c = Math.round(((u + halfWidth) / (2 * halfWidth)) * columns);
    return c < 0 || c > columns ? 0 : smooth[c]!;
  };
}
