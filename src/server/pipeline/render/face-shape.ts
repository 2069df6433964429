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
 * The outline's points and edges, and each point's move, packed for the field's inner loops (one array, a
 * stride of EDGE numbers per point: about a quarter less time than an array per number). Edge i runs from point i to
 * point i - 1 (the last point for the first).
 */
const EDGE = { x: 0, y: 1, ex: 2, ey: 3, inverse: 4, slope: 5, moveX: 6, moveY: 7, stride: 8 } as const;

function outlineEdges(points: readonly Point[], moves: readonly Point[]): Float64Array {
  const edges = new Float64Array(EDGE.stride * points.length);
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!;
    const [xj, yj] = points[j]!;
    const [ex, ey] = [xj - xi, yj - yi];
    // The edge's vector, 1 / its squared length (0 for none), and x's change per unit of y (the crossing test).
    edges.set([xi, yi, ex, ey, ex * ex + ey * ey > 0 ? 1 / (ex * ex + ey * ey) : 0, ey !== 0 ? ex / ey : 0, moves[i]![0], moves[i]![1]], EDGE.stride * i);
  }
  return edges;
}

/**
 * How far (x, y) is from the outline, negative inside it. One pass over the edges gives the distance to the
 * nearest and whether the point is inside (crossings).
 */
function outlineDistance(edges: Float64Array, x: number, y: number): number {
  let nearest = Infinity;
  let odd = false;
  for (let k = 0; k < edges.length; k += EDGE.stride) {
    const yi = edges[k + EDGE.y]!;
    const ex = edges[k + EDGE.ex]!;
    const ey = edges[k + EDGE.ey]!;
    const dx = x - edges[k + EDGE.x]!;
    const dy = y - yi;
    let t = (dx * ex + dy * ey) * edges[k + EDGE.inverse]!;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const fx = dx - t * ex;
    const fy = dy - t * ey;
    const edge = fx * fx + fy * fy;
    if (edge < nearest) nearest = edge;
    // The edge crosses the row at y, and the point is left of where: one crossing more.
    if (yi > y !== yi + ey > y && dx < dy * edges[k + EDGE.slope]!) odd = !odd;
  }
  const distance = Math.sqrt(nearest);
  return odd ? -distance : distance;
}

/** How much of the move a point `signed` from the outline (outlineDistance) gets: 1 on it, eased to 0 at `inside` pixels within it and `outside` beyond it. */
function fadeAt(signed: number, inside: number, outside: number): number {
  const reach = signed < 0 ? inside : outside;
  const distance = Math.abs(signed);
  if (distance >= reach) return 0;
  const r = 1 - distance / reach;
  return r * r * (3 - 2 * r);
}

/**
 * The move at (x, y), `fade` of the outline points' moves blended by closeness to them (inverse distance to
 * the fourth power: each stretch of outline follows its own points), into moveX[at], moveY[at].
 */
function blendAt(edges: Float64Array, x: number, y: number, fade: number, moveX: Float32Array, moveY: Float32Array, at: number) {
  let weights = 0;
  let mx = 0;
  let my = 0;
  for (let k = 0; k < edges.length; k += EDGE.stride) {
    const dx = x - edges[k + EDGE.x]!;
    const dy = y - edges[k + EDGE.y]!;
    const near = dx * dx + dy * dy + 1;
    const weight = 1 / (near * near);
    weights += weight;
    mx += weight * edges[k + EDGE.moveX]!;
    my += weight * edges[k + EDGE.moveY]!;
  }
  moveX[at] = (fade * mx) / weights;
  moveY[at] = (fade * my) / weights;
}

/**
 * One row of a grid cell resampled: the pixels x0 ≤ x < x1 of row `y` of `to` (a byte plane, `width` wide)
 * take the bilinear sample of `from` (the same plane's rows from `first` on, `rows` of them) where their
 * move came from. The move is linear along the row: `move` holds (mx, my) at x0 and (sx, sy), its growth
 * per pixel. (In a typed array: fractions passed to a function V8 does not inline are each a new heap
 * number, and this is called some forty thousand times a frame.)
 */
function resampleRow(from: Uint8Array, to: Uint8Array, width: number, first: number, rows: number, y: number, x0: number, x1: number, move: Float64Array) {
  let mx = move[0]!;
  let my = move[1]!;
  const sx = move[2]!;
  const sy = move[3]!;
  const maxX = width - 1.001;
  const maxY = rows - 1.001;
  const out = y * width;
  const row = y - first;
  for (let x = x0; x < x1; x++, mx += sx, my += sy) {
    let fx = x - mx;
    let fy = row - my;
    fx = fx < 0 ? 0 : fx > maxX ? maxX : fx;
    fy = fy < 0 ? 0 : fy > maxY ? maxY : fy;
    const ix = fx | 0;
    const iy = fy | 0;
    const tx = fx - ix;
    const ty = fy - iy;
    const at = iy * width + ix;
    const upper = from[at]! + (from[at + 1]! - from[at]!) * tx;
    const lower = from[at + width]! + (from[at + width + 1]! - from[at + width]!) * tx;
    to[out + x] = (upper + (lower - upper) * ty + 0.5) | 0;
  }
}

/**
 * Where fitOutline copies the rows it reads from, kept between frames: a new copy of a 720p frame's rows in
 * every frame was a megabyte and a half for the garbage collector each time. (fitOutline runs to its end
 * without yielding, so one thread's renders never share it at once.)
 */
let copies = new Uint8Array(0);

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
  const edges = outlineEdges(to, moves);
  for (let row = 0; row < rows; row++) {
    // The distance to the outline changes by at most the nodes' spacing from one node to the next: past a
    // node far beyond the move's reach, the next ones are on the same side and beyond it too while their
    // distance cannot have come down to it (deep inside the face, far outside it): the move there is 0.
    let known = 0;
    let knownAt = -1;
    for (let column = 0; column < columns; column++) {
      if (knownAt >= 0 && Math.abs(known) - (column - knownAt) * step > (known < 0 ? inside : outside) + 1e-6) continue;
      const [x, y] = [x0 + column * step + 0.5, y0 + row * step + 0.5];
      known = outlineDistance(edges, x, y);
      knownAt = column;
      // Nodes beyond the move's reach skip the blend.
      const fade = fadeAt(known, inside, outside);
      if (fade > 0) blendAt(edges, x, y, fade, fieldX, fieldY, row * columns + column);
    }
  }

  // Each pixel takes the frame's pixel its move came from, read from a copy: the frame is written in place
  // (and slice() makes no copy when the frame is a Buffer's view). Grid cells whose corners hardly move are
  // skipped (the face's inside, and where the two outlines agree); in the others the move is interpolated.
  const { width, height } = frame;
  // Only the rows a move can reach are copied (moves are capped); chroma rows are half as many.
  const first = Math.max(0, even(y0 - limit - 2));
  const last = Math.min(height, even(y1 + limit + 4));
  const half = width >> 1;
  const lumaBytes = (last - first) * width;
  const chromaBytes = ((last - first) >> 1) * half;
  if (copies.length < lumaBytes + 2 * chromaBytes) copies = new Uint8Array(lumaBytes + 2 * chromaBytes);
  const luma = copies.subarray(0, lumaBytes);
  const u = copies.subarray(lumaBytes, lumaBytes + chromaBytes);
  const v = copies.subarray(lumaBytes + chromaBytes, lumaBytes + 2 * chromaBytes);
  luma.set(frame.y.subarray(first * width, last * width));
  u.set(frame.u.subarray((first >> 1) * half, (last >> 1) * half));
  v.set(frame.v.subarray((first >> 1) * half, (last >> 1) * half));
  const move = new Float64Array(4);
  for (let row = 0; row + 1 < rows; row++) {
    for (let column = 0; column + 1 < columns; column++) {
      const at = row * columns + column;
      const ax = fieldX[at]!;
      const bx = fieldX[at + 1]!;
      const cx = fieldX[at + columns]!;
      const dx = fieldX[at + columns + 1]!;
      const ay = fieldY[at]!;
      const by = fieldY[at + 1]!;
      const cy = fieldY[at + columns]!;
      const dy = fieldY[at + columns + 1]!;
      const most = Math.max(Math.abs(ax) + Math.abs(ay), Math.abs(bx) + Math.abs(by), Math.abs(cx) + Math.abs(cy), Math.abs(dx) + Math.abs(dy));
      if (most < FACE_SHAPE.leastMove) continue;
      const left = x0 + column * step;
      const top = y0 + row * step;
      const right = Math.min(x1, left + step);
      const bottom = Math.min(y1, top + step);
      // Along a row of the cell the move is linear: its value at the cell's left edge and its step per pixel.
      for (let y = top; y < bottom; y++) {
        const ty = (y - top) / step;
        const mx = ax + (cx - ax) * ty;
        const my = ay + (cy - ay) * ty;
        move[0] = mx;
        move[1] = my;
        move[2] = (bx + (dx - bx) * ty - mx) / step;
        move[3] = (by + (dy - by) * ty - my) / step;
        resampleRow(luma, frame.y, width, first, last - first, y, left, right, move);
      }
      // The chroma samples in this cell: a sample's centre is between four luma pixels, (2x + 0.5, 2y + 0.5),
      // and its move is half the luma's; one chroma sample along is two luma pixels, so the step per sample is the luma's per pixel.
      const chromaLeft = left >> 1;
      const chromaRows = (last - first) >> 1;
      for (let y = top >> 1; y < bottom >> 1; y++) {
        const ty = (2 * y + 0.5 - top) / step;
        const lx = ax + (cx - ax) * ty;
        const ly = ay + (cy - ay) * ty;
        const sx = (bx + (dx - bx) * ty - lx) / step;
        const sy = (by + (dy - by) * ty - ly) / step;
        const along = 2 * chromaLeft + 0.5 - left;
        move[0] = (lx + sx * along) / 2;
        move[1] = (ly + sy * along) / 2;
        move[2] = sx;
        move[3] = sy;
        resampleRow(u, frame.u, half, first >> 1, chromaRows, y, chromaLeft, right >> 1, move);
        resampleRow(v, frame.v, half, first >> 1, chromaRows, y, chromaLeft, right >> 1, move);
      }
    }
  }
  return true;
}
