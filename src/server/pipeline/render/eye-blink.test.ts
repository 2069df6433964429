// The actor's blinks (eye-blink.ts): an eye counts as closed against its own recent widest opening, and
// only then does the actor's eye show, in a soft ellipse around it.
import { describe, expect, it } from 'vitest';
import { createEyeBlinks } from './eye-blink';

/** A mesh with only the eye points set: eyes 40 px wide at y = 100, lids `opening` px apart. */
function mesh(opening: number): number[][] {
  const points = Array.from({ length: 468 }, () => [0, 0, 0]);
  const eye = (outer: number, inner: number, upper: number, lower: number, x0: number) => {
    points[outer] = [x0, 100, 0];
    points[inner] = [x0 + 40, 100, 0];
    points[upper] = [x0 + 20, 100 - opening / 2, 0];
    points[lower] = [x0 + 20, 100 + opening / 2, 0];
  };
  eye(33, 133, 159, 145, 100);
  eye(362, 263, 386, 374, 200);
  return points;
}

describe('eye blinks', () => {
  it('keeps the actor’s eye only while it is closed, strongest at its centre, nothing outside the ellipse', () => {
    const blinks = createEyeBlinks();
    blinks.update(mesh(12)); // open: the widest seen
    expect(blinks.active).toBe(false);
    expect(blinks.keepActor(120, 100)).toBe(0);

    blinks.update(mesh(1)); // closed
    expect(blinks.active).toBe(true);
    expect(blinks.keepActor(120, 100)).toBeCloseTo(1, 5);
    expect(blinks.keepActor(220, 100)).toBeCloseTo(1, 5);
    expect(blinks.keepActor(120, 100 + 21)).toBe(0); // across: 0.5 eye width = 20 px
    expect(blinks.keepActor(160, 100)).toBe(0); // between the eyes

    blinks.update(mesh(7.2)); // half-way between closed (50 %) and open (70 %) of 12 px
    expect(blinks.keepActor(120, 100)).toBeCloseTo(0.5, 1);

    blinks.update(mesh(12)); // open again
    expect(blinks.active).toBe(false);
  });
});
