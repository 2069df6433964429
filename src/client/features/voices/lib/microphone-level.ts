// The live input level of a microphone stream (Web Audio), so a parent sees that the microphone hears the child.

/** The meter's empty end: quieter than this reads as 0. Its full end is 0 dBFS. */
export const LEVEL_FLOOR_DBFS = -60;
/** Below this for SILENCE_HINT_AFTER_MS, the microphone hears nothing worth recording. */
export const SILENCE_DBFS = -50;
export const SILENCE_HINT_AFTER_MS = 2000;
/** Readings reach React at most this often: enough for the eye, few enough re-renders. */
export const READING_INTERVAL_MS = 50;

// Fast attack so a syllable shows at once, slow release so the bar falls smoothly instead of flickering.
const ATTACK_MS = 25;
const RELEASE_MS = 300;
/** Digital silence gives −∞; a finite floor keeps the smoothing arithmetic away from NaN. */
const MIN_DBFS = -100;

export interface MicrophoneReading {
  /** Smoothed RMS level in dBFS. */
  dbfs: number;
  /** The same level on the meter's 0..1 scale. */
  level: number;
  /** True once the level has stayed below SILENCE_DBFS for SILENCE_HINT_AFTER_MS. */
  silent: boolean;
}

export const QUIET_READING: MicrophoneReading = { dbfs: MIN_DBFS, level: 0, silent: false };

/** Root-mean-square of one block of samples (−1..1), in dBFS. */
export function rmsDbfs(samples: Float32Array): number {
  if (samples.length === 0) return MIN_DBFS;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.max(MIN_DBFS, 10 * Math.log10(sum / samples.length));
}

/** dBFS onto the meter: LEVEL_FLOOR_DBFS..0 becomes 0..1, clamped. */
export function levelFromDbfs(dbfs: number): number {
  return Math.min(1, Math.max(0, (dbfs - LEVEL_FLOOR_DBFS) / -LEVEL_FLOOR_DBFS));
}

/** One smoothing step over elapsedMs; time constants rather than fixed factors, as frame rates differ. */
export function smoothDbfs(previous: number, next: number, elapsedMs: number): number {
  const timeConstant = next > previous ? ATTACK_MS : RELEASE_MS;
  return previous + (next - previous) * (1 - Math.exp(-Math.max(0, elapsedMs) / timeConstant));
}

/**
 * Measures the stream on every animation frame and reports at most every READING_INTERVAL_MS.
 * Returns the function that stops measuring and closes the AudioContext. The analyser is never connected
 * to the speakers: the child must not hear themselves echo.
 */
export function watchMicrophoneLevel(stream: MediaStream, onReading: (reading: MicrophoneReading) => void): () => void {
  let context: AudioContext;
  try {
    context = new AudioContext();
  } catch {
    return () => undefined; // No Web Audio: the recorder still works, only without a meter.
  }
  // Started from the Start Recording click, so the autoplay policy allows it; resume in case it waits anyway.
  if (context.state === 'suspended') void context.resume().catch(() => undefined);
  const source = context.createMediaStreamSource(stream);
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);

  let smoothed = MIN_DBFS;
  let lastFrame: number | undefined;
  let lastReport = -Infinity;
  let lastHeard: number | undefined;
  let frame = requestAnimationFrame(measure);

  function measure(now: number) {
    analyser.getFloatTimeDomainData(samples);
    smoothed = smoothDbfs(smoothed, rmsDbfs(samples), lastFrame === undefined ? 0 : now - lastFrame);
    lastFrame = now;
    // The silence clock starts with the first frame, so a dead microphone is flagged 2 s into the recording.
    if (lastHeard === undefined || smoothed >= SILENCE_DBFS) lastHeard = now;
    if (now - lastReport >= READING_INTERVAL_MS) {
      lastReport = now;
      onReading({ dbfs: smoothed, level: levelFromDbfs(smoothed), silent: now - lastHeard >= SILENCE_HINT_AFTER_MS });
    }
    frame = requestAnimationFrame(measure);
  }

  return () => {
    cancelAnimationFrame(frame);
    source.disconnect();
    void context.close().catch(() => undefined);
  };
}
