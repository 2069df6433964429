// Real media for the API tests, generated with ffmpeg in a temporary folder at test time (never
// committed), and the multipart body builder for uploads through app.inject.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { ffmpegBinary, ffprobeBinary } from '../media/ffmpeg';

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

/** The NASA portrait shipped with the app (assets/README.md): a real, public-domain face. */
export const PORTRAIT = fileURLToPath(new URL('../../../assets/astronaut.jpg', import.meta.url));

/** The real talking woman (../shared/media, beside the project: never copied into it). */
export const TALKING_WOMAN = fileURLToPath(new URL('../../../../shared/media/talking-woman.mp4', import.meta.url));
/** The real talking man, clean-shaven and silent (../shared/media). */
export const TALKING_MAN = fileURLToPath(new URL('../../../../shared/media/talking-man.mp4', import.meta.url));

/** ffmpeg filter: `seconds` of the portrait at 10 fps, 640x480, the face drifting and zooming slowly like a face before a camera. */
export const faceDrift = (seconds: number) =>
  `scale=1024:1024,zoompan=z='1.2+0.1*sin(on/15)':x='iw/2-(iw/zoom/2)+20*sin(on/9)':y='ih/2-(ih/zoom/2)':d=${seconds * 10}:s=640x480:fps=10`;

export const fixtures = {
  /** 640x480 JPEG of a real face (the portrait, letterboxed). */
  jpeg: () => generate('face.jpg', ['-i', PORTRAIT, '-vf', 'scale=480:480,pad=640:480:80:0', '-frames:v', '1']),
  /** 320x320 PNG of the same face. */
  png: () => generate('face.png', ['-i', PORTRAIT, '-vf', 'scale=320:320', '-frames:v', '1']),
  /** A still of the talking woman at `seconds` as a JPEG: at the camera at 0.3 s, mid-blink at 0.58, glancing to the picture's left at 1.8 and right at 2.7. */
  womanStill: (seconds: number) => generate(`woman-${seconds}.jpg`, ['-ss', String(seconds), '-i', TALKING_WOMAN, '-frames:v', '1', '-q:v', '2']),
  /** A still of the talking man at `seconds` as a JPEG (at the camera, his mouth closed at 2 s). */
  manStill: (seconds: number) => generate(`man-${seconds}.jpg`, ['-ss', String(seconds), '-i', TALKING_MAN, '-frames:v', '1', '-q:v', '2']),
  /** 640x480 JPEG test card: a picture with no face. */
  noFaceJpeg: () => generate('no-face.jpg', ['-f', 'lavfi', '-i', 'testsrc=size=640x480', '-frames:v', '1']),
  /**
   * A face training clip made from the portrait: `seconds` at 10 fps, 640x480, the face drifting and
   * zooming slowly (ffmpeg zoompan), H.264 MP4.
   */
  faceClip: (seconds = 4) =>
    generate(`face-clip-${seconds}.mp4`, ['-loop', '1', '-i', PORTRAIT, '-vf', faceDrift(seconds),
      '-t', String(seconds), '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast']),
  /**
   * A face training clip filmed from across the room by a small camera: 3 s of the talking woman at 100 pixels
   * in a 320x240 frame (her face about 80 pixels, under SMALL_FACE_PIXELS), H.264 MP4 without sound.
   */
  distantClip: () =>
    generate('distant-clip.mp4', ['-i', TALKING_WOMAN, '-t', '3', '-an', '-vf', 'scale=100:100,pad=320:240:110:70',
      '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast']),
  /**
   * A face training clip filmed on a phone held upright: 3 s of the talking woman cut to 360x512 (portrait),
   * stored sideways (512x360) with a rotation to apply when it plays, as phones store their clips; H.264 MP4
   * without sound. Throws when this ffmpeg did not write the rotation.
   */
  phoneClip: () => {
    generate('phone-sideways.mp4', ['-i', TALKING_WOMAN, '-t', '3', '-an', '-vf', 'crop=360:512:76:0,transpose=cclock',
      '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast']);
    const clip = generate('phone-clip.mp4', ['-i', path.join(dir, 'phone-sideways.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=270']);
    const stated = execFileSync(ffprobeBinary(), ['-v', 'error', '-select_streams', 'v', '-show_streams', path.join(dir, 'phone-clip.mp4')]).toString();
    if (!/rotat\w*=-?90|rotate=270/.test(stated)) throw new Error('ffmpeg wrote no rotation into the phone clip');
    return clip;
  },
  /**
   * A face training clip filmed in HDR, as iPhones film by default: 3 s of the talking woman turned into HLG
   * (BT.2020, 10-bit HEVC in a QuickTime file, tagged as such), without sound.
   */
  hlgClip: () =>
    generate('hlg-clip.mov', ['-i', TALKING_WOMAN, '-t', '3', '-an',
      '-vf', 'zscale=t=arib-std-b67:m=bt2020nc:p=bt2020:tin=bt709:min=bt709:pin=bt709:r=tv,format=yuv420p10le',
      '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:log-level=error', '-tag:v', 'hvc1']),
  /**
   * An anamorphic video, as a widescreen DVD stores its picture: 3 s of the talking woman squeezed to 360×480
   * with pixels 4:3 wide, so players show her 480×480, as she is.
   */
  anamorphicClip: () =>
    generate('anamorphic-clip.mp4', ['-i', TALKING_WOMAN, '-t', '3', '-an', '-vf', 'scale=360:480,setsar=4/3', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast']),
  /** A 220 Hz tone of `seconds` as Opus in WebM (what Chrome's MediaRecorder writes). */
  webmTone: (seconds: number) =>
    generate(`tone-${seconds}.webm`, ['-f', 'lavfi', '-i', `sine=frequency=220:duration=${seconds}`, '-c:a', 'libopus', '-b:a', '32k']),
  wavSilence: (seconds: number) => generate(`silence-${seconds}.wav`, ['-f', 'lavfi', '-i', `anullsrc=r=16000:cl=mono`, '-t', String(seconds)]),
  wavTone: (seconds: number) =>
    generate(`tone-${seconds}.wav`, ['-f', 'lavfi', '-i', `sine=frequency=220:duration=${seconds}`, '-ar', '16000']),
  /** 2 s 320x240 H.264 MP4. */
  mp4: () =>
    generate('clip.mp4', ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast']),
  /** 3 s 160x120 H.264 + AAC MP4 (a template with sound). */
  avMp4: () =>
    generate('av.mp4', ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=440',
      '-t', '3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart']),
  /** 2 s 160x120 VP8 WebM without audio. */
  vp8Webm: () => generate('clip.webm', ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '2', '-c:v', 'libvpx']),
  /** An MP4 holding only audio. */
  audioOnlyMp4: () => generate('audio.mp4', ['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '2', '-c:a', 'aac', '-f', 'mp4']),
  /** Small still images (thumbnails). */
  smallPng: () => generate('thumb.png', ['-f', 'lavfi', '-i', 'color=c=orange:s=64x36', '-frames:v', '1']),
  smallJpeg: () => generate('thumb.jpg', ['-f', 'lavfi', '-i', 'color=c=blue:s=64x36', '-frames:v', '1']),
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

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; type: string; content: Buffer | number };

/**
 * A multipart/form-data body as a stream, parts in the order given, as a browser's FormData sends it.
 * A file part's content may be a Buffer or a number of zero bytes (streamed, never held in memory: for
 * the 100 MB tests).
 */
export function multipart(parts: MultipartPart[]) {
  const boundary = `----familystar${randomBytes(8).toString('hex')}`;
  async function* body() {
    for (const part of parts) {
      if ('value' in part) {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`);
        continue;
      }
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
      );
      if (typeof part.content === 'number') {
        const chunk = Buffer.alloc(1024 * 1024);
        for (let left = part.content; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
      } else {
        yield part.content;
      }
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { payload: Readable.from(body()), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
