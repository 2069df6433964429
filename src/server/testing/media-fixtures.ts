// Real media for the API tests, generated with ffmpeg in a temporary folder at test time (never committed).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ffmpegBinary } from '../media/ffmpeg';

const dir = mkdtempSync(path.join(tmpdir(), 'familystar-fixtures-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const cache = new Map<string, Buffer>();

function generate(name: string, args: string[]): Buffer {
  const cached = cache.get(name);
  if (cached) return cached;
  const file = path.join(dir, name);
  execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', ...args, file]);
  const bytes = readFileSync(file);
  cache.set(name, bytes);
  return bytes;
}

export const fixtures = {
  /** 640x480 JPEG test card. */
  jpeg: () => generate('face.jpg', ['-f', 'lavfi', '-i', 'testsrc=size=640x480', '-frames:v', '1']),
  png: () => generate('face.png', ['-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1']),
  /** A 220 Hz tone of `seconds` as Opus in WebM (what Chrome's MediaRecorder writes). */
  webmTone: (seconds: number) =>
    generate(`tone-${seconds}.webm`, ['-f', 'lavfi', '-i', `sine=frequency=220:duration=${seconds}`, '-c:a', 'libopus', '-b:a', '32k']),
  wavTone: (seconds: number) =>
    generate(`tone-${seconds}.wav`, ['-f', 'lavfi', '-i', `sine=frequency=220:duration=${seconds}`, '-ar', '16000']),
  /** 2 s 320x240 H.264 MP4. */
  mp4: () =>
    generate('clip.mp4', ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast']),
};

export function dataUrl(bytes: Buffer | string, mime: string): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** Every file under a folder (relative paths), for "nothing left on disk" checks. */
export function filesUnder(folder: string): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    let entries: string[];
    try {
      entries = readdirSync(current);
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry);
      if (statSync(full).isDirectory()) walk(full);
      else found.push(path.relative(folder, full));
    }
  };
  walk(folder);
  return found.sort();
}
