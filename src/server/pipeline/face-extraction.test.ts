// Face extraction from a training clip (face-extraction.ts) with the real face engine: a clip blurred
// for most of its length gives its crops from the sharp part only; a clip blurred throughout still gives
// crops (marked blurred), so the parent has something and the People page says why it is poor. A clip
// where a real woman's eyes close most of the time gives its crops from the frames where they are open.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlurred, isEyesClosed, isLookingAside } from '../../shared/face-analysis';
import { ffmpegBinary, runProcess } from '../media/ffmpeg';
import { PORTRAIT, faceDrift } from '../testing/media-fixtures';
import { type FaceEngine, createHumanFaceEngine } from './face-engine';
import { extractFaces } from './face-extraction';

/** media-fixtures' face clip (4 s of the portrait drifting before a camera), blurred while `blurWhile` holds. */
async function clip(file: string, blurWhile: string) {
  await runProcess(ffmpegBinary(), [
    '-nostdin', '-v', 'error', '-y', '-loop', '1', '-i', PORTRAIT,
    '-vf', `${faceDrift(4)},gblur=sigma=6:enable='${blurWhile}'`,
    '-t', '4', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', file,
  ]);
}

describe('face extraction', () => {
  let engine: FaceEngine;
  let scratch: string;
  beforeAll(async () => {
    engine = await createHumanFaceEngine();
    scratch = await mkdtemp(path.join(tmpdir(), 'familystar-extraction-'));
  });
  afterAll(async () => {
    await engine?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('takes its crops from the sharp part of a clip that is mostly blurred', async () => {
    const file = path.join(scratch, 'mostly-blurred.mp4');
    await clip(file, 'lt(t,3.2)');
    const faces = await extractFaces(engine, { file, declaredExpression: 'neutral', durationSeconds: 4 });
    expect(faces.length).toBeGreaterThan(0);
    for (const face of faces) {
      expect(isBlurred(face.analysis.detailRatio), `the crop at ${face.analysis.time} s`).toBe(false);
      expect(face.analysis.time).toBeGreaterThanOrEqual(3.1);
    }
  }, 120_000);

  it('takes its crops where the eyes are open from a real clip where they are mostly shut', async ({ skip }) => {
    const woman = path.resolve(import.meta.dirname, '../../../../shared/media/talking-woman.mp4');
    if (!existsSync(woman)) skip('../shared/media is not beside the project');
    // 2.6 s of the talking woman singing with her eyes closing (eye opening 0.09-0.21 for the first 1.5 s,
    // then open, 0.25-0.46). Without the preference two of the three crops had her eyes shut (0.10, 0.11).
    const file = path.join(scratch, 'eyes-closing.mp4');
    await runProcess(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', '-ss', '4.9', '-i', woman, '-t', '2.6', '-an', '-c:v', 'libx264', '-preset', 'ultrafast', file]);
    const faces = await extractFaces(engine, { file, declaredExpression: 'neutral', durationSeconds: 2.6 });
    expect(faces.length).toBeGreaterThan(0);
    for (const face of faces) expect(isEyesClosed(face.analysis.eyeOpening), `the crop at ${face.analysis.time} s: ${face.analysis.eyeOpening}`).toBe(false);
  }, 120_000);

  it('puts the crops whose eyes look ahead before those glancing aside, in a real clip where she mostly glances aside', async ({ skip, annotate }) => {
    const woman = path.resolve(import.meta.dirname, '../../../../shared/media/talking-woman.mp4');
    if (!existsSync(woman)) skip('../shared/media is not beside the project');
    // 1.8 s of the talking woman glancing to one side and the other (eyeGaze ±0.19-0.24), looking at the
    // camera for about 0.4 s in the middle (|gaze| ≤ 0.02). The first crop is the one a video takes its eyes from.
    const file = path.join(scratch, 'glancing.mp4');
    await runProcess(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', '-ss', '1.7', '-i', woman, '-t', '1.8', '-an', '-c:v', 'libx264', '-preset', 'ultrafast', file]);
    const faces = await extractFaces(engine, { file, declaredExpression: 'neutral', durationSeconds: 1.8 });
    const gazes = faces.map((face) => face.analysis.gaze);
    await annotate(`crops' gaze, in order: ${gazes.map((gaze) => gaze?.toFixed(2)).join(', ')}`);
    expect(faces.length).toBeGreaterThan(1);
    expect(isLookingAside(gazes[0]), `gazes ${gazes.join(', ')}`).toBe(false);
    const firstAside = gazes.findIndex((gaze) => isLookingAside(gaze));
    expect(firstAside, `gazes ${gazes.join(', ')}`).toBeGreaterThan(0);
    for (const gaze of gazes.slice(firstAside)) expect(isLookingAside(gaze), `gazes ${gazes.join(', ')}`).toBe(true);
  }, 120_000);

  it('still gives crops from a clip blurred throughout, marked blurred', async () => {
    const file = path.join(scratch, 'all-blurred.mp4');
    await clip(file, '1');
    const faces = await extractFaces(engine, { file, declaredExpression: 'neutral', durationSeconds: 4 });
    expect(faces.length).toBeGreaterThan(0);
    for (const face of faces) expect(isBlurred(face.analysis.detailRatio)).toBe(true);
  }, 120_000);
});
