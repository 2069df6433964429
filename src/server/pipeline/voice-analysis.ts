// Analyses a voice recording once, from one decode: duration, pitch, loudness (EBU R128), share of
// speech, a fixed-length timbre fingerprint and the warnings a parent understands. A plain async
// function (the job runs it in a worker thread); the only process it starts is ffmpeg.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import FFT from 'fft.js';
import { MEDIA_MESSAGES } from '../../shared/media-rules';
import { VOICE_ANALYSIS_MESSAGES, type VoiceAnalysisSummary, type VoiceWarning, voiceWarning } from '../../shared/voice-analysis';
import { ffmpegBinary } from '../media/ffmpeg';
import { PITCH_HOP_SECONDS, trackPitch } from './pitch-track';

export interface VoiceAnalysis extends VoiceAnalysisSummary {
  /** Seconds of decoded audio (at most `maxSeconds`). */
  duration: number;
  /** Seconds counted as speech: the voiced frames, the short gaps between them and a margin around. */
  speechSeconds: number;
  /** Seconds with a voice's pitch (the frames behind the pitch figures and the embedding). */
  voicedSeconds: number;
  /** 0..1: share of samples at full scale (|x| ≥ CLIP_LEVEL). */
  clippedShare: number;
  /** The voice fingerprint laid out as VOICE_EMBEDDING_LAYOUT says. Biometric: never sent to the browser. */
  embedding: number[];
}

export interface AnalyseVoiceOptions {
  /** Seconds decoded from the start (recordings are 5–30 s). Default 31. */
  maxSeconds?: number;
  /** ffmpeg is killed after this many milliseconds and the analysis rejects. Default 30,000. */
  timeoutMs?: number;
}

/**
 * The voice fingerprint: VOICE_EMBEDDING_LAYOUT.length numbers, always finite.
 * - [0, 12): means of MFCC c1..c12 over the voiced frames (c0, the overall level, is left out so the
 *   loudness of the recording does not count);
 * - [12, 24): the standard deviations of the same coefficients over the same frames;
 * - 24: the mean of ln(pitch in Hz) over the voiced frames; 25: its standard deviation.
 * MFCCs are `mfcc()` with MFCC_DEFAULTS on the 16 kHz mono decode. When no frame is voiced, the MFCC
 * statistics come from the speech frames (or every frame when there is no speech) and both pitch
 * entries are 0: such a recording also carries the `noVoice` warning.
 */
export const VOICE_EMBEDDING_LAYOUT = {
  length: 26,
  mfccMeans: { start: 0, end: 12 },
  mfccStds: { start: 12, end: 24 },
  logPitchMean: 24,
  logPitchStd: 25,
} as const;

// --- Thresholds. Loudness and clipping measured on synthetic voices and eSpeak NG; voice, pitch and
// speech on real people's recordings (women, men, child-range voices; clean, noisy, reverberant, phone
// band, and the browser's WebM/Opus): see real-voices.test.ts and decision 012.

/** Below this integrated loudness the voice is too quiet: 12 LU under the broadcast target (−23 LUFS).
 * Speech recorded at a normal level measured −23 to −17 LUFS here; a voice 45 dB too quiet, −67. */
export const TOO_QUIET_LUFS = -35;
/** A sample at or above this magnitude is at full scale (lossy decoders, Opus included, and the
 * resampler smear a hard clip around 1.0, so not exactly 1.0). */
export const CLIP_LEVEL = 0.98;
/** Share of full-scale samples above which the recording is distorted. eSpeak speech peaking at 0 dBFS
 * had none; driven 3 dB past full scale and clipped, 0.04–0.08 % (WebM–WAV: a few peaks cut, no
 * warning); 6 dB past, 0.3–0.8 %; 10 dB, 2.6–4.9 %; the tests' +30 dB voice, about a third. */
export const CLIPPED_SHARE = 0.001;
/** Less speech than this share of the recording, or than this many seconds, is too little speech. */
export const LITTLE_SPEECH_SHARE = 0.4;
export const LITTLE_SPEECH_SECONDS = 3;
/** Below this many seconds of voiced frames there is no voice to measure: pitch is null. */
export const MIN_VOICED_SECONDS = 0.5;
/** Less decoded audio than this is a damaged file (uploads are checked for 5–30 s before analysis). */
export const MIN_DECODED_SECONDS = 1;

/** Voiced stretches shorter than this are clicks, knocks or a tracker's stray frame, not a voice. */
const MIN_VOICED_RUN_FRAMES = 5;
/**
 * A voice's pitch is never still: jitter and intonation move it 0.3–1.5 % per 10 ms (measured: real
 * women, men and child-range voices 0.35–1.5 %, eSpeak 0.3–0.5 %), while a held note, a chord or mains
 * hum stays within 0.03 %. A voiced stretch whose median step is below this is a tone, not a voice.
 */
export const TONE_MAX_STEP = 0.001;
/**
 * One voice keeps to a band of 1.5 octaves (measured: 93–100 % of a real speaker's voiced frames, in
 * every condition tried); frames outside it are octave errors or other sounds and are left out...
 */
const VOICE_BAND_OCTAVES = 1.5;
/** ...and when the band holds less than this share of the voiced frames, the periodic sound is not one
 * voice but music (a song's bass, chords, melody and drums spread over 3–4 octaves: 51 % in the band). */
export const ONE_VOICE_SHARE = 0.7;
/** Speech is the voiced frames and what lies between them: unvoiced consonants and the gaps between
 * syllables and words, up to this long... */
const SPEECH_GAP_SECONDS = 0.3;
/** ...and this much before and after each voiced stretch (an initial "s", a final "t"). */
const SPEECH_MARGIN_SECONDS = 0.05;

// --- One decode, two rates: loudness and peaks at BS.1770's reference rate; pitch, speech and MFCC at 16 kHz.
const LOUDNESS_RATE = 48_000;
const ANALYSIS_RATE = 16_000;
/** Every per-frame measure sits on one 10 ms grid: frame k is centred at k × 10 ms. */
const HOP_SECONDS = PITCH_HOP_SECONDS;

export const MFCC_DEFAULTS = {
  sampleRate: ANALYSIS_RATE,
  /** Samples per frame (25 ms at 16 kHz), Hamming-windowed and zero-padded to fftSize. */
  frameLength: 400,
  /** Samples between frame starts (10 ms at 16 kHz). */
  hop: 160,
  fftSize: 512,
  filters: 26,
  lowHz: 80,
  highHz: 7600,
  /** c0..c(n−1). */
  coefficients: 13,
};
export type MfccOptions = typeof MFCC_DEFAULTS;

export async function analyseVoice(file: string, options: AnalyseVoiceOptions = {}): Promise<VoiceAnalysis> {
  const maxSeconds = options.maxSeconds ?? 31;
  const decoded = await decode(file, maxSeconds, options.timeoutMs ?? 30_000);
  if (decoded.at16k.length < ANALYSIS_RATE * MIN_DECODED_SECONDS) {
    const seconds = decoded.at16k.length / ANALYSIS_RATE;
    throw new Error(VOICE_ANALYSIS_MESSAGES.tooShort, { cause: new Error(`${file}: only ${seconds.toFixed(2)} s of audio decoded`) });
  }
  const duration = decoded.at16k.length / ANALYSIS_RATE;

  const track = trackPitch(decoded.at16k, ANALYSIS_RATE);
  const pitch = voicePitch(track.hz);
  const speech = speechAround(pitch);
  const speechCount = count(speech);
  const voiced = [...pitch].filter((hz) => hz > 0).sort((a, b) => a - b);
  const hasVoice = voiced.length * HOP_SECONDS >= MIN_VOICED_SECONDS;

  const loudnessLufs = integratedLoudness(decoded.at48k);
  const { peak, clipped } = peakAndClipped(decoded.at48k);
  const clippedShare = clipped / decoded.at48k.length;
  const speechShare = speech.length ? speechCount / speech.length : 0;
  const speechSeconds = speechCount * HOP_SECONDS;

  const warnings: VoiceWarning[] = [];
  if (loudnessLufs === null || loudnessLufs < TOO_QUIET_LUFS) warnings.push(voiceWarning('tooQuiet'));
  if (clippedShare >= CLIPPED_SHARE) warnings.push(voiceWarning('clipped'));
  // "Little speech" would only repeat "no voice".
  if (!hasVoice) warnings.push(voiceWarning('noVoice'));
  else if (speechShare < LITTLE_SPEECH_SHARE || speechSeconds < LITTLE_SPEECH_SECONDS) warnings.push(voiceWarning('littleSpeech'));

  return {
    duration: round(duration, 3),
    pitchMedianHz: hasVoice ? round(percentile(voiced, 0.5), 1) : null,
    pitchLowHz: hasVoice ? round(percentile(voiced, 0.1), 1) : null,
    pitchHighHz: hasVoice ? round(percentile(voiced, 0.9), 1) : null,
    loudnessLufs: loudnessLufs === null ? null : round(loudnessLufs, 1),
    peakDb: peak > 0 ? round(20 * Math.log10(peak), 1) : null,
    speechShare: round(speechShare, 3),
    speechSeconds: round(speechSeconds, 2),
    voicedSeconds: round(voiced.length * HOP_SECONDS, 2),
    clippedShare: round(clippedShare, 5),
    warnings,
    embedding: voiceEmbedding(decoded.at16k, pitch, speech),
  };
}

/** What the API may show: everything but the biometric embedding and the working figures. */
export function toVoiceAnalysisSummary(analysis: VoiceAnalysis): VoiceAnalysisSummary {
  const { pitchMedianHz, pitchLowHz, pitchHighHz, loudnessLufs, peakDb, speechShare, warnings } = analysis;
  return { pitchMedianHz, pitchLowHz, pitchHighHz, loudnessLufs, peakDb, speechShare, warnings };
}

// --- Decoding

interface DecodedVoice {
  at48k: Float32Array;
  at16k: Float32Array;
}

/** One ffmpeg run: the first audio stream, mixed to mono, to 32-bit float at two rates on two pipes. */
function decode(file: string, maxSeconds: number, timeoutMs: number): Promise<DecodedVoice> {
  const rates = [LOUDNESS_RATE, ANALYSIS_RATE];
  const graph =
    '[0:a:0]aformat=sample_fmts=flt:channel_layouts=mono,asplit=2[s0][s1];' +
    rates.map((rate, index) => `[s${index}]aresample=${rate}[r${index}]`).join(';');
  const pipes = [1, 3];
  const mapping = pipes.flatMap((fd, index) => ['-map', `[r${index}]`, '-f', 'f32le', `pipe:${fd}`]);
  // An absolute path can never be read as a protocol ("http:…") or an option ("-…").
  const args = ['-nostdin', '-v', 'error', '-t', String(maxSeconds), '-i', path.resolve(file), '-filter_complex', graph, ...mapping];

  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegBinary(), args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    const outputs = rates.map((rate) => sampleSink(Math.round(rate * maxSeconds)));
    pipes.forEach((fd, index) => (child.stdio[fd] as Readable).on('data', (chunk: Buffer) => outputs[index]!.write(chunk)));
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(() => reject(new Error(VOICE_ANALYSIS_MESSAGES.timedOut, { cause: new Error(`ffmpeg killed after ${timeoutMs} ms decoding ${file}`) })));
    }, timeoutMs);
    child.once('error', (error) => settle(() => reject(error)));
    child.once('close', (code, signal) =>
      settle(() => {
        if (code !== 0) {
          reject(new Error(MEDIA_MESSAGES.unreadableMedia, { cause: new Error(`ffmpeg exited with ${code ?? signal} on ${file}: ${stderr.trim()}`) }));
          return;
        }
        const [at48k, at16k] = outputs.map((output) => output.samples()) as [Float32Array, Float32Array];
        resolve({ at48k, at16k });
      }),
    );
  });
}

/** Little-endian 32-bit floats from a pipe, copied once into a buffer of at most `maxSamples`. */
function sampleSink(maxSamples: number) {
  const bytes = new Uint8Array(maxSamples * 4);
  let length = 0;
  return {
    write(chunk: Buffer) {
      const taken = Math.min(chunk.length, bytes.length - length);
      bytes.set(taken === chunk.length ? chunk : chunk.subarray(0, taken), length);
      length += taken;
    },
    samples: () => new Float32Array(bytes.buffer, 0, length >> 2),
  };
}

// --- Voice and speech: from the pitch track, not from the level

/**
 * The tracked pitch with what is not a voice taken out: stretches too short to be a syllable, and
 * tones (TONE_MAX_STEP). Why not a level-based activity detector: a recording whose background never
 * goes quiet (a room, a hum, a phone's noise) has no "noise floor" to measure speech against, and a
 * real girl's speech came out as 0 s voiced that way; periodicity that moves like a voice is what
 * tells a voice from everything else.
 */
function voicePitch(tracked: Float32Array): Float32Array {
  const pitch = Float32Array.from(tracked);
  forEachRun(pitch, (start, end) => {
    if (end - start < MIN_VOICED_RUN_FRAMES || medianStep(pitch, start, end) < TONE_MAX_STEP) pitch.fill(0, start, end);
  });
  const voiced = count(pitch);
  const { low, high } = busiestBand(pitch, VOICE_BAND_OCTAVES);
  for (let k = 0; k < pitch.length; k++) if (pitch[k]! < low || pitch[k]! > high) pitch[k] = 0;
  if (count(pitch) < ONE_VOICE_SHARE * voiced) pitch.fill(0);
  return pitch;
}

/** The band `octaves` wide that holds the most voiced frames (its edges in Hz). */
function busiestBand(pitch: Float32Array, octaves: number): { low: number; high: number } {
  const logs = [...pitch].filter((hz) => hz > 0).map(Math.log2).sort((a, b) => a - b);
  let best = { frames: 0, low: 0 };
  for (let end = 0, start = 0; end < logs.length; end++) {
    while (logs[start]! < logs[end]! - octaves) start++;
    if (end - start + 1 > best.frames) best = { frames: end - start + 1, low: logs[start]! };
  }
  return { low: 2 ** best.low, high: 2 ** (best.low + octaves) };
}

/** Calls `visit(start, end)` for each run of consecutive voiced frames [start, end). */
function forEachRun(pitch: Float32Array, visit: (start: number, end: number) => void): void {
  let start = -1;
  for (let k = 0; k <= pitch.length; k++) {
    const voiced = k < pitch.length && pitch[k]! > 0;
    if (voiced && start < 0) start = k;
    if (!voiced && start >= 0) {
      visit(start, k);
      start = -1;
    }
  }
}

/** Median relative pitch change from one frame to the next within [start, end). */
function medianStep(pitch: Float32Array, start: number, end: number): number {
  const steps: number[] = [];
  for (let k = start + 1; k < end; k++) steps.push(Math.abs(pitch[k]! / pitch[k - 1]! - 1));
  return steps.length ? percentile(steps.sort((a, b) => a - b), 0.5) : 0;
}

/** Speech frames: the voiced ones, the gaps between them up to SPEECH_GAP_SECONDS, and a margin around. */
function speechAround(pitch: Float32Array): Uint8Array {
  const speech = Uint8Array.from(pitch, (hz) => (hz > 0 ? 1 : 0));
  fillGaps(speech, Math.round(SPEECH_GAP_SECONDS / HOP_SECONDS));
  const margin = Math.round(SPEECH_MARGIN_SECONDS / HOP_SECONDS);
  const voiced = Uint8Array.from(speech);
  for (let k = 0; k < voiced.length; k++) {
    if (!voiced[k]) continue;
    if (k === 0 || !voiced[k - 1]) speech.fill(1, Math.max(0, k - margin), k);
    if (k === voiced.length - 1 || !voiced[k + 1]) speech.fill(1, k + 1, Math.min(voiced.length, k + 1 + margin));
  }
  return speech;
}

function fillGaps(flags: Uint8Array, maxGap: number): void {
  let lastOn = -1;
  for (let k = 0; k < flags.length; k++) {
    if (!flags[k]) continue;
    if (lastOn >= 0 && k - lastOn - 1 <= maxGap) flags.fill(1, lastOn + 1, k);
    lastOn = k;
  }
}

// --- Loudness: ITU-R BS.1770-4 / EBU R128 integrated loudness of the mono mix

/** K-weighting at 48 kHz (BS.1770-4 tables 1 and 2): a high shelf (the head), then a high pass. */
const K_WEIGHTING = [
  { b: [1.53512485958697, -2.69169618940638, 1.19839281085285], a: [-1.69065929318241, 0.73248077421585] },
  { b: [1.0, -2.0, 1.0], a: [-1.99004745483398, 0.99007225036621] },
] as const;
const BLOCK_SECONDS = 0.4;
const BLOCK_STEP_SECONDS = 0.1;
const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;

/**
 * Integrated loudness in LUFS of 48 kHz mono samples; null when no 400 ms block passes the gates.
 * analyseVoice gives it the mono mix, so a stereo file with the same voice in both channels measures
 * 3 LU below what a stereo meter (which adds the channels' powers) would say.
 */
export function integratedLoudness(at48k: Float32Array): number | null {
  // K-weighted mean squares of 100 ms steps, in one pass; a 400 ms block is four consecutive steps.
  const [shelf, highPass] = K_WEIGHTING;
  const step = LOUDNESS_RATE * BLOCK_STEP_SECONDS;
  const stepPower = new Float64Array(Math.floor(at48k.length / step));
  // Filter state: the last two inputs (x), shelf outputs (m) and high-pass outputs (y).
  let x1 = 0;
  let x2 = 0;
  let m1 = 0;
  let m2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < stepPower.length * step; i++) {
    const x0 = at48k[i]!;
    const m0 = shelf.b[0] * x0 + shelf.b[1] * x1 + shelf.b[2] * x2 - shelf.a[0] * m1 - shelf.a[1] * m2;
    const y0 = highPass.b[0] * m0 + highPass.b[1] * m1 + highPass.b[2] * m2 - highPass.a[0] * y1 - highPass.a[1] * y2;
    x2 = x1;
    x1 = x0;
    m2 = m1;
    m1 = m0;
    y2 = y1;
    y1 = y0;
    stepPower[Math.floor(i / step)]! += y0 * y0;
  }
  const perBlock = BLOCK_SECONDS / BLOCK_STEP_SECONDS;
  const blocks: number[] = [];
  for (let j = 0; j + perBlock <= stepPower.length; j++) {
    let sum = 0;
    for (let i = j; i < j + perBlock; i++) sum += stepPower[i]!;
    blocks.push(sum / (perBlock * step));
  }
  const loudness = (power: number) => -0.691 + 10 * Math.log10(power);
  const aboveAbsolute = blocks.filter((power) => loudness(power) > ABSOLUTE_GATE_LUFS);
  if (!aboveAbsolute.length) return null;
  const relativeGate = loudness(mean(aboveAbsolute)) + RELATIVE_GATE_LU;
  const gated = aboveAbsolute.filter((power) => loudness(power) > relativeGate);
  return gated.length ? loudness(mean(gated)) : null;
}

// --- MFCC and the voice fingerprint

/**
 * Mel-frequency cepstral coefficients of mono samples, one array of `coefficients` values (c0 first)
 * per frame; frame m starts at sample m × hop (its centre is m × hop + frameLength / 2). Each frame is
 * Hamming-windowed, zero-padded to fftSize, its power spectrum |X|² (unnormalised) summed through
 * triangular mel filters (HTK mel scale) between lowHz and highHz, then the natural log of each band
 * (+1e-10) goes through an orthonormal DCT-II.
 */
export function mfcc(samples: Float32Array, options: Partial<MfccOptions> = {}): Float32Array[] {
  const { sampleRate, frameLength, hop, fftSize, filters, lowHz, highHz, coefficients } = { ...MFCC_DEFAULTS, ...options };
  const fft = new FFT(fftSize);
  const window = Float64Array.from({ length: frameLength }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (frameLength - 1)));
  const bank = melFilterbank(filters, fftSize, sampleRate, lowHz, highHz);
  const dct = Array.from({ length: coefficients }, (_, n) =>
    Float64Array.from({ length: filters }, (_, i) => Math.sqrt((n === 0 ? 1 : 2) / filters) * Math.cos((Math.PI * n * (i + 0.5)) / filters)),
  );
  const input = new Array<number>(fftSize).fill(0);
  const spectrum = fft.createComplexArray() as number[];
  const power = new Float64Array(fftSize / 2 + 1);
  const logBands = new Float64Array(filters);
  const frames: Float32Array[] = [];
  for (let start = 0; start + frameLength <= samples.length; start += hop) {
    for (let i = 0; i < frameLength; i++) input[i] = samples[start + i]! * window[i]!;
    fft.realTransform(spectrum, input);
    for (let bin = 0; bin < power.length; bin++) power[bin] = spectrum[2 * bin]! ** 2 + spectrum[2 * bin + 1]! ** 2;
    bank.forEach((filter, band) => {
      let energy = 0;
      for (let i = 0; i < filter.weights.length; i++) energy += filter.weights[i]! * power[filter.firstBin + i]!;
      logBands[band] = Math.log(energy + 1e-10);
    });
    const frame = new Float32Array(coefficients);
    dct.forEach((basis, n) => {
      let sum = 0;
      for (let i = 0; i < filters; i++) sum += basis[i]! * logBands[i]!;
      frame[n] = sum;
    });
    frames.push(frame);
  }
  return frames;
}

function melFilterbank(filters: number, fftSize: number, sampleRate: number, lowHz: number, highHz: number) {
  const toMel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
  const toHz = (mel: number) => 700 * (10 ** (mel / 2595) - 1);
  const binHz = sampleRate / fftSize;
  const edges = Array.from({ length: filters + 2 }, (_, i) => toHz(toMel(lowHz) + ((toMel(highHz) - toMel(lowHz)) * i) / (filters + 1)));
  return Array.from({ length: filters }, (_, band) => {
    const [left, centre, right] = [edges[band]!, edges[band + 1]!, edges[band + 2]!];
    const firstBin = Math.ceil(left / binHz);
    const lastBin = Math.min(fftSize / 2, Math.floor(right / binHz));
    const weights = Float64Array.from({ length: Math.max(0, lastBin - firstBin + 1) }, (_, i) => {
      const hz = (firstBin + i) * binHz;
      return Math.max(0, hz <= centre ? (hz - left) / (centre - left) : (right - hz) / (right - centre));
    });
    return { firstBin, weights };
  });
}

function voiceEmbedding(at16k: Float32Array, pitch: Float32Array, speech: Uint8Array): number[] {
  const cepstra = mfcc(at16k);
  const { hop, frameLength } = MFCC_DEFAULTS;
  // The MFCC frame whose centre is nearest grid point k (centred at k × hop).
  const cepstrumAt = (k: number) => cepstra[Math.round((k * hop - frameLength / 2) / hop)];
  const pick = (flags: ArrayLike<number>) =>
    Array.from({ length: flags.length }, (_, k) => k)
      .filter((k) => flags[k]! > 0)
      .map(cepstrumAt)
      .filter((frame): frame is Float32Array => frame !== undefined);
  let frames = pick(pitch);
  if (!frames.length) frames = pick(speech);
  if (!frames.length) frames = cepstra;

  const embedding = new Array<number>(VOICE_EMBEDDING_LAYOUT.length).fill(0);
  const { mfccMeans, mfccStds } = VOICE_EMBEDDING_LAYOUT;
  for (let c = 1; c <= mfccMeans.end - mfccMeans.start; c++) {
    const values = frames.map((frame) => frame[c]!);
    embedding[mfccMeans.start + c - 1] = values.length ? mean(values) : 0;
    embedding[mfccStds.start + c - 1] = standardDeviation(values);
  }
  const logPitch = [...pitch].filter((hz) => hz > 0).map((hz) => Math.log(hz));
  embedding[VOICE_EMBEDDING_LAYOUT.logPitchMean] = logPitch.length ? mean(logPitch) : 0;
  embedding[VOICE_EMBEDDING_LAYOUT.logPitchStd] = standardDeviation(logPitch);
  return embedding.map((value) => (Number.isFinite(value) ? round(value, 5) : 0));
}

// --- Small numeric helpers

/** How many entries are non-zero. */
function count(values: Uint8Array | Float32Array): number {
  let total = 0;
  for (const value of values) if (value) total++;
  return total;
}

/** The largest magnitude and how many samples reach CLIP_LEVEL. */
function peakAndClipped(samples: Float32Array): { peak: number; clipped: number } {
  let peak = 0;
  let clipped = 0;
  for (let i = 0; i < samples.length; i++) {
    const magnitude = Math.abs(samples[i]!);
    if (magnitude > peak) peak = magnitude;
    if (magnitude >= CLIP_LEVEL) clipped++;
  }
  return { peak, clipped };
}

function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

/** Population standard deviation; 0 for fewer than two values. */
function standardDeviation(values: number[]): number {
  if (values.length < 2) return 0;
  const average = mean(values);
  return Math.sqrt(mean(values.map((value) => (value - average) ** 2)));
}

/** Linear interpolation between the closest ranks of ascending values. */
function percentile(sorted: ArrayLike<number>, fraction: number): number {
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.min(sorted.length - 1, lower + 1);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
