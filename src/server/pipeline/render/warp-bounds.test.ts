// The paste calls the eye and mouth warps and the blink only inside their bounds (face-paste.ts): so
// everything each of them moves or keeps must lie inside. Checked point by point around a real face's mesh
// (the portrait fixture), upright and tilted, with the mouth open, the eyes narrowed and closed.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTRAIT } from '../../testing/media-fixtures';
import { type FaceEngine, createHumanFaceEngine } from '../face-engine';
import { createEyeBlinks, createEyeMotion } from './eye-blink';
import { CHIN, FOREHEAD, LOWER_INNER_LIP } from './landmarks';
import { type MouthSample, createMouthMotion } from './mouth-motion';
import type { PersonFace } from './person-face';

const LIDS = [[159, 145], [386, 374]] as const;

describe('warp bounds', () => {
  let engine: FaceEngine;
  let upright: number[][];
  beforeAll(async () => {
    engine = await createHumanFaceEngine({ maxFaces: 1 });
    const { data, info } = await sharp(PORTRAIT).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    upright = (await engine.analyse({ data, width: info.width, height: info.height }))[0]!.landmarks!;
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
  });

  it.each([0, 35, -70])('nothing moves outside them, tilted %i°', (degrees) => {
    const [cx, cy] = upright[1]!; // the nose tip
    const cos = Math.cos((degrees * Math.PI) / 180);
    const sin = Math.sin((degrees * Math.PI) / 180);
    const person = upright.map(([x, y]) => [cx! + (x! - cx!) * cos - (y! - cy!) * sin, cy! + (x! - cx!) * sin + (y! - cy!) * cos, 0]);
    const faceHeight = Math.hypot(person[CHIN]![0]! - person[FOREHEAD]![0]!, person[CHIN]![1]! - person[FOREHEAD]![1]!);
    const down = [-sin, cos];
    // The actor: mouth open by a tenth of the face, eyes narrowed to a third, then shut.
    const actor = (lidGap: number) => {
      const mesh = person.map((point) => [...point]);
      for (const i of [...LOWER_INNER_LIP, CHIN]) mesh[i] = [mesh[i]![0]! + 0.1 * faceHeight * down[0]!, mesh[i]![1]! + 0.1 * faceHeight * down[1]!, 0];
      for (const [upper, lower] of LIDS) {
        const middle = [(mesh[upper]![0]! + mesh[lower]![0]!) / 2, (mesh[upper]![1]! + mesh[lower]![1]!) / 2];
        mesh[upper] = [middle[0]! + (mesh[upper]![0]! - middle[0]!) * lidGap, middle[1]! + (mesh[upper]![1]! - middle[1]!) * lidGap, 0];
        mesh[lower] = [middle[0]! + (mesh[lower]![0]! - middle[0]!) * lidGap, middle[1]! + (mesh[lower]![1]! - middle[1]!) * lidGap, 0];
      }
      return mesh;
    };
    const mouth = createMouthMotion({ landmarks: person } as PersonFace);
    const eyes = createEyeMotion(person);
    const blinks = createEyeBlinks();
    for (const each of [mouth, eyes, blinks]) each.update(person);
    for (const each of [mouth, eyes]) each.update(actor(0.33));
    blinks.update(actor(0));
    expect([mouth.active, eyes.active, blinks.active]).toEqual([true, true, true]);

    const xs = person.map(([x]) => x!);
    const ys = person.map(([, y]) => y!);
    const margin = 0.5 * faceHeight;
    const out: MouthSample = [0, 0, 0, 0, 0];
    const inside = (box: Float64Array, x: number, y: number) => x > box[0]! && x < box[2]! && y > box[1]! && y < box[3]!;
    const changed = { mouth: 0, eyes: 0, blinks: 0 };
    for (let y = Math.min(...ys) - margin; y < Math.max(...ys) + margin; y += 0.75) {
      for (let x = Math.min(...xs) - margin; x < Math.max(...xs) + margin; x += 0.75) {
        const interior = mouth.source(x, y, out);
        if (interior > 0 || out[0] !== x || out[1] !== y) {
          changed.mouth++;
          expect(inside(mouth.bounds, x, y), `mouth at ${x}, ${y}`).toBe(true);
        }
        eyes.source(x, y, out);
        if (out[0] !== x || out[1] !== y) {
          changed.eyes++;
          expect(inside(eyes.bounds, x, y), `eyes at ${x}, ${y}`).toBe(true);
        }
        if (blinks.keepActor(x, y) > 0) {
          changed.blinks++;
          expect(inside(blinks.bounds, x, y), `blink at ${x}, ${y}`).toBe(true);
        }
      }
    }
    // Not vacuous: each moved a good many points.
    expect(Math.min(changed.mouth, changed.eyes, changed.blinks)).toBeGreaterThan(200);
  });
});
