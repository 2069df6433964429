// Operations on a picture's float planes (Y, U, V or a mask, row after row) that the person's preparation
// and the frontal turn share: a polygon filled, a box blur, the least or greatest around each value.
import { type Point, lipsAndOpening, rowCrossings } from './landmarks';

/** Fills the polygon (even-odd, pixel centres) into `mask` with 1. */
export function fillPolygon(mask: Float32Array, width: number, height: number, polygon: Point[]) {
  for (let y = 0; y < height; y++) {
    const crossings = rowCrossings(polygon, y + 0.5);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const from = Math.max(0, Math.ceil(crossings[k]! - 0.5));
      const to = Math.min(width - 1, Math.floor(crossings[k + 1]! - 0.5));
      for (let x = from; x <= to; x++) mask[y * width + x] = 1;
    }
  }
}

/** 1 on the lips of a mesh, less the mouth's opening (lipsAndOpening). */
export function lipsMask(width: number, height: number, landmarks: number[][]): Float32Array {
  const { lips, opening } = lipsAndOpening(landmarks);
  const mask = new Float32Array(width * height);
  fillPolygon(mask, width, height, lips);
  const inside = new Float32Array(width * height);
  fillPolygon(inside, width, height, opening);
  for (let i = 0; i < mask.length; i++) if (inside[i]) mask[i] = 0;
  return mask;
}

/**
 * Box blur of radius r along rows then columns (run twice ≈ a smooth bump), in place. Edges repeat the
 * border. The columns are blurred all at once, a row at a time: one column after another, with an index
 * callback per value, was a third of a person's preparation.
 */
export function boxBlur(plane: Float32Array, width: number, height: number, radius: number) {
  const size = 2 * radius + 1;
  const line = new Float32Array(width);
  for (let y = 0; y < height; y++) {
    const at = y * width;
    line.set(plane.subarray(at, at + width));
    let sum = 0;
    for (let i = -radius; i <= radius; i++) sum += line[Math.min(width - 1, Math.max(0, i))]!;
    for (let i = 0; i < width; i++) {
      plane[at + i] = sum / size;
      sum += line[Math.min(width - 1, i + radius + 1)]! - line[Math.max(0, i - radius)]!;
    }
  }
  const rows = plane.slice();
  const sums = new Float64Array(width);
  for (let i = -radius; i <= radius; i++) {
    const row = Math.min(height - 1, Math.max(0, i)) * width;
    for (let x = 0; x < width; x++) sums[x] = sums[x]! + rows[row + x]!;
  }
  for (let y = 0; y < height; y++) {
    const at = y * width;
    const entering = Math.min(height - 1, y + radius + 1) * width;
    const leaving = Math.max(0, y - radius) * width;
    for (let x = 0; x < width; x++) {
      plane[at + x] = sums[x]! / size;
      sums[x] = sums[x]! + (rows[entering + x]! - rows[leaving + x]!);
    }
  }
}

/** Each value replaced by the least (or, `most`, the greatest) within `radius` pixels (a square), in place; returns the plane. */
function extremeAround(plane: Float32Array, width: number, height: number, radius: number, most: boolean): Float32Array {
  const sign = most ? -1 : 1;
  const row = new Float32Array(Math.max(width, height));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let extreme = Infinity;
      for (let k = Math.max(0, x - radius); k <= Math.min(width - 1, x + radius); k++) {
        const value = sign * plane[y * width + k]!;
        if (value < extreme) extreme = value;
      }
      row[x] = sign * extreme;
    }
    plane.set(row.subarray(0, width), y * width);
  }
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      let extreme = Infinity;
      for (let k = Math.max(0, y - radius); k <= Math.min(height - 1, y + radius); k++) {
        const value = sign * plane[k * width + x]!;
        if (value < extreme) extreme = value;
      }
      row[y] = sign * extreme;
    }
    for (let y = 0; y < height; y++) plane[y * width + x] = row[y]!;
  }
  return plane;
}

/** Each value replaced by the least within `radius` pixels (a square), in place; returns the plane. */
export const minimumAround = (plane: Float32Array, width: number, height: number, radius: number) => extremeAround(plane, width, height, radius, false);

/** Each value replaced by the greatest within `radius` pixels (a square), in place; returns the plane. */
export const maximumAround = (plane: Float32Array, width: number, height: number, radius: number) => extremeAround(plane, width, height, radius, true);
