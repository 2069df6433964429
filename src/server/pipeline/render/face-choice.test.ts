import { describe, expect, it } from 'vitest';
import { CHOICE, type MouthLook, createFaceChoice, eyeLender, mouthLook } from './face-choice';

/** A mesh with only the points mouthLook reads: forehead-chin 200 px, eyes 80 px apart, the mouth as given. */
function mesh(opening: number, width: number): number[][] {
  const points = Array.from({ length: 468 }, () => [0, 0, 0]);
  points[10] = [100, 0, 0]; // forehead
  points[152] = [100, 200, 0]; // chin
  for (const [i, x] of [[33, 50], [133, 70], [362, 130], [263, 150]] as const) points[i] = [x, 80, 0];
  points[61] = [100 - (width * 80) / 2, 150, 0];
  points[291] = [100 + (width * 80) / 2, 150, 0];
  // Inner lips: three pairs across the middle, `opening` of the face height apart.
  for (const [upper, lower] of [[82, 87], [13, 14], [312, 317]] as const) {
    points[upper] = [100, 150 - opening * 100, 0];
    points[lower] = [100, 150 + opening * 100, 0];
  }
  return points;
}

describe('createFaceChoice', () => {
  const looks: MouthLook[] = [
    { opening: 0.005, width: 0.6 }, // the anchor: a closed mouth
    { opening: 0.06, width: 0.75 }, // a laugh with teeth
    { opening: 0.01, width: 0.72 }, // a closed smile
  ];

  it('reads a mouth’s opening and width from the mesh', () => {
    const look = mouthLook(mesh(0.05, 0.7));
    expect(look.opening).toBeCloseTo(0.05, 3);
    expect(look.width).toBeCloseTo(0.7, 3);
  });

  it('shows the anchor at rest, the laugh when the actor laughs, the smile when they smile, and cross-fades each switch', () => {
    const choice = createFaceChoice(looks, 1.5);
    for (let i = 0; i < 10; i++) choice.update(mesh(0.005, 0.6));
    expect(choice.shown).toEqual([{ index: 0, opacity: 1 }]);

    // The actor laughs: open 0.04 above rest (× 1.5 on the person = 0.06), 25 % wider.
    choice.update(mesh(0.045, 0.75));
    expect(choice.shown.map((s) => s.index)).toEqual([0, 1]);
    expect(choice.shown[1]!.opacity).toBeLessThan(1);
    for (let i = 0; i < CHOICE.fadeFrames; i++) choice.update(mesh(0.045, 0.75));
    expect(choice.shown).toEqual([{ index: 1, opacity: 1 }]);

    // A closed smile: 20 % wider, not open. The laugh (too open) gives way to the smile.
    for (let i = 0; i < CHOICE.fadeFrames + 1; i++) choice.update(mesh(0.006, 0.72));
    expect(choice.shown).toEqual([{ index: 2, opacity: 1 }]);

    // Back at rest.
    for (let i = 0; i < CHOICE.fadeFrames + 1; i++) choice.update(mesh(0.005, 0.6));
    expect(choice.shown).toEqual([{ index: 0, opacity: 1 }]);
    expect(choice.framesShown.every((count) => count > 0)).toBe(true);
  });

  it('shows an image whose lips meet when the actor’s mouth is closed, though the anchor is a smile showing teeth', () => {
    const smiling: MouthLook[] = [
      { opening: 0.06, width: 0.75 }, // the anchor: a smile showing teeth
      { opening: 0.006, width: 0.65 }, // the same person with closed lips
    ];
    const choice = createFaceChoice(smiling, 1.5);
    for (let i = 0; i < CHOICE.fadeFrames + 2; i++) choice.update(mesh(0.005, 0.6));
    expect(choice.shown).toEqual([{ index: 1, opacity: 1 }]);
    // The actor opens 0.04 above rest (0.06 on the person) and widens: the smile again.
    for (let i = 0; i < CHOICE.fadeFrames + 2; i++) choice.update(mesh(0.045, 0.75));
    expect(choice.shown).toEqual([{ index: 0, opacity: 1 }]);
  });

  it('fades in steps, never jumps, and does not flicker on a mouth between two images', () => {
    const choice = createFaceChoice(looks, 1.5);
    choice.update(mesh(0.005, 0.6));
    const opacities: number[] = [];
    for (let i = 0; i < CHOICE.fadeFrames; i++) {
      choice.update(mesh(0.045, 0.75));
      opacities.push(choice.shown.at(-1)!.opacity);
    }
    for (let i = 1; i < opacities.length; i++) expect(opacities[i]!).toBeGreaterThan(opacities[i - 1]!);
    expect(opacities.at(-1)).toBe(1);

    // Trembling around the middle between the closed smile and the laugh: at most one switch.
    let switches = 0;
    let last = choice.shown.at(-1)!.index;
    for (let i = 0; i < 40; i++) {
      choice.update(mesh(i % 2 ? 0.024 : 0.027, 0.74));
      const now = choice.shown.at(-1)!.index;
      if (now !== last) switches++;
      last = now;
    }
    expect(switches).toBeLessThanOrEqual(1);
  });
});

describe('eyeLender', () => {
  const image = (eyeOpening: number, gaze: number | undefined = 0) => ({ eyeOpening, eyesShut: eyeOpening <= 0.15, gaze });
  it('lends an anchor with shut eyes the open eyes of the image with the middle opening', () => {
    // The anchor's are shut; of the open ones (0.3, 0.45, 0.38) the middle one, not the stare or the squint.
    expect(eyeLender([image(0.06), image(0.3), image(0.1), image(0.45), image(0.38)])).toBe(4);
    expect(eyeLender([image(0.06), image(0.1), image(0.33)])).toBe(2);
  });
  it('lends nothing when the anchor’s eyes are open, or no other image has them open', () => {
    expect(eyeLender([image(0.4), image(0.3)])).toBeUndefined();
    expect(eyeLender([image(0.06), image(0.1)])).toBeUndefined();
    expect(eyeLender([image(0.06)])).toBeUndefined();
  });
  it('lends shut eyes the middle opening among the others that look ahead', () => {
    // 0.38 looks aside: of the two that look ahead (0.3, 0.45) the lower middle one.
    expect(eyeLender([image(0.06), image(0.3, 0.02), image(0.45, -0.05), image(0.38, 0.2)])).toBe(1);
    // None looks ahead: the open ones as before.
    expect(eyeLender([image(0.06), image(0.3, 0.2), image(0.45, -0.2)])).toBe(1);
  });
  it('lends an anchor whose eyes look aside the eyes with the middle opening among those that look ahead', () => {
    // Measured gazes (loadPersonFace on talking-woman.mp4's crops): the anchor looked aside at 0.21; of the
    // four that look ahead (openings 0.24, 0.39, 0.40, 0.42) the lower middle one.
    expect(eyeLender([image(0.44, 0.213), image(0.39, 0.019), image(0.4, 0.028), image(0.24, -0.067), image(0.42, -0.084)])).toBe(1);
    // Not the one nearest the middle (0.3 open, a squint): the usual look.
    expect(eyeLender([image(0.44, 0.2), image(0.3, 0), image(0.4, 0.05), image(0.45, -0.05)])).toBe(2);
    // Closed eyes do not lend, however they look.
    expect(eyeLender([image(0.44, 0.213), image(0.1, 0), image(0.4, -0.06)])).toBe(2);
  });
  it('lends eyes only between images that both show glasses, or both do not', () => {
    // The anchor's are shut; the middle opening (0.38) would lend, but only one with the anchor's glasses may.
    const images = [image(0.06), image(0.3), image(0.45), image(0.38)];
    expect(eyeLender(images.map((each, index) => ({ ...each, glasses: index === 0 || index === 1 })))).toBe(1);
    expect(eyeLender(images.map((each, index) => ({ ...each, glasses: index === 3 })))).toBe(1);
    expect(eyeLender(images.map((each, index) => ({ ...each, glasses: index === 0 })))).toBeUndefined();
  });
  it('lends nothing to eyes that look ahead, or when no other image looks ahead', () => {
    expect(eyeLender([image(0.44, 0.12), image(0.4, 0)])).toBeUndefined();
    expect(eyeLender([image(0.44, -0.2), image(0.4, 0.12), { ...image(0.4), gaze: undefined }])).toBeUndefined();
  });
});
