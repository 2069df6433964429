import { describe, expect, it } from 'vitest';
import { MIN_CROP_PX, clampSquare, resizeSquare, squareAround } from './face-crop';

const photo = { width: 1000, height: 600 };

describe('the crop square', () => {
  it('stays inside the photo, between the smallest crop and the photo’s shorter side', () => {
    expect(clampSquare({ x: -50, y: -20, size: 200 }, photo)).toEqual({ x: 0, y: 0, size: 200 });
    expect(clampSquare({ x: 950, y: 550, size: 200 }, photo)).toEqual({ x: 800, y: 400, size: 200 });
    expect(clampSquare({ x: 10, y: 10, size: 5000 }, photo)).toEqual({ x: 10, y: 0, size: 600 });
    expect(clampSquare({ x: 10, y: 10, size: 3 }, photo).size).toBe(MIN_CROP_PX);
    // A photo smaller than the smallest crop is cropped whole.
    expect(clampSquare({ x: 0, y: 0, size: 10 }, { width: 40, height: 30 }).size).toBe(30);
  });

  it('grows and shrinks around its centre', () => {
    expect(resizeSquare({ x: 400, y: 200, size: 200 }, 300, photo)).toEqual({ x: 350, y: 150, size: 300 });
    expect(resizeSquare({ x: 400, y: 200, size: 200 }, 100, photo)).toEqual({ x: 450, y: 250, size: 100 });
  });

  it('starts around the face, with room around it, inside the photo', () => {
    // A face of 100×120 px with its top-left corner at (450, 200).
    const box = { x: 0.45, y: 200 / 600, width: 0.1, height: 0.2 };
    expect(squareAround(box, photo, 2)).toEqual({ x: 380, y: 140, size: 240 });
    // Near the edge it moves inside rather than cutting the face.
    expect(squareAround({ ...box, x: 0 }, photo, 2)).toEqual({ x: 0, y: 140, size: 240 });
    // Without a box: the middle of the photo.
    expect(squareAround(null, photo, 2)).toEqual({ x: 320, y: 120, size: 360 });
  });
});
