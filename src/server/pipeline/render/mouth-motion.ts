// The actor's mouth movement carried onto the pasted photo: a local warp of the person's lower lip and
// jaw, in the person's picture, driven by how much more open the actor's mouth is in this frame than at
// rest (the smallest opening seen so far). The lower lip moves down by that amount (scaled to the
// person's face), the skin between it and the chin stretches, and the gap between the lips shows the
// actor's own mouth (face-paste.ts): the person's own parted lips too, once the actor opens past them, so a
// smiling photo's teeth never show above the actor's (one mouth, not two). The person's own face shape
// is untouched elsewhere.
import { mouthOpening } from '../face-engine';
import { CHIN, FOREHEAD, LOWER_LIP_CENTRE, MOUTH_CORNERS, UPPER_LIP_CENTRE } from './landmarks';
import type { PersonFace } from './person-face';

export const MOUTH = {
  /** The actor's opening (share of face height) is multiplied by this on the person. */
  gain: 1.5,
  /** The jaw region moved is this many mouth half-widths wide. */
  widthFactor: 1.25,
  /** This many person pixels of opening are ignored (the mesh's noise at rest). */
  minPixels: 1.5,
  /** The lower lip drops at most this share of the way from the lips to the chin. */
  maxDropShare: 0.45,
  /** The jaw's shift fades out at this many times the lips-to-chin depth (beyond the chin: outside the mask). */
  fadeBeyondChin: 1.4,
} as const;

export interface MouthMotion {
  /** Whether this frame moves the mouth at all. */
  readonly active: boolean;
  /** Sets this frame's opening from the actor's mesh. */
  update(actorLandmarks: number[][]): void;
  /**
   * Writes where to sample the person's picture for the output point (px, py) into out[0], out[1]; returns
   * how much is mouth interior (0..1). Inside the mouth, out[2] is how far across the opening the point is
   * (0 at the upper lip, 1 at the lower) and out[3] where along the lips (0 at the left corner, 1 at the
   * right): the actor's own mouth is sampled there (face-paste.ts).
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
export type MouthSample = [number, number, number, number];

/**
 * `restOpening`: the opening of the person's resting mouth (the anchor image's: face-choice.ts); an image
 * whose own mouth is already open that much further is dropped only by what it lacks.
 */
export function createMouthMotion(person: Pick<PersonFace, 'landmarks'>, restOpening = mouthOpening(person.landmarks)): MouthMotion {
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
  const ownOpen = Math.max(0, mouthOpening(lm) - restOpening) * faceHeight;
  let rest = Infinity;
  let open = 0;
  let extra = 0;
  // The region `source` moves: u in (−reach, reach), v in (0, fadeEnd); its corners' box and a pixel more.
  const corners = [[-reach, 0], [reach, 0], [-reach, fadeEnd], [reach, fadeEnd]].map(([u, v]) => [ox + u! * ax + v! * nx, oy + u! * ay + v! * ny]);
  const bounds = Float64Array.from([
    Math.min(...corners.map(([x]) => x!)) - 1,
    Math.min(...corners.map(([, y]) => y!)) - 1,
    Math.max(...corners.map(([x]) => x!)) + 1,
    Math.max(...corners.map(([, y]) => y!)) + 1,
  ]);

  return {
    get active() {
      return extra > 0;
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
      extra = Math.min(maxDrop, Math.max(0, open * faceHeight * MOUTH.gain - MOUTH.minPixels - ownOpen));
    },
    source(px, py, out) {
      const u = (px - ox) * ax + (py - oy) * ay;
      const v = (px - ox) * nx + (py - oy) * ny;
      out[0] = px;
      out[1] = py;
      if (v <= 0 || v >= fadeEnd || u <= -reach || u >= reach) return 0;
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
