// The voice analysis on audio made at test time: synthetic voices of known pitch and pauses (ffmpeg),
// eSpeak NG voices, and bad recordings. Pitch is checked against the truth and against an
// autocorrelation estimate computed here, independently of the tracker. Real people's recordings are
// in real-voices.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_MESSAGES } from '../../shared/media-rules';
import { VOICE_ANALYSIS_MESSAGES, type VoiceWarningCode } from '../../shared/voice-analysis';
import { ffmpegBinary } from '../media/ffmpeg';
import { closeSpeech, speak } from '../media/speech';
import { type VoiceAnalysis, VOICE_EMBEDDING_LAYOUT, analyseVoice, mfcc, toVoiceAnalysisSummary } from './voice-analysis';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'familystar-voice-analysis-'));
});
afterAll(async () => {
  await closeSpeech();
  rmSync(dir, { recursive: true, force: true });
});

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', ...args]);
}

/** Formant centres (Hz) of two vowels: "ah" and "ee". */
const VOWEL_AH = [700, 1200, 2600];
const VOWEL_EE = [300, 2300, 3000];

interface SyntheticVoice {
  f0: number;
  formants?: number[];
  seconds?: number;
  /** The voice sounds for `on` seconds of every `period` (the rest is a pause with faint noise). */
  on?: number;
  period?: number;
  /** Added to a normal level of about −21 LUFS; past full scale the 16-bit WAV or Opus clips hard. */
  gainDb?: number;
  format?: 'wav' | 'webm';
}

/**
 * A vowel-like voice: a sawtooth (a glottal pulse train's 1/n harmonics) whose pitch wavers ±2 % at
 * 5.5 Hz around f0 (a voice's pitch is never still; a perfectly steady one is a tone, and the analysis
 * says so), with a syllable-rate level swing, low-passed and shaped by three formant peaks, in bursts
 * with pauses. The median pitch is f0.
 */
function syntheticVoice(name: string, voice: SyntheticVoice): string {
  const { f0, formants = VOWEL_AH, seconds = 10, on = 1.5, period = 2.5, gainDb = 0, format = 'wav' } = voice;
  // The phase of a pitch f0·(1 + 0.02·sin(2π·5.5·t)).
  const phase = `${f0}*t-${(0.02 * f0) / (2 * Math.PI * 5.5)}*cos(2*PI*5.5*t)`;
  const source = `(2*mod(${phase}\\,1)-1)*lt(mod(t\\,${period})\\,${on})*(0.7+0.3*sin(2*PI*3*t))+0.003*(2*random(0)-1)`;
  const widths = [120, 150, 200];
  const gains = [18, 15, 12];
  const shape = formants.map((hz, i) => `equalizer=f=${hz}:width_type=h:width=${widths[i]}:g=${gains[i]}`);
  const file = path.join(dir, `${name}.${format}`);
  const codec = format === 'wav' ? ['-ar', '44100', '-c:a', 'pcm_s16le'] : ['-c:a', 'libopus', '-b:a', '48k'];
  ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=exprs='${source}':s=48000:d=${seconds}`, '-af', ['lowpass=f=4000', ...shape, `volume=${gainDb - 16}dB`].join(','), ...codec, file]);
  return file;
}

function decode16k(file: string): Float32Array {
  const bytes = execFileSync(ffmpegBinary(), ['-v', 'error', '-i', file, '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'], { maxBuffer: 64 * 1024 * 1024 });
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

/**
 * Median pitch by plain normalised autocorrelation on 40 ms frames of the 16 kHz decode: frames within
 * 20 dB of the loudest, lags for 60–500 Hz, the shortest lag whose correlation is within 10 % of the
 * best (so a multiple of the period does not win), refined by a parabola. Nothing shared with YIN.
 */
function autocorrelationPitch(samples: Float32Array, rate = 16_000): number | null {
  const frame = 640;
  const hop = 160;
  const minLag = Math.floor(rate / 500);
  const maxLag = Math.ceil(rate / 60);
  const energyOf = (start: number) => {
    let sum = 0;
    for (let i = start; i < start + frame; i++) sum += samples[i]! ** 2;
    return sum;
  };
  const starts: number[] = [];
  for (let start = 0; start + frame + maxLag <= samples.length; start += hop) starts.push(start);
  const loudest = Math.max(...starts.map(energyOf));
  const estimates: number[] = [];
  for (const start of starts) {
    const energy = energyOf(start);
    if (energy < loudest / 100) continue;
    const r = new Float64Array(maxLag + 2);
    for (let lag = minLag - 1; lag <= maxLag + 1; lag++) {
      let cross = 0;
      let shifted = 0;
      for (let i = start; i < start + frame; i++) {
        cross += samples[i]! * samples[i + lag]!;
        shifted += samples[i + lag]! ** 2;
      }
      r[lag] = cross / Math.sqrt(energy * shifted + 1e-20);
    }
    let best = minLag;
    for (let lag = minLag; lag <= maxLag; lag++) if (r[lag]! > r[best]!) best = lag;
    if (r[best]! < 0.8) continue;
    let lag = minLag;
    while (!(r[lag]! >= 0.9 * r[best]! && r[lag]! >= r[lag - 1]! && r[lag]! >= r[lag + 1]!)) lag++;
    const [a, b, c] = [r[lag - 1]!, r[lag]!, r[lag + 1]!];
    const refined = lag + (a - c) / (2 * (a - 2 * b + c) || 1);
    estimates.push(rate / refined);
  }
  if (!estimates.length) return null;
  estimates.sort((x, y) => x - y);
  return estimates[estimates.length >> 1]!;
}

/** ffmpeg's own EBU R128 scanner, as a second opinion on the loudness: the summary's "I: … LUFS". */
function ffmpegLoudness(file: string): number {
  const { stderr } = spawnSync(ffmpegBinary(), ['-hide_banner', '-nostats', '-i', file, '-af', 'ebur128', '-f', 'null', '-'], { encoding: 'utf8' });
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]);
}

const codes = (analysis: VoiceAnalysis): VoiceWarningCode[] => analysis.warnings.map((warning) => warning.code);
const relativeError = (measured: number, truth: number) => Math.abs(measured - truth) / truth;

describe('analyseVoice on synthetic voices of known pitch', () => {
  it.each([
    { f0: 110, format: 'wav' as const },
    { f0: 220, format: 'wav' as const },
    { f0: 110, format: 'webm' as const },
  ])('finds $f0 Hz ($format) within 5 % of the truth and of an autocorrelation estimate', async ({ f0, format }) => {
    const file = syntheticVoice(`voice-${f0}`, { f0, format });
    const analysis = await analyseVoice(file);
    const independent = autocorrelationPitch(decode16k(file));

    expect(independent).not.toBeNull();
    expect(relativeError(independent!, f0)).toBeLessThan(0.05);
    expect(relativeError(analysis.pitchMedianHz!, f0)).toBeLessThan(0.05);
    expect(relativeError(analysis.pitchMedianHz!, independent!)).toBeLessThan(0.05);
    // A pitch wavering ±2 %: the 10th and 90th percentiles sit close to the median.
    expect(relativeError(analysis.pitchLowHz!, f0)).toBeLessThan(0.05);
    expect(relativeError(analysis.pitchHighHz!, f0)).toBeLessThan(0.05);
    // 1.5 s of voice in every 2.5 s.
    expect(analysis.speechShare).toBeGreaterThan(0.55);
    expect(analysis.speechShare).toBeLessThan(0.68);
    expect(analysis.duration).toBeCloseTo(10, 1);
    expect(Math.abs(analysis.loudnessLufs! - ffmpegLoudness(file))).toBeLessThan(0.5);
    expect(analysis.warnings).toEqual([]);
  });
});

describe('analyseVoice on eSpeak NG voices', () => {
  const story = 'Once upon a time a little bear lived by the river with his mother. Every morning they caught fish, and every evening they told stories by the fire.';

  it('measures a low and a high voice within 5 % of an autocorrelation estimate, in the right order', async () => {
    const voices = [
      { name: 'low', settings: { voice: 'en-us+m3', pitch: 35 } },
      { name: 'high', settings: { voice: 'en-us+f3', pitch: 70 } },
    ];
    const medians: number[] = [];
    for (const { name, settings } of voices) {
      const file = path.join(dir, `espeak-${name}.wav`);
      await speak(story, settings, file);
      const analysis = await analyseVoice(file);
      const independent = autocorrelationPitch(decode16k(file));
      expect(independent).not.toBeNull();
      expect(relativeError(analysis.pitchMedianHz!, independent!)).toBeLessThan(0.05);
      expect(analysis.pitchLowHz!).toBeLessThan(analysis.pitchMedianHz!);
      expect(analysis.pitchHighHz!).toBeGreaterThan(analysis.pitchMedianHz!);
      expect(analysis.warnings).toEqual([]);
      medians.push(analysis.pitchMedianHz!);
    }
    expect(medians[1]! / medians[0]!).toBeGreaterThan(1.5);
  });
});

describe('analyseVoice on bad recordings', () => {
  it('silence: no voice, no pitch, no speech, no loudness', async () => {
    const file = path.join(dir, 'silence.wav');
    ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono', '-t', '8', file]);
    const analysis = await analyseVoice(file);
    expect(analysis.pitchMedianHz).toBeNull();
    expect(analysis.pitchLowHz).toBeNull();
    expect(analysis.pitchHighHz).toBeNull();
    expect(analysis.speechShare).toBeLessThan(0.05);
    expect(analysis.loudnessLufs).toBeNull();
    expect(analysis.peakDb).toBeNull();
    expect(codes(analysis)).toEqual(['tooQuiet', 'noVoice']);
  });

  it('white noise: steady, so no speech and no voice', async () => {
    const file = path.join(dir, 'noise.wav');
    ffmpeg(['-f', 'lavfi', '-i', 'anoisesrc=d=8:c=white:a=0.1', file]);
    const analysis = await analyseVoice(file);
    expect(analysis.speechShare).toBeLessThan(0.05);
    expect(analysis.pitchMedianHz).toBeNull();
    expect(codes(analysis)).toEqual(['noVoice']);
  });

  it('a held chord of tones: steady, so no speech and no voice', async () => {
    const file = path.join(dir, 'chord.wav');
    ffmpeg(['-f', 'lavfi', '-i', "aevalsrc=exprs='0.1*(sin(2*PI*261.6*t)+sin(2*PI*329.6*t)+sin(2*PI*392*t))':d=8", file]);
    const analysis = await analyseVoice(file);
    expect(analysis.speechShare).toBeLessThan(0.05);
    expect(analysis.pitchMedianHz).toBeNull();
    expect(codes(analysis)).toEqual(['noVoice']);
  });

  it('a chord struck every second (music-like): its pitch never moves, so no voice', async () => {
    const file = path.join(dir, 'strummed.wav');
    const notes = [261.6, 329.6, 392].map((hz) => `sin(2*PI*${hz}*t)`).join('+');
    ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=exprs='0.1*(${notes})*exp(-4*mod(t\\,1))':d=8`, file]);
    const analysis = await analyseVoice(file);
    // C, E and G repeat together every 1/65.4 s (the C two octaves down) and rise and fall like
    // syllables, but that 65.4 Hz never moves, as a voice's pitch always does.
    expect(analysis.pitchMedianHz).toBeNull();
    expect(codes(analysis)).toEqual(['noVoice']);
  });

  it('a melody of piano-like notes: no voice', async () => {
    const file = path.join(dir, 'melody.wav');
    // Twinkle, twinkle: 0.4 s notes with three harmonics and a decay.
    const notes = [262, 262, 392, 392, 440, 440, 392, 349, 349, 330, 330, 294, 294, 262];
    const pitch = notes.map((hz, i) => `${hz}*between(t\\,${(i * 0.4).toFixed(1)}\\,${(i * 0.4 + 0.399).toFixed(3)})`).join('+');
    const tone = (n: number) => `sin(${2 * n}*PI*(${pitch})*mod(t\\,0.4))`;
    ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=exprs='0.3*exp(-5*mod(t\\,0.4))*(${tone(1)}+0.5*${tone(2)}+0.25*${tone(3)})':d=5.6:s=16000`, file]);
    const analysis = await analyseVoice(file);
    expect(analysis.pitchMedianHz).toBeNull();
    expect(codes(analysis)).toEqual(['noVoice']);
  });

  it.each([50, 60])('mains hum at %i Hz with its harmonics: no voice', async (hz) => {
    const file = path.join(dir, `hum-${hz}.wav`);
    const harmonics = [0.05, 0.2, 0.1, 0.05].map((gain, i) => `${gain}*sin(2*PI*${hz * (i + 1)}*t)`).join('+');
    ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=exprs='${harmonics}':d=6:s=16000`, file]);
    const analysis = await analyseVoice(file);
    expect(analysis.pitchMedianHz).toBeNull();
    expect(codes(analysis)).toEqual(['noVoice']);
  });

  it('a voice 45 dB too quiet: too quiet, yet its pitch is still found', async () => {
    const file = syntheticVoice('quiet', { f0: 110, gainDb: -45 });
    const analysis = await analyseVoice(file);
    expect(codes(analysis)).toEqual(['tooQuiet']);
    expect(relativeError(analysis.pitchMedianHz!, 110)).toBeLessThan(0.05);
  });

  it.each(['wav', 'webm'] as const)('a voice 30 dB too loud, hard clipped (%s): distorted', async (format) => {
    const file = syntheticVoice('clipped', { f0: 110, gainDb: 30, format });
    const analysis = await analyseVoice(file);
    expect(codes(analysis)).toEqual(['clipped']);
    expect(analysis.clippedShare).toBeGreaterThan(0.05);
  });

  it('a voice in a short burst: little speech', async () => {
    const file = syntheticVoice('burst', { f0: 150, seconds: 8, on: 2, period: 8 });
    const analysis = await analyseVoice(file);
    expect(analysis.speechShare).toBeLessThan(0.4);
    expect(codes(analysis)).toEqual(['littleSpeech']);
  });

  it('garbage bytes: rejects with the unreadable-media message', async () => {
    const file = path.join(dir, 'garbage.webm');
    writeFileSync(file, Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 251)));
    await expect(analyseVoice(file)).rejects.toThrow(MEDIA_MESSAGES.unreadableMedia);
  });

  it('a recording cut off after its first kilobytes: rejects as too short', async () => {
    const whole = syntheticVoice('whole', { f0: 110, format: 'webm' });
    const file = path.join(dir, 'truncated.webm');
    writeFileSync(file, readFileSync(whole).subarray(0, 3000));
    await expect(analyseVoice(file)).rejects.toThrow(VOICE_ANALYSIS_MESSAGES.tooShort);
  });

  it('a missing file: rejects', async () => {
    await expect(analyseVoice(path.join(dir, 'nowhere.webm'))).rejects.toThrow(MEDIA_MESSAGES.unreadableMedia);
  });
});

describe('analyseVoice bounds its work', () => {
  it('decodes at most 31 s', async () => {
    const file = syntheticVoice('long', { f0: 110, seconds: 40 });
    const analysis = await analyseVoice(file);
    expect(analysis.duration).toBeCloseTo(31, 1);
  });

  it('kills ffmpeg and rejects after the timeout', async () => {
    const file = syntheticVoice('timeout', { f0: 110 });
    await expect(analyseVoice(file, { timeoutMs: 1 })).rejects.toThrow(VOICE_ANALYSIS_MESSAGES.timedOut);
  });
});

describe('the voice fingerprint', () => {
  const mfccMeans = (analysis: VoiceAnalysis) => analysis.embedding.slice(VOICE_EMBEDDING_LAYOUT.mfccMeans.start, VOICE_EMBEDDING_LAYOUT.mfccMeans.end);
  const distance = (a: number[], b: number[]) => Math.hypot(...a.map((value, i) => value - b[i]!));

  it('has the documented length, finite values, and stays on the server', async () => {
    const analysis = await analyseVoice(syntheticVoice('fingerprint', { f0: 110 }));
    expect(analysis.embedding).toHaveLength(VOICE_EMBEDDING_LAYOUT.length);
    expect(analysis.embedding.every(Number.isFinite)).toBe(true);
    expect(analysis.embedding[VOICE_EMBEDDING_LAYOUT.logPitchMean]).toBeCloseTo(Math.log(110), 1);
    expect(Object.keys(toVoiceAnalysisSummary(analysis)).sort()).toEqual(
      ['loudnessLufs', 'peakDb', 'pitchHighHz', 'pitchLowHz', 'pitchMedianHz', 'speechShare', 'warnings'],
    );
  });

  it('is as long for a recording without a voice', async () => {
    const file = path.join(dir, 'fingerprint-silence.wav');
    ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '3', file]);
    const analysis = await analyseVoice(file);
    expect(analysis.embedding).toHaveLength(VOICE_EMBEDDING_LAYOUT.length);
    expect(analysis.embedding.every(Number.isFinite)).toBe(true);
  });

  it('places two recordings of one voice closer than voices of different formants', async () => {
    const [first, second, other] = await Promise.all([
      analyseVoice(syntheticVoice('same-1', { f0: 110, formants: VOWEL_AH })),
      analyseVoice(syntheticVoice('same-2', { f0: 120, formants: VOWEL_AH, on: 2, period: 3, format: 'webm' })),
      analyseVoice(syntheticVoice('other', { f0: 110, formants: VOWEL_EE })),
    ]);
    const same = distance(mfccMeans(first), mfccMeans(second));
    expect(same).toBeLessThan(distance(mfccMeans(first), mfccMeans(other)) / 2);
    expect(same).toBeLessThan(distance(mfccMeans(second), mfccMeans(other)) / 2);
  });

  it('mfcc(): 13 coefficients per 10 ms frame of 25 ms', () => {
    const second = Float32Array.from({ length: 16_000 }, (_, i) => Math.sin((2 * Math.PI * 440 * i) / 16_000));
    const frames = mfcc(second);
    expect(frames).toHaveLength(Math.floor((16_000 - 400) / 160) + 1);
    expect(frames.every((frame) => frame.length === 13 && frame.every(Number.isFinite))).toBe(true);
  });
});
