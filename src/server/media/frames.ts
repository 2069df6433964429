// Decoded video frames through a pipe: ffmpeg writes raw pictures of a known size to stdout and we cut
// them out one by one, never holding the whole video in memory. Bounded: a duration cap (`-t`), a timeout
// that kills ffmpeg, one thread for the decoder and its pixel cap (DECODER_GUARD_ARGS).
import { spawn } from 'node:child_process';
import { DECODER_GUARD_ARGS, HDR_TO_SDR, ffmpegBinary, probe } from './ffmpeg';

export interface FrameSource {
  /** Frames per second to sample (ffmpeg's fps filter), or undefined for every frame. */
  fps?: number;
  /** Every frame is scaled to fit inside a `size`×`size` square and padded (black, right and bottom). */
  size: number;
  /** Decode at most this many seconds. */
  maxSeconds: number;
  /** Kill ffmpeg after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface DecodedFrame {
  /** Packed RGB, `size`×`size`. */
  data: Uint8Array;
  width: number;
  height: number;
  /** Seconds from the start (from the sampling rate). */
  time: number;
  /** The part of the frame that holds the video, from its top-left corner: the rest is padding. */
  picture: { width: number; height: number };
  /** The video's own pixels per pixel of the frame: 1/1.5 for a 640×480 clip enlarged to fit 960. */
  videoPixelsPerPixel: number;
}

export class FrameDecodeError extends Error {}

/**
 * Yields RGB frames of a video file. A file that ffmpeg cannot decode at all throws FrameDecodeError;
 * one cut off half-way yields the frames before the damage and ends.
 */
export async function* readFrames(file: string, source: FrameSource): AsyncGenerator<DecodedFrame> {
  const { size, fps } = source;
  const fitted = await pictureIn(file, source);
  const { picture, videoPixelsPerPixel } = fitted ?? { picture: { width: size, height: size }, videoPixelsPerPixel: 1 };
  const filters = [
    ...(fps ? [`fps=${fps}`] : []),
    ...(fitted?.hdr ? [HDR_TO_SDR] : []),
    fitted ? `scale=${picture.width}:${picture.height}` : `scale=w=${size}:h=${size}:force_original_aspect_ratio=decrease`,
    `pad=${size}:${size}:0:0:black`,
    'format=rgb24',
  ].join(',');
  const child = spawn(
    ffmpegBinary(),
    ['-nostdin', '-v', 'error', ...DECODER_GUARD_ARGS, '-t', String(source.maxSeconds), '-i', file, '-an', '-vf', filters, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString();
  });
  const kill = () => child.kill('SIGKILL');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, source.timeoutMs);
  source.signal?.addEventListener('abort', kill, { once: true });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));

  const frameBytes = size * size * 3;
  let pending: Buffer = Buffer.alloc(0);
  let index = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= frameBytes) {
        // A copy: the pipe's buffers are reused, and the frame may be kept while later ones arrive.
        const data = new Uint8Array(pending.subarray(0, frameBytes));
        pending = pending.subarray(frameBytes);
        yield { data, width: size, height: size, time: fps ? index / fps : index, picture, videoPixelsPerPixel };
        index++;
      }
    }
    const code = await exited;
    source.signal?.throwIfAborted();
    if (timedOut) throw new FrameDecodeError(`decoding took longer than ${source.timeoutMs / 1000} s`);
    if (index === 0) throw new FrameDecodeError(`ffmpeg decoded no frame (exit ${code}): ${stderr.trim().slice(0, 300)}`);
  } finally {
    clearTimeout(timer);
    source.signal?.removeEventListener('abort', kill);
    if (child.exitCode === null) kill();
  }
}

/**
 * Where the video lies in the `size`×`size` frames: scaled to fit, at the size it is shown (a phone clip
 * filmed upright is decoded upright: ffprobe's shown size); and whether it is HDR (turned into ordinary
 * video). Undefined when ffprobe cannot read the file: ffmpeg then fits it itself, the picture counts as the
 * whole square, and its decoding tells what is wrong.
 */
async function pictureIn(file: string, source: FrameSource): Promise<(Pick<DecodedFrame, 'picture' | 'videoPixelsPerPixel'> & { hdr: boolean }) | undefined> {
  const shown = await probe(file, { maxSeconds: source.maxSeconds }).catch(() => undefined);
  if (!shown?.width || !shown.height) return undefined;
  const scale = source.size / Math.max(shown.width, shown.height);
  return {
    picture: { width: Math.max(1, Math.round(shown.width * scale)), height: Math.max(1, Math.round(shown.height * scale)) },
    videoPixelsPerPixel: 1 / scale,
    hdr: shown.hdr,
  };
}
