// Real, tiny media made with ffmpeg for API tests, and a multipart body builder for app.inject.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ffmpegBinary } from '../media/ffmpeg';

export interface TestMedia {
  /** 3 s, 160×120 H.264 + AAC MP4. */
  mp4: Buffer;
  /** 2 s VP8 WebM without audio. */
  webm: Buffer;
  /** An MP4 holding only audio. */
  audioOnlyMp4: Buffer;
  png: Buffer;
  jpeg: Buffer;
  cleanup(): void;
}

export function makeTestMedia(): TestMedia {
  const dir = mkdtempSync(path.join(tmpdir(), 'familystar-media-'));
  const ffmpeg = (...args: string[]) => execFileSync(ffmpegBinary(), ['-v', 'error', '-y', ...args]);
  const at = (name: string) => path.join(dir, name);
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-t', '3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', at('clip.mp4'));
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '2', '-c:v', 'libvpx', at('clip.webm'));
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '2', '-c:a', 'aac', '-f', 'mp4', at('audio.mp4'));
  ffmpeg('-f', 'lavfi', '-i', 'color=c=orange:s=64x36', '-frames:v', '1', at('thumb.png'));
  ffmpeg('-f', 'lavfi', '-i', 'color=c=blue:s=64x36', '-frames:v', '1', at('thumb.jpg'));
  const media = {
    mp4: readFileSync(at('clip.mp4')),
    webm: readFileSync(at('clip.webm')),
    audioOnlyMp4: readFileSync(at('audio.mp4')),
    png: readFileSync(at('thumb.png')),
    jpeg: readFileSync(at('thumb.jpg')),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  return media;
}

export type MultipartValue = string | { file: Buffer; filename: string; contentType?: string };

/** A multipart/form-data body and its content type, as a browser's FormData would send it. */
export function multipart(fields: Record<string, MultipartValue>): { body: Buffer; contentType: string } {
  const boundary = `----familystar${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n` +
            `Content-Type: ${value.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        value.file,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
