// Keeps the pasted face steady on the actor's: the tracker's mesh trembles by a pixel or two from frame
// to frame even on a still head, and a face placed by it trembles as much (issue 15: a still template
// gives a still face, no shimmer at the seam). The placement (a similarity: where, how large, how
// rotated) is followed through two anchor points of the person's face, each smoothed with a One Euro
// filter (Casiez, Roussel and Vogel, CHI 2012): heavy smoothing while the head is still, little while it
// moves. A render paints each frame once the second after it is tracked (face-render.ts), so the filter
// runs forwards over the track and then backwards over what it gave, from a second ahead: the backward
// pass takes out the forward one's lag, and the tremble is smoothed twice. The mesh's jitter on the output
// against the template's (bench/render), the forward pass alone → both: the talking woman's five cases
// 0.54-0.66 → 0.41-0.51, man · sample4 1.35 → 1.09, the zooming portrait 1.18-1.20 → 1.15, the talking
// man's others within their spread (0.83-1.02). That figure moves by up to 0.2 when the face is moved by a
// thousandth of a pixel (decision 014, seventeenth part): read differences under that as noise.
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
  /**
   * How far past a frame its backward pass starts (s): the frames a render holds before painting one. The
   * placements against a pass from the track's end, on the real tracks of the shared talking clips and the
   * zooming portrait: 0.25 s up to 0.59 px off, 0.5 s 0.22 px, 1 s 0.005 px.
   */
  lookaheadSeconds: 1,
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
 * Steadies the person-to-frame placement of a track's frames at `rate` frames per second, given in order:
 * each frame's raw placement goes in (undefined where it has no face: the filters start again after it),
 * and a frame's steadied placement comes out once the `lookahead` frames after it are in (`push`), or the
 * track has ended (`finish`). `anchors` are two points of the person's cut-out far apart (between the eyes
 * and the chin, say); `faceSize` the face's height there. The same placement steadies every image of the
 * person pasted in a frame (its correction: composeSimilarity(invertSimilarity(raw), steadied)).
 *
 * The forward filters run once over the track; the backward pass runs, for each frame given out, from the
 * end of its window back to it. A window of STEADY.lookaheadSeconds (several of the filter's time constants
 * at its lowest cut-off) gives what a pass from the track's end gives, and lets a render paint while it
 * tracks: it holds that many frames, not the whole template.
 */
export function createSteadyPlacements(rate: number, anchors: [Point, Point], faceSize: number, lookahead = Math.ceil(STEADY.lookaheadSeconds * rate)) {
  let forwards = [pointFilter(rate), pointFilter(rate)];
  /** The frames not given out yet: their forward-filtered anchors and face size (undefined: no face). */
  const window: ({ pair: [Point, Point]; size: number } | undefined)[] = [];
  const giveOut = (): Similarity | undefined => {
    let backwards = [pointFilter(rate), pointFilter(rate)];
    let pair: [Point, Point] | undefined;
    for (let i = window.length - 1; i >= 0; i--) {
      const entry = window[i];
      if (!entry) backwards = [pointFilter(rate), pointFilter(rate)];
      else pair = [backwards[0]!(entry.pair[0], entry.size), backwards[1]!(entry.pair[1], entry.size)];
    }
    return window.shift() && pair ? similarityFrom(anchors, pair) : undefined;
  };
  return {
    /** Takes the next frame's raw placement; gives the steadied one of the frame `lookahead` before it, once there is one. */
    push(raw: Similarity | undefined): (Similarity | undefined)[] {
      if (!raw) {
        forwards = [pointFilter(rate), pointFilter(rate)];
        window.push(undefined);
      } else {
        const size = Math.hypot(raw.a, raw.b) * faceSize;
        window.push({ pair: [forwards[0]!(applySimilarity(raw, anchors[0]), size), forwards[1]!(applySimilarity(raw, anchors[1]), size)], size });
      }
      return window.length > lookahead ? [giveOut()] : [];
    },
    /** The steadied placements of the frames still held, at the track's end. */
    finish(): (Similarity | undefined)[] {
      const rest: (Similarity | undefined)[] = [];
      while (window.length > 0) rest.push(giveOut());
      return rest;
    },
  };
}
