// The built-in face engine on real pictures: the NASA portrait the demo templates are made from, a
// picture with no face, and the demo templates themselves (the renderer needs the face in their frames).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TEMPLATES, findDemoTools, renderDemo } from '../features/templates/demo-templates';
import { ffmpegBinary, runProcess } from '../media/ffmpeg';
import { type FaceEngine, type Frame, createHumanFaceEngine } from './face-engine';

const PORTRAIT = [process.env.DEMO_PORTRAIT, '/usr/lib/python3/dist-packages/skimage/data/astronaut.png', '/usr/share/python3-skimage/data/astronaut.png']
  .filter((candidate): candidate is string => Boolean(candidate))
  .find((candidate) => existsSync(candidate));
const tools = findDemoTools();

/** Decodes frames to packed RGB with ffmpeg (`input` are the arguments before the output options). */
async function decodeFrames(input: string[], width: number, height: number, filter?: string): Promise<Frame[]> {
  const { stdout } = await runProcess(
    ffmpegBinary(),
    ['-v', 'error', ...input, ...(filter ? ['-vf', filter] : []), '-s', `${width}x${height}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
  );
  const size = width * height * 3;
  return Array.from({ length: Math.floor(stdout.length / size) }, (_, index) => ({
    data: new Uint8Array(stdout.buffer, stdout.byteOffset + index * size, size),
    width,
    height,
  }));
}

describe('human face engine', () => {
  let engine: FaceEngine;
  let scratch: string;
  beforeAll(async () => {
    engine = await createHumanFaceEngine();
    scratch = await mkdtemp(path.join(tmpdir(), 'familystar-face-engine-'));
  });
  afterAll(async () => {
    await engine?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('finds exactly one face, with its mesh, in the astronaut portrait', async ({ skip }) => {
    if (!PORTRAIT) skip('astronaut.png is missing: install the Debian package python3-skimage');
    const [frame] = await decodeFrames(['-i', PORTRAIT!], 512, 512);
    const faces = await engine.detect(frame!);
    expect(faces).toHaveLength(1);
    const [face] = faces;
    expect(face!.score).toBeGreaterThan(0.5);
    // Eileen Collins' face is around (225, 120) of the 512×512 photo, about 140 px across.
    const [x, y, w, h] = face!.box;
    expect(Math.abs(x + w / 2 - 225)).toBeLessThan(30);
    expect(Math.abs(y + h / 2 - 120)).toBeLessThan(30);
    expect(w).toBeGreaterThan(100);
    expect(w).toBeLessThan(200);
    expect(face!.landmarks).toHaveLength(468);
    for (const [px, py] of face!.landmarks!) {
      expect(px).toBeGreaterThanOrEqual(x - 1);
      expect(px).toBeLessThanOrEqual(x + w + 1);
      expect(py).toBeGreaterThanOrEqual(y - 1);
      expect(py).toBeLessThanOrEqual(y + h + 1);
    }
    // The same picture as RGBA gives the same face.
    const rgba = new Uint8Array(512 * 512 * 4);
    for (let i = 0; i < 512 * 512; i++) rgba.set(frame!.data.subarray(i * 3, i * 3 + 3), i * 4);
    const again = await engine.detect({ data: rgba, width: 512, height: 512 });
    expect(again.map((found) => found.box)).toEqual([face!.box]);
  }, 30_000);

  it('finds no face in a test pattern', async () => {
    const [frame] = await decodeFrames(['-f', 'lavfi', '-i', 'testsrc=size=960x540:rate=1', '-frames:v', '1'], 960, 540);
    expect(await engine.detect(frame!)).toEqual([]);
  }, 30_000);

  it('rejects a buffer that is not RGB or RGBA of the given size', async () => {
    await expect(engine.detect({ data: new Uint8Array(10), width: 4, height: 4 })).rejects.toThrow(/RGB or RGBA/);
  });

  describe.each(DEMO_TEMPLATES.map((template) => ({ title: template.title, template })))('demo template $title', ({ template }) => {
    it('shows the face in at least 80 % of 10 evenly spaced frames', async ({ skip, annotate }) => {
      if ('missing' in tools) skip(`the demo material is missing: install ${tools.missing.join(', ')}`);
      const dir = await mkdtemp(path.join(scratch, 'template-'));
      const rendered = await renderDemo(template, tools as Exclude<typeof tools, { missing: string[] }>, dir);
      const frames = await decodeFrames(['-i', rendered.video], 960, 540, `fps=10/${rendered.duration}`);
      expect(frames.length).toBeGreaterThanOrEqual(9);
      let found = 0;
      const started = performance.now();
      for (const frame of frames) {
        const faces = await engine.detect(frame);
        if (faces.length === 1 && faces[0]!.score > 0.5) found++;
      }
      const msPerFrame = (performance.now() - started) / frames.length;
      await annotate(`face in ${found}/${frames.length} frames, ${msPerFrame.toFixed(0)} ms/frame at 960×540`);
      expect(found / frames.length).toBeGreaterThanOrEqual(0.8);
    }, 60_000);
  });
});
