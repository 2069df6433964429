// A still photo's mesh fitted again on the face turned upright by its own eye line (meshFittedUpright), on
// real photos: a head tilted 30° (face-api's sample1, second face, cut out as a parent would crop it), and
// faces whose roll the first mesh read right.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTRAIT } from '../../testing/media-fixtures';
import { type FaceEngine, type Frame, createHumanFaceEngine } from '../face-engine';
import { EYE_CONTOURS, LEFT_EYE_CORNERS, OUTER_LIPS, RIGHT_EYE_CORNERS } from './landmarks';
import { eyeLineDegrees, loadMeshModel, meshFittedUpright } from './mesh-model';
import { rgbToYuvPlanes } from './yuv';

const DEMO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo');
const EYES = { left: LEFT_EYE_CORNERS, right: RIGHT_EYE_CORNERS };

const roll = (mesh: number[][]) => eyeLineDegrees(mesh, EYES);

describe('meshFittedUpright', () => {
  let engine: FaceEngine;
  beforeAll(async () => {
    engine = await createHumanFaceEngine({ maxFaces: 10 });
  });
  afterAll(() => engine?.close());

  const largestMesh = async (photo: Frame) =>
    (await engine.detect(photo, { mesh: true, maxFaces: 10, upright: true })).filter((face) => face.landmarks).sort((p, q) => q.box[2] * q.box[3] - p.box[2] * p.box[3])[0]!.landmarks!;

  it('puts a tilted head’s far eye on its lash line and its mouth on its lips', async () => {
    // sample1's second face (a woman with dark eye make-up and lipstick, her head tilted 30° and turned),
    // cut out square round its box grown 1.8 times, as bench/render cuts it.
    const file = path.join(DEMO, 'sample1.jpg');
    const whole = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const [x, y, w, h] = (await engine.detect({ data: whole.data, width: whole.info.width, height: whole.info.height }, { maxFaces: 10 })).sort((p, q) => q.box[2] * q.box[3] - p.box[2] * p.box[3])[1]!.box;
    const side = Math.round(1.8 * Math.max(w, h));
    const cut = await sharp(file).removeAlpha().extract({ left: Math.round(x + w / 2 - side / 2), top: Math.round(y + h / 2 - side / 2), width: side, height: side }).raw().toBuffer({ resolveWithObject: true });
    const photo = { data: cut.data, width: side, height: side };
    const first = await largestMesh(photo);
    const fitted = await meshFittedUpright((await loadMeshModel())!, photo, first, EYES);
    // Her eyes' line falls 30° to the picture's right: the first mesh read 10°.
    expect(roll(first)).toBeGreaterThan(-15);
    expect(roll(fitted)).toBeLessThan(-25);
    // The far eye's contour on her dark lashes, not on the lid above them (its mean luma 62 → 42), and the
    // lips' outline on her dark lipstick (71 → 59): brightness at each mesh point.
    const luma = rgbToYuvPlanes(photo).y;
    const mean = (mesh: number[][], points: readonly number[]) => points.reduce((sum, i) => sum + luma[Math.round(mesh[i]![1]!) * side + Math.round(mesh[i]![0]!)]!, 0) / points.length;
    expect(mean(fitted, EYE_CONTOURS[0]!)).toBeLessThan(0.8 * mean(first, EYE_CONTOURS[0]!));
    expect(mean(fitted, OUTER_LIPS)).toBeLessThan(0.9 * mean(first, OUTER_LIPS));
  });

  it('keeps the mesh of a face whose roll it read right as it is (upright, and tilted 10°)', async () => {
    // The astronaut portrait (upright) and face-api's sample3 (the man in the middle, his head tilted 10°).
    for (const file of [PORTRAIT, path.join(DEMO, 'sample3.jpg')]) {
      const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const photo = { data, width: info.width, height: info.height };
      const first = await largestMesh(photo);
      expect(await meshFittedUpright((await loadMeshModel())!, photo, first, EYES)).toBe(first);
    }
  });
});
