// The person's face shape in the frame. The paste (face-paste.ts) puts the person's eyes, nose and mouth
// where the actor's are and fades out inside the person's outline, so beyond it the actor's own jaw, cheeks
// and temples showed: a round-faced actor gave a narrow-faced person a round face, and a face's shape is
// what recognisers weigh most after its features. Here the frame around the actor's face (their jaw,
// cheeks and temples, and the hair, neck and background beside them) is moved so that the actor's
// outline lies where the person's pasted outline does, before the paste. The move is largest on the
// outline and fades out away from it, sooner inside the face (the actor's eyes show through while they
// blink, their mouth inside the person's open lips: those stay where the actor's mesh says they are). The
// person's shape is learnt while the actor's mouth is at rest; a mouth opened wide gives the jaw back to
// the actor. Decision 014, fourteenth part.
import { CHIN, FACE_OVAL, FOREHEAD, NOSE_TIP, type Point, type Similarity, applySimilarity, invertSimilarity, pick } from './landmarks';
import { pointFilter } from './steady-pose';
import type { YuvFrame } from './yuv';

export const FACE_SHAPE = {
  /** The move fades out over this share of the face's height outside the outline (hair, neck, background)… */
  reachOutside: 0.25,
  /** …and over this share inside it. */
  reachInside: 0.12,
  /** An outline point moves at most this share of the face's height (a wrong mesh guess does not tear the frame). */
  maxShift: 0.15,
  /** The move is worked out on a grid of about this share of the face's height (a power of two, minGrid to maxGrid pixels), interpolated in between. */
  grid: 0.03,
  minGrid: 4,
  maxGrid: 16,
  /** A grid cell whose corners all move less than this (pixels, |x| + |y|) is left as it is: no eye sees it, and most of the ring round a face that fits moves no more. */
  leastMove: 0.25,
  /** The move follows the two outlines' difference over about this long (exponential smoothing's time constant). */
  smoothingSeconds: 0.5,
  /**
   * The move is learnt while the actor's mouth is at most this much more open than at rest (share of the
   * face's height; mouth-motion.ts `opening`): the person's outline is their face at rest, and an open
   * jaw then moves the actor's pixels, the outline with them.
   */
  restOpening: 0.02,
  /** The jaw's outline is the actor's again as their mouth opens to this (share of the face's height above rest): see createOutlineFollower. */
  jawOpening: 0.08,
} as const;

/**
 * A point on a 1/32-pixel grid. A template's recorded track (float32, actor-track.ts) differs from the live
 * one by a ten-thousandth of a pixel; moved by exactly that, a few pixels of the ring rounded to the next
 * level, and x264 then coded their blocks differently: the replay was not the same video.
 */
const snap = ([x, y]: Point): Point => [Math.round(x * 32) / 32, Math.round(y * 32) / 32];

/**
 * How far each point of the actor's outline moves to be the person's, followed over frames. The move is the
 * person's outline against the actor's, both in the person's picture (the head's position, size and roll
 * taken out by the placement), and it changes only as slowly as a face's shape does: smoothed over about
 * FACE_SHAPE.smoothingSeconds. What moves faster comes from the video itself: the actor's jaw dropping as
 * they speak moves the frame's pixels, and the moved outline with them. A move that followed every frame
 * carried the tracker's tremble (a pixel or two on a still head) and the mouth's into the jaw and the hair
 * beside it: the output's mesh trembled 17 % more than the template's on the talking man (bench/render).
 */
/** `personLandmarks`: the person's mesh in their picture (the image whose outline the face takes). */
export function createOutlineFollower(rate: number, personLandmarks: number[][]) {
  const share = 1 / (1 + FACE_SHAPE.smoothingSeconds * rate);
  const faceSize = Math.hypot(personLandmarks[FOREHEAD]![0]! - personLandmarks[CHIN]![0]!, personLandmarks[FOREHEAD]![1]! - personLandmarks[CHIN]![1]!);
  // How much of each outline point is jaw: none above the nose's tip, rising to all of it at the chin (a
  // steeper rise, all of it from the mouth's corners down, left a notch below the cheek).
  const noseTip = personLandmarks[NOSE_TIP]![1]!;
  const chin = personLandmarks[CHIN]![1]!;
  const jaw = FACE_OVAL.map((index) => Math.min(1, Math.max(0, (personLandmarks[index]![1]! - noseTip) / Math.max(1, chin - noseTip))));
  const personOutline = pick(personLandmarks, FACE_OVAL);
  let moves: Point[] | undefined;
  let filters = FACE_OVAL.map(() => pointFilter(rate));
  return {
    /** Forget the past frames (the face was lost). */
    reset() {
      moves = undefined;
      filters = FACE_OVAL.map(() => pointFilter(rate));
    },
    /**
     * The actor's outline in this frame and where it goes (frame pixels, FACE_OVAL order). `placed`: the
     * person-to-frame placement; `mouthOpening`: how much more open the actor's mouth is than at rest
     * (mouth-motion.ts `opening`; 0 when not followed).
     */
    follow(actorLandmarks: number[][], placed: Similarity, mouthOpening: number): { from: Point[]; to: Point[] } {
      const toPerson = invertSimilarity(placed);
      // The actor's outline in the person's picture, steadied like the placement (steady-pose.ts): where the
      // move fades out is drawn from it, and a trembling one made the hair beside the face tremble.
      const actor = pick(actorLandmarks, FACE_OVAL).map((point, k) => filters[k]!(applySimilarity(toPerson, point), faceSize));
      const now = actor.map(([x, y], k): Point => [personOutline[k]![0] - x, personOutline[k]![1] - y]);
      // Learnt in full up to restOpening, not at all from half as much again (no step between the two: a
      // frame just either side of a line, in two renders of the same template, made two different videos).
      const learning = share * Math.min(1, Math.max(0, (1.5 * FACE_SHAPE.restOpening - mouthOpening) / (0.5 * FACE_SHAPE.restOpening)));
      if (!moves) moves = now;
      else if (learning > 0) moves = moves.map(([x, y], k): Point => [x + learning * (now[k]![0] - x), y + learning * (now[k]![1] - y)]);
      // A mouth opened wide gives the jaw back to the actor: the person's jaw was learnt closed, and pulled in
      // to it, the actor's dropped jaw showed as a swelling beside the person's (the talking man opening wide).
      const open = Math.min(1, mouthOpening / FACE_SHAPE.jawOpening);
      const from = actor.map((point) => snap(applySimilarity(placed, point)));
      const to = actor.map(([x, y], k) => {
        const kept = 1 - open * jaw[k]!;
        return snap(applySimilarity(placed, [x + kept * moves![k]![0], y + kept * moves![k]![1]]));
      });
      return { from, to };
    },
  };
}
export type OutlineFollower = ReturnType<typeof createOutlineFollower>;

/**
 * The move at (x, y): the outline points' moves blended by closeness to them (inverse distance to the
 * fourth power: each stretch of outline follows its own points), faded out with the distance from the
 * outline (over `inside` pixels inside it, `outside` beyond). One pass over the outline's edges (flat x, y
 * arrays) gives the blend, the distance to the nearest edge and whether the point is inside (crossings).
 */
function moveAt(xs: Float64Array, ys: Float64Array, moves: Float64Array, x: number, y: number, inside: number, outside: number, out: Float64Array) {
  let weights = 0;
  let mx = 0;
  let my = 0;
  let nearest = Infinity;
  let odd = false;
  const count = xs.length;
  for (let i = 0, j = count - 1; i < count; j = i++) {
    const xi = xs[i]!;
    const yi = ys[i]!;
    const xj = xs[j]!;
    const yj = ys[j]!;
    const dx = x - xi;
    const dy = y - yi;
    const near = dx * dx + dy * dy + 1;
    const weight = 1 / (near * near);
    weights += weight;
    mx += weight * moves[2 * i]!;
    my += weight * moves[2 * i + 1]!;
    const ex = xj - xi;
    const ey = yj - yi;
    const t = Math.min(1, Math.max(0, (dx * ex + dy * ey) / (ex * ex + ey * ey || 1)));
    const fx = dx - t * ex;
    const fy = dy - t * ey;
    const edge = fx * fx + fy * fy;
    if (edge < nearest) nearest = edge;
    if (yi > y !== yj > y && x < xi + ((y - yi) / (yj - yi)) * (xj - xi)) odd = !odd;
  }
  const reach = odd ? inside : outside;
  const distance = Math.sqrt(nearest);
  if (distance >= reach) {
    out[0] = 0;
    out[1] = 0;
    return;
  }
  const r = 1 - distance / reach;
  const fade = r * r * (3 - 2 * r);
  out[0] = (fade * mx) / weights;
  out[1] = (fade * my) / weights;
}

/**
 * Writes into `to` at `index` the bilinear sample of `from` (a byte plane, width × height) at (x, y) in
 * pixel-index coordinates, clamped to the plane; and the same for a second plane pair when given (U and V
 * share their positions).
 */
function resample(from: Uint8Array, to: Uint8Array, width: number, height: number, x: number, y: number, index: number, from2?: Uint8Array, to2?: Uint8Array) {
  const fx = x < 0 ? 0 : x > width - 1.001 ? width - 1.001 : x;
  const fy = y < 0 ? 0 : y > height - 1.001 ? height - 1.001 : y;
  const ix = fx | 0;
  const iy = fy | 0;
  const tx = fx - ix;
  const ty = fy - iy;
  const at = iy * width + ix;
  const a = (1 - tx) * (1 - ty);
  const b = tx * (1 - ty);
  const c = (1 - tx) * ty;
  const d = tx * ty;
  to[index] = (a * from[at]! + b * from[at + 1]! + c * from[at + width]! + d * from[at + width + 1]! + 0.5) | 0;
  if (from2 && to2) to2[index] = (a * from2[at]! + b * from2[at + 1]! + c * from2[at + width]! + d * from2[at + width + 1]! + 0.5) | 0;
}

/**
 * Moves the frame in place so that `from` (the actor's outline, in frame pixels with pixel centres at
 * +0.5) lands on `to` (the person's outline as pasted, the same points in the same order). Returns false
 * when nothing moved.
 */
export function fitOutline(frame: YuvFrame, from: readonly Point[], to: readonly Point[]): boolean {
  const heights = to.map(([, y]) => y);
  const faceHeight = Math.max(...heights) - Math.min(...heights);
  if (!(faceHeight > 4)) return false;
  const limit = FACE_SHAPE.maxShift * faceHeight;
  // Each outline point's move, capped.
  const moves = to.map(([x, y], k): Point => {
    const dx = x - from[k]![0];
    const dy = y - from[k]![1];
    const length = Math.hypot(dx, dy);
    return length > limit ? [(dx * limit) / length, (dy * limit) / length] : [dx, dy];
  });
  if (moves.every(([dx, dy]) => Math.abs(dx) + Math.abs(dy) < 0.25)) return false;

  const outside = FACE_SHAPE.reachOutside * faceHeight;
  const inside = FACE_SHAPE.reachInside * faceHeight;
  const all = [...from, ...to];
  // The grid's step is a power of two near FACE_SHAPE.grid of the face's height, and the grid lies on the
  // frame's multiples of the largest step: where it starts does not move with the face. (Started at the
  // face's corner, a ten-thousandth of a pixel between two renders of the same template moved the grid by
  // two pixels, and the ring's pixels with it: a replayed track did not make the same video.)
  const step = Math.min(FACE_SHAPE.maxGrid, Math.max(FACE_SHAPE.minGrid, 2 ** Math.round(Math.log2(FACE_SHAPE.grid * faceHeight))));
  const anchor = FACE_SHAPE.maxGrid;
  const even = (value: number) => Math.floor(value / 2) * 2;
  const x0 = Math.max(0, Math.floor((Math.min(...all.map(([x]) => x)) - outside) / anchor) * anchor);
  const y0 = Math.max(0, Math.floor((Math.min(...all.map(([, y]) => y)) - outside) / anchor) * anchor);
  const x1 = Math.min(frame.width, Math.ceil((Math.max(...all.map(([x]) => x)) + outside + 2) / anchor) * anchor);
  const y1 = Math.min(frame.height, Math.ceil((Math.max(...all.map(([, y]) => y)) + outside + 2) / anchor) * anchor);
  if (x1 <= x0 || y1 <= y0) return false;

  // The move at each node of the grid (a few thousand nodes whatever the face's size), interpolated in between.
  const columns = Math.ceil((x1 - x0) / step) + 1;
  const rows = Math.ceil((y1 - y0) / step) + 1;
  const fieldX = new Float32Array(columns * rows);
  const fieldY = new Float32Array(columns * rows);
  const xs = Float64Array.from(to, ([x]) => x);
  const ys = Float64Array.from(to, ([, y]) => y);
  const flatMoves = Float64Array.from(moves.flat());
  const move = new Float64Array(2);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      moveAt(xs, ys, flatMoves, x0 + column * step + 0.5, y0 + row * step + 0.5, inside, outside, move);
      fieldX[row * columns + column] = move[0]!;
      fieldY[row * columns + column] = move[1]!;
    }
  }

  // Each pixel takes the frame's pixel its move came from, read from a copy: the frame is written in place
  // (and a copy made with slice() would be no copy when the frame is a Buffer's view). Grid cells whose
  // corners hardly move are skipped (the face's inside, and where the two outlines agree); in the others
  // the move is interpolated.
  const { width, height } = frame;
  // Only the rows a move can reach are copied (moves are capped); chroma rows are half as many.
  const first = Math.max(0, even(y0 - limit - 2));
  const last = Math.min(height, even(y1 + limit + 4));
  const half = width >> 1;
  const luma = new Uint8Array(frame.y.subarray(first * width, last * width));
  const [u, v] = [frame.u, frame.v].map((plane) => new Uint8Array(plane.subarray((first >> 1) * half, (last >> 1) * half)));
  for (let row = 0; row + 1 < rows; row++) {
    for (let column = 0; column + 1 < columns; column++) {
      const at = row * columns + column;
      const [ax, bx, cx, dx] = [fieldX[at]!, fieldX[at + 1]!, fieldX[at + columns]!, fieldX[at + columns + 1]!];
      const [ay, by, cy, dy] = [fieldY[at]!, fieldY[at + 1]!, fieldY[at + columns]!, fieldY[at + columns + 1]!];
      const most = Math.max(Math.abs(ax) + Math.abs(ay), Math.abs(bx) + Math.abs(by), Math.abs(cx) + Math.abs(cy), Math.abs(dx) + Math.abs(dy));
      if (most < FACE_SHAPE.leastMove) continue;
      const left = x0 + column * step;
      const top = y0 + row * step;
      const right = Math.min(x1, left + step);
      const bottom = Math.min(y1, top + step);
      for (let y = top; y < bottom; y++) {
        const ty = (y - top) / step;
        for (let x = left; x < right; x++) {
          const tx = (x - left) / step;
          const mx = (ax + (bx - ax) * tx) * (1 - ty) + (cx + (dx - cx) * tx) * ty;
          const my = (ay + (by - ay) * tx) * (1 - ty) + (cy + (dy - cy) * tx) * ty;
          resample(luma, frame.y, width, last - first, x - mx, y - first - my, y * width + x);
        }
      }
      // The chroma samples in this cell: a sample's centre is between four luma pixels, (2x + 0.5, 2y + 0.5).
      for (let y = top >> 1; y < bottom >> 1; y++) {
        const ty = (2 * y + 0.5 - top) / step;
        for (let x = left >> 1; x < right >> 1; x++) {
          const tx = (2 * x + 0.5 - left) / step;
          const mx = ((ax + (bx - ax) * tx) * (1 - ty) + (cx + (dx - cx) * tx) * ty) / 2;
          const my = ((ay + (by - ay) * tx) * (1 - ty) + (cy + (dy - cy) * tx) * ty) / 2;
          resample(u!, frame.u, half, (last - first) >> 1, x - mx, y - (first >> 1) - my, y * half + x, v, frame.v);
        }
      }
    }
  }
  return true;
}
