// Keeps the pasted face steady on the actor's: the tracker's mesh trembles by a pixel or two from frame
// to frame even on a still head, and a face placed by it trembles as much (issue 15: a still template
// gives a still face, no shimmer at the seam). The placement (a similarity: where, how large, how
// rotated) is followed through two anchor points of the person's face, each smoothed with a One Euro
// filter (Casiez, Roussel and Vogel, CHI 2012): heavy smoothing while the head is still, little while it
// moves. A render paints from the template's whole track (actor-track.ts), so the filter runs forwards
// over the track and then backwards over what it gave: the backward pass takes out the forward one's
// lag, and the tremble is smoothed twice. The mesh's jitter on the output against the template's
// (bench/render), the forward pass alone → both: the talking woman's five cases 0.54-0.66 → 0.41-0.51,
// man · sample4 1.35 → 1.09, the zooming portrait 1.18-1.20 → 1.15, the talking man's others within
// their spread (0.83-1.02).
import { type Point, type Similarity, applySimilarity } from './landmarks';

export const STEADY = {
  /** Cut-off (Hz) of the smoothing on a still head: lower is steadier. */
  minCutoffHz: 1.2,
  /** How fast the cut-off rises with the anchor's speed, per (face height per second). */
  speedCutoff: 12,
  /** Cut-off (Hz) of the speed estimate itself. */
  speedCutoffHz: 1,
  /** A move of more than this share of the face between two frames is a cut, not a movement. */
  jump: 0.5,
} as const;

const alpha = (cutoffHz: number, rate: number) => {
  const tau = 1 / (2 * Math.PI * cutoffHz);
  return 1 / (1 + tau * rate);
};

/** A One Euro filter over a 2-D point, speeds measured in units of `size` per second. */
export function pointFilter(rate: number) {
  let value: Point | undefined;
  let speed: Point = [0, 0];
  return (next: Point, size: number): Point => {
    // A first frame, or a jump no head makes between two frames (a cut): start again from here.
    if (!value || Math.hypot(next[0] - value[0], next[1] - value[1]) > STEADY.jump * size) {
      speed = [0, 0];
      value = next;
      return next;
    }
    const raw: Point = [(next[0] - value[0]) * rate, (next[1] - value[1]) * rate];
    const a = alpha(STEADY.speedCutoffHz, rate);
    speed = [speed[0] + a * (raw[0] - speed[0]), speed[1] + a * (raw[1] - speed[1])];
    const cutoff = STEADY.minCutoffHz + (STEADY.speedCutoff * Math.hypot(...speed)) / Math.max(1, size);
    const b = alpha(cutoff, rate);
    value = [value[0] + b * (next[0] - value[0]), value[1] + b * (next[1] - value[1])];
    return value;
  };
}

/** The similarity that maps p → p' and q → q'. */
function similarityFrom([p, q]: [Point, Point], [p2, q2]: [Point, Point]): Similarity {
  const dx = q[0] - p[0];
  const dy = q[1] - p[1];
  const ex = q2[0] - p2[0];
  const ey = q2[1] - p2[1];
  const norm = dx * dx + dy * dy || 1;
  const a = (dx * ex + dy * ey) / norm;
  const b = (dx * ey - dy * ex) / norm;
  return { a, b, tx: p2[0] - (a * p[0] - b * p[1]), ty: p2[1] - (b * p[0] + a * p[1]) };
}

/**
 * The steadied person-to-frame placement of every frame of a track at `rate` frames per second, from each
 * frame's raw placement (undefined where the frame has no face: the filters start again after it).
 * `anchors` are two points of the person's cut-out far apart (between the eyes and the chin, say);
 * `faceSize` the face's height there. The same placement steadies every image of the person pasted in a
 * frame (its correction: composeSimilarity(invertSimilarity(raw), steadied)).
 */
export function steadyPlacements(rate: number, anchors: [Point, Point], faceSize: number, raws: readonly (Similarity | undefined)[]): (Similarity | undefined)[] {
  const sizes = raws.map((raw) => (raw ? Math.hypot(raw.a, raw.b) * faceSize : 1));
  const filtered = (pairs: readonly ([Point, Point] | undefined)[], order: number[]) => {
    const out: ([Point, Point] | undefined)[] = new Array(pairs.length);
    let filters = [pointFilter(rate), pointFilter(rate)];
    for (const f of order) {
      const pair = pairs[f];
      if (!pair) filters = [pointFilter(rate), pointFilter(rate)];
      else out[f] = [filters[0]!(pair[0], sizes[f]!), filters[1]!(pair[1], sizes[f]!)];
    }
    return out;
  };
  const frames = raws.map((_, f) => f);
  const raw = raws.map((placed) => (placed ? ([applySimilarity(placed, anchors[0]), applySimilarity(placed, anchors[1])] as [Point, Point]) : undefined));
  const forwards = filtered(raw, frames);
  const steadied = filtered(forwards, [...frames].reverse());
  return steadied.map((pair) => (pair ? similarityFrom(anchors, pair) : undefined));
}
