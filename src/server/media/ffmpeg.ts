// ffmpeg and ffprobe: FFMPEG_PATH / FFPROBE_PATH, else the system's, else the binaries shipped in npm
// packages (so `npm install` alone is enough). Every run on user media has a time limit and is killed
// at it: a crafted file must not hold a core (or gigabytes of memory) for as long as it likes.
import { execFile } from 'node:child_process';
import { accessSync, chmodSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { MEDIA_LIMITS } from '../../shared/media-rules';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** How long one run on user media may take before it is killed (SIGKILL). The one place for these. */
export const MEDIA_TIMEOUTS = {
  /** ffprobe reads headers only (plus a few packets): a second is a lot. */
  probeMs: 10_000,
  /** Decoding or reading packets, always capped in length (`-t`) or frames: a few seconds at most. */
  checkMs: 30_000,
} as const;

/**
 * Decoder options for every run on user media: one thread (one request must not take every core),
 * and no picture over MEDIA_LIMITS.imageMaxPixels is ever allocated, whatever a header claims.
 */
export const DECODER_GUARD_ARGS = ['-threads', '1', '-max_pixels', String(MEDIA_LIMITS.imageMaxPixels)] as const;

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

/** ffmpeg or ffprobe ran past its time limit and was killed. */
export class MediaTimeoutError extends Error {
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`${tool} ran longer than ${timeoutMs} ms and was killed`);
    this.name = 'MediaTimeoutError';
  }
}

export interface MediaRunOptions {
  timeoutMs: number;
  /** Bytes of stdout or stderr kept; more kills the run (an error, not a timeout). */
  maxBuffer?: number;
}

async function runWithLimit(binary: string, args: readonly string[], options: MediaRunOptions) {
  try {
    return await run(binary, args, {
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
      maxBuffer: options.maxBuffer ?? 16 * 1024 * 1024,
    });
  } catch (error) {
    // execFile kills with killSignal both at the timeout and when a buffer overflows; only the first
    // is a timeout. It settles once the process has exited, so a rejection here means it is gone.
    const failed = error as { killed?: boolean; signal?: string; code?: unknown };
    if (failed.killed && failed.signal === 'SIGKILL' && failed.code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
      throw new MediaTimeoutError(path.basename(binary), options.timeoutMs);
    }
    throw error;
  }
}

/** Runs ffmpeg, killed after `timeoutMs`; rejects with MediaTimeoutError then, or the exec error. */
export function runFfmpeg(args: readonly string[], options: MediaRunOptions) {
  return runWithLimit(ffmpegBinary(), args, options);
}

/** Runs ffprobe, killed after `timeoutMs`; rejects with MediaTimeoutError then, or the exec error. */
export function runFfprobe(args: readonly string[], options: MediaRunOptions) {
  return runWithLimit(ffprobeBinary(), args, options);
}

export interface NullRun {
  /** The last timestamp written, in seconds (undefined when ffmpeg wrote none). */
  seconds: number | undefined;
  /** Video frames (or packets, with `-c copy`) written; undefined for audio only. */
  frames: number | undefined;
  /** What ffmpeg reported at `-v error` besides its progress lines: damage, when decoding. */
  problems: string[];
}

/**
 * Runs a file through ffmpeg into the null muxer: decoding it, or with `-c copy` in `outputArgs`
 * only reading its packets. `maxSeconds` stops it there (`-t`), so a long file costs no more than a
 * short one. Rejects when ffmpeg fails or runs past `timeoutMs` (MediaTimeoutError).
 */
export async function runToNull(
  file: string,
  outputArgs: readonly string[],
  options: { maxSeconds: number; timeoutMs?: number; xerror?: boolean },
): Promise<NullRun> {
  const { stderr } = await runFfmpeg(
    [
      '-nostdin', '-v', 'error', '-stats', ...(options.xerror ? ['-xerror'] : []),
      ...DECODER_GUARD_ARGS, '-i', file,
      ...outputArgs, '-t', String(options.maxSeconds), '-f', 'null', '-',
    ],
    { timeoutMs: options.timeoutMs ?? MEDIA_TIMEOUTS.checkMs },
  );
  const lines = stderr.split(/[\r\n]+/).filter((line) => line.trim());
  const last = [...stderr.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)].at(-1);
  const frames = [...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1);
  return {
    seconds: last ? Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]) : undefined,
    frames: frames ? Number(frames[1]) : undefined,
    problems: lines.filter((line) => !/^\s*(size|frame)=/.test(line)),
  };
}

export interface ProbeResult {
  formatName: string;
  /**
   * Seconds: the container's, or when it states none (e.g. a MediaRecorder WebM) the last packet's
   * time, read up to `maxSeconds` (a longer file reports about `maxSeconds`); undefined when neither.
   */
  duration: number | undefined;
  hasVideo: boolean;
  hasAudio: boolean;
  /** The video's size as it is shown (shownSize): a clip filmed upright on a phone is taller than wide. */
  width?: number;
  height?: number;
  /** The picture is HDR (isHdr): decode it through HDR_TO_SDR to see it as it is meant to look. */
  hdr: boolean;
  /** ffprobe's codec names of the first video and audio streams (e.g. h264, vp9, aac, opus). */
  videoCodec?: string;
  audioCodec?: string;
}

/** A stream as ffprobe's JSON states it (`-show_streams`, or `-show_entries stream`). */
export interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  /** The display matrix's rotation in degrees (ffprobe 5 and later). */
  side_data_list?: { rotation?: number }[];
  /** `rotate`: the same rotation as older ffprobe builds state it. */
  tags?: { rotate?: string };
  /** The transfer function: arib-std-b67 (HLG), smpte2084 (PQ), bt709... */
  color_transfer?: string;
  /** The shape of a pixel, width:height ("1:1"; "32:27" on a widescreen DVD's 720×480; "0:1" unstated). */
  sample_aspect_ratio?: string;
}

/**
 * Whether a video stream is HDR: HLG (what iPhones film in by default) or PQ (HDR10). Decoded as it is, its
 * pixels are the HDR signal read as ordinary video: a grey, washed-out picture (the talking woman filmed in HLG:
 * grey skin, pale lips).
 */
export function isHdr(stream: FfprobeStream): boolean {
  return stream.color_transfer === 'arib-std-b67' || stream.color_transfer === 'smpte2084';
}

/**
 * ffmpeg's filter that turns an HDR picture into ordinary (BT.709) video: zscale converts its transfer,
 * primaries and matrix, clipping what is brighter than the ordinary white (skin is well below it). Measured on
 * the talking woman converted to HLG: this gives her back as she was; a tone map (hable, mobius) darkened her.
 */
export const HDR_TO_SDR = 'zscale=t=bt709:m=bt709:p=bt709:r=tv';

interface FfprobeJson {
  format?: { format_name?: string; duration?: string };
  streams?: FfprobeStream[];
}

/**
 * A video stream's size as it is shown. Phones store a clip filmed upright as it left the sensor, sideways,
 * with a rotation to apply when it plays: a portrait clip coded 1920×1080 is shown 1080×1920. ffmpeg applies
 * that rotation when it decodes (as browsers do when they play), so every decoded frame has this size.
 * Anamorphic video (a widescreen DVD's 720×480 with pixels 32:27 wide, HDV's 1440×1080 at 4:3) is shown
 * wider than it is stored: players stretch it, and so must whoever decodes it into pictures.
 */
export function shownSize(stream: FfprobeStream): { width: number; height: number } | undefined {
  if (!stream.width || !stream.height) return undefined;
  const rotation = Number(stream.side_data_list?.find((data) => data.rotation !== undefined)?.rotation ?? stream.tags?.rotate ?? 0);
  const quarterTurned = Number.isFinite(rotation) && Math.abs(Math.round(rotation / 90)) % 2 === 1;
  const width = Math.max(1, Math.round(stream.width * pixelAspect(stream)));
  return quarterTurned ? { width: stream.height, height: width } : { width, height: stream.height };
}

/** A pixel's width over its height (sample_aspect_ratio): 1 where square or unstated. */
export function pixelAspect(stream: FfprobeStream): number {
  const [num, den] = (stream.sample_aspect_ratio ?? '').split(':').map(Number);
  return num && den && num > 0 && den > 0 ? num / den : 1;
}

/** Templates are the longest media here (3 hours); nothing is read past this unless asked. */
const DEFAULT_PROBE_MAX_SECONDS = 4 * 60 * 60;

/**
 * Probes a media file; rejects when ffprobe cannot read it (not media, truncated beyond use), or with
 * MediaTimeoutError. Nothing is decoded: frames are skipped (`-skip_frame all`), and decoders that
 * cannot skip (PNG, in an image or a video) refuse a picture over the guard's pixel count.
 */
export async function probe(file: string, options: { maxSeconds?: number } = {}): Promise<ProbeResult> {
  const { stdout } = await runFfprobe(
    ['-v', 'error', ...DECODER_GUARD_ARGS, '-skip_frame', 'all', '-print_format', 'json', '-show_format', '-show_streams', file],
    { timeoutMs: MEDIA_TIMEOUTS.probeMs, maxBuffer: 4 * 1024 * 1024 },
  );
  const json = JSON.parse(stdout) as FfprobeJson;
  const streams = json.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video');
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  let duration: number | undefined = Number(json.format?.duration ?? streams.find((stream) => stream.duration)?.duration);
  if (!Number.isFinite(duration) || duration <= 0) duration = await packetDuration(file, options.maxSeconds ?? DEFAULT_PROBE_MAX_SECONDS);
  const shown = video && shownSize(video);
  return {
    formatName: json.format?.format_name ?? '',
    duration: duration !== undefined && Number.isFinite(duration) && duration > 0 ? duration : undefined,
    hasVideo: Boolean(video),
    hasAudio: Boolean(audio),
    width: shown?.width,
    height: shown?.height,
    hdr: video !== undefined && isHdr(video),
    videoCodec: video?.codec_name || undefined,
    audioCodec: audio?.codec_name || undefined,
  };
}

/**
 * Browsers' MediaRecorder writes WebM without a duration: read the packets (no decoding, so a 1080p60
 * video costs what a tiny one does) up to `maxSeconds` and take the last timestamp.
 */
async function packetDuration(file: string, maxSeconds: number): Promise<number | undefined> {
  try {
    return (await runToNull(file, ['-c', 'copy'], { maxSeconds })).seconds;
  } catch (error) {
    if (error instanceof MediaTimeoutError) throw error;
    return undefined;
  }
}

/** For trusted work only (tools, demo content): runs on user media go through runFfmpeg/runFfprobe. */
export { run as runProcess };
