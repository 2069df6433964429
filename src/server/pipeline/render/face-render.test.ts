// The face stage on a short generated template: the astronaut portrait (the "actor"), zoomed and moved
// with ffmpeg, and a person from a different real photo (the largest face of @vladmandic/face-api's
// sample5.jpg; tests only). Checked with the engine's own identity embedding on sampled output frames:
// closer to the person, further from the actor, than the template's frames; and the same frames.
import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAZE_ASIDE, isEyesClosed } from '../../../shared/face-analysis';
import { ffmpegBinary, ffprobeBinary, runProcess } from '../../media/ffmpeg';
import { beardedMan } from '../../testing/bearded-face';
import { withGlasses } from '../../testing/glasses-face';
import { PORTRAIT, TALKING_MAN, fixtures } from '../../testing/media-fixtures';
import { type AnalysedFace, type FaceEngine, type Frame, cosineSimilarity, createHumanFaceEngine, lumaAt, mouthOpening } from '../face-engine';
import { actorTrackFile } from './actor-track';
import { eyeGaze } from './eye-blink';
import { keptFaceFile } from './kept-face';
import { mouthLook } from './face-choice';
import { ALIGNMENT_POINTS, BROWS, CHIN, EYE_CONTOURS, FACE_OVAL, FOREHEAD, LEFT_EYE_CORNERS, LOWER_INNER_LIP, OUTER_LIPS, UPPER_INNER_LIP, RIGHT_EYE_CORNERS, applySimilarity, fitSimilarity, grownHull, insidePolygon, pick } from './landmarks';
import { fineDetail } from './face-sharpness';
import { fillPolygon } from './planes';
import { loadPersonFace } from './person-face';
import { renderFace, type RenderReport } from './face-render';
import { probeTemplate } from './video-pipes';

const SAMPLES = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo');
const PERSON_PHOTO = path.join(SAMPLES, 'sample5.jpg');
const WIDTH = 640;
const HEIGHT = 360;
const FPS = 10;
const FRAMES = 25;
const EVERY = 4;

const largest = <F extends { box: AnalysedFace['box'] }>(faces: F[]) => [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];

/** Y, U − 128 and V − 128 (Y′CbCr, BT.601) over 5×5 patches at `points` of an RGB frame. */
function colourAt(frame: Frame, points: number[][]): number[] {
  let [luma, blue, red] = [0, 0, 0];
  for (const [x, y] of points) {
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const at = ((Math.round(y!) + dy) * frame.width + Math.round(x!) + dx) * 3;
        const [r, g, b] = [frame.data[at]!, frame.data[at + 1]!, frame.data[at + 2]!];
        luma += 16 + 0.257 * r + 0.504 * g + 0.098 * b;
        blue += -0.148 * r - 0.291 * g + 0.439 * b;
        red += 0.439 * r - 0.368 * g - 0.071 * b;
      }
    }
  }
  return [luma, blue, red].map((sum) => sum / (25 * points.length));
}

async function picture(file: string): Promise<Frame> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Every `every`-th frame of a video as RGB (the generated template's size unless given). */
async function sampledFrames(file: string, { every = EVERY, width = WIDTH, height = HEIGHT } = {}): Promise<Frame[]> {
  const { stdout } = await runProcess(
    ffmpegBinary(),
    ['-v', 'error', '-i', file, '-vf', `select='not(mod(n\\,${every}))'`, '-vsync', '0', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 128 * 1024 * 1024, timeout: 30_000 },
  );
  const size = width * height * 3;
  return Array.from({ length: Math.floor(stdout.length / size) }, (_, i) => ({ data: stdout.subarray(i * size, (i + 1) * size), width, height }));
}

/** One frame of a 480×480 video as RGB (the shared talking clips). */
async function frameAtOf(file: string, index: number): Promise<Frame> {
  const { stdout } = await runProcess(
    ffmpegBinary(),
    ['-v', 'error', '-i', file, '-vf', `select='eq(n\\,${index})'`, '-vsync', '0', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 8 * 1024 * 1024, timeout: 30_000 },
  );
  return { data: stdout, width: 480, height: 480 };
}

describe('renderFace', () => {
  let engine: FaceEngine;
  let scratch: string;
  let template: string;
  let output: string;
  let report: RenderReport;
  const progress: number[] = [];

  beforeAll(async () => {
    engine = await createHumanFaceEngine({ maxFaces: 3 });
    scratch = await mkdtemp(path.join(tmpdir(), 'familystar-render-'));
    template = path.join(scratch, 'template.mp4');
    output = path.join(scratch, 'output.mp4');
    // The portrait cut to 16:9 (her face near (560, 300) of 1280×720), zooming and swaying: 2.5 s at 10 fps.
    const motion = `zoompan=z='1.1+0.15*sin(on/12)':x='560-iw/zoom/2+30*sin(on/7)':y='300-ih/zoom/2':d=1:s=${WIDTH}x${HEIGHT}:fps=${FPS}`;
    await runProcess(
      ffmpegBinary(),
      ['-v', 'error', '-y', '-loop', '1', '-i', PORTRAIT, '-vf', `scale=1280:1280,crop=1280:720:0:0,${motion}`, '-frames:v', String(FRAMES),
        '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', template],
      { timeout: 30_000 },
    );
    report = await renderFace({ template, personFace: PERSON_PHOTO, output, engine, onProgress: (fraction) => progress.push(fraction) });
  });
  afterAll(async () => {
    await engine?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** A still of the real talking woman (../shared/media) at `seconds`, as a JPEG in the scratch folder. */
  async function still(seconds: number, name: string): Promise<string> {
    const woman = path.resolve(import.meta.dirname, '../../../../../shared/media/talking-woman.mp4');
    const file = path.join(scratch, name);
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-ss', String(seconds), '-i', woman, '-frames:v', '1', '-q:v', '2', file], { timeout: 30_000 });
    return file;
  }

  it('keeps the template’s frames, frame rate and duration, and reports what it did', async () => {
    const [before, after] = await Promise.all([probeTemplate(template), probeTemplate(output)]);
    expect(after.width).toBe(WIDTH);
    expect(after.height).toBe(HEIGHT);
    expect(after.fps).toBeCloseTo(FPS, 3);
    expect(Math.abs(after.frames - before.frames)).toBeLessThanOrEqual(1);
    expect(Math.abs(after.duration - before.duration)).toBeLessThanOrEqual(1 / FPS + 1e-3);
    expect(report.frames).toBe(FRAMES);
    expect(report.framesWithFace).toBe(FRAMES);
    expect(report.framesReplaced).toBe(FRAMES);
    // Full detection once (and on a loss), the mesh tracked on a crop in between.
    expect(report.tracking.cropTracks).toBeGreaterThan(FRAMES / 2);
    expect(report.notes.join(' ')).toMatch(/largest was used/); // sample5 shows several people
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('puts the person’s identity on the actor’s face (faceres embeddings of sampled frames)', async () => {
    const person = largest(await engine.analyse(await picture(PERSON_PHOTO), { maxFaces: 10 }))!;
    const actor = largest(await engine.analyse(await picture(PORTRAIT)))!;
    const measure = async (file: string) => {
      const rows: { toPerson: number; toActor: number }[] = [];
      for (const frame of await sampledFrames(file)) {
        const face = largest(await engine.analyse(frame, { maxFaces: 1 }));
        if (face) rows.push({ toPerson: cosineSimilarity(face.embedding, person.embedding), toActor: cosineSimilarity(face.embedding, actor.embedding) });
      }
      const mean = (key: 'toPerson' | 'toActor') => rows.reduce((sum, row) => sum + row[key], 0) / rows.length;
      return { rows, toPerson: mean('toPerson'), toActor: mean('toActor'), closerToPerson: rows.filter((row) => row.toPerson > row.toActor).length };
    };
    const before = await measure(template);
    const after = await measure(output);
    expect(before.rows.length).toBeGreaterThanOrEqual(6);
    expect(after.rows.length).toBeGreaterThanOrEqual(6);
    expect(before.closerToPerson).toBe(0);
    expect(after.toPerson).toBeGreaterThan(before.toPerson + 0.2);
    expect(after.toActor).toBeLessThan(before.toActor - 0.2);
    expect(after.closerToPerson / after.rows.length).toBeGreaterThanOrEqual(0.9);
  });

  it('gives a still template a still face, through the actor’s full detections too', async () => {
    // The portrait held still for 45 frames at 25 fps: the actor is detected in full at frames 0 and 30
    // (TRACKING.redetectEvery), tracked on crops in between. The template's decoded frames are identical.
    const still = path.join(scratch, 'still.mp4');
    const stillOutput = path.join(scratch, 'still-output.mp4');
    await runProcess(
      ffmpegBinary(),
      ['-v', 'error', '-y', '-loop', '1', '-i', PORTRAIT, '-vf', `scale=1280:1280,crop=1280:720:0:0,scale=${WIDTH}:${HEIGHT}`, '-r', '25', '-frames:v', '45',
        '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', still],
      { timeout: 30_000 },
    );
    await renderFace({ template: still, personFace: PERSON_PHOTO, output: stillOutput, engine });
    const lumaFrames = async (file: string) => {
      const { stdout } = await runProcess(ffmpegBinary(), ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 30_000 });
      return Array.from({ length: Math.floor(stdout.length / (WIDTH * HEIGHT)) }, (_, i) => stdout.subarray(i * WIDTH * HEIGHT, (i + 1) * WIDTH * HEIGHT));
    };
    const [before, after] = [await lumaFrames(still), await lumaFrames(stillOutput)];
    // The face's box, found on the output's first frame.
    const { stdout: firstFrame } = await runProcess(ffmpegBinary(), ['-v', 'error', '-i', stillOutput, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', maxBuffer: 8 * 1024 * 1024, timeout: 30_000 });
    const [x0, y0, w, h] = largest(await engine.detect({ data: firstFrame, width: WIDTH, height: HEIGHT }))!.box.map(Math.round) as [number, number, number, number];
    /** Mean absolute change of the face's box between two frames, in grey levels. */
    const change = (a: Uint8Array, b: Uint8Array) => {
      let sum = 0;
      for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) sum += Math.abs(a[y * WIDTH + x]! - b[y * WIDTH + x]!);
      return sum / (w * h);
    };
    expect(after).toHaveLength(45);
    const steps = (frames: Uint8Array[]) => frames.slice(1).map((frame, i) => change(frame, frames[i]!));
    expect(Math.max(...steps(before))).toBe(0);
    // Before the detection's mesh was settled on the tracking crop, the face moved 0.1-0.4 grey levels a
    // frame for ten frames after each detection, and 1.7 between the first frame and the last.
    expect(Math.max(...steps(after))).toBeLessThan(0.08);
    expect(change(after[0]!, after.at(-1)!)).toBeLessThan(0.4);
  });

  it('renders a template filmed on a phone (stored sideways, turned on playback) upright, at the size it is shown', async () => {
    // The generated template stored sideways (360×640) with the rotation phones write, which players apply.
    const sideways = path.join(scratch, 'sideways.mp4');
    const turned = path.join(scratch, 'turned.mp4');
    const turnedOutput = path.join(scratch, 'turned-output.mp4');
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-i', template, '-vf', 'transpose=cclock', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', sideways], { timeout: 30_000 });
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-i', sideways, '-c', 'copy', '-metadata:s:v:0', 'rotate=270', turned], { timeout: 30_000 });
    const shown = await probeTemplate(turned);
    expect([shown.width, shown.height]).toEqual([WIDTH, HEIGHT]);
    const turnedReport = await renderFace({ template: turned, personFace: PERSON_PHOTO, output: turnedOutput, engine });
    expect(turnedReport.framesReplaced).toBe(FRAMES);
    // Written upright with no rotation left to apply: its frames are the upright template's, the face replaced.
    const written = await probeTemplate(turnedOutput);
    expect([written.width, written.height]).toEqual([WIDTH, HEIGHT]);
    const [templateFrames, uprightOutput, turnedOutputFrames] = await Promise.all([sampledFrames(template), sampledFrames(output), sampledFrames(turnedOutput)]);
    const person = largest(await engine.analyse(await picture(PERSON_PHOTO), { maxFaces: 10 }))!;
    const toPerson = async (frame: Frame) => cosineSimilarity(largest(await engine.analyse(frame, { maxFaces: 1 }))!.embedding, person.embedding);
    const turnedToPerson = await toPerson(turnedOutputFrames[2]!);
    expect(turnedToPerson).toBeGreaterThan((await toPerson(templateFrames[2]!)) + 0.2);
    expect(Math.abs(turnedToPerson - (await toPerson(uprightOutput[2]!)))).toBeLessThan(0.1);
  });

  it('renders an anamorphic template (stored narrow, its pixels wide, as a widescreen DVD’s) at the shape it is shown', async () => {
    // The generated template stored 480 wide with pixels 4:3 wide (players show it 640×360), as a DVD's
    // 720×480 holds a 16:9 picture.
    const narrow = path.join(scratch, 'anamorphic.mp4');
    const narrowOutput = path.join(scratch, 'anamorphic-output.mp4');
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-i', template, '-vf', `scale=${(WIDTH * 3) / 4}:${HEIGHT},setsar=4/3`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', narrow], { timeout: 30_000 });
    expect(await probeTemplate(narrow)).toMatchObject({ width: WIDTH, height: HEIGHT });
    const narrowReport = await renderFace({ template: narrow, personFace: PERSON_PHOTO, output: narrowOutput, engine });
    expect(narrowReport.framesReplaced).toBe(FRAMES);
    // Written with square pixels at the shown size: the picture is the template's, not squeezed, the face replaced.
    const { stdout } = await runProcess(ffprobeBinary(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,sample_aspect_ratio', '-of', 'json', narrowOutput], { timeout: 30_000 });
    const written = (JSON.parse(stdout) as { streams: { width: number; height: number; sample_aspect_ratio?: string }[] }).streams[0]!;
    expect([written.width, written.height, written.sample_aspect_ratio ?? '1:1']).toEqual([WIDTH, HEIGHT, '1:1']);
    const [templateFrames, narrowOutputFrames] = await Promise.all([sampledFrames(template), sampledFrames(narrowOutput)]);
    // The frame's lower fifth (away from the face) as in the template, within what two encodes and a
    // squeeze and stretch leave.
    const lowerFifth = (frame: Frame) => frame.data.subarray(frame.width * Math.round(frame.height * 0.8) * 3);
    const [before, after] = [lowerFifth(templateFrames[2]!), lowerFifth(narrowOutputFrames[2]!)];
    expect(after.reduce((sum, value, i) => sum + Math.abs(value - before[i]!), 0) / after.length).toBeLessThan(4);
    const person = largest(await engine.analyse(await picture(PERSON_PHOTO), { maxFaces: 10 }))!;
    const toPerson = async (frame: Frame) => cosineSimilarity(largest(await engine.analyse(frame, { maxFaces: 1 }))!.embedding, person.embedding);
    expect(await toPerson(narrowOutputFrames[2]!)).toBeGreaterThan((await toPerson(templateFrames[2]!)) + 0.2);
  });

  it('renders a template filmed in HDR (an iPhone’s HLG) in its real colours', async () => {
    const hlg = path.join(scratch, 'hlg.mov');
    const hlgOutput = path.join(scratch, 'hlg-out.mp4');
    await runProcess(
      ffmpegBinary(),
      ['-v', 'error', '-y', '-i', template, '-vf', 'zscale=t=arib-std-b67:m=bt2020nc:p=bt2020:tin=bt709:min=bt709:pin=bt709:r=tv,format=yuv420p10le',
        '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:log-level=error', '-tag:v', 'hvc1', hlg],
      { timeout: 60_000 },
    );

    expect(await probeTemplate(hlg)).toMatchObject({ hdr: true });
    const hlgReport = await renderFace({ template: hlg, personFace: PERSON_PHOTO, output: hlgOutput, engine });
    expect(hlgReport.framesReplaced).toBe(FRAMES);
    // The frame's lower fifth, away from the face, in the ordinary template's colours (to 0.4; the HLG signal
    // read as ordinary video was 34-47 darker in each channel).
    const meanColour = (frames: Frame[]) => {
      const sum = [0, 0, 0];
      let count = 0;
      for (const frame of frames) {
        for (let at = frame.width * Math.round(frame.height * 0.8) * 3; at < frame.data.length; at += 3) for (const c of [0, 1, 2]) sum[c]! += frame.data[at + c]!;
        count += frame.width * (frame.height - Math.round(frame.height * 0.8));
      }
      return sum.map((value) => value / count);
    };
    const [ordinary, rendered] = [meanColour(await sampledFrames(template)), meanColour(await sampledFrames(hlgOutput))];
    for (const c of [0, 1, 2]) expect(Math.abs(rendered[c]! - ordinary[c]!), `channel ${c}`).toBeLessThan(8);
  });

  it('keeps a template of variable frame rate (a phone in dim light) in time with its sound', async () => {
    // The real talking woman's first 4 s with every other frame of the first 2 s dropped, the timestamps
    // kept (15 frames a second, then 30), and her voice.
    const woman = path.resolve(import.meta.dirname, '../../../../../shared/media/talking-woman.mp4');
    const variable = path.join(scratch, 'variable-rate.mp4');
    const variableOutput = path.join(scratch, 'variable-rate-out.mp4');
    await runProcess(
      ffmpegBinary(),
      ['-v', 'error', '-y', '-i', woman, '-t', '4', '-vf', "select='if(lt(t,2),not(mod(n,2)),1)'", '-vsync', 'vfr', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', variable],
      { timeout: 30_000 },
    );
    expect(await probeTemplate(variable)).toMatchObject({ variableRate: true });
    await renderFace({ template: variable, personFace: PERSON_PHOTO, output: variableOutput, engine });
    /** Both videos as grey frames at 30 a second (ffmpeg's fps filter: each frame shown at its own time). */
    const at30 = async (file: string) => {
      const { stdout } = await runProcess(ffmpegBinary(), ['-v', 'error', '-i', file, '-vf', 'fps=30', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { encoding: 'buffer', maxBuffer: 1 << 28, timeout: 30_000 });
      return Array.from({ length: Math.floor(stdout.length / (512 * 512)) }, (_, i) => stdout.subarray(i * 512 * 512, (i + 1) * 512 * 512));
    };
    const [before, after] = [await at30(variable), await at30(variableOutput)];
    /** Mean difference of two frames away from her face (the middle 250 × 300 left out): her hair, shoulders, the wall. */
    const difference = (a: Uint8Array, b: Uint8Array) => {
      let sum = 0;
      let count = 0;
      for (let y = 0; y < 512; y += 2) {
        for (let x = 0; x < 512; x += 2) {
          if (x > 130 && x < 380 && y > 100 && y < 400) continue;
          sum += Math.abs(a[y * 512 + x]! - b[y * 512 + x]!);
          count++;
        }
      }
      return sum / count;
    };
    // The moment of the template each output frame shows, within 0.8 s of it, is its own to 0.1 s (0.03-0.07:
    // 15 frames a second shown at the average 22.5), while she turns her head in the first 2 s. Written at a
    // constant rate frame for frame, it ran 0.23-0.6 s ahead of its sound.
    for (const seconds of [0.6, 1.2, 1.8, 3]) {
      const index = Math.round(seconds * 30);
      const candidates = before.map((frame, k) => ({ k, difference: difference(frame, after[index]!) })).filter(({ k }) => Math.abs(k - index) <= 24);
      const shown = candidates.sort((a, b) => a.difference - b.difference)[0]!.k / 30;
      expect(Math.abs(shown - seconds), `at ${seconds} s`).toBeLessThanOrEqual(0.1);
    }
  });

  it('replaces the largest of two faces, says so, and leaves the other as it was', async () => {
    // The portrait twice side by side: 360 px tall on the left, 240 px on the right; 1 s at 10 fps.
    const twoFaces = path.join(scratch, 'two-faces.mp4');
    const replaced = path.join(scratch, 'two-faces-out.mp4');
    await runProcess(
      ffmpegBinary(),
      ['-v', 'error', '-y', '-loop', '1', '-i', PORTRAIT, '-filter_complex',
        '[0:v]split[a][b];[a]scale=360:360[big];[b]scale=240:240,pad=280:360:20:60[small];[big][small]hstack,pad=640:360:0:0,fps=10',
        '-frames:v', '10', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', twoFaces],
      { timeout: 30_000 },
    );
    const twoReport = await renderFace({ template: twoFaces, personFace: PERSON_PHOTO, output: replaced, engine });
    expect(twoReport.mostFacesInTemplate).toBe(2);
    expect(twoReport.notes.join(' ')).toMatch(/2 faces at once: the largest was replaced/);
    expect(twoReport.framesReplaced).toBe(10);
    const [before] = await sampledFrames(twoFaces);
    const [after] = await sampledFrames(replaced);
    /** Mean absolute difference of the two frames in the box [x0, x1) × [y0, y1). */
    const change = (x0: number, x1: number, y0: number, y1: number) => {
      let sum = 0;
      for (let y = y0; y < y1; y++) for (let x = x0 * 3; x < x1 * 3; x++) sum += Math.abs(before!.data[y * WIDTH * 3 + x]! - after!.data[y * WIDTH * 3 + x]!);
      return sum / ((y1 - y0) * (x1 - x0) * 3);
    };
    // The portrait's face is at (225, 120) of 512², ~140 px: (158, 84) on the left, (485, 116) on the right.
    expect(change(118, 198, 44, 124)).toBeGreaterThan(10);
    expect(change(460, 510, 91, 141)).toBeLessThan(4); // the smaller face: only x264's noise
  });

  it('shows the actor’s real open mouth between the person’s lips (teeth and shade, not a flat fill)', async () => {
    // A real man opening his mouth wide (../shared/media, 480×480), the portrait as the person.
    const talking = path.resolve(import.meta.dirname, '../../../../../shared/media/talking-man.mp4');
    const rendered = path.join(scratch, 'talking-out.mp4');
    await renderFace({ template: talking, personFace: PORTRAIT, output: rendered, engine });
    /** Mean colour and brightness spread inside the inner lips, with the mouth's opening (share of face height). */
    const mouthOf = async (frame: Frame) => {
      const face = largest(await engine.detect(frame, { mesh: true }))!;
      const lips = [...pick(face.landmarks!, UPPER_INNER_LIP), ...pick(face.landmarks!, LOWER_INNER_LIP).reverse()];
      const rgb: number[][] = [];
      for (let y = 0; y < frame.height; y++) for (let x = 0; x < frame.width; x++) if (insidePolygon(lips, x + 0.5, y + 0.5)) rgb.push([...frame.data.subarray((y * frame.width + x) * 3, (y * frame.width + x) * 3 + 3)]);
      const mean = [0, 1, 2].map((c) => rgb.reduce((sum, p) => sum + p[c]!, 0) / rgb.length);
      const luma = rgb.map(([r, g, b]) => 0.299 * r! + 0.587 * g! + 0.114 * b!);
      const lumaMean = luma.reduce((sum, v) => sum + v, 0) / luma.length;
      return { opening: mouthOpening(face.landmarks!), pixels: rgb.length, mean, spread: Math.sqrt(luma.reduce((sum, v) => sum + (v - lumaMean) ** 2, 0) / luma.length) };
    };
    // The widest the actor opens (around frame 141 of 216).
    const candidates = await Promise.all([130, 135, 140, 145, 150].map(async (index) => ({ index, mouth: await mouthOf(await frameAtOf(talking, index)) })));
    const widest = candidates.sort((a, b) => b.mouth.opening - a.mouth.opening)[0]!;
    const actor = widest.mouth;
    const output = await mouthOf(await frameAtOf(rendered, widest.index));
    expect(actor.opening).toBeGreaterThan(0.1);
    // One open mouth, where the actor's is, filled with what the actor's holds.
    expect(output.opening).toBeGreaterThan(0.5 * actor.opening);
    expect(output.pixels).toBeGreaterThan(100);
    expect(output.spread).toBeGreaterThan(0.5 * actor.spread);
    for (const c of [0, 1, 2]) expect(Math.abs(output.mean[c]! - actor.mean[c]!), `channel ${c}`).toBeLessThan(35);
  }, 120_000);

  it.each([
    ['black-and-white', (photo: sharp.Sharp) => photo.greyscale()],
    // The classic sepia matrix: a brown whose strength follows the brightness.
    ['sepia', (photo: sharp.Sharp) => photo.recomb([[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]])],
  ] as const)('gives a %s photo’s lips the actor’s lips’ colour, not the skin’s', async (print, makePrint) => {
    // The real talking woman as a grandparent's old print, on the real talking man's first 2 s.
    const old = path.join(scratch, `${print}.jpg`);
    await makePrint(sharp(await still(0.3, 'colour.jpg'))).jpeg({ quality: 92 }).toFile(old);
    const talking = path.join(scratch, 'man-2s.mp4');
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-i', path.resolve(import.meta.dirname, '../../../../../shared/media/talking-man.mp4'), '-t', '2', '-an', '-c:v', 'copy', talking], { timeout: 30_000 });
    const rendered = path.join(scratch, `${print}-out.mp4`);
    await renderFace({ template: talking, personFace: old, output: rendered, engine });
    /** How much redder the lips are than the skin in a ring round them (V of Y′CbCr, BT.601). */
    const lipsOverSkin = async (frame: Frame) => {
      const face = largest(await engine.detect(frame, { mesh: true }))!;
      const outer = pick(face.landmarks!, OUTER_LIPS);
      const [lips, ringIn, ringOut] = [grownHull(outer, 1), grownHull(outer, 1.2), grownHull(outer, 1.6)];
      const opening = [...pick(face.landmarks!, UPPER_INNER_LIP), ...pick(face.landmarks!, LOWER_INNER_LIP).reverse()];
      const sums = { lips: [0, 0], ring: [0, 0] };
      for (let y = 0; y < frame.height; y++) {
        for (let x = 0; x < frame.width; x++) {
          const at = (y * frame.width + x) * 3;
          const v = 0.5 * frame.data[at]! - 0.418688 * frame.data[at + 1]! - 0.081312 * frame.data[at + 2]!;
          const sum = insidePolygon(lips, x + 0.5, y + 0.5) ? (insidePolygon(opening, x + 0.5, y + 0.5) ? undefined : sums.lips) : insidePolygon(ringOut, x + 0.5, y + 0.5) && !insidePolygon(ringIn, x + 0.5, y + 0.5) ? sums.ring : undefined;
          if (sum) [sum[0], sum[1]] = [sum[0]! + v, sum[1]! + 1];
        }
      }
      return sums.lips[0]! / sums.lips[1]! - sums.ring[0]! / sums.ring[1]!;
    };
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const measure = async (file: string) => mean(await Promise.all((await sampledFrames(file, { every: 15, width: 480, height: 480 })).map(lipsOverSkin)));
    const [actor, output] = [await measure(talking), await measure(rendered)];
    // His lips are 6.8 redder than his skin. Hers were skin-coloured in the video before: black and white
    // 0.3, sepia 1.9 (the sepia photo taken for one in colour); now 4.1 and 5.8.
    expect(actor).toBeGreaterThan(4);
    expect(output, `lips over skin: ${output.toFixed(2)}, the actor's ${actor.toFixed(2)}`).toBeGreaterThan(0.4 * actor);
  }, 120_000);

  it('keeps a bearded person’s beard on the actor’s chin, dark and in its own colour', async ({ annotate }) => {
    // A beard of the talking man's own hair on his photo (testing/bearded-face.ts), on his clean-shaven first 2 s.
    const photo = path.join(scratch, 'bearded.png');
    await sharp(await beardedMan(engine)).toFile(photo);
    const talking = path.join(scratch, 'man-2s.mp4');
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-i', TALKING_MAN, '-t', '2', '-an', '-c:v', 'copy', talking], { timeout: 30_000 });
    const rendered = path.join(scratch, 'bearded-out.mp4');
    await renderFace({ template: talking, personFace: photo, output: rendered, engine });
    const CHIN_MIDDLE = [200, 199];
    const CHEEKS = [50, 280];
    const figures = async (frame: Frame) => {
      const face = largest(await engine.detect(frame, { mesh: true }));
      if (!face) return undefined;
      const points = face.landmarks!;
      const [chin, cheeks] = [colourAt(frame, pick(points, CHIN_MIDDLE)), colourAt(frame, pick(points, CHEEKS))];
      return { darkness: (chin[0]! - 16) / (cheeks[0]! - 16), u: chin[1]!, v: chin[2]! };
    };
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const inVideo = async (file: string) => {
      const measured = (await Promise.all((await sampledFrames(file, { every: 15, width: 480, height: 480 })).map(figures))).filter((found) => found !== undefined);
      expect(measured.length).toBeGreaterThan(3);
      return { darkness: mean(measured.map((m) => m.darkness)), u: mean(measured.map((m) => m.u)), v: mean(measured.map((m) => m.v)) };
    };
    const [video, actor, own] = [await inVideo(rendered), await inVideo(talking), (await figures(await picture(photo)))!];
    const described = (m: { darkness: number; u: number; v: number }) => `${m.darkness.toFixed(2)} of the cheeks' brightness, U ${m.u.toFixed(1)}, V ${m.v.toFixed(1)}`;
    annotate(`the chin's middle: in the video ${described(video)}; in the photo ${described(own)}; the actor's ${described(actor)}`);
    // Dark as a beard is, where the actor's chin is as bright as his cheeks; its colour the beard's, not his skin's.
    expect(video.darkness).toBeLessThan(0.6);
    expect(actor.darkness).toBeGreaterThan(0.9);
    expect(Math.hypot(video.u - own.u, video.v - own.v)).toBeLessThan(0.25 * Math.hypot(actor.u - own.u, actor.v - own.v));
  }, 120_000);

  it('keeps a person’s glasses whole on the actor, their arms out to the temples', async ({ annotate }) => {
    // Dark frames drawn on the talking man's photo (testing/glasses-face.ts), on his own first 2 s without them.
    const photo = path.join(scratch, 'glasses.png');
    await sharp(await withGlasses(engine, fixtures.manStill(2))).toFile(photo);
    const talking = path.join(scratch, 'man-2s.mp4');
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-i', TALKING_MAN, '-t', '2', '-an', '-c:v', 'copy', talking], { timeout: 30_000 });
    const rendered = path.join(scratch, 'glasses-out.mp4');
    await renderFace({ template: talking, personFace: photo, output: rendered, engine });
    // Where testing/glasses-face.ts draws the bridge and each arm, by the frame's own mesh: between the eyes
    // and 1.1 eye widths out from each eye's centre, the darkest of the places from the eye line to 0.45 eye
    // widths above it (a frame is a thin line; the actor's skin there is bare, below his brows).
    const darkness = async (frame: Frame) => {
      const face = largest(await engine.detect(frame, { mesh: true }));
      if (!face) return undefined;
      const points = face.landmarks!;
      const [left, right] = [LEFT_EYE_CORNERS, RIGHT_EYE_CORNERS].map(([a, b]) => [(points[a]![0]! + points[b]![0]!) / 2, (points[a]![1]! + points[b]![1]!) / 2] as const);
      const [outer, inner] = [points[LEFT_EYE_CORNERS[0]]!, points[LEFT_EYE_CORNERS[1]]!];
      const eyeWidth = Math.hypot(inner[0]! - outer[0]!, inner[1]! - outer[1]!);
      const apart = Math.hypot(right![0] - left![0], right![1] - left![1]);
      const [ux, uy] = [(right![0] - left![0]) / apart, (right![1] - left![1]) / apart];
      const cheeks = colourAt(frame, pick(points, [50, 280]))[0]! - 16;
      const darkest = ([x, y]: readonly [number, number], along: number) => {
        const ups = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45];
        return Math.min(...ups.map((up) => (colourAt(frame, [[x + (along * ux + up * uy) * eyeWidth, y + (along * uy - up * ux) * eyeWidth]])[0]! - 16) / cheeks));
      };
      const middle = [(left![0] + right![0]) / 2, (left![1] + right![1]) / 2] as const;
      return { bridge: darkest(middle, 0), arms: Math.max(darkest(left!, -1.1), darkest(right!, 1.1)) };
    };
    const inVideo = async (file: string) => {
      const measured = (await Promise.all((await sampledFrames(file, { every: 15, width: 480, height: 480 })).map(darkness))).filter((found) => found !== undefined);
      expect(measured.length).toBeGreaterThan(3);
      return { bridge: Math.max(...measured.map((m) => m.bridge)), arms: Math.max(...measured.map((m) => m.arms)) };
    };
    const [video, actor] = [await inVideo(rendered), await inVideo(talking)];
    annotate(`the frames' darkest, of the cheeks' brightness, on the lightest frame sampled: the bridge ${video.bridge.toFixed(2)} in the video (${actor.bridge.toFixed(2)} the actor's), the arms ${video.arms.toFixed(2)} (${actor.arms.toFixed(2)})`);
    // Dark on every sampled frame, where the actor's own skin is nearly as bright as his cheeks.
    expect(actor.bridge).toBeGreaterThan(0.75);
    expect(actor.arms).toBeGreaterThan(0.75);
    expect(video.bridge).toBeLessThan(0.45);
    expect(video.arms).toBeLessThan(0.45);
  }, 120_000);

  it('uses the person’s own images by what the actor’s mouth does: their grin when the actor grins', async () => {
    // The person: a real woman from ../shared/media, at rest (0.3 s) and grinning with her teeth (1.1 s).
    const [rest, grin] = [await still(0.3, 'woman-rest.jpg'), await still(1.1, 'woman-grin.jpg')];
    expect(mouthLook(largest(await engine.detect(await picture(grin), { mesh: true }))!.landmarks!).opening).toBeGreaterThan(
      mouthLook(largest(await engine.detect(await picture(rest), { mesh: true }))!.landmarks!).opening + 0.02,
    );
    const talking = path.resolve(import.meta.dirname, '../../../../../shared/media/talking-man.mp4');
    const report = await renderFace({ template: talking, personFace: rest, otherFaces: [grin], output: path.join(scratch, 'collection-out.mp4'), engine });
    const used = /2 images of the person were used: image 1 in (\d+) frames, image 2 in (\d+) frames/.exec(report.notes.join('; '));
    expect(used, report.notes.join('; ')).not.toBeNull();
    const [atRest, grinning] = [Number(used![1]), Number(used![2])];
    // He speaks, opens wide and grins: her grin shows in part of the video, her resting face in the rest.
    expect(grinning).toBeGreaterThan(0);
    expect(atRest).toBeGreaterThan(grinning);
    expect(atRest + grinning).toBe(report.framesWithFace);

    // Her grin lends only the mouth and jaw: against a render from the resting image alone, the eyes are the
    // same in every frame (the grin's crop may look elsewhere), the mouth differs where the grin shows.
    await renderFace({ template: talking, personFace: rest, output: path.join(scratch, 'anchor-out.mp4'), engine });
    const everyFourth = async (file: string) => {
      const { stdout } = await runProcess(ffmpegBinary(), ['-v', 'error', '-i', file, '-vf', "select='not(mod(n\\,4))'", '-vsync', '0', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], {
        encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 60_000,
      });
      return stdout;
    };
    const [withGrin, anchorOnly] = await Promise.all([everyFourth(path.join(scratch, 'collection-out.mp4')), everyFourth(path.join(scratch, 'anchor-out.mp4'))]);
    // The actor's eyes and mouth in the first frame (he hardly moves his head): boxes around the mesh points.
    const actorFace = largest(await engine.detect(await frameAtOf(talking, 0), { mesh: true }))!.landmarks!;
    const box = (indices: number[]) => {
      const xs = indices.map((i) => actorFace[i]![0]!);
      const ys = indices.map((i) => actorFace[i]![1]!);
      return [Math.floor(Math.min(...xs)) - 6, Math.floor(Math.min(...ys)) - 6, Math.ceil(Math.max(...xs)) + 6, Math.ceil(Math.max(...ys)) + 6];
    };
    const eyes = box([33, 133, 159, 145, 362, 263, 386, 374]);
    const lips = box([61, 291, 13, 14, 17, 0]);
    const difference = (frame: number, [x0, y0, x1, y1]: number[]) => {
      let sum = 0;
      for (let y = y0!; y < y1!; y++) for (let x = x0!; x < x1!; x++) sum += Math.abs(withGrin[frame * 480 * 480 + y * 480 + x]! - anchorOnly[frame * 480 * 480 + y * 480 + x]!);
      return sum / ((x1! - x0!) * (y1! - y0!));
    };
    const frames = Math.min(withGrin.length, anchorOnly.length) / (480 * 480);
    const eyeDifference = Math.max(...Array.from({ length: frames }, (_, i) => difference(i, eyes)));
    const mouthDifference = Math.max(...Array.from({ length: frames }, (_, i) => difference(i, lips)));
    // (The encoder's own noise moves a few grey levels anywhere in the picture.)
    expect(eyeDifference, `eyes ${eyeDifference}, mouth ${mouthDifference}`).toBeLessThan(3);
    expect(mouthDifference).toBeGreaterThan(4 * eyeDifference);
  }, 240_000);

  it('gives a blink caught in the chosen image the open eyes of another image of the person', async ({ annotate }) => {
    // The chosen image: the real talking woman mid-blink (0.58 s); her other image: her at rest (0.3 s), eyes open.
    const [blink, open] = [await still(0.58, 'woman-blink.jpg'), await still(0.3, 'woman-open.jpg')];
    const eyesOf = async (frame: Frame) => largest(await engine.analyse(frame))!.eyeOpening;
    expect(isEyesClosed(await eyesOf(await picture(blink)))).toBe(true);
    expect(isEyesClosed(await eyesOf(await picture(open)))).toBe(false);

    const lent = await renderFace({ template, personFace: blink, otherFaces: [open], output: path.join(scratch, 'blink-lent.mp4'), engine });
    expect(lent.notes).toContain("the person's eyes are shut in the chosen image: image 2 lent its open eyes");
    expect(lent.eyesLent).toBe(true);
    const alone = await renderFace({ template, personFace: blink, output: path.join(scratch, 'blink-alone.mp4'), engine });
    expect(alone.notes).toContain("the person's eyes are shut in the chosen image, and no other image of theirs has them open");
    expect(alone.eyesLent).toBe(false);
    // The output's eyes, as the analysis reads them on sampled frames: open with the lent eyes, shut without.
    const meanEyes = async (file: string) => {
      const openings = [];
      for (const frame of await sampledFrames(file)) openings.push(await eyesOf(frame));
      return openings.reduce((sum, value) => sum + value, 0) / openings.length;
    };
    const [withLent, withoutLent] = [await meanEyes(path.join(scratch, 'blink-lent.mp4')), await meanEyes(path.join(scratch, 'blink-alone.mp4'))];
    await annotate(`output's eye opening: ${withLent.toFixed(2)} with the lent eyes, ${withoutLent.toFixed(2)} without`);
    expect(isEyesClosed(withLent), `eyes ${withLent} with the lent eyes, ${withoutLent} without`).toBe(false);
    expect(isEyesClosed(withoutLent), `eyes ${withLent} with the lent eyes, ${withoutLent} without`).toBe(true);
    // Still her: closer to the person (her open image) than to the actor on the sampled frames.
    const person = largest(await engine.analyse(await picture(open)))!.embedding;
    const actor = largest(await engine.analyse((await sampledFrames(template))[0]!))!.embedding;
    for (const frame of await sampledFrames(path.join(scratch, 'blink-lent.mp4'))) {
      const face = largest(await engine.analyse(frame))!.embedding;
      expect(cosineSimilarity(face, person)).toBeGreaterThan(cosineSimilarity(face, actor));
    }
  }, 240_000);

  it('gives a chosen image whose eyes look aside the eyes of another image of the person that look ahead', async ({ annotate }) => {
    // The chosen image: the real talking woman glancing to the picture's right (2.7 s); her other image: her at the camera (0.3 s).
    const [aside, ahead] = [await still(2.7, 'woman-aside.jpg'), await still(0.3, 'woman-ahead.jpg')];
    const lent = await renderFace({ template, personFace: aside, otherFaces: [ahead], output: path.join(scratch, 'aside-lent.mp4'), engine });
    expect(lent.notes).toContain("the person's eyes look aside in the chosen image: image 2 lent eyes that look ahead");
    expect(lent.eyesAside).toBe(false);
    const alone = await renderFace({ template, personFace: aside, output: path.join(scratch, 'aside-alone.mp4'), engine });
    expect(alone.notes).toContain("the person's eyes look aside in the chosen image, and no other image of theirs looks ahead");
    expect(alone.eyesAside).toBe(true);
    // Where the output's eyes look on sampled frames (eyeGaze on the frame's own mesh).
    const meanGaze = async (file: string) => {
      const gazes: number[] = [];
      for (const frame of await sampledFrames(file)) {
        const face = largest(await engine.detect(frame, { mesh: true }));
        const gaze = face?.landmarks && eyeGaze(lumaAt(frame), frame.width, frame.height, face.landmarks);
        if (gaze !== undefined) gazes.push(gaze);
      }
      expect(gazes.length).toBeGreaterThanOrEqual(5);
      return gazes.reduce((sum, gaze) => sum + gaze, 0) / gazes.length;
    };
    const [withLent, withoutLent] = [await meanGaze(path.join(scratch, 'aside-lent.mp4')), await meanGaze(path.join(scratch, 'aside-alone.mp4'))];
    await annotate(`output's gaze (eye widths): ${withLent.toFixed(3)} with the lent eyes, ${withoutLent.toFixed(3)} without`);
    // Measured: 0.08 with the lent eyes (0.04 in her image at the camera), 0.21 without (0.21 in the chosen one).
    expect(withoutLent, `gaze ${withLent} with the lent eyes, ${withoutLent} without`).toBeGreaterThan(GAZE_ASIDE);
    expect(withLent, `gaze ${withLent} with the lent eyes, ${withoutLent} without`).toBeLessThan(withoutLent - 0.08);
  }, 240_000);

  it('turns the person’s eyes to look where the actor looks, and leaves them while the actor looks at the camera', async ({ annotate }) => {
    // The real talking woman from 1.5 s: at the camera, then glancing to the picture's left, its right and its
    // left again (eyeGaze on her track: −0.22, 0.22, −0.23 for half a second each); the person, her own
    // still at the camera (0.3 s).
    const talking = path.resolve(import.meta.dirname, '../../../../../shared/media/talking-woman.mp4');
    const clip = path.join(scratch, 'woman-glances.mp4');
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-ss', '1.5', '-i', talking, '-t', '2.2', '-an', '-c:v', 'libx264', '-preset', 'ultrafast', clip], { timeout: 30_000 });
    const ahead = await still(0.3, 'woman-at-camera.jpg');
    const [turned, kept] = [path.join(scratch, 'gaze-turned.mp4'), path.join(scratch, 'gaze-kept.mp4')];
    await renderFace({ template: clip, personFace: ahead, output: turned, engine });
    await renderFace({ template: clip, personFace: ahead, output: kept, engine, gaze: false });
    // Where the eyes look on every other frame of each video (eyeGaze on the frame's own mesh).
    const gazes = async (file: string) => {
      const found: (number | undefined)[] = [];
      for (const frame of await sampledFrames(file, { every: 2, width: 512, height: 512 })) {
        const face = largest(await engine.detect(frame, { mesh: true }));
        found.push(face?.landmarks && eyeGaze(lumaAt(frame), frame.width, frame.height, face.landmarks));
      }
      return found;
    };
    const [actor, withGaze, without] = [await gazes(clip), await gazes(turned), await gazes(kept)];
    const glancing = actor.flatMap((gaze, i) => (gaze !== undefined && Math.abs(gaze) > 0.15 && withGaze[i] !== undefined && without[i] !== undefined ? [i] : []));
    const atCamera = actor.flatMap((gaze, i) => (gaze !== undefined && Math.abs(gaze) < 0.05 && withGaze[i] !== undefined && without[i] !== undefined ? [i] : []));
    expect(glancing.length).toBeGreaterThanOrEqual(8);
    expect(atCamera.length).toBeGreaterThanOrEqual(5);
    const gap = (output: (number | undefined)[], frames: number[]) => frames.reduce((sum, i) => sum + Math.abs(output[i]! - actor[i]!), 0) / frames.length;
    const sameSide = glancing.filter((i) => Math.sign(withGaze[i]!) === Math.sign(actor[i]!)).length;
    await annotate(`while she glances (${glancing.length} frames): the output's gaze ${gap(withGaze, glancing).toFixed(3)} from hers, ${gap(without, glancing).toFixed(3)} without following; on her side in ${sameSide}`);
    expect(sameSide).toBeGreaterThanOrEqual(glancing.length - 1);
    expect(gap(withGaze, glancing)).toBeLessThan(gap(without, glancing) - 0.08);
    // At the camera the person's eyes are as their image has them.
    const moved = atCamera.reduce((sum, i) => sum + Math.abs(withGaze[i]! - without[i]!), 0) / atCamera.length;
    expect(moved).toBeLessThan(0.03);
  }, 180_000);

  /** The first two seconds of the real talking man (../shared/media), without sound. */
  async function talkingManClip(): Promise<string> {
    const talking = path.resolve(import.meta.dirname, '../../../../../shared/media/talking-man.mp4');
    const clip = path.join(scratch, 'man-2s.mp4');
    await runProcess(ffmpegBinary(), ['-v', 'error', '-y', '-i', talking, '-t', '2', '-an', '-c:v', 'libx264', '-preset', 'ultrafast', clip], { timeout: 30_000 });
    return clip;
  }

  it('gives the actor’s face the person’s shape: the output’s outline is the person’s, not the actor’s', async () => {
    // The talking man (a broad jaw) and sample6's smiling woman with her photo narrowed to three quarters of
    // its width (a narrow face), 2 s of him. As she is, turned frontal by her real turn (since the mesh's depth
    // is in pixels), her outline lies 0.048 from his and 0.030 from his pasted without the shape: too near for
    // the shape (0.023) to stand out of the measure's own spread.
    const clip = await talkingManClip();
    const photo = path.join(scratch, 'narrow-sample6.jpg');
    const original = await sharp(path.join(SAMPLES, 'sample6.jpg')).metadata();
    await sharp(path.join(SAMPLES, 'sample6.jpg')).resize(Math.round(original.width! * 0.75), original.height!, { fit: 'fill' }).jpeg({ quality: 95 }).toFile(photo);
    const [shaped, unshaped] = [path.join(scratch, 'shaped.mp4'), path.join(scratch, 'unshaped.mp4')];
    await renderFace({ template: clip, personFace: photo, output: shaped, engine });
    await renderFace({ template: clip, personFace: photo, output: unshaped, engine, shape: false });
    // How far a face's outline lies from the person's, once their eyes, noses and mouths are laid on each
    // other (the mesh the engine finds; mean distance over the outline, in shares of her face's height).
    const person = (await loadPersonFace(engine, photo)).landmarks;
    const personOutline = pick(person, FACE_OVAL);
    const height = Math.hypot(person[FOREHEAD]![0]! - person[CHIN]![0]!, person[FOREHEAD]![1]! - person[CHIN]![1]!);
    const offOutline = async (file: string) => {
      let total = 0;
      const frames = [5, 15, 25, 35, 45];
      for (const index of frames) {
        const landmarks = largest(await engine.detect(await frameAtOf(file, index), { mesh: true }))!.landmarks!;
        const onPerson = fitSimilarity(pick(landmarks, ALIGNMENT_POINTS), pick(person, ALIGNMENT_POINTS));
        const outline = pick(landmarks, FACE_OVAL).map((point) => applySimilarity(onPerson, point));
        total += outline.reduce((sum, [x, y], k) => sum + Math.hypot(x - personOutline[k]![0], y - personOutline[k]![1]), 0) / outline.length / height;
      }
      return total / frames.length;
    };
    const [actor, withShape, without] = [await offOutline(clip), await offOutline(shaped), await offOutline(unshaped)];
    expect(actor, 'his outline is not hers').toBeGreaterThan(0.045);
    // Measured: 0.065 for his own face, 0.050 pasted without the shape (the mesh finds her features inside
    // his outline), 0.016 with it.
    expect(withShape).toBeLessThan(0.6 * without);
    expect(withShape).toBeLessThan(0.5 * actor);
  }, 120_000);

  it('sharpens a soft photo to the actor’s fine detail: the pasted skin as detailed as his, not a smooth mask', async ({ annotate }) => {
    // face-api's sample4: her face is out of focus in a party photo; the talking man's clip is sharp and grainy.
    const clip = await talkingManClip();
    const photo = path.join(SAMPLES, 'sample4.jpg');
    const [sharpened, soft] = [path.join(scratch, 'sharpened.mp4'), path.join(scratch, 'soft.mp4')];
    const withIt = await renderFace({ template: clip, personFace: photo, output: sharpened, engine });
    const without = await renderFace({ template: clip, personFace: photo, output: soft, engine, sharpen: false });
    expect(withIt.sharpened[0]).toBeGreaterThan(0);
    expect(without.sharpened).toEqual([0]);
    // The skin's fine detail (face-sharpness.ts fineDetail) inside the face's outline without the eyes,
    // brows and lips, on the mesh the engine finds in each frame.
    const skinDetail = async (file: string) => {
      let total = 0;
      const frames = [5, 15, 25, 35, 45];
      for (const index of frames) {
        const frame = await frameAtOf(file, index);
        const landmarks = largest(await engine.detect(frame, { mesh: true }))!.landmarks!;
        const skin = new Float32Array(frame.width * frame.height);
        fillPolygon(skin, frame.width, frame.height, grownHull(pick(landmarks, FACE_OVAL), 0.85));
        const features = new Float32Array(skin.length);
        for (const feature of [...EYE_CONTOURS, ...BROWS, OUTER_LIPS]) fillPolygon(features, frame.width, frame.height, grownHull(pick(landmarks, feature), 1.3));
        const luma = Float32Array.from({ length: skin.length }, (_, i) => 0.299 * frame.data[3 * i]! + 0.587 * frame.data[3 * i + 1]! + 0.114 * frame.data[3 * i + 2]!);
        total += fineDetail(luma, frame.width, frame.height, Uint8Array.from(skin, (inside, i) => (inside === 1 && features[i] === 0 ? 1 : 0)));
      }
      return total / frames.length;
    };
    const [actor, detailed, smooth] = [await skinDetail(clip), await skinDetail(sharpened), await skinDetail(soft)];
    await annotate(`skin fine detail: template ${actor.toFixed(4)}, sharpened (amount ${withIt.sharpened[0]}) ${detailed.toFixed(4)}, left soft ${smooth.toFixed(4)}`);
    expect(smooth).toBeLessThan(0.8 * actor);
    expect(detailed).toBeGreaterThan(1.15 * smooth);
  }, 180_000);

  it('tracks a template’s actor once: later renders replay the recorded track and make the same video', async () => {
    const track = actorTrackFile(template);
    const tracked = path.join(scratch, 'tracked.mp4');
    const replayed = path.join(scratch, 'replayed.mp4');
    const first = await renderFace({ template, personFace: PERSON_PHOTO, output: tracked, engine, actorTrack: track });
    expect(first.tracking.recorded).toBe(false);
    expect((await stat(track)).size).toBeGreaterThan(FRAMES * 468 * 2 * 4);
    const second = await renderFace({ template, personFace: PERSON_PHOTO, output: replayed, engine, actorTrack: track });
    expect(second.tracking).toEqual({ ...first.tracking, recorded: true });
    expect(second.framesReplaced).toBe(FRAMES);
    // The same pictures (the track is kept as float32: a ten-thousandth of a pixel may round a few values).
    const [a, b] = await Promise.all([sampledFrames(tracked), sampledFrames(replayed)]);
    expect(b.length).toBe(a.length);
    a.forEach((frame, i) => {
      let total = 0;
      for (let k = 0; k < frame.data.length; k++) total += Math.abs(frame.data[k]! - b[i]!.data[k]!);
      expect(total / frame.data.length).toBeLessThan(0.2);
    });
    // Another template file under the same name (its time changed) is tracked afresh, and its track replaces the old.
    await utimes(template, new Date(), new Date(Date.now() + 5000));
    const third = await renderFace({ template, personFace: PERSON_PHOTO, output: replayed, engine, actorTrack: track });
    expect(third.tracking.recorded).toBe(false);
    expect((await renderFace({ template, personFace: PERSON_PHOTO, output: replayed, engine, actorTrack: track })).tracking.recorded).toBe(true);
  }, 120_000);

  it('keeps each image’s prepared face beside it: later renders read it and make the same video', async () => {
    const photo = path.join(scratch, 'kept-person.jpg');
    await copyFile(PERSON_PHOTO, photo);
    const [prepared, read] = [path.join(scratch, 'prepared.mp4'), path.join(scratch, 'read.mp4')];
    const actorTrack = actorTrackFile(template);
    const first = await renderFace({ template, personFace: photo, output: prepared, engine, actorTrack, keepFaces: true });
    expect(first.personFaces).toEqual({ kept: 0, prepared: 1 });
    expect((await stat(keptFaceFile(photo))).size).toBeGreaterThan(100_000);
    const second = await renderFace({ template, personFace: photo, output: read, engine, actorTrack, keepFaces: true });
    expect(second.personFaces).toEqual({ kept: 1, prepared: 0 });
    const [a, b] = await Promise.all([sampledFrames(prepared, { every: 1 }), sampledFrames(read, { every: 1 })]);
    expect(b.length).toBe(FRAMES);
    a.forEach((frame, i) => expect(Buffer.compare(frame.data, b[i]!.data), `frame ${i}`).toBe(0));
  }, 120_000);

  it('removes its output and says why when the person’s photo has no face', async () => {
    const blank = path.join(scratch, 'blank.png');
    await sharp({ create: { width: 320, height: 240, channels: 3, background: '#888' } }).png().toFile(blank);
    const failed = path.join(scratch, 'failed.mp4');
    await expect(renderFace({ template, personFace: blank, output: failed, engine })).rejects.toThrow(/no face was found in the person/);
    await expect(probeTemplate(failed)).rejects.toThrow();
  });

  it('stops when aborted and leaves no output', async () => {
    const controller = new AbortController();
    const aborted = path.join(scratch, 'aborted.mp4');
    const run = renderFace({ template, personFace: PERSON_PHOTO, output: aborted, engine, signal: controller.signal, onProgress: (f) => f > 0.2 && controller.abort() });
    await expect(run).rejects.toThrow();
    await expect(probeTemplate(aborted)).rejects.toThrow();
  });
});
