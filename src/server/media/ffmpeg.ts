// ffmpeg and ffprobe: FFMPEG_PATH / FFPROBE_PATH, else the system's, else the binaries shipped in npm
// packages (so `npm install` alone is enough).
import { execFile } from 'node:child_process';
import { accessSync, chmodSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function fromNpm(pkg: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): string {
  const binary = (require(pkg) as { path: string }).path;
  // The packages' binaries can lack the executable bit (e.g. installed with --ignore-scripts).
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    chmodSync(binary, 0o755);
  }
  return binary;
}

let ffmpegPath: string | undefined;
let ffprobePath: string | undefined;

export function ffmpegBinary(): string {
  ffmpegPath ??= process.env.FFMPEG_PATH || onPath('ffmpeg') || fromNpm('@ffmpeg-installer/ffmpeg');
  return ffmpegPath;
}

export function ffprobeBinary(): string {
  ffprobePath ??= process.env.FFPROBE_PATH || onPath('ffprobe') || fromNpm('@ffprobe-installer/ffprobe');
  return ffprobePath;
}

export interface ProbeResult {
  formatName: string;
  /** Seconds; undefined when the container does not say (e.g. a MediaRecorder WebM) and decoding found none. */
  duration: number | undefined;
  hasVideo: boolean;
  hasAudio: boolean;
  width?: number;
  height?: number;
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; width?: number; height?: number; duration?: string }[];
}

/** Probes a media file; rejects when ffprobe cannot read it (not media, truncated beyond use). */
export async function probe(file: string): Promise<ProbeResult> {
  const { stdout } = await run(ffprobeBinary(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
    maxBuffer: 4 * 1024 * 1024,
  });
  const json = JSON.parse(stdout) as FfprobeJson;
  const streams = json.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video');
  let duration = Number(json.format?.duration ?? streams.find((stream) => stream.duration)?.duration);
  if (!Number.isFinite(duration) || duration <= 0) duration = await decodedDuration(file);
  return {
    formatName: json.format?.format_name ?? '',
    duration: Number.isFinite(duration) && duration > 0 ? duration : undefined,
    hasVideo: Boolean(video),
    hasAudio: streams.some((stream) => stream.codec_type === 'audio'),
    width: video?.width,
    height: video?.height,
  };
}

/** Browsers' MediaRecorder writes WebM without a duration: decode it and read the last timestamp. */
async function decodedDuration(file: string): Promise<number> {
  try {
    const { stderr } = await run(ffmpegBinary(), ['-v', 'info', '-stats', '-i', file, '-f', 'null', '-'], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const times = [...stderr.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)];
    const last = times.at(-1);
    if (!last) return Number.NaN;
    return Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]);
  } catch {
    return Number.NaN;
  }
}

export { run as runProcess };
