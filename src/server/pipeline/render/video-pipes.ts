// The renderer's two ends: ffmpeg decodes the template to raw yuv420p frames on a pipe, and another
// ffmpeg takes raw yuv420p frames on a pipe and writes an H.264 MP4 (faststart). yuv420p, not rgb24, at
// both ends: no colour conversion in ffmpeg or here (measured: pass-through 89 fps vs 62 with rgb24).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { MEDIA_LIMITS } from '../../../shared/media-rules';
import { type FfprobeStream, HDR_TO_SDR, ffmpegBinary, isHdr, pixelAspect, runFfprobe, shownSize, MEDIA_TIMEOUTS } from '../../media/ffmpeg';

export interface TemplateVideo {
  width: number;
  height: number;
  /** ffmpeg's frame rate as a fraction ("25/1", "30000/1001"): given back to the encoder unchanged. */
  rate: string;
  fps: number;
  /** Video frames (packets counted; as decoded, for a variable rate), and the video stream's duration in seconds. */
  frames: number;
  duration: number;
  hasAudio: boolean;
  /**
   * The frames come at a variable rate (a phone's clip in dim light: fewer frames a second for a while): its
   * nominal rate (r_frame_rate) is not its average. decodeYuvFrames then gives them at the average rate
   * (`rate`), duplicated where fewer came and dropped where more did, so that the video the encoder writes
   * at that constant rate keeps time with the template's sound.
   */
  variableRate: boolean;
  /** HDR (an iPhone's HLG): decoded into ordinary video (HDR_TO_SDR), as the encoder writes it. */
  hdr: boolean;
  /**
   * Its pixels' width over their height (media/ffmpeg.ts pixelAspect): not 1 for anamorphic video (a
   * widescreen DVD's), decoded stretched to `width` (the width it is shown at) and written with square pixels.
   */
  pixelAspect: number;
}

/** Size, frame rate, frame count and audio of a template (packets are counted, nothing is decoded). */
export async function probeTemplate(file: string): Promise<TemplateVideo> {
  const { stdout } = await runFfprobe(
    ['-v', 'error', '-count_packets', '-show_entries', 'stream:format=duration', '-print_format', 'json', file],
    { timeoutMs: MEDIA_TIMEOUTS.checkMs },
  );
  const json = JSON.parse(stdout) as {
    streams?: (FfprobeStream & { r_frame_rate?: string; avg_frame_rate?: string; nb_read_packets?: string })[];
    format?: { duration?: string };
  };
  const video = json.streams?.find((stream) => stream.codec_type === 'video');
  // Decoded frames come rotated upright (a template filmed on a phone held upright), so they have this size.
  const shown = video && shownSize(video);
  if (!video || !shown) throw new Error('the template has no video stream');
  const fraction = (text: string | undefined) => {
    const [num, den] = (text ?? '').split('/').map(Number);
    return num && den ? num / den : NaN;
  };
  // avg_frame_rate is the true rate of a constant-rate file; r_frame_rate can be a timebase multiple.
  const rate = Number.isFinite(fraction(video.avg_frame_rate)) ? video.avg_frame_rate! : video.r_frame_rate!;
  const fps = fraction(rate);
  if (!Number.isFinite(fps) || fps <= 0) throw new Error('the template has no frame rate');
  const packets = Number(video.nb_read_packets);
  const stated = Number(video.duration ?? json.format?.duration);
  const duration = Number.isFinite(stated) ? stated : packets / fps;
  const nominal = fraction(video.r_frame_rate);
  const variableRate = Number.isFinite(nominal) && Math.abs(nominal - fps) > 0.01 * fps;
  return {
    width: shown.width,
    height: shown.height,
    rate,
    fps,
    frames: Number.isFinite(packets) && !variableRate ? packets : Math.round(duration * fps),
    duration,
    hasAudio: Boolean(json.streams?.some((stream) => stream.codec_type === 'audio')),
    variableRate,
    hdr: isHdr(video),
    pixelAspect: pixelAspect(video),
  };
}

/** yuv420p needs even sides: an odd template is cut by one pixel (right or bottom). */
export const evenSize = (side: number) => side - (side % 2);
export const yuvFrameBytes = (width: number, height: number) => width * height * 1.5;

interface PipeLimits {
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * ffmpeg's threads for the codec (the decoder's or x264's); ffmpeg's own choice when absent (about 1.5
   * threads per core for x264, cores + 1 for the decoder).
   */
  threads?: number;
}

const threadArgs = (threads: number | undefined) => (threads ? ['-threads', String(threads)] : []);

/** Kills `child` at the time limit or on abort; `stop()` clears both. */
function guard(child: ChildProcessWithoutNullStreams, limits: PipeLimits, what: string) {
  const state = { timedOut: false, stderr: '' };
  child.stderr.on('data', (chunk: Buffer) => {
    if (state.stderr.length < 4096) state.stderr += chunk.toString();
  });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const timer = setTimeout(() => {
    state.timedOut = true;
    kill();
  }, limits.timeoutMs);
  limits.signal?.addEventListener('abort', kill, { once: true });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    state,
    kill,
    exited,
    stop() {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', kill);
    },
    failure(code: number | null) {
      if (state.timedOut) return new Error(`${what} took longer than ${Math.round(limits.timeoutMs / 1000)} s and was stopped`);
      return new Error(`${what} failed (ffmpeg exit ${code}): ${state.stderr.trim().slice(0, 400)}`);
    },
  };
}

/**
 * Frame buffers handed back once the encoder has written them out, for the decoder to fill again. A render
 * holds the frames of its lookahead (face-render.ts): buffers of a megabyte and more that live that long
 * outlive V8's young generation, and only its full collections free them (the 720p25 case: 4 → 40 a
 * render, node's CPU 16 → 24 ms a frame). Reused, there are as many as the frames in flight.
 */
export function createFramePool(frameBytes: number) {
  const free: Buffer[] = [];
  return {
    take: () => free.pop() ?? Buffer.allocUnsafe(frameBytes),
    give: (buffer: Buffer) => void (buffer.length === frameBytes && free.push(buffer)),
  };
}
export type FramePool = ReturnType<typeof createFramePool>;

/**
 * Yields the template's frames as raw yuv420p (Y plane, then U, then V at half size), each in its own
 * buffer (the encoder may still hold the previous one), taken from `pool` when one is given.
 */
export async function* decodeYuvFrames(
  file: string,
  video: Pick<TemplateVideo, 'width' | 'height' | 'rate' | 'variableRate' | 'hdr' | 'pixelAspect'>,
  limits: PipeLimits & { pool?: FramePool },
): AsyncGenerator<Buffer> {
  const width = evenSize(video.width);
  const height = evenSize(video.height);
  const filters = [
    ...(video.variableRate ? [`fps=${video.rate}`] : []),
    ...(video.hdr ? [HDR_TO_SDR, 'format=yuv420p'] : []),
    // Anamorphic: stretched to square pixels (to the even size, so nothing is cut).
    ...(video.pixelAspect !== 1 ? [`scale=${width}:${height}`, 'setsar=1'] : width !== video.width || height !== video.height ? [`crop=${width}:${height}:0:0`] : []),
  ];
  const filterArgs = filters.length > 0 ? ['-vf', filters.join(',')] : [];
  const child = spawn(
    ffmpegBinary(),
    ['-nostdin', '-v', 'error', '-max_pixels', String(MEDIA_LIMITS.imageMaxPixels), ...threadArgs(limits.threads), '-i', file, '-an', '-sn', ...filterArgs, '-vsync', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1'],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  child.stdin.end();
  const run = guard(child, limits, 'decoding the template');
  const frameBytes = yuvFrameBytes(width, height);
  const newBuffer = limits.pool?.take ?? (() => Buffer.allocUnsafe(frameBytes));
  let frame = newBuffer();
  let filled = 0;
  let count = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      let offset = 0;
      while (offset < chunk.length) {
        const take = Math.min(frameBytes - filled, chunk.length - offset);
        chunk.copy(frame, filled, offset, offset + take);
        filled += take;
        offset += take;
        if (filled === frameBytes) {
          const full = frame;
          frame = newBuffer();
          filled = 0;
          count++;
          yield full;
        }
      }
    }
    const code = await run.exited;
    limits.signal?.throwIfAborted();
    if (run.state.timedOut || code !== 0 || count === 0) throw run.failure(code);
  } finally {
    run.stop();
    run.kill();
  }
}

export interface EncoderOptions extends PipeLimits {
  output: string;
  width: number;
  height: number;
  rate: string;
  /** The template: its audio (if any) is copied into the output as AAC, so the result is watchable. */
  audioFrom?: string;
  /** Each frame is given back to it once written out to ffmpeg. */
  pool?: FramePool;
  /** x264 preset: veryfast by default (ultrafast files are ~5× larger). */
  preset?: string;
  crf?: number;
}

export interface Encoder {
  /** Queues one yuv420p frame; resolves when the pipe can take more (back-pressure). */
  write(frame: Buffer): Promise<void>;
  /** Ends the input and waits for the MP4 to be complete. */
  finish(): Promise<void>;
  /** Kills ffmpeg (the caller removes the half-written file). */
  abort(): void;
}

export function openEncoder(options: EncoderOptions): Encoder {
  const { output, width, height, rate, audioFrom, preset = 'veryfast', crf = 20 } = options;
  const audio = audioFrom ? ['-i', audioFrom, '-map', '0:v:0', '-map', '1:a:0?', '-c:a', 'aac', '-b:a', '128k'] : [];
  const child = spawn(
    ffmpegBinary(),
    [
      '-nostdin', '-v', 'error', '-y',
      '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-r', rate, '-i', 'pipe:0',
      ...audio,
      '-c:v', 'libx264', '-preset', preset, '-crf', String(crf), ...threadArgs(options.threads), '-pix_fmt', 'yuv420p',
      '-movflags', '+faststart', '-f', 'mp4', output,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const run = guard(child, options, 'encoding the video');
  let broken: Error | undefined;
  // EPIPE when ffmpeg died: reported by write/finish with ffmpeg's own message.
  child.stdin.on('error', (error) => {
    broken ??= error;
  });
  const failed = async () => run.failure(await run.exited);
  return {
    async write(frame) {
      if (broken || child.exitCode !== null) throw await failed();
      // The stream keeps the buffer itself, not a copy, until it has gone down the pipe.
      if (!child.stdin.write(frame, (error) => error || options.pool?.give(frame))) {
        await Promise.race([once(child.stdin, 'drain'), run.exited]);
        if (broken || child.exitCode !== null) throw await failed();
      }
    },
    async finish() {
      child.stdin.end();
      const code = await run.exited;
      run.stop();
      options.signal?.throwIfAborted();
      if (code !== 0 || run.state.timedOut) throw run.failure(code);
    },
    abort() {
      run.stop();
      run.kill();
    },
  };
}
