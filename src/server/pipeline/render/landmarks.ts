// Mesh points the renderer uses (MediaPipe's 468-point topology) and the 2-D similarity transform
// (scale, rotation, shift) that best maps one set of points onto another (least squares, Umeyama).
export type Point = [number, number];

/**
 * Points that move with the head but hardly with expressions: eye corners, the nose, the mouth
 * corners and the top of the upper lip. Not the chin or the lower lip (they move when the mouth opens).
 */
export const ALIGNMENT_POINTS = [33, 133, 362, 263, 168, 6, 1, 4, 61, 291, 0, 17] as const;
/** The face outline from the top of the forehead round the jaw and back (FACEMESH_FACE_OVAL, in order). */
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234,
  127, 162, 21, 54, 103, 67, 109,
] as const;
export const LEFT_EYE_CORNERS = [33, 133] as const;
export const RIGHT_EYE_CORNERS = [362, 263] as const;
/** Each eye's lid margin, in order round the eye (left eye, then right): the iris, the lashes, the liner. */
export const EYE_CONTOURS = [
  [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246],
  [362, 382, 381, 380, 374, 373, 390, 249, 263, 466, 388, 387, 386, 385, 384, 398],
] as const;
/** Each brow (left, then right), round its outline. */
export const BROWS = [
  [70, 63, 105, 66, 107, 55, 65, 52, 53, 46],
  [336, 296, 334, 293, 300, 276, 283, 282, 295, 285],
] as const;
/** Each eye with its brow (left, then right). */
export const EYES_WITH_BROWS = [
  [...BROWS[0], ...EYE_CONTOURS[0]],
  [...BROWS[1], ...EYE_CONTOURS[1]],
] as const;
/** Inner lip contour, upper (left corner → right corner) and lower. */
export const UPPER_INNER_LIP = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308] as const;
export const LOWER_INNER_LIP = [78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308] as const;
export const MOUTH_CORNERS = [61, 291] as const;
/** The lips' outer outline, round the mouth. */
export const OUTER_LIPS = [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 409, 270, 269, 267, 0, 37, 39, 40, 185] as const;
export const UPPER_LIP_CENTRE = 13;
/** The upper lip's outer edge, mid-mouth. */
export const UPPER_LIP_OUTER = 0;
export const LOWER_LIP_CENTRE = 14;
/** The lower lip's outer edge, mid-mouth. */
export const LOWER_LIP_OUTER = 17;
export const CHIN = 152;
export const NOSE_TIP = 1;
/** The nose's wings, left and right. */
export const NOSE_WINGS = [98, 327] as const;
/** Each lower lid's middle, left and right eye. */
export const LOWER_LIDS = [145, 374] as const;
/** The top of the nose between the eyes. */
export const BETWEEN_EYES = 168;
export const FOREHEAD = 10;

/** dst ≈ [a −b; b a]·src + [tx, ty] */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

export function fitSimilarity(src: Point[], dst: Point[]): Similarity {
  const n = src.length;
  let sx = 0, sy = 0, dx = 0, dy = 0;
  for (let i = 0; i < n; i++) {
    sx += src[i]![0]; sy += src[i]![1]; dx += dst[i]![0]; dy += dst[i]![1];
  }
  sx /= n; sy /= n; dx /= n; dy /= n;
  let dot = 0, cross = 0, norm = 0;
  for (let i = 0; i < n; i++) {
    const px = src[i]![0] - sx, py = src[i]![1] - sy;
    const qx = dst[i]![0] - dx, qy = dst[i]![1] - dy;
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
    norm += px * px + py * py;
  }
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: dx - (a * sx - b * sy), ty: dy - (b * sx + a * sy) };
}

export function applySimilarity(t: Similarity, [x, y]: Point): Point {
  return [t.a * x - t.b * y + t.tx, t.b * x + t.a * y + t.ty];
}

export function invertSimilarity(t: Similarity): Similarity {
  const norm = t.a * t.a + t.b * t.b;
  const a = t.a / norm;
  const b = -t.b / norm;
  return { a, b, tx: -(a * t.tx - b * t.ty), ty: -(b * t.tx + a * t.ty) };
}

/** first, then second: second ∘ first. */
export function composeSimilarity(first: Similarity, second: Similarity): Similarity {
  return {
    a: second.a * first.a - second.b * first.b,
    b: second.b * first.a + second.a * first.b,
    tx: second.a * first.tx - second.b * first.ty + second.tx,
    ty: second.b * first.tx + second.a * first.ty + second.ty,
  };
}

export const scaleOf = (t: Similarity) => Math.hypot(t.a, t.b);

export const pick = (landmarks: number[][], indices: readonly number[]): Point[] => indices.map((i) => [landmarks[i]![0]!, landmarks[i]![1]!]);

/**
 * Where the row at height `y` crosses the polygon's edges, left to right: pixel centres between the first and
 * second crossing, the third and fourth, and so on, are inside (even-odd, as insidePolygon), a row at a time
 * rather than a point at a time.
 */
export function rowCrossings(polygon: readonly Point[], y: number): number[] {
  const crossings: number[] = [];
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y) crossings.push(xi + ((y - yi) / (yj - yi)) * (xj - xi));
  }
  return crossings.sort((p, q) => p - q);
}

/** Whether (x, y) lies inside the polygon (even-odd rule). */
export function insidePolygon(polygon: readonly Point[], x: number, y: number): boolean {
  let odd = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < xi + ((y - yi) / (yj - yi)) * (xj - xi)) odd = !odd;
  }
  return odd;
}

/** The convex hull of the points (monotone chain), grown from its centre by `scale`. */
export function grownHull(points: Point[], scale: number): Point[] {
  const sorted = [...points].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: Point[]) => {
    const hull: Point[] = [];
    for (const p of list) {
      while (hull.length >= 2 && cross(hull[hull.length - 2]!, hull[hull.length - 1]!, p) <= 0) hull.pop();
      hull.push(p);
    }
    hull.pop();
    return hull;
  };
  const hull = [...half(sorted), ...half([...sorted].reverse())];
  const centre = hull.reduce<Point>((sum, [x, y]) => [sum[0] + x / hull.length, sum[1] + y / hull.length], [0, 0]);
  return hull.map(([x, y]): Point => [centre[0] + (x - centre[0]) * scale, centre[1] + (y - centre[1]) * scale]);
}

/** The lips (the outer lips' hull) and the mouth's opening between them (teeth are not lips), of a mesh. */
export function lipsAndOpening(landmarks: number[][]): { lips: Point[]; opening: Point[] } {
  return { lips: grownHull(pick(landmarks, OUTER_LIPS), 1), opening: pick(landmarks, [...UPPER_INNER_LIP, ...[...LOWER_INNER_LIP].reverse()]) };
}
