// Text to speech with eSpeak NG compiled to WebAssembly (npm @echogarden/espeak-ng-emscripten), so
// `npm install` alone gives every machine the same voice. Used for the demo templates' narration and
// by tests that need voices of known pitch.
//
// Why the npm build and not a system `espeak-ng` when one exists: the same espeak version and data
// everywhere, so the demo and the voice tests come out the same on every machine.
// Why this package and not `espeak-ng` (npm 1.0.2): that one only runs the command-line program once
// per instantiation (~0.3 s to instantiate its 18 MB wasm for every phrase, text starting with "-" read
// as an option and failing without an error, noise on stderr); this one is a library: one instance
// speaks phrase after phrase (~50 ms each) and takes voice, pitch and speed as calls.
//
// Synthesis runs in a worker thread: a phrase is ~50 ms and a paragraph ~1 s of synchronous wasm,
// which would stall every request the server answers meanwhile (the demo is spoken in the background
// at first start). A worker rather than a child process because its code is a string here, so it runs
// the same from the source tree, the tests and the esbuild bundle with no script file to locate, and
// it starts in ~0.2 s. One worker serves all calls in turn and ends after a while without work.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface VoiceSettings {
  /**
   * eSpeak voice as `-v` takes it: a language, optionally `+variant`. Variants `f1`–`f5` are female,
   * `m1`–`m8` male (e.g. `en-us+f3`, `en-us+m3`). Default `en-us`.
   */
  voice?: string;
  /** Base pitch, 0–99 (espeak's `-p`; default 50). With `+f3` 55 gives ~220 Hz, with `+m3` ~110 Hz. */
  pitch?: number;
  /** Words per minute, 80–450 (espeak's `-s`; default 175). */
  speed?: number;
}

export interface Spoken {
  /** Length of the WAV written, in seconds. */
  seconds: number;
  sampleRate: number;
}

const IDLE_MS = 20_000;

/** The package's entry file; throws a message saying how to get it when it is not installed. */
export function espeakModuleFile(): string {
  try {
    return createRequire(import.meta.url).resolve('@echogarden/espeak-ng-emscripten');
  } catch (error) {
    throw new Error('eSpeak NG (npm package @echogarden/espeak-ng-emscripten) is not installed: run npm install', { cause: error });
  }
}

// CommonJS, as `eval` workers are. Writes the WAV itself so the samples never cross threads.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeFileSync } = require('node:fs');
const ready = import(workerData.moduleUrl).then(async ({ default: load }) => {
  const espeak = await load();
  return { espeak, synth: new espeak.eSpeakNGWorker() };
});
function wav(chunks, rate) {
  const samples = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const bytes = Buffer.alloc(44 + samples * 2);
  bytes.write('RIFF', 0); bytes.writeUInt32LE(36 + samples * 2, 4); bytes.write('WAVEfmt ', 8);
  bytes.writeUInt32LE(16, 16); bytes.writeUInt16LE(1, 20); bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(rate, 24); bytes.writeUInt32LE(rate * 2, 28); bytes.writeUInt16LE(2, 32);
  bytes.writeUInt16LE(16, 34); bytes.write('data', 36); bytes.writeUInt32LE(samples * 2, 40);
  let offset = 44;
  for (const chunk of chunks) for (const sample of chunk) offset = bytes.writeInt16LE(sample, offset);
  return { bytes, samples };
}
parentPort.on('message', async ({ id, text, voice, pitch, speed, wavFile }) => {
  try {
    const { espeak, synth } = await ready;
    const [language, variant] = voice.split('+');
    // espeak ignores an unknown variant silently: check it, since a test would get the wrong voice.
    // (The path is inside the wasm's own in-memory file system, not the machine's.)
    if (variant && !espeak.FS.analyzePath('/usr/share/espeak-ng-data/voices/!v/' + variant).exists) throw new Error('unknown voice variant ' + variant);
    if (synth.set_voice(voice) !== 0) throw new Error('unknown voice ' + language);
    synth.set_pitch(pitch);
    synth.set_rate(speed);
    const chunks = [];
    synth.synthesize(text, (samples) => {
      if (samples) chunks.push(samples);
      return false;
    });
    const rate = synth.get_samplerate();
    const { bytes, samples } = wav(chunks, rate);
    writeFileSync(wavFile, bytes);
    parentPort.postMessage({ id, seconds: samples / rate, sampleRate: rate });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Pending {
  resolve(spoken: Spoken): void;
  reject(error: Error): void;
}

interface Speaker {
  worker: Worker;
  pending: Map<number, Pending>;
  nextId: number;
  idle?: NodeJS.Timeout;
}

let speaker: Speaker | undefined;

function startSpeaker(): Speaker {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { moduleUrl: pathToFileURL(espeakModuleFile()).href } });
  const started: Speaker = { worker, pending: new Map(), nextId: 1 };
  const failAll = (error: Error) => {
    if (speaker === started) speaker = undefined;
    for (const { reject } of started.pending.values()) reject(error);
    started.pending.clear();
  };
  worker.on('message', ({ id, error, ...spoken }: { id: number; error?: string } & Spoken) => {
    const waiting = started.pending.get(id);
    if (!waiting) return;
    started.pending.delete(id);
    if (error) waiting.reject(new Error(`Speech synthesis failed: ${error}`));
    else waiting.resolve(spoken);
    if (started.pending.size === 0) idle(started);
  });
  worker.on('error', (error) => failAll(new Error(`Speech synthesis failed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => failAll(new Error(`The speech worker stopped (exit code ${code})`)));
  return started;
}

/** Lets the process exit while nothing is being spoken, and ends the worker (its ~60 MB) when unused. */
function idle(current: Speaker) {
  current.worker.unref();
  current.idle = setTimeout(() => {
    if (speaker === current) speaker = undefined;
    void current.worker.terminate();
  }, IDLE_MS);
  current.idle.unref();
}

function checkRange(name: string, value: number, min: number, max: number) {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be a whole number from ${min} to ${max}`);
}

/** Speaks `text` into `wavFile` (16-bit mono PCM, 22,050 Hz). */
export function speak(text: string, settings: VoiceSettings, wavFile: string): Promise<Spoken> {
  const { voice = 'en-us', pitch = 50, speed = 175 } = settings;
  checkRange('pitch', pitch, 0, 99);
  checkRange('speed', speed, 80, 450);
  speaker ??= startSpeaker();
  const current = speaker;
  clearTimeout(current.idle);
  current.worker.ref();
  const id = current.nextId++;
  return new Promise<Spoken>((resolve, reject) => {
    current.pending.set(id, { resolve, reject });
    current.worker.postMessage({ id, text, voice, pitch, speed, wavFile });
  });
}

/** Ends the speech worker now (it also ends by itself when idle). */
export async function closeSpeech(): Promise<void> {
  const current = speaker;
  speaker = undefined;
  if (current) {
    clearTimeout(current.idle);
    await current.worker.terminate();
  }
}
