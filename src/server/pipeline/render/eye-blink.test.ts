// The actor's blinks (eye-blink.ts): an eye counts as closed against its own recent widest opening, and
// only then does the actor's eye show, in a soft ellipse around it. The eyes' openness, and where they look.
import { describe, expect, it } from 'vitest';
import { EYE_MOTION, createEyeBlinks, createEyeMotion, eyeGaze, eyeOpening, gazeShift, irisPositions } from './eye-blink';
import { EYE_CONTOURS } from './landmarks';

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

/**
 * Two eyes 40 px wide at y = 100 (their lid margins drawn as ellipses 16 px high), white inside with a dark
 * iris `irisRadius` px round at `shift` px from each eye's middle (none when undefined), on skin; the lashes'
 * shade on each eye's outer corner.
 */
function drawnEyes(shift: number | undefined, irisRadius = 6) {
  const [width, height] = [320, 200];
  const luma = new Float32Array(width * height).fill(150);
  const points = Array.from({ length: 468 }, () => [0, 0, 0]);
  for (const [k, x0] of [[0, 100], [1, 200]] as const) {
    const contour = EYE_CONTOURS[k];
    // Each margin starts at the eye's picture-left corner (33, the left eye's outer one; 362, the right eye's inner one).
    contour.forEach((index, j) => {
      const angle = Math.PI - (2 * Math.PI * j) / contour.length;
      points[index] = [x0 + 20 + 20 * Math.cos(angle), 100 + 8 * Math.sin(angle), 0];
    });
    const outer = k === 0 ? x0 : x0 + 40;
    for (let y = 88; y <= 112; y++) {
      for (let x = x0 - 2; x <= x0 + 42; x++) {
        if (((x + 0.5 - x0 - 20) / 20) ** 2 + ((y + 0.5 - 100) / 8) ** 2 >= 1) continue;
        const iris = shift !== undefined && Math.hypot(x + 0.5 - (x0 + 20 + shift), y + 0.5 - 100) < irisRadius;
        luma[y * width + x] = iris ? 40 : Math.abs(x - outer) < 5 ? 120 : 220;
      }
    }
  }
  const lumaAt = (plane: Float32Array) => (x: number, y: number) => plane[y * width + x]!;
  return { luma, width, height, points, lumaAt };
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

describe('eye openness', () => {
  it('widens and narrows the person’s eyes with the actor’s, ignores the mesh’s noise, moves nothing away from the eyes', () => {
    const person = mesh(10);
    const eyes = createEyeMotion(person);
    const out = [0, 0];
    for (let i = 0; i < 30; i++) eyes.update(mesh(i % 2 ? 12.3 : 11.7)); // usual: 12 px, trembling ±2.5 %
    expect(eyes.active).toBe(false);

    // The actor narrows the eyes to 3/4 of the usual opening (a smile's squint): the person's upper lid,
    // 5 px above the eye's line, now shows what was further out.
    eyes.update(mesh(9));
    expect(eyes.active).toBe(true);
    eyes.source(120, 95, out);
    expect(out[0]).toBeCloseTo(120, 5);
    expect(out[1]).toBeLessThan(94);
    // The eye's own line and points outside the region stay where they are.
    eyes.source(120, 100, out);
    expect(out[1]).toBeCloseTo(100, 5);
    eyes.source(160, 95, out);
    expect(out).toEqual([160, 95]);
    eyes.source(120, 75, out); // 25 px above: beyond 0.55 eye widths
    expect(out).toEqual([120, 75]);

    // Wide open (surprise): the lid shows what was nearer the line.
    eyes.update(mesh(15));
    eyes.source(220, 95, out);
    expect(out[1]).toBeGreaterThan(95.5);
    expect(eyeOpening(mesh(15))).toBeCloseTo(15 / 40, 5);
  });
});

describe('eye gaze', () => {
  it('finds the iris across the eye, + towards the picture’s right, in eye widths, whatever the lashes’ shade', () => {
    for (const shift of [-8, 0, 8]) {
      const { luma, width, height, points } = drawnEyes(shift);
      expect(eyeGaze((x, y) => luma[y * width + x]!, width, height, points)).toBeCloseTo(shift / 40, 1);
    }
    const right = drawnEyes(8);
    expect(eyeGaze((x, y) => right.luma[y * right.width + x]!, right.width, right.height, right.points)).toBeGreaterThan(0.12);
  });
  it('is not measured on shut eyes', () => {
    const { luma, width, height, points } = drawnEyes(0);
    for (const contour of EYE_CONTOURS) for (const index of contour) points[index]![1] = 100;
    expect(eyeGaze((x, y) => luma[y * width + x]!, width, height, points)).toBeUndefined();
  });
});

describe('eyes that follow the actor’s gaze', () => {
  /** An iris 0.4 of the eye's width across, as an adult's (a child's is larger). */
  const IRIS = 8;

  /** The picture as the paste samples it through `source` (bilinear). */
  function warped(luma: Float32Array, width: number, height: number, motion: ReturnType<typeof createEyeMotion>): Float32Array {
    const out = new Float32Array(width * height);
    const at = [0, 0];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        motion.source(x, y, at);
        const [sx, sy] = [Math.min(width - 2, Math.max(0, at[0]!)), Math.min(height - 2, Math.max(0, at[1]!))];
        const [ix, iy] = [Math.floor(sx), Math.floor(sy)];
        const [tx, ty] = [sx - ix, sy - iy];
        const top = luma[iy * width + ix]! * (1 - tx) + luma[iy * width + ix + 1]! * tx;
        const bottom = luma[(iy + 1) * width + ix]! * (1 - tx) + luma[(iy + 1) * width + ix + 1]! * tx;
        out[y * width + x] = top * (1 - ty) + bottom * ty;
      }
    }
    return out;
  }

  it('finds each iris along its own eye, not the lashes’ shade at the outer corner', () => {
    for (const shift of [-6, 0, 6]) {
      const { luma, width, height, points, lumaAt } = drawnEyes(shift, IRIS);
      for (const iris of irisPositions(lumaAt(luma), width, height, points)) expect(iris).toBeCloseTo(shift / 40, 1);
    }
  });

  it('moves the irises from the person’s gaze to the actor’s, only once the actor looks aside, as far as the white allows', () => {
    expect(gazeShift(0.02, [0, 0.02], 0.05)).toBe(0); // the actor at the camera
    expect(gazeShift(0.02, [0, 0.02], 0.16)).toBeCloseTo(0.14, 5);
    expect(gazeShift(0.02, [0, 0.02], -0.16)).toBeCloseTo(-0.18, 5);
    // Between: a little of the way, growing with the actor's glance.
    const between = gazeShift(0, [0, 0], 0.11);
    expect(between).toBeGreaterThan(0);
    expect(between).toBeLessThan(0.11);
    // As far as the white beside the iris nearer its corner allows: the iris stops short of the corner.
    expect(gazeShift(0.1, [0.1, 0.15], 0.3)).toBeCloseTo(0.5 - EYE_MOTION.cornerWidth - 0.15 - EYE_MOTION.irisHalfWidth, 5);
    // An iris at a corner already does not move back: there is no white to stretch behind it.
    expect(gazeShift(0.25, [0.25, 0.3], -0.2)).toBe(0);
  });

  it('turns a drawn eye at the camera to look where the actor looks, keeps the lids and corners, and holds through a blink', () => {
    const { luma, width, height, points, lumaAt } = drawnEyes(0, IRIS);
    const look = { gaze: eyeGaze(lumaAt(luma), width, height, points)!, irises: irisPositions(lumaAt(luma), width, height, points) };
    const eyes = createEyeMotion(points, look);
    const actor = mesh(12);
    eyes.update(actor, 0.02);
    expect(eyes.active).toBe(false);
    for (const glance of [0.18, -0.18]) {
      eyes.update(actor, glance);
      expect(eyes.active).toBe(true);
      const turned = warped(luma, width, height, eyes);
      expect(eyeGaze(lumaAt(turned), width, height, points)).toBeCloseTo(glance, 1);
      // The skin round the eyes, the lids' line and the corners are where they were.
      for (const [x, y] of [[120, 85], [120, 115], [100, 100], [140, 100], [98, 100], [242, 100], [220, 92.5]]) expect(turned[y! * width + x!]).toBeCloseTo(luma[y! * width + x!]!, 0);
    }
    // A blink (the actor's lids nearly shut) keeps the last glance rather than reading the lashes.
    eyes.update(mesh(2), 0.01);
    eyes.update(actor, undefined);
    expect(eyeGaze(lumaAt(warped(luma, width, height, eyes)), width, height, points)).toBeCloseTo(-0.18, 1);
  });

  it('leaves eyes whose irises cannot be read: one misread, one not found, or eyes too shut to show them', () => {
    const { luma, width, height, points, lumaAt } = drawnEyes(0, IRIS);
    const gaze = eyeGaze(lumaAt(luma), width, height, points)!;
    const downcast = points.map(([x, y, z]) => [x!, 100 + (y! - 100) * 0.4, z!]);
    for (const [landmarks, irises] of [[points, [0, 0.2]], [points, [0, undefined]], [downcast, [0, 0]]] as const) {
      const eyes = createEyeMotion(landmarks as number[][], { gaze, irises: [...irises] });
      eyes.update(mesh(12), 0.2);
      expect(eyes.active).toBe(false);
    }
  });
});
