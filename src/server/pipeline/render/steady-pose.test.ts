import { describe, expect, it } from 'vitest';
import { type Point, type Similarity, applySimilarity } from './landmarks';
import { STEADY, createSteadyPlacements } from './steady-pose';

const anchors: [Point, Point] = [[100, 80], [100, 230]];
/** A placement: scale 1.2, a little roll, at (x, y). */
const placed = (x: number, y: number, roll = 0.05): Similarity => ({ a: 1.2 * Math.cos(roll), b: 1.2 * Math.sin(roll), tx: x, ty: y });
/** Deterministic noise in [-1, 1]. */
const noise = (i: number) => Math.sin(i * 12.9898) * 43758.5453 % 1;
const secondDifference = (xs: number[]) => {
  let sum = 0;
  for (let i = 2; i < xs.length; i++) sum += Math.abs(xs[i]! - 2 * xs[i - 1]! + xs[i - 2]!);
  return sum / (xs.length - 2);
};
const middle = (placement: Similarity | undefined) => applySimilarity(placement!, [100, 150]);
/** Every frame's steadied placement, as a render gets them: pushed in order, the rest at the end. */
function steadyPlacements(rate: number, faceSize: number, raws: (Similarity | undefined)[], lookahead?: number) {
  const steady = createSteadyPlacements(rate, anchors, faceSize, lookahead);
  return [...raws.flatMap((raw) => steady.push(raw)), ...steady.finish()];
}

describe('createSteadyPlacements', () => {
  it('holds a still head still: the tracker’s tremble of ±1.5 px is cut to a fifth, in the right place', () => {
    const raws = Array.from({ length: 100 }, (_, i) => placed(300 + 1.5 * noise(i), 200 + 1.5 * noise(i + 500), 0.05 + 0.004 * noise(i + 900)));
    const steadied = steadyPlacements(25, 150, raws);
    const raw = raws.map((r) => middle(r)[0]);
    const out = steadied.map((s) => middle(s)[0]);
    // The forward pass alone cut it to a third.
    expect(secondDifference(out)).toBeLessThan(secondDifference(raw) / 5);
    for (const x of [out[0]!, out[50]!, out.at(-1)!]) expect(Math.abs(x - middle(placed(300, 200))[0])).toBeLessThan(1.5);
  });

  it('follows a moving head without lag: a head crossing the frame is less than 1 px off', () => {
    // 8 px a frame: 200 px a second, more than a face height a second (the forward pass alone: up to 3 px behind).
    const raws = Array.from({ length: 60 }, (_, i) => placed(200 + 8 * i, 200));
    const steadied = steadyPlacements(25, 150, raws);
    let off = 0;
    for (let i = 5; i < 55; i++) off = Math.max(off, Math.abs(middle(raws[i])[0] - middle(steadied[i])[0]));
    expect(off).toBeLessThan(1);
  });

  it('jumps with a cut, and starts again after a lost face', () => {
    const raws = [...Array.from({ length: 10 }, () => placed(200, 200)), ...Array.from({ length: 10 }, () => placed(600, 300)), undefined, placed(250, 220, -0.1), placed(250, 220, -0.1)];
    const steadied = steadyPlacements(25, 150, raws);
    // Either side of the cut each placement is its own, not a blend of the two.
    for (const i of [9, 10]) {
      const [x, y] = middle(steadied[i]);
      const [ex, ey] = middle(raws[i]);
      expect(x).toBeCloseTo(ex, 6);
      expect(y).toBeCloseTo(ey, 6);
    }
    expect(steadied[20]).toBeUndefined();
    const [x, y] = middle(steadied[21]);
    const [ex, ey] = middle(raws[21]);
    expect(x).toBeCloseTo(ex, 6);
    expect(y).toBeCloseTo(ey, 6);
  });

  it('gives a frame out once the second after it is in, as a backward pass from the track’s end would have', () => {
    const raws = Array.from({ length: 120 }, (_, i) => placed(200 + 4 * i + 1.5 * noise(i), 200 + 30 * Math.sin(i / 9), 0.05 + 0.004 * noise(i + 900)));
    const steady = createSteadyPlacements(25, anchors, 150);
    const lookahead = Math.ceil(STEADY.lookaheadSeconds * 25);
    const given = raws.map((raw) => steady.push(raw).length);
    expect(given.slice(0, lookahead)).toEqual(new Array(lookahead).fill(0));
    expect(given.slice(lookahead)).toEqual(new Array(raws.length - lookahead).fill(1));
    const windowed = steadyPlacements(25, 150, raws);
    const whole = steadyPlacements(25, 150, raws, raws.length);
    let worst = 0;
    for (let i = 0; i < raws.length; i++) {
      const [x, y] = middle(windowed[i]);
      const [ex, ey] = middle(whole[i]);
      worst = Math.max(worst, Math.hypot(x - ex, y - ey));
    }
    // 0.001 px (half a second: 0.04): the window holds several of the filter's time constants.
    expect(worst).toBeLessThan(0.01);
  });
});
