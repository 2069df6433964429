// The renderer's voice stage: a template's narration moved towards a person's voice (pitch, spectral
// envelope, long-term spectrum, loudness), with exactly the narration's length and timing, and the mux
// that puts the converted audio under a video without touching its picture.
//
// Why these steps: a pitch shift that keeps the narrator's formants still sounds like the narrator, so
// the envelope is moved separately (the resampling trick: play the narration faster by the formant
// factor, which moves pitch and formants together, then let rubberband restore the tempo and set the
// pitch with formants preserved), and an equaliser matches what is left of the long-term spectrum.
// Everything runs at one low rate (RATE) in memory between ffmpeg runs, each with a time limit.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import FFT from 'fft.js';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { VOICE_WARNING_MESSAGES } from '../../../shared/voice-analysis';
import { ffmpegBinary, MEDIA_TIMEOUTS, MediaTimeoutError, runFfmpeg, runFfprobe } from '../../media/ffmpeg';
import { analyseVoice, type VoiceAnalysis, VOICE_EMBEDDING_LAYOUT } from '../voice-analysis';

/** Working rate: speech needs nothing above 11 kHz, and rubberband is ~2× faster here than at 44.1. */
export const RATE = 22_050;
/** The pitch ratio is kept in this range: a woman's narration (~220 Hz) to a low man's voice (~80 Hz)
 * is 0.36, a man's to a child's (~300 Hz) about 3; beyond that the voice breaks up. */
export const PITCH_RATIO_RANGE = [1 / 3, 3] as const;
/** An output pitch further than this from the person's (as a share) is made once more, corrected. */
export const PITCH_TOLERANCE = 0.02;
/**
 * The envelope is moved at most this far. Adult voices' formants differ by up to ~20 %; a child's are
 * ~1.3–1.5× an adult's (more against a man's). Measured on real voices: a woman's phrases against the
 * same phrases raised ×1.5 estimate 1.49; a man against that child-range voice, 1.5–1.6.
 */
export const FORMANT_FACTOR_RANGE = [0.7, 1.6] as const;
/** Equaliser gains, dB, either way: beyond this it boosts the recording's noise, not the voice. */
export const MAX_EQ_GAIN_DB = 12;
/** The equaliser's bands: 1/3 octave, centres 100 Hz … 8 kHz. */
export const EQ_BAND_CENTRES_HZ = Array.from({ length: 20 }, (_, i) => Math.round(100 * 2 ** (i / 3)));
/** The equaliser's filter length (s): 50 ms resolves 1/3-octave bands down to 100 Hz. Also its delay. */
const EQ_DELAY_SECONDS = 0.05;
/** Below this envelope correlation the measured timing of the shifted narration is not trusted. */
const MIN_SYNC_CORRELATION = 0.5;
/** The output may not peak above this: its few louder peaks are limited (never clipped). */
const PEAK_LIMIT = 0.97;
/**
 * The limiter takes at most this much off a peak; a voice that would need more is made quieter as a
 * whole instead. Why a limiter: a narration moved down an octave and more (a woman's to a low man's)
 * gains a few sharp peaks, and lowering the whole voice for them left it 1.7-3.1 dB quieter than the
 * narration (measured on eSpeak's takes, which vary run to run). Limited, the low man's take is within
 * 0.05 dB of the narration. On real voices 4 dB of limiting costs 1.1-1.6 dB of loudness, 6 dB 2.3-2.8.
 */
const MAX_LIMITING_DB = 6;
/** The limiter's look-ahead and release, each way (s): longer than a low voice's pitch period (12 ms at
 * 80 Hz), so the gain never changes within one cycle of the waveform. */
const LIMITER_SECONDS = 0.02;

export const VOICE_CONVERSION_MESSAGES = {
  /** The person's recording has no voice to copy (silence, noise, music). */
  noPersonVoice: `The voice recording has no voice to copy. ${VOICE_WARNING_MESSAGES.noVoice}`,
  /** The narration has no voice to change (music, silence): refused, never passed through unchanged. */
  noNarratorVoice: "No voice could be heard in the video's sound, so there is no voice to change. Make the video with Voice Swap turned off.",
  failed: 'Changing the voice failed. Please try again.',
  timedOut: 'Changing the voice took too long.',
} as const;

export type ConversionStage = 'decode' | 'analyse' | 'estimate' | 'shift' | 'equalise' | 'loudness' | 'encode' | 'verify';

export interface ConvertVoiceOptions {
  /** The narration: an audio file, or a video whose first audio stream is the narration. */
  narration: string;
  /** The person's voice recording. */
  person: string;
  /** `.wav` (16-bit PCM at RATE) or `.m4a` (AAC); the format follows the extension. */
  output: string;
  /** analyseVoice of the narration (its first minutes are enough), when already known. */
  narratorAnalysis?: VoiceAnalysis;
  /** analyseVoice of the person's recording, when already known (voice recordings are analysed on upload). */
  personAnalysis?: VoiceAnalysis;
  /** Overrides the estimated formant factor (1: envelope kept, a plain pitch shift). For comparisons. */
  formantFactor?: number;
  /** Apply the spectrum-matching equaliser. Default true; false for comparisons. */
  equalise?: boolean;
  /** Analyse the output to report its pitch and timbre (a few hundred ms for a minute). Default true. */
  verify?: boolean;
  /** 0..1 over the whole conversion, with the stage just finished. */
  onProgress?: (fraction: number, stage: ConversionStage) => void;
  signal?: AbortSignal;
}

export interface EqBand {
  hz: number;
  gainDb: number;
}

export interface ConversionReport {
  /** Person's median pitch over the narrator's, clamped to PITCH_RATIO_RANGE. */
  pitchRatio: number;
  /** How far the spectral envelope was moved (>1: formants up), clamped to FORMANT_FACTOR_RANGE. */
  formantFactor: number;
  /** The factor before clamping (from the two recordings' average spectra). */
  formantFactorEstimated: number;
  eqGains: EqBand[];
  narratorPitchHz: number | null;
  personPitchHz: number | null;
  /** Measured on the output (null when `verify` is false or no voice was found in it). */
  outputPitchHz: number | null;
  /** Distances between the means of MFCC 1–12 over voiced frames (the embedding's first 12 entries). */
  timbre: { outputToPerson: number; outputToNarrator: number; narratorToPerson: number } | null;
  /** The narration's loudness restored, its peaks limited. `peakLimited`: it would have taken more than
   * MAX_LIMITING_DB off the highest peak, so the voice was left that much quieter instead. */
  loudness: { narrationLufs: number | null; outputLufs: number | null; gainDb: number; peakLimited: boolean };
  narrationSeconds: number;
  outputSeconds: number;
  /** Timing of the converted audio against the narration, from their energy envelopes (>0: late), before
   * it was corrected; the output is shifted by it. */
  measuredShiftMs: number;
  /** What was limited or corrected, and why. */
  notes: string[];
  stagesMs: Record<ConversionStage | 'total', number>;
}

/**
 * Converts the narration towards the person's voice and writes `output`, exactly as long as the
 * narration (to the sample at RATE) and in sync with it. Rejects with a message a parent can read when
 * the person's recording has no voice (nothing to copy) or the narration has none (nothing to change:
 * a narration passed through unchanged would keep the actor's voice silently), when a file cannot be
 * read, or on a time limit.
 */
export async function convertVoice(options: ConvertVoiceOptions): Promise<ConversionReport> {
  const { signal, onProgress } = options;
  const started = performance.now();
  const stagesMs = { decode: 0, analyse: 0, estimate: 0, shift: 0, equalise: 0, loudness: 0, encode: 0, verify: 0, total: 0 };
  let lap = performance.now();
  let reported = 0;
  const done = (stage: ConversionStage, fraction: number) => {
    const now = performance.now();
    stagesMs[stage] += Math.round(now - lap);
    lap = now;
    signal?.throwIfAborted();
    // A corrected second take goes through the stages again; the bar does not go back.
    reported = Math.max(reported, fraction);
    onProgress?.(reported, stage);
  };
  const notes: string[] = [];

  const [narration, personSamples] = await Promise.all([
    decodeMono(options.narration, { signal }),
    decodeMono(options.person, { signal, maxSeconds: 31 }),
  ]);
  if (narration.length < RATE * 0.1) throw new Error(MEDIA_MESSAGES.unreadableMedia, { cause: new Error(`${options.narration}: no audio decoded`) });
  done('decode', 0.1);

  const narrationSeconds = narration.length / RATE;
  const [narrator, person] = await Promise.all([
    options.narratorAnalysis ?? analyseVoice(options.narration, { maxSeconds: Math.min(600, Math.ceil(narrationSeconds) + 1), timeoutMs: ffmpegTimeoutMs(narrationSeconds) }),
    options.personAnalysis ?? analyseVoice(options.person),
  ]);
  // analyseVoice finds no pitch exactly when it finds no voice (its `noVoice` warning).
  if (person.pitchMedianHz === null) {
    throw new Error(VOICE_CONVERSION_MESSAGES.noPersonVoice, { cause: new Error(`${options.person}: no voiced speech found`) });
  }
  done('analyse', 0.25);

  if (narrator.pitchMedianHz === null) {
    throw new Error(VOICE_CONVERSION_MESSAGES.noNarratorVoice, { cause: new Error(`${options.narration}: no voiced speech found`) });
  }
  let pitchRatio = clamp(person.pitchMedianHz / narrator.pitchMedianHz, ...PITCH_RATIO_RANGE);
  if (pitchRatio !== person.pitchMedianHz / narrator.pitchMedianHz) {
    notes.push(`The pitch ratio was limited to ${round(pitchRatio, 3)} (the voices are too far apart to move all the way).`);
  }

  const personSpectrum = averagePowerSpectrum(personSamples);
  const formantFactorEstimated = estimateFormantFactor(averagePowerSpectrum(narration), personSpectrum, { narrator: narrator.pitchMedianHz, person: person.pitchMedianHz });
  const formantFactor = round(options.formantFactor ?? clamp(formantFactorEstimated, ...FORMANT_FACTOR_RANGE), 3);
  done('estimate', 0.3);

  /** Shift, equalise, restore loudness and write the output, for one pitch ratio. */
  const makeOutput = async (ratio: number) => {
    let measuredShiftMs = 0;
    let eqGains: EqBand[] = [];
    const shifted = await filterMono(narration, shiftGraph(ratio, formantFactor), { signal });
    // rubberband's latency (and the resampler's) shows as a delay or an early start: measure it and undo it.
    const sync = syncOffsetMs(narration, shifted, RATE);
    if (sync.correlation >= MIN_SYNC_CORRELATION) measuredShiftMs = sync.offsetMs;
    else notes.push(`The converted voice's timing could not be checked (envelope correlation ${sync.correlation.toFixed(2)}): no shift applied.`);
    const aligned = fitLength(shifted, narration.length, Math.round((measuredShiftMs / 1000) * RATE));
    done('shift', 0.55);

    let converted = aligned;
    if (options.equalise ?? true) {
      eqGains = equaliserGains(bandLevels(aligned), bandLevels(personSamples));
      // firequalizer delays its output by its `delay` even in zero-phase mode (measured: ~50 ms late).
      const equalised = await filterMono(aligned, equaliserGraph(eqGains), { signal });
      converted = fitLength(equalised, narration.length, Math.round(EQ_DELAY_SECONDS * RATE));
    }
    done('equalise', 0.75);

    // Loudness back to the narration's (both measured with the same meter at RATE), its peaks limited;
    // measured once more after limiting, which takes a little loudness off with the peaks.
    const convertedLufs = integratedLoudnessAt(converted, RATE);
    let gainDb = narrationLufs !== null && convertedLufs !== null ? narrationLufs - convertedLufs : 0;
    let loud = restoreLoudness(converted, gainDb);
    const limitedLufs = integratedLoudnessAt(loud.output, RATE);
    if (narrationLufs !== null && limitedLufs !== null && !loud.peakLimited) {
      gainDb = loud.gainDb + narrationLufs - limitedLufs;
      loud = restoreLoudness(converted, gainDb);
    }
    const { output, peakLimited } = loud;
    gainDb = loud.gainDb;
    done('loudness', 0.8);

    await encode(output, options.output, { signal });
    done('encode', 0.9);
    return { output, measuredShiftMs, eqGains, gainDb, peakLimited };
  };
  const verify = async () => {
    const result = await analyseVoice(options.output, { maxSeconds: Math.min(600, Math.ceil(narrationSeconds) + 1), timeoutMs: ffmpegTimeoutMs(narrationSeconds) });
    done('verify', 1);
    return result;
  };

  const narrationLufs = integratedLoudnessAt(narration, RATE);
  let made = await makeOutput(pitchRatio);
  let outputAnalysis = (options.verify ?? true) ? await verify() : undefined;
  // The output's pitch is measured as the person's was. A large shift can land a few per cent off (the
  // shifter and the pitch tracker each round a little): then once more, with the ratio corrected by the
  // miss. Measured: the test's low man (−17 semitones) landed 1 to 5.8 % high depending on the take.
  const missed = outputAnalysis?.pitchMedianHz ? person.pitchMedianHz / outputAnalysis.pitchMedianHz : 1;
  if (Math.abs(missed - 1) > PITCH_TOLERANCE) {
    const corrected = clamp(pitchRatio * missed, ...PITCH_RATIO_RANGE);
    if (corrected !== pitchRatio) {
      notes.push(`The pitch landed ${round((1 / missed - 1) * 100, 1)} % off the person's: made again with the ratio corrected.`);
      pitchRatio = corrected;
      made = await makeOutput(pitchRatio);
      outputAnalysis = await verify();
    }
  }
  const { output, measuredShiftMs, eqGains, gainDb, peakLimited } = made;
  const outputLufs = integratedLoudnessAt(output, RATE);
  const outputPitchHz = outputAnalysis?.pitchMedianHz ?? null;
  const timbre: ConversionReport['timbre'] = outputAnalysis
    ? {
        outputToPerson: round(timbreDistance(outputAnalysis, person), 3),
        outputToNarrator: round(timbreDistance(outputAnalysis, narrator), 3),
        narratorToPerson: round(timbreDistance(narrator, person), 3),
      }
    : null;
  if (!outputAnalysis) done('verify', 1);
  stagesMs.total = Math.round(performance.now() - started);

  return {
    pitchRatio: round(pitchRatio, 4),
    formantFactor,
    formantFactorEstimated: round(formantFactorEstimated, 3),
    eqGains,
    narratorPitchHz: narrator.pitchMedianHz,
    personPitchHz: person.pitchMedianHz,
    outputPitchHz,
    timbre,
    loudness: {
      narrationLufs: narrationLufs === null ? null : round(narrationLufs, 2),
      outputLufs: outputLufs === null ? null : round(outputLufs, 2),
      gainDb: round(gainDb, 2),
      peakLimited,
    },
    narrationSeconds: round(narrationSeconds, 4),
    outputSeconds: round(output.length / RATE, 4),
    measuredShiftMs: round(measuredShiftMs, 1),
    notes,
    stagesMs,
  };
}

/** Euclidean distance between two analyses' MFCC 1–12 means over voiced frames. */
export function timbreDistance(a: Pick<VoiceAnalysis, 'embedding'>, b: Pick<VoiceAnalysis, 'embedding'>): number {
  const { start, end } = VOICE_EMBEDDING_LAYOUT.mfccMeans;
  let sum = 0;
  for (let i = start; i < end; i++) sum += (a.embedding[i]! - b.embedding[i]!) ** 2;
  return Math.sqrt(sum);
}

// --- The filter graphs

/**
 * The resampling trick: `asetrate` plays the narration faster by the formant factor (pitch, formants
 * and tempo all × factor), and rubberband slows it back (tempo 1/factor) and sets the pitch to
 * pitchRatio/factor of that with the envelope kept: pitch × pitchRatio, formants × factor, same length.
 */
export function shiftGraph(pitchRatio: number, formantFactor: number): string {
  const resample = formantFactor === 1 ? '' : `asetrate=${Math.round(RATE * formantFactor)},aresample=${RATE},`;
  return `${resample}rubberband=tempo=${1 / formantFactor}:pitch=${pitchRatio / formantFactor}:formant=preserved`;
}

function equaliserGraph(bands: EqBand[]): string {
  const entries = bands.map(({ hz, gainDb }) => `entry(${hz},${gainDb})`).join(';');
  // zero_phase: a linear-phase filter, delayed by EQ_DELAY_SECONDS (taken off afterwards). The
  // default scale (gains in dB, interpolated on a linear frequency axis): `scale=loglog` in the
  // npm-shipped 2018 build applied the first entry's gain at every frequency (measured on noise).
  return `firequalizer=gain_entry='${entries}':zero_phase=on:delay=${EQ_DELAY_SECONDS}`;
}

// --- Spectra: the formant factor and the equaliser

const SPECTRUM_FFT = 1024;
/** Frames more than this many dB below the loudest ones are pauses and left out of the average. */
const SPECTRUM_FRAME_RANGE_DB = 30;

/** Hann-windowed power spectra (SPECTRUM_FFT/2 + 1 bins at RATE) of half-overlapping frames, with each
 * frame's energy; silent frames are left out. Shared by the average spectrum and the band levels. */
function powerFrames(samples: Float32Array): { energy: number; power: Float64Array }[] {
  const fft = new FFT(SPECTRUM_FFT);
  const window = Float64Array.from({ length: SPECTRUM_FFT }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / SPECTRUM_FFT));
  const input = new Array<number>(SPECTRUM_FFT).fill(0);
  const out = fft.createComplexArray() as number[];
  const frames: { energy: number; power: Float64Array }[] = [];
  for (let start = 0; start + SPECTRUM_FFT <= samples.length; start += SPECTRUM_FFT / 2) {
    let energy = 0;
    for (let i = 0; i < SPECTRUM_FFT; i++) {
      input[i] = samples[start + i]! * window[i]!;
      energy += input[i]! ** 2;
    }
    if (energy === 0) continue;
    fft.realTransform(out, input);
    const power = new Float64Array(SPECTRUM_FFT / 2 + 1);
    for (let bin = 0; bin < power.length; bin++) power[bin] = out[2 * bin]! ** 2 + out[2 * bin + 1]! ** 2;
    frames.push({ energy, power });
  }
  return frames;
}

/** Long-term average power spectrum (SPECTRUM_FFT/2 + 1 bins at RATE) of the speech frames. */
export function averagePowerSpectrum(samples: Float32Array): Float64Array {
  const all = powerFrames(samples);
  const frames = all.map((frame) => frame.power);
  const energies = all.map((frame) => frame.energy);
  const average = new Float64Array(SPECTRUM_FFT / 2 + 1);
  if (!frames.length) return average;
  const threshold = Math.max(...energies) * 10 ** (-SPECTRUM_FRAME_RANGE_DB / 10);
  let used = 0;
  frames.forEach((power, index) => {
    if (energies[index]! < threshold) return;
    used++;
    for (let bin = 0; bin < power.length; bin++) average[bin]! += power[bin]!;
  });
  for (let bin = 0; bin < average.length; bin++) average[bin]! /= used;
  return average;
}

/** dB of a power spectrum smoothed over ±halfWidthHz (wider than the harmonics' spacing). */
function smoothedDb(power: Float64Array, halfWidthHz: number): Float64Array {
  const binHz = RATE / SPECTRUM_FFT;
  const half = Math.max(1, Math.round(halfWidthHz / binHz));
  return Float64Array.from(power, (_, bin) => {
    let sum = 0;
    let n = 0;
    for (let k = Math.max(0, bin - half); k <= Math.min(power.length - 1, bin + half); k++, n++) sum += power[k]!;
    return 10 * Math.log10(sum / n + 1e-20);
  });
}

const ENVELOPE_LOW_HZ = 300;
const ENVELOPE_HIGH_HZ = 5000;
/** A recording's band ends where its smoothed spectrum falls this far below its peak (a phone or an
 * 8 kHz file has nothing above 3.4–4 kHz: matching envelopes there would only match the cut-off). */
const BAND_EDGE_BELOW_PEAK_DB = 50;

/** The highest frequency (Hz) at which a smoothed dB spectrum is within BAND_EDGE_BELOW_PEAK_DB of its peak. */
function bandTopHz(db: Float64Array): number {
  const floor = Math.max(...db) - BAND_EDGE_BELOW_PEAK_DB;
  let top = db.length - 1;
  while (top > 0 && db[top]! < floor) top--;
  return (top * RATE) / SPECTRUM_FFT;
}

/**
 * How far the narrator's spectral envelope must move to lie on the person's: the factor α for which
 * narrator(f / α) best matches person(f) over 300 Hz–5 kHz (1/24-octave points), after taking out the
 * difference in level and in tilt (the equaliser's job). A grid search in 1 % steps over
 * FORMANT_FACTOR_RANGE widened by 10 % each way, so that a clamped estimate shows as such.
 */
export function estimateFormantFactor(narratorPower: Float64Array, personPower: Float64Array, pitchHz: { narrator?: number | null; person?: number | null } = {}): number {
  // Smoothed over ±150 Hz, or ±0.75 of the voice's pitch when higher, so that each voice's harmonics
  // blur into an envelope (a child's, 300 Hz apart, stay peaks at ±150 Hz and pull the match off).
  const halfWidth = (hz: number | null | undefined) => Math.max(150, 0.75 * (hz ?? 0));
  const narrator = smoothedDb(narratorPower, halfWidth(pitchHz.narrator));
  const person = smoothedDb(personPower, halfWidth(pitchHz.person));
  const binHz = RATE / SPECTRUM_FFT;
  const at = (db: Float64Array, hz: number) => {
    const position = Math.min(db.length - 1.001, hz / binHz);
    const lower = Math.floor(position);
    return db[lower]! + (db[lower + 1]! - db[lower]!) * (position - lower);
  };
  // Only where both recordings have sound (below the narrower band's top).
  const lowestFactor = FORMANT_FACTOR_RANGE[0] * 0.9;
  const top = Math.min(ENVELOPE_HIGH_HZ, 0.9 * bandTopHz(person), 0.9 * bandTopHz(narrator));
  const points: number[] = [];
  for (let hz = ENVELOPE_LOW_HZ; hz <= top; hz *= 2 ** (1 / 24)) points.push(hz);
  const x = points.map((hz) => Math.log2(hz));
  const target = points.map((hz) => at(person, hz));
  let best = { factor: 1, residual: Number.POSITIVE_INFINITY };
  for (let factor = lowestFactor; factor <= FORMANT_FACTOR_RANGE[1] * 1.1 + 1e-9; factor += 0.01) {
    const difference = points.map((hz, i) => at(narrator, hz / factor) - target[i]!);
    const residual = residualAfterLine(x, difference);
    if (residual < best.residual) best = { factor, residual };
  }
  return best.factor;
}

/** Sum of squared residuals of y after a least-squares line in x. */
function residualAfterLine(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
  }
  const slope = sxx ? sxy / sxx : 0;
  let residual = 0;
  for (let i = 0; i < n; i++) residual += (y[i]! - my - slope * (x[i]! - mx)) ** 2;
  return residual;
}

/** Frames more than this many dB below the loudest are left out of the band levels: the voiced
 * frames are the loud ones, and they are what a listener (and the timbre measure) hears as the voice. */
const BAND_FRAME_RANGE_DB = 20;

/**
 * Mean over the loud frames of each 1/3-octave band's level in dB (EQ_BAND_CENTRES_HZ below the band
 * edge). A mean of logs, not the log of a mean: an equaliser adds its gain to every frame's log
 * level, so this is the measure it moves one for one (and the one cepstral timbre measures average).
 */
export function bandLevels(samples: Float32Array): number[] {
  const binHz = RATE / SPECTRUM_FFT;
  const centres = EQ_BAND_CENTRES_HZ.filter((hz) => hz * 2 ** (1 / 6) < RATE / 2);
  const bands = centres.map((centre) => {
    const low = Math.max(1, Math.round((centre * 2 ** (-1 / 6)) / binHz));
    return { low, high: Math.max(low, Math.round((centre * 2 ** (1 / 6)) / binHz)) };
  });
  const frames = powerFrames(samples).map(({ energy, power }) => ({
    energy,
    levels: bands.map(({ low, high }) => {
      let sum = 0;
      for (let bin = low; bin <= high; bin++) sum += power[bin]!;
      return 10 * Math.log10(sum / (high - low + 1) + 1e-12);
    }),
  }));
  const threshold = Math.max(0, ...frames.map((frame) => frame.energy)) * 10 ** (-BAND_FRAME_RANGE_DB / 10);
  const loud = frames.filter((frame) => frame.energy >= threshold);
  return bands.map((_, band) => loud.reduce((sum, frame) => sum + frame.levels[band]!, 0) / (loud.length || 1));
}

/**
 * Per band: the person's level minus the converted narration's (bandLevels), less their median (the
 * level is the loudness stage's job), clamped to ±MAX_EQ_GAIN_DB.
 */
export function equaliserGains(convertedLevels: number[], personLevels: number[]): EqBand[] {
  const raw = convertedLevels.map((level, i) => personLevels[i]! - level);
  // The median, not the mean: a band one side lacks (a narrow-band recording's top) says nothing of the level.
  const sorted = [...raw].sort((a, b) => a - b);
  const offset = sorted.length ? (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2 : 0;
  return raw.map((difference, i) => ({ hz: EQ_BAND_CENTRES_HZ[i]!, gainDb: round(clamp(difference - offset, -MAX_EQ_GAIN_DB, MAX_EQ_GAIN_DB), 1) }));
}

// --- Timing: sync measured on energy envelopes

const ENVELOPE_HOP_SECONDS = 0.005;

/** Log energy per 5 ms hop (10 ms windows), floored 60 dB under the loudest hop. */
function logEnergyEnvelope(samples: Float32Array, sampleRate: number): Float64Array {
  const hop = Math.max(1, Math.round(sampleRate * ENVELOPE_HOP_SECONDS));
  const frames = Math.floor(samples.length / hop);
  const envelope = new Float64Array(frames);
  for (let k = 0; k < frames; k++) {
    let energy = 0;
    const end = Math.min(samples.length, (k + 2) * hop);
    for (let i = k * hop; i < end; i++) energy += samples[i]! ** 2;
    envelope[k] = energy / (end - k * hop);
  }
  const floor = Math.max(...envelope, 1e-20) * 1e-6;
  for (let k = 0; k < frames; k++) envelope[k] = Math.log10(envelope[k]! + floor);
  return envelope;
}

/**
 * How late `candidate` is against `reference` (ms; negative: early), from the peak of the normalised
 * cross-correlation of their energy envelopes within ±maxLagMs, refined between hops by a parabola.
 * `correlation` (−1..1) says how alike the two envelopes are at that lag: near 0, the figure means little.
 */
export function syncOffsetMs(reference: Float32Array, candidate: Float32Array, sampleRate: number, maxLagMs = 500): { offsetMs: number; correlation: number } {
  const a = centred(logEnergyEnvelope(reference, sampleRate));
  const b = centred(logEnergyEnvelope(candidate, sampleRate));
  const hopMs = ENVELOPE_HOP_SECONDS * 1000;
  const maxLag = Math.round(maxLagMs / hopMs);
  const correlationAt = (lag: number) => {
    let sum = 0;
    let aa = 0;
    let bb = 0;
    for (let k = Math.max(0, -lag); k < a.length && k + lag < b.length; k++) {
      sum += a[k]! * b[k + lag]!;
      aa += a[k]! ** 2;
      bb += b[k + lag]! ** 2;
    }
    return aa && bb ? sum / Math.sqrt(aa * bb) : 0;
  };
  const values = new Map<number, number>();
  let bestLag = 0;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    values.set(lag, correlationAt(lag));
    if (values.get(lag)! > values.get(bestLag)! || !values.has(bestLag)) bestLag = lag;
  }
  const [left, centre, right] = [values.get(bestLag - 1), values.get(bestLag)!, values.get(bestLag + 1)];
  let refined = bestLag;
  if (left !== undefined && right !== undefined && left - 2 * centre + right < 0) refined += (0.5 * (left - right)) / (left - 2 * centre + right);
  return { offsetMs: refined * hopMs, correlation: centre };
}

/** syncOffsetMs of two files' first audio streams (decoded to 8 kHz mono, at most `maxSeconds`). */
export async function measureSyncOffset(referenceFile: string, candidateFile: string, options: { maxSeconds?: number; maxLagMs?: number } = {}) {
  const rate = 8000;
  const [reference, candidate] = await Promise.all(
    [referenceFile, candidateFile].map((file) => decodeMono(file, { rate, maxSeconds: options.maxSeconds ?? 600 })),
  );
  return syncOffsetMs(reference!, candidate!, rate, options.maxLagMs);
}

function centred(values: Float64Array): Float64Array {
  const average = values.reduce((a, b) => a + b, 0) / (values.length || 1);
  return values.map((value) => value - average);
}

/** `samples` moved earlier by `lateBy` samples (later when negative), then cut or padded with silence to `length`. */
function fitLength(samples: Float32Array, length: number, lateBy: number): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const from = i + lateBy;
    if (from >= 0 && from < samples.length) out[i] = samples[from]!;
  }
  return out;
}

// --- Loudness: BS.1770 integrated loudness at any rate (the K-weighting filters designed for it)

/** Integrated loudness (LUFS, gated as BS.1770-4) of mono samples at `sampleRate`; null when all is below −70. */
export function integratedLoudnessAt(samples: Float32Array, sampleRate: number): number | null {
  // The K-weighting's two stages from their analogue definitions (as pyloudnorm designs them): a
  // +4 dB high shelf at 1,500 Hz and a 38 Hz high pass, so the meter reads the same at any rate.
  const shelf = biquad('highshelf', 1500, 1 / Math.SQRT2, 4, sampleRate);
  const highPass = biquad('highpass', 38, 0.5, 0, sampleRate);
  const step = Math.round(sampleRate * 0.1);
  const steps = new Float64Array(Math.floor(samples.length / step));
  const s1 = [0, 0, 0, 0];
  const s2 = [0, 0, 0, 0];
  for (let i = 0; i < steps.length * step; i++) {
    const m = runBiquad(shelf, s1, samples[i]!);
    const y = runBiquad(highPass, s2, m);
    steps[Math.floor(i / step)]! += y * y;
  }
  const blocks: number[] = [];
  for (let j = 0; j + 4 <= steps.length; j++) blocks.push((steps[j]! + steps[j + 1]! + steps[j + 2]! + steps[j + 3]!) / (4 * step));
  const lufs = (power: number) => -0.691 + 10 * Math.log10(power);
  const loud = blocks.filter((power) => lufs(power) > -70);
  if (!loud.length) return null;
  const gate = lufs(loud.reduce((a, b) => a + b, 0) / loud.length) - 10;
  const gated = loud.filter((power) => lufs(power) > gate);
  return gated.length ? lufs(gated.reduce((a, b) => a + b, 0) / gated.length) : null;
}

interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

function biquad(kind: 'highshelf' | 'highpass', hz: number, q: number, gainDb: number, sampleRate: number): Biquad {
  const w0 = (2 * Math.PI * hz) / sampleRate;
  const alpha = Math.sin(w0) / (2 * q);
  const cos = Math.cos(w0);
  let b: [number, number, number];
  let a: [number, number, number];
  if (kind === 'highshelf') {
    const A = 10 ** (gainDb / 40);
    const root = 2 * Math.sqrt(A) * alpha;
    b = [A * (A + 1 + (A - 1) * cos + root), -2 * A * (A - 1 + (A + 1) * cos), A * (A + 1 + (A - 1) * cos - root)];
    a = [A + 1 - (A - 1) * cos + root, 2 * (A - 1 - (A + 1) * cos), A + 1 - (A - 1) * cos - root];
  } else {
    b = [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2];
    a = [1 + alpha, -2 * cos, 1 - alpha];
  }
  return { b0: b[0] / a[0], b1: b[1] / a[0], b2: b[2] / a[0], a1: a[1] / a[0], a2: a[2] / a[0] };
}

/** One sample through a biquad; state is [x1, x2, y1, y2]. */
function runBiquad(f: Biquad, state: number[], x: number): number {
  const y = f.b0 * x + f.b1 * state[0]! + f.b2 * state[1]! - f.a1 * state[2]! - f.a2 * state[3]!;
  state[1] = state[0]!;
  state[0] = x;
  state[3] = state[2]!;
  state[2] = y;
  return y;
}

// --- ffmpeg: decode, filter and encode through pipes, each run with a time limit

/** Time limit for one ffmpeg run over `seconds` of audio: generous (a busy machine), but bounded. */
function ffmpegTimeoutMs(seconds: number): number {
  return 30_000 + Math.round(seconds * 2000);
}

interface PipeRun {
  args: string[];
  input?: Float32Array;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Samples expected on stdout (an upper bound; more is dropped). 0 when ffmpeg writes a file. */
  maxSamples: number;
  /** The message when ffmpeg fails (a file it cannot read, or our own processing). */
  failure: string;
}

/** Runs ffmpeg with f32le mono samples in on stdin (if any) and out on stdout. */
function runPiped({ args, input, timeoutMs, signal, maxSamples, failure }: PipeRun): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const child = spawn(ffmpegBinary(), [...(input ? [] : ['-nostdin']), '-v', 'error', ...args], { stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    // Chunks kept as they come (a long narration is not allocated up front), at most maxSamples.
    const chunks: Buffer[] = [];
    let length = 0;
    (child.stdout as Readable).on('data', (chunk: Buffer) => {
      const taken = Math.min(chunk.length, maxSamples * 4 - length);
      if (taken <= 0) return;
      chunks.push(taken === chunk.length ? chunk : chunk.subarray(0, taken));
      length += taken;
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(() => reject(new Error(VOICE_CONVERSION_MESSAGES.timedOut, { cause: new MediaTimeoutError('ffmpeg', timeoutMs) })));
    }, timeoutMs);
    const onAbort = () => {
      child.kill('SIGKILL');
      settle(() => reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted')));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => settle(() => reject(error)));
    child.once('close', (code, killedBy) =>
      settle(() => {
        if (code !== 0) {
          reject(new Error(failure, { cause: new Error(`ffmpeg exited with ${code ?? killedBy}: ${stderr.trim()}`) }));
          return;
        }
        const samples = new Float32Array(length >> 2);
        new Uint8Array(samples.buffer).set(Buffer.concat(chunks, samples.byteLength).subarray(0, samples.byteLength));
        resolve(samples);
      }),
    );
    if (input) {
      const stdin = child.stdin as Writable;
      stdin.on('error', () => {}); // ffmpeg failing closes stdin early: its exit code says why.
      stdin.end(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
    }
  });
}

const F32 = ['-f', 'f32le', '-ac', '1'];

/** The first audio stream of `file` as mono floats at `rate` (at most `maxSeconds`, default 3 hours). */
function decodeMono(file: string, options: { rate?: number; maxSeconds?: number; signal?: AbortSignal } = {}): Promise<Float32Array> {
  const rate = options.rate ?? RATE;
  const maxSeconds = options.maxSeconds ?? 3 * 3600;
  // An absolute path can never be read as a protocol ("http:…") or an option ("-…").
  return runPiped({
    args: ['-threads', '1', '-t', String(maxSeconds), '-i', path.resolve(file), '-map', '0:a:0', '-af', `aresample=${rate}`, ...F32, '-ar', String(rate), 'pipe:1'],
    timeoutMs: ffmpegTimeoutMs(Math.min(maxSeconds, 600)),
    signal: options.signal,
    maxSamples: Math.ceil(rate * maxSeconds) + rate,
    failure: MEDIA_MESSAGES.unreadableMedia,
  });
}

/** `samples` (mono at RATE) through an ffmpeg audio filter graph. */
function filterMono(samples: Float32Array, graph: string, options: { signal?: AbortSignal }): Promise<Float32Array> {
  return runPiped({
    // Fixed 1024-sample frames into the graph: read from a pipe, ffmpeg's frames are as long as each read
    // happened to be, and rubberband (real-time mode in ffmpeg) works frame by frame; fixed frames make
    // the result depend on the input only, not on how busy the machine was.
    args: [...F32, '-ar', String(RATE), '-i', 'pipe:0', '-af', `asetnsamples=n=1024:p=0,${graph}`, ...F32, '-ar', String(RATE), 'pipe:1'],
    input: samples,
    timeoutMs: ffmpegTimeoutMs(samples.length / RATE),
    signal: options.signal,
    // rubberband may return a little more than it was given; fitLength trims it.
    maxSamples: Math.ceil(samples.length * 1.5) + RATE,
    failure: VOICE_CONVERSION_MESSAGES.failed,
  });
}

async function encode(samples: Float32Array, output: string, options: { signal?: AbortSignal }): Promise<void> {
  const codec = /\.wav$/i.test(output) ? ['-c:a', 'pcm_s16le', '-f', 'wav'] : ['-c:a', 'aac', '-b:a', '96k', '-ar', '44100', '-movflags', '+faststart', '-f', 'mp4'];
  await runPiped({
    args: ['-y', ...F32, '-ar', String(RATE), '-i', 'pipe:0', ...codec, path.resolve(output)],
    input: samples,
    timeoutMs: ffmpegTimeoutMs(samples.length / RATE),
    signal: options.signal,
    maxSamples: 0,
    failure: VOICE_CONVERSION_MESSAGES.failed,
  });
}

/**
 * Replaces a video's audio: the video stream copied bit for bit, the audio (first stream of
 * `audioFile`) encoded to AAC, faststart. The audio is padded with silence and cut at the video
 * stream's length (`apad,atrim`): a shorter audio never cuts the picture, a longer one ends with it.
 * (`apad` with `-shortest` overran a 12 s video by 170 ms: the output ran longer than the template.)
 */
export async function muxAudio(videoFile: string, audioFile: string, outputFile: string, options: { timeoutMs?: number } = {}): Promise<void> {
  const video = path.resolve(videoFile);
  const { stdout } = await runFfprobe(
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=duration:format=duration', '-of', 'json', video],
    { timeoutMs: MEDIA_TIMEOUTS.probeMs },
  );
  const json = JSON.parse(stdout) as { streams?: { duration?: string }[]; format?: { duration?: string } };
  const seconds = Number(json.streams?.[0]?.duration ?? json.format?.duration);
  if (!json.streams?.length || !(seconds > 0)) throw new Error(MEDIA_MESSAGES.unreadableMedia, { cause: new Error(`${videoFile}: no video stream with a duration`) });
  await runFfmpeg(
    [
      '-nostdin', '-v', 'error', '-y', '-i', video, '-i', path.resolve(audioFile),
      '-map', '0:v:0', '-map', '1:a:0', '-c:v', 'copy', '-af', `apad,atrim=end=${seconds}`, '-c:a', 'aac', '-b:a', '128k',
      '-movflags', '+faststart', path.resolve(outputFile),
    ],
    { timeoutMs: options.timeoutMs ?? 10 * 60_000 },
  );
}

/**
 * `samples` made `gainDb` louder, peaks above PEAK_LIMIT limited. `peakLimited`: the limiter would have
 * had to take more than MAX_LIMITING_DB off the highest peak, so the gain was lowered to that.
 */
function restoreLoudness(samples: Float32Array, gainDb: number): { output: Float32Array; gainDb: number; peakLimited: boolean } {
  const peak = peakOf(samples);
  const peakLimited = peak > 0 && 20 * Math.log10((peak * 10 ** (gainDb / 20)) / PEAK_LIMIT) > MAX_LIMITING_DB;
  if (peakLimited) gainDb = 20 * Math.log10(PEAK_LIMIT / peak) + MAX_LIMITING_DB;
  const gain = 10 ** (gainDb / 20);
  const output = samples.map((sample) => sample * gain);
  return { output: limitPeaks(output, PEAK_LIMIT, Math.round(LIMITER_SECONDS * RATE)), gainDb, peakLimited };
}

/**
 * A look-ahead limiter: each sample's gain is the least any peak within `reach` samples needs, averaged
 * over the same reach either way, so the gain ramps down before a peak and back up after it, and every
 * sample ends at or under `limit` (each gain averaged at a peak is at most what that peak needs).
 */
export function limitPeaks(samples: Float32Array, limit: number, reach: number): Float32Array {
  const n = samples.length;
  const need = new Float64Array(n);
  for (let i = 0; i < n; i++) need[i] = Math.min(1, limit / Math.max(Math.abs(samples[i]!), 1e-12));
  if (need.every((gain) => gain === 1)) return samples;
  const least = slidingMinimum(need, reach);
  // A running sum gives each window's mean; the window is cut at the ends (fewer samples, same rule).
  const sums = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) sums[i + 1] = sums[i]! + least[i]!;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const from = Math.max(0, i - reach);
    const to = Math.min(n, i + reach + 1);
    out[i] = (samples[i]! * (sums[to]! - sums[from]!)) / (to - from);
  }
  return out;
}

/** The least value within `reach` either way of each index (a monotonic queue: linear time). */
function slidingMinimum(values: Float64Array, reach: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let j = 0; j < n + reach; j++) {
    if (j < n) {
      while (tail > head && values[queue[tail - 1]!]! >= values[j]!) tail--;
      queue[tail++] = j;
    }
    const i = j - reach;
    if (i < 0) continue;
    while (queue[head]! < i - reach) head++;
    out[i] = values[queue[head]!]!;
  }
  return out;
}

function peakOf(samples: Float32Array): number {
  let peak = 0;
  for (let i = 0; i < samples.length; i++) peak = Math.max(peak, Math.abs(samples[i]!));
  return peak;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
