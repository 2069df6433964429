// The frame moved round a real face (the talking man, ../shared/media) so that its outline is another's:
// measured again by the face engine on the moved frame, the outline is where it was sent, the eyes, nose
// and mouth stay where they were, and the frame away from the face is untouched.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegBinary, runProcess } from '../../media/ffmpeg';
import { type FaceEngine, createHumanFaceEngine } from '../face-engine';
import { FACE_SHAPE, createOutlineFollower, fitOutline } from './face-shape';
import { CHIN, FACE_OVAL, NOSE_TIP, type Point, insidePolygon, pick } from './landmarks';
import { type YuvFrame, regionToRgb, yuvFrame } from './yuv';

const MEDIA = path.resolve(import.meta.dirname, '../../../../../shared/media');
const SIDE = 480;

describe('fitOutline', () => {
  let engine: FaceEngine;
  let scratch: string;

  /** One frame of the talking man as yuv420p, 480×480. */
  async function frameAt(seconds: number): Promise<YuvFrame> {
    const file = path.join(scratch, `man-${seconds}.yuv`);
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-ss', String(seconds), '-i', path.join(MEDIA, 'talking-man.mp4'), '-frames:v', '1', '-vf', `scale=${SIDE}:${SIDE}`, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', file], { timeout: 30_000 });
    return yuvFrame(new Uint8Array(await readFile(file)), SIDE, SIDE);
  }

  async function meshOf(frame: YuvFrame): Promise<number[][]> {
    const faces = await engine.detect(regionToRgb(frame, { x: 0, y: 0, width: SIDE, height: SIDE }), { mesh: true });
    return [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0]!.landmarks!;
  }

  const width = (outline: Point[]) => Math.max(...outline.map(([x]) => x)) - Math.min(...outline.map(([x]) => x));

  beforeAll(async () => {
    engine = await createHumanFaceEngine({ maxFaces: 1 });
    scratch = await mkdtemp(path.join(tmpdir(), 'familystar-shape-'));
  });
  afterAll(async () => {
    await engine?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('moves a real face’s outline where it is sent, and leaves its features and the frame away from it', async () => {
    const frame = await frameAt(1);
    const before = await meshOf(frame);
    const outline = pick(before, FACE_OVAL);
    // A narrower face: the outline drawn in by 10 % of its width towards its middle.
    const middle = outline.reduce((sum, [x]) => sum + x, 0) / outline.length;
    const narrower = outline.map(([x, y]): Point => [middle + 0.9 * (x - middle), y]);
    const original = Uint8Array.from(frame.y);
    expect(fitOutline(frame, outline, narrower)).toBe(true);

    const after = await meshOf(frame);
    const [was, wanted, now] = [width(outline), width(narrower), width(pick(after, FACE_OVAL))];
    // Most of the way to the width it was sent to (the mesh model also weighs the features it keeps).
    expect(now).toBeLessThan(was - 0.6 * (was - wanted));
    // The eyes, nose and mouth are untouched: the pixels from the eyes' outer corners down to the mouth.
    const features = pick(before, [33, 263, 291, 17, 61]);
    let inside = 0;
    let changed = 0;
    for (let y = 0; y < SIDE; y++) {
      for (let x = 0; x < SIDE; x++) {
        if (!insidePolygon(features, x + 0.5, y + 0.5)) continue;
        inside++;
        if (Math.abs(frame.y[y * SIDE + x]! - original[y * SIDE + x]!) > 1) changed++;
      }
    }
    expect(inside).toBeGreaterThan(5000);
    expect(changed / inside).toBeLessThan(0.01);
    // Beyond the move's reach the frame is as it was: its top rows, above the hair.
    const faceHeight = Math.max(...outline.map(([, y]) => y)) - Math.min(...outline.map(([, y]) => y));
    const clear = Math.floor(Math.min(...outline.map(([, y]) => y)) - FACE_SHAPE.reachOutside * faceHeight) - 2;
    expect(clear).toBeGreaterThan(10);
    expect(frame.y.subarray(0, clear * SIDE)).toEqual(original.subarray(0, clear * SIDE));
  }, 60_000);

  it('leaves the frame as it is when the outlines already agree', async () => {
    const frame = await frameAt(2);
    const outline = pick(await meshOf(frame), FACE_OVAL);
    const original = Uint8Array.from(frame.y);
    expect(fitOutline(frame, outline, outline)).toBe(false);
    expect(frame.y).toEqual(original);
  }, 60_000);

  it('follows the actor’s outline steadily, moved by the person’s shape learnt at rest, and lets an open jaw drop', () => {
    // A still head placed the same in every frame; its tracked outline trembles by up to 1.5 px. The person's
    // face is 10 px narrower on each side.
    const placed = { a: 1, b: 0, tx: 0, ty: 0 };
    const centre = 200;
    const actor = FACE_OVAL.map((_, k): Point => [centre + 100 * Math.sin((2 * Math.PI * k) / FACE_OVAL.length), 200 - 130 * Math.cos((2 * Math.PI * k) / FACE_OVAL.length)]);
    const person = actor.map(([x, y]): Point => [x - 10 * Math.sign(x - centre), y]);
    const landmarks = (shift: (k: number) => Point) => {
      const mesh = Array.from({ length: 468 }, () => [0, 0]);
      FACE_OVAL.forEach((index, k) => (mesh[index] = [actor[k]![0] + shift(k)[0], actor[k]![1] + shift(k)[1]]));
      return mesh;
    };
    // The person's mesh: her outline (her chin at its bottom) and her nose's tip at the face's middle.
    const personMesh = Array.from({ length: 468 }, () => [0, 0]);
    FACE_OVAL.forEach((index, k) => (personMesh[index] = [...person[k]!]));
    personMesh[NOSE_TIP] = [centre, 200];
    const follower = createOutlineFollower(25, personMesh);
    let worst = 0;
    for (let frame = 0; frame < 75; frame++) {
      const tremble = (k: number): Point => [1.5 * Math.sin(frame * 2.1 + k), 1.5 * Math.cos(frame * 1.7 + 2 * k)];
      const { from, to } = follower.follow(landmarks(tremble), placed, 0);
      // The move at each point is the two shapes' difference, steady (the tremble moves the whole frame less than a pixel).
      // (After two seconds: the first frame's tremble is learnt too, and takes that long to fade.)
      if (frame >= 50) worst = Math.max(worst, ...to.map(([x, y], k) => Math.hypot(x - from[k]![0] - (person[k]![0] - actor[k]![0]), y - from[k]![1] - (person[k]![1] - actor[k]![1]))));
    }
    expect(worst).toBeLessThan(0.5);
    // The actor opens wide and holds it for two seconds, the outline 20 px lower: it goes down with the
    // actor's and stays there (the person's shape is not learnt again from an open mouth); above the nose it
    // keeps her shape, the chin is the actor's own, and the jaw between goes from one to the other.
    let moved: Point[] = [];
    for (let frame = 0; frame < 50; frame++) moved = follower.follow(landmarks(() => [0, 20]), placed, 0.1).to;
    for (const [k, [x, y]] of moved.entries()) {
      expect(y - actor[k]![1]).toBeCloseTo(20, 0);
      if (actor[k]![1] <= 200) expect(x).toBeCloseTo(person[k]![0], 0);
      else if (FACE_OVAL[k] === CHIN) expect(x).toBeCloseTo(actor[k]![0], 0);
      else expect(Math.abs(x - person[k]![0]) + Math.abs(x - actor[k]![0])).toBeCloseTo(Math.abs(person[k]![0] - actor[k]![0]), 0);
    }
  });
});
