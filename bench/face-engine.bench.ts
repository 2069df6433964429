// The built-in face engine on the demo templates (960×540): face found per frame at 5 frames a second,
// and the cost per frame (median) with the 468-point mesh and with the detector alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_TEMPLATES, findDemoTools, renderDemo } from '../src/server/features/templates/demo-templates';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { type FaceEngine, type Frame, createHumanFaceEngine } from '../src/server/pipeline/face-engine';

const WIDTH = 960;
const HEIGHT = 540;

function frames(video: string, fps: number): Frame[] {
  const raw = execFileSync(ffmpegBinary(), ['-v', 'error', '-i', video, '-vf', `fps=${fps}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    maxBuffer: 1024 * 1024 * 1024,
  });
  const size = WIDTH * HEIGHT * 3;
  return Array.from({ length: Math.floor(raw.length / size) }, (_, index) => ({
    data: new Uint8Array(raw.buffer, raw.byteOffset + index * size, size),
    width: WIDTH,
    height: HEIGHT,
  }));
}

async function run(engine: FaceEngine, list: Frame[]) {
  const times: number[] = [];
  let found = 0;
  for (const frame of list) {
    const started = performance.now();
    const faces = await engine.detect(frame);
    times.push(performance.now() - started);
    if (faces.length === 1) found++;
  }
  times.sort((a, b) => a - b);
  return { frames: list.length, found, rate: Number((found / list.length).toFixed(3)), msPerFrameMedian: Number(times[times.length >> 1]!.toFixed(1)) };
}

export async function benchFaceEngine() {
  const tools = findDemoTools();
  if ('missing' in tools) return { skipped: `missing ${tools.missing.join(', ')}` };
  const scratch = mkdtempSync(path.join(tmpdir(), 'familystar-bench-face-'));
  const loadStarted = performance.now();
  const withMesh = await createHumanFaceEngine();
  const loadMs = Math.round(performance.now() - loadStarted);
  const detectorOnly = await createHumanFaceEngine({ mesh: false });
  try {
    const templates: Record<string, unknown> = {};
    for (const template of DEMO_TEMPLATES) {
      const dir = mkdtempSync(path.join(scratch, 'template-'));
      const rendered = await renderDemo(template, tools, dir);
      const list = frames(rendered.video, 5);
      await withMesh.detect(list[0]!); // the first calls set up the kernels
      await detectorOnly.detect(list[0]!);
      templates[template.title] = { mesh: await run(withMesh, list), detectorOnly: await run(detectorOnly, list) };
    }
    return { loadMs, resolution: `${WIDTH}x${HEIGHT}`, templates };
  } finally {
    await withMesh.close();
    await detectorOnly.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
