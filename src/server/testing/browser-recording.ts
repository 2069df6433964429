// Voice recordings made the way a parent's browser makes them: Chromium's fake microphone plays a WAV
// file, getUserMedia applies the browser's default processing, MediaRecorder encodes WebM/Opus.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ffmpegBinary, probe, runProcess } from '../media/ffmpeg';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

/** What the app's recorder (src/client/lib/media.ts) picks in Chromium. */
const MIME_TYPE = 'audio/webm;codecs=opus';

/** Recorded past the file's end, so its last syllable is never cut; %noloop makes it silence. */
const MARGIN_SECONDS = 0.3;

/** Browsers at once: each encodes in real time, and the machine has 2 cores. */
const MAX_BROWSERS = 2;


export interface BrowserRecording {
  /** How long the recorder ran, as the page measured it. */
  seconds: number;
  mimeType: string;
  bytes: number;
}

export interface RecordingOptions {
  /** Record this long instead of the WAV's duration plus a small margin. */
  seconds?: number;
}

/** Records `wavFile` through Chromium's fake microphone with MediaRecorder, as a parent's browser would (getUserMedia({ audio: true }) with the browser's default processing: echo cancellation, noise suppression, automatic gain), and writes the WebM/Opus the browser made to `outputFile`. */
export async function recordThroughBrowser(wavFile: string, outputFile: string, options: RecordingOptions = {}): Promise<BrowserRecording> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'familystar-browser-recording-'));
  try {
    const microphoneFile = await toMicrophoneWav(wavFile, workDir);
    const seconds = options.seconds ?? (await wavSeconds(microphoneFile)) + MARGIN_SECONDS;
    const recorded = await recordInChromium(microphoneFile, seconds);
    await writeFile(outputFile, recorded.webm);
    return { seconds: recorded.seconds, mimeType: recorded.mimeType, bytes: recorded.webm.length };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** recordThroughBrowser for each file, at most two browsers at once; results in the order given. */
export async function recordManyThroughBrowser(
  recordings: readonly { wavFile: string; outputFile: string }[],
  options: RecordingOptions = {},
): Promise<BrowserRecording[]> {
  const results: BrowserRecording[] = new Array(recordings.length);
  let next = 0;
  async function worker() {
    while (next < recordings.length) {
      const index = next++;
      const { wavFile, outputFile } = recordings[index]!;
      results[index] = await recordThroughBrowser(wavFile, outputFile, options);
    }
  }
  await Promise.all(Array.from({ length: Math.min(MAX_BROWSERS, recordings.length) }, worker));
  return results;
}

/**
 * Chromium's fake capture reads 8-, 16- and 32-bit integer and float PCM at any rate, but records
 * silence (without an error) for 24-bit PCM, mu-law, ADPCM and RF64; so every file becomes 48 kHz
 * 16-bit mono, the rate and channel count the browser's track has anyway. The copy also gives the
 * flag a path with no commas or '%' in it.
 */
async function toMicrophoneWav(wavFile: string, workDir: string): Promise<string> {
  const output = path.join(workDir, 'microphone.wav');
  await runProcess(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', '-i', wavFile, '-ac', '1', '-ar', '48000', '-c:a', 'pcm_s16le', output]);
  return output;
}

async function wavSeconds(file: string): Promise<number> {
  const { duration } = await probe(file);
  if (!duration) throw new Error(`${file} has no audio to record`);
  return duration;
}

interface PageRecording {
  webm: Buffer;
  seconds: number;
  mimeType: string;
}

async function recordInChromium(microphoneFile: string, seconds: number): Promise<PageRecording> {
  // getUserMedia needs a secure context, which about:blank is not; a loopback origin is.
  const server = await servePage();
  const { port } = server.address() as { port: number };
  try {
    // The fake device loops its file unless told %noloop: we want one pass, then silence.
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      // The fake microphone plays the file once (%noloop), through the browser's own capture path.
      args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${microphoneFile}%noloop`],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/`);
      const result = await page.evaluate(recordInPage, { mimeType: MIME_TYPE, milliseconds: Math.round(seconds * 1000) });
      return { webm: Buffer.from(result.base64, 'base64'), seconds: result.seconds, mimeType: result.mimeType };
    } finally {
      await browser.close();
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function servePage(): Promise<Server> {
  const server = createServer((_request, response) => {
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.end('<!doctype html><title>Recording</title>');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Runs in the page: what the app's recorder does, for `milliseconds`, handed back as base64. */
async function recordInPage({ mimeType, milliseconds }: { mimeType: string; milliseconds: number }) {
  if (!MediaRecorder.isTypeSupported(mimeType)) throw new Error(`this Chromium cannot record ${mimeType}`);
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const recorder = new MediaRecorder(stream, { mimeType });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
  recorder.start(250);
  const startedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, milliseconds));
  recorder.stop();
  const seconds = (performance.now() - startedAt) / 1000;
  await stopped;
  for (const track of stream.getTracks()) track.stop();
  const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
  // String.fromCharCode takes arguments: a slice at a time keeps under the engine's argument limit.
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return { base64: btoa(binary), seconds, mimeType: recorder.mimeType };
}
