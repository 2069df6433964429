// The pitch of a voice, 10 ms frame by 10 ms frame, chosen by measurement on real speech (decision 012):
// YIN's cumulative mean normalised difference gives each frame a few candidate periods with their
// aperiodicity, and a Viterbi pass picks the path through them (and through "unvoiced") that best fits
// the whole recording, as Praat's path finder does. No single-frame threshold decides: a breathy
// child's frame that YIN's 0.1–0.2 threshold would throw away is kept when its neighbours agree, and a
// lone octave jump costs more than it explains.
import FFT from 'fft.js';

/** The voices we track: a low man (~70 Hz) to a child calling out (~600 Hz), with a margin each way. */
export const MIN_PITCH_HZ = 60;
export const MAX_PITCH_HZ = 700;
/** One pitch value per hop. */
export const PITCH_HOP_SECONDS = 0.01;

/** The difference function's window: 25 ms, at least one period of the lowest pitch. */
const WINDOW_SECONDS = 0.025;
/** A local minimum of the normalised difference above this is too aperiodic to be a candidate. */
const MAX_CANDIDATE_APERIODICITY = 0.6;
/** The best few minima of a frame are its candidates (the true period, its multiples, a formant). */
const MAX_CANDIDATES = 5;
/**
 * Periods up to twice the longest are looked at too: a sound periodic below MIN_PITCH_HZ (mains hum at
 * 50 Hz, an engine) also shows a weaker minimum at half its period, inside the range. A frame whose
 * deepest minimum lies below the range, this many times deeper than its best candidate, has no voice.
 */
const BELOW_RANGE_DEPTH_RATIO = 0.5;

// The path's costs, in units of aperiodicity (0: perfectly periodic, 1: noise). Praat's defaults in
// spirit (voicing threshold 0.45, octave-jump cost 0.35, voiced/unvoiced cost 0.14), set here against
// Praat on real speech: women, men, child-range voices, with noise, reverb and a phone's band (decision 012).
/** Calling a frame unvoiced costs as much as a candidate this aperiodic. */
const UNVOICED_COST = 0.5;
/** Per octave between consecutive voiced frames: voices glide, octave errors jump. */
const OCTAVE_JUMP_COST = 0.6;
/** Each switch between voiced and unvoiced. */
const VOICING_SWITCH_COST = 0.15;
/** A frame this far below the recording's loudest is silence: there, unvoiced costs nothing. */
const SILENCE_BELOW_LOUDEST_DB = 40;
/** ...as is any frame below this level (dBFS): the noise of a silent 16-bit recording. */
const SILENCE_FLOOR_DBFS = -75;

export interface PitchTrack {
  /** Hz per PITCH_HOP_SECONDS frame (frame k centred at k × hop); 0 where unvoiced. */
  hz: Float32Array;
  /** Aperiodicity (the normalised difference, 0..1) of the chosen candidate; 1 where unvoiced. */
  aperiodicity: Float32Array;
  /** Level of each frame's analysed span, dBFS. */
  levelDb: Float32Array;
}

interface Candidate {
  hz: number;
  cost: number;
}

/** Tracks the pitch of mono samples at `sampleRate` (16 kHz is plenty: periods are resolved to a fraction of a sample). */
export function trackPitch(samples: Float32Array, sampleRate: number): PitchTrack {
  const hop = Math.round(sampleRate * PITCH_HOP_SECONDS);
  const window = Math.round(sampleRate * WINDOW_SECONDS);
  const minLag = Math.floor(sampleRate / MAX_PITCH_HZ);
  const maxLag = Math.ceil(sampleRate / MIN_PITCH_HZ);
  const longestLag = 2 * maxLag;
  const span = window + longestLag + 1;
  const frames = Math.floor(samples.length / hop);
  const levelDb = new Float32Array(frames).fill(-120);
  const candidates: Candidate[][] = Array.from({ length: frames }, () => []);

  // Running sums of squares: the difference function's energy terms in O(1) per lag.
  const squares = new Float64Array(samples.length + 1);
  for (let i = 0; i < samples.length; i++) squares[i + 1] = squares[i]! + samples[i]! * samples[i]!;
  const energy = (start: number, length: number) => squares[start + length]! - squares[start]!;

  const difference = differenceFunction(window, span);
  for (let k = 0; k < frames; k++) {
    const start = k * hop - (span >> 1);
    if (start < 0 || start + span > samples.length) continue;
    levelDb[k] = 10 * Math.log10(energy(start, span) / span + 1e-12);
    const normalised = difference(samples, start, (lag) => energy(start + lag, window), energy(start, window), longestLag);
    if (!normalised) continue;
    const found = candidates[k]!;
    let belowRange = 1;
    for (let lag = maxLag + 1; lag <= longestLag; lag++) belowRange = Math.min(belowRange, normalised[lag]!);
    for (let lag = minLag; lag <= maxLag; lag++) {
      const [before, value, after] = [normalised[lag - 1]!, normalised[lag]!, normalised[lag + 1]!];
      if (!(value < before && value <= after && value < MAX_CANDIDATE_APERIODICITY)) continue;
      // A parabola through the minimum: the period to a fraction of a sample, and its depth.
      const curvature = before - 2 * value + after;
      const shift = curvature > 0 ? (0.5 * (before - after)) / curvature : 0;
      found.push({ hz: sampleRate / (lag + shift), cost: Math.max(0, value - 0.25 * (before - after) * shift) });
    }
    found.sort((a, b) => a.cost - b.cost);
    found.length = found.length && belowRange < BELOW_RANGE_DEPTH_RATIO * found[0]!.cost ? 0 : Math.min(found.length, MAX_CANDIDATES);
  }

  const loudest = Math.max(-120, ...levelDb);
  const silent = (k: number) => levelDb[k]! < Math.max(SILENCE_FLOOR_DBFS, loudest - SILENCE_BELOW_LOUDEST_DB);
  const path = bestPath(candidates, silent);
  const hz = new Float32Array(frames);
  const aperiodicity = new Float32Array(frames).fill(1);
  path.forEach((choice, k) => {
    if (choice === null) return;
    hz[k] = choice.hz;
    aperiodicity[k] = choice.cost;
  });
  return { hz, aperiodicity, levelDb };
}

/**
 * YIN's cumulative mean normalised difference d'(τ) for τ in 0..maxLag+1 of `window` samples from
 * `start`, with the cross term by FFT: d(τ) = E(start) + E(start+τ) − 2·Σ x[j]·x[j+τ]. Returns null
 * for a silent frame. The returned array is reused by the next call.
 */
function differenceFunction(window: number, span: number) {
  const size = 2 ** Math.ceil(Math.log2(span));
  const fft = new FFT(size);
  const head = new Array<number>(size).fill(0);
  const whole = new Array<number>(size).fill(0);
  const headSpectrum = fft.createComplexArray() as number[];
  const wholeSpectrum = fft.createComplexArray() as number[];
  const product = fft.createComplexArray() as number[];
  const cross = fft.createComplexArray() as number[];
  let normalised = new Float64Array(0);
  return (samples: Float32Array, start: number, shiftedEnergy: (lag: number) => number, headEnergy: number, maxLag: number) => {
    if (headEnergy < 1e-10) return null;
    if (normalised.length !== maxLag + 2) normalised = new Float64Array(maxLag + 2);
    for (let i = 0; i < size; i++) {
      head[i] = i < window ? samples[start + i]! : 0;
      whole[i] = i < span ? samples[start + i]! : 0;
    }
    fft.realTransform(headSpectrum, head);
    fft.completeSpectrum(headSpectrum);
    fft.realTransform(wholeSpectrum, whole);
    fft.completeSpectrum(wholeSpectrum);
    // Cross-correlation: the inverse transform of conj(head) × whole.
    for (let i = 0; i < size; i++) {
      const [ar, ai, br, bi] = [headSpectrum[2 * i]!, headSpectrum[2 * i + 1]!, wholeSpectrum[2 * i]!, wholeSpectrum[2 * i + 1]!];
      product[2 * i] = ar * br + ai * bi;
      product[2 * i + 1] = ar * bi - ai * br;
    }
    fft.inverseTransform(cross, product);
    normalised[0] = 1;
    let runningSum = 0;
    for (let lag = 1; lag <= maxLag + 1; lag++) {
      const d = Math.max(0, headEnergy + shiftedEnergy(lag) - 2 * cross[2 * lag]!);
      runningSum += d;
      normalised[lag] = runningSum > 0 ? (d * lag) / runningSum : 1;
    }
    return normalised;
  };
}

/** Viterbi over each frame's candidates and "unvoiced" (null): the cheapest path through the recording. */
function bestPath(candidates: Candidate[][], silent: (k: number) => boolean): (Candidate | null)[] {
  const frames = candidates.length;
  if (!frames) return [];
  // State 0 of every frame is unvoiced; states 1.. are its candidates.
  const states = candidates.map((found, k) => {
    const quiet = silent(k);
    return [{ hz: 0, cost: quiet ? 0 : UNVOICED_COST }, ...found.map(({ hz, cost }) => ({ hz, cost: quiet ? cost + 1 : cost }))];
  });
  const back: Int32Array[] = [];
  let totals = Float64Array.from(states[0]!, (state) => state.cost);
  for (let k = 1; k < frames; k++) {
    const previous = states[k - 1]!;
    const current = states[k]!;
    const next = new Float64Array(current.length);
    const from = new Int32Array(current.length);
    current.forEach((state, j) => {
      let best = Number.POSITIVE_INFINITY;
      previous.forEach((before, i) => {
        let transition = 0;
        if (before.hz && state.hz) transition = OCTAVE_JUMP_COST * Math.abs(Math.log2(state.hz / before.hz));
        else if (Boolean(before.hz) !== Boolean(state.hz)) transition = VOICING_SWITCH_COST;
        const total = totals[i]! + transition;
        if (total < best) {
          best = total;
          from[j] = i;
        }
      });
      next[j] = best + state.cost;
    });
    back.push(from);
    totals = next;
  }
  let state = totals.indexOf(Math.min(...totals));
  const path = new Array<Candidate | null>(frames);
  for (let k = frames - 1; k >= 0; k--) {
    const chosen = states[k]![state]!;
    path[k] = chosen.hz ? chosen : null;
    if (k > 0) state = back[k - 1]![state]!;
  }
  return path;
}
