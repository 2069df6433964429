// The person's face sharpened to the actor's fine detail, on real faces: the talking man (a sharp, grainy
// clip) and the talking woman (a soft, made-up one) of ../shared/media as the actors, face-api's demo
// photos as the people (sample4's face is out of focus in a party photo; sample6's is sharp; sample1's third
// face, a laughing girl, is as detailed as the woman's), and sample6 blurred.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegBinary, runProcess } from '../../media/ffmpeg';
import { cutNthFace } from '../../testing/demo-faces';
import { type FaceEngine, createHumanFaceEngine } from '../face-engine';
import { SHARPNESS, detailInFrame, matchSharpness } from './face-sharpness';
import { loadPersonFace } from './person-face';
import { type YuvFrame, yuvFrame } from './yuv';

const MEDIA = path.resolve(import.meta.dirname, '../../../../../shared/media');
const SAMPLES = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo');
const SIZE = 480;

describe('matchSharpness', () => {
  let engine: FaceEngine;
  let scratch: string;

  /** The clip's first frame at 480×480, as the renderer holds it (yuv420p), and the actor's mesh in it. */
  async function actorAt(clip: string): Promise<{ frame: YuvFrame; landmarks: number[][] }> {
    const run = (format: string, file: string) =>
      runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-i', path.join(MEDIA, `${clip}.mp4`), '-frames:v', '1', '-vf', `scale=${SIZE}:${SIZE}`, '-f', 'rawvideo', '-pix_fmt', format, file], { timeout: 30_000 });
    const [rgb, yuv] = [path.join(scratch, `${clip}.rgb`), path.join(scratch, `${clip}.yuv`)];
    await run('rgb24', rgb);
    await run('yuv420p', yuv);
    const faces = await engine.detect({ data: await readFile(rgb), width: SIZE, height: SIZE }, { mesh: true });
    const landmarks = [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0]!.landmarks!;
    return { frame: yuvFrame(new Uint8Array(await readFile(yuv)), SIZE, SIZE), landmarks };
  }

  beforeAll(async () => {
    engine = await createHumanFaceEngine({ maxFaces: 3 });
    scratch = await mkdtemp(path.join(tmpdir(), 'familystar-sharpness-'));
  });
  afterAll(async () => {
    await engine?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('sharpens a soft photo until its face has the sharp actor’s fine detail, and a blurred one more than the same photo sharp', async ({ annotate }) => {
    const man = await actorAt('talking-man');
    const soft = await loadPersonFace(engine, path.join(SAMPLES, 'sample4.jpg'), { eyes: false });
    const before = detailInFrame(man.frame, soft, man.landmarks);
    const amount = matchSharpness(man.frame, soft, man.landmarks);
    const after = detailInFrame(man.frame, soft, man.landmarks);
    await annotate(`sample4 on the talking man: detail ${before.person.toFixed(4)} → ${after.person.toFixed(4)} (actor ${before.actor.toFixed(4)}), amount ${amount}`);
    expect(before.person).toBeLessThan(before.actor);
    expect(amount).toBeGreaterThan(0);
    // Reached, or the most the mask gives.
    expect(after.person >= 0.99 * after.actor || amount === SHARPNESS.amounts.at(-1)).toBe(true);
    expect(after.person).toBeGreaterThan(1.2 * before.person);

    const blurredFile = path.join(scratch, 'sample6-blurred.png');
    await sharp(path.join(SAMPLES, 'sample6.jpg')).blur(2.5).png().toFile(blurredFile);
    const sharpAmount = matchSharpness(man.frame, await loadPersonFace(engine, path.join(SAMPLES, 'sample6.jpg'), { eyes: false }), man.landmarks);
    const blurredAmount = matchSharpness(man.frame, await loadPersonFace(engine, blurredFile, { eyes: false }), man.landmarks);
    await annotate(`sample6 on the talking man: amount ${sharpAmount}, blurred ${blurredAmount}`);
    expect(blurredAmount).toBeGreaterThan(sharpAmount);
  });

  it('leaves a photo as it is on a softer actor’s face', async ({ annotate }) => {
    const woman = await actorAt('talking-woman');
    // A sharp photo, and one as detailed as her smooth face whose features do not meet hers: the woman's
    // made-up brows and lashes under the girl's bare skin once read as the woman's skin (sharpened 1.5).
    const girl = path.join(scratch, 'sample1.3.jpg');
    await cutNthFace(engine, path.join(SAMPLES, 'sample1.jpg'), 3, girl);
    for (const file of [path.join(SAMPLES, 'sample6.jpg'), girl]) {
      const person = await loadPersonFace(engine, file, { eyes: false });
      const luma = Float32Array.from(person.y);
      const detail = detailInFrame(woman.frame, person, woman.landmarks);
      await annotate(`${path.basename(file)} on the talking woman: detail ${detail.person.toFixed(4)} against her ${detail.actor.toFixed(4)}`);
      expect(detail.person).toBeGreaterThan(detail.actor);
      expect(matchSharpness(woman.frame, person, woman.landmarks)).toBe(0);
      expect(person.y).toEqual(luma);
    }
  });
});
