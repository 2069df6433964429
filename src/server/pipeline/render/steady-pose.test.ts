import { describe, expect, it } from 'vitest';
import { type Point, type Similarity, applySimilarity } from './landmarks';
import { createSteadyPose } from './steady-pose';

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

describe('createSteadyPose', () => {
  it('holds a still head still: the tracker’s tremble of ±1.5 px is cut to a third', () => {
    const steady = createSteadyPose(25, anchors, 150);
    const raw: number[] = [];
    const out: number[] = [];
    for (let i = 0; i < 100; i++) {
      const shaking = placed(300 + 1.5 * noise(i), 200 + 1.5 * noise(i + 500), 0.05 + 0.004 * noise(i + 900));
      raw.push(applySimilarity(shaking, [100, 150])[0]);
      out.push(applySimilarity(steady.follow(shaking), [100, 150])[0]);
    }
    expect(secondDifference(out.slice(10))).toBeLessThan(secondDifference(raw.slice(10)) / 3);
    // Still in the right place.
    expect(Math.abs(out.at(-1)! - applySimilarity(placed(300, 200), [100, 150])[0])).toBeLessThan(1.5);
  });

  it('follows a moving head closely: a head crossing the frame is less than 3 px behind', () => {
    const steady = createSteadyPose(25, anchors, 150);
    let lag = 0;
    for (let i = 0; i < 60; i++) {
      // 8 px a frame: 200 px a second, more than a face height a second.
      const moving = placed(200 + 8 * i, 200);
      const [x] = applySimilarity(steady.follow(moving), [100, 150]);
      if (i > 15) lag = Math.max(lag, applySimilarity(moving, [100, 150])[0] - x);
    }
    expect(lag).toBeLessThan(3);
  });

  it('jumps with a cut, and starts again after a lost face', () => {
    const steady = createSteadyPose(25, anchors, 150);
    for (let i = 0; i < 10; i++) steady.follow(placed(200, 200));
    const cut = placed(600, 300);
    const [cx, cy] = applySimilarity(steady.follow(cut), [100, 150]);
    expect(cx).toBeCloseTo(applySimilarity(cut, [100, 150])[0], 6);
    expect(cy).toBeCloseTo(applySimilarity(cut, [100, 150])[1], 6);
    steady.reset();
    const found = placed(250, 220, -0.1);
    const [x, y] = applySimilarity(steady.follow(found), [100, 150]);
    const [ex, ey] = applySimilarity(found, [100, 150]);
    expect(x).toBeCloseTo(ex, 6);
    expect(y).toBeCloseTo(ey, 6);
  });
});
