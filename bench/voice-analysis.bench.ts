// The voice analysis (decode, voice activity, YIN, loudness, MFCC) on 30 s recordings: the first call
// (cold, as in a fresh worker thread) and the median of 5 more, and how many times faster than real time.
// Inputs are made in the temp folder: a synthetic voice as WebM/Opus (what browsers record), eSpeak NG
// speech, and the first 30 s of ../shared/media/talking-woman.mp4 when that local file exists.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { closeSpeech, speak } from '../src/server/media/speech';
import { analyseVoice, toVoiceAnalysisSummary } from '../src/server/pipeline/voice-analysis';

const SECONDS = 30;
const RUNS = 5;
const LOCAL_SAMPLE = path.resolve('../shared/media/talking-woman.mp4');

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', ...args]);
}

/** A 110 Hz vowel-like voice in 1.5 s bursts every 2.5 s (as in the unit tests), 30 s, Opus in WebM. */
function syntheticVoice(file: string): string {
  const source = `(2*mod(110*t\\,1)-1)*lt(mod(t\\,2.5)\\,1.5)*(0.7+0.3*sin(2*PI*3*t))+0.003*(2*random(0)-1)`;
  const formants = 'equalizer=f=700:width_type=h:width=120:g=18,equalizer=f=1200:width_type=h:width=150:g=15,equalizer=f=2600:width_type=h:width=200:g=12';
  ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=exprs='${source}':s=48000:d=${SECONDS}`, '-af', `lowpass=f=4000,${formants},volume=-16dB`, '-c:a', 'libopus', '-b:a', '48k', file]);
  return file;
}

/** eSpeak NG reading a story, looped to 30 s. */
async function spokenStory(dir: string): Promise<string> {
  const once = path.join(dir, 'story.wav');
  await speak(
    'Once upon a time a little bear lived by the river with his mother. Every morning they went down to the water to catch fish, ' +
      'and every evening they sat by the fire and told each other stories about the stars, the moon and the old owl in the oak tree.',
    { voice: 'en-us+f3', pitch: 60 },
    once,
  );
  const file = path.join(dir, 'story-30s.wav');
  ffmpeg(['-stream_loop', '-1', '-i', once, '-t', String(SECONDS), file]);
  return file;
}

async function time(file: string) {
  const coldStarted = performance.now();
  const analysis = await analyseVoice(file);
  const coldMs = performance.now() - coldStarted;
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await analyseVoice(file);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[times.length >> 1]!;
  return {
    audioSeconds: analysis.duration,
    firstRunMs: Math.round(coldMs),
    medianMs: Math.round(medianMs),
    timesFasterThanRealTime: Math.round((analysis.duration * 1000) / medianMs),
    summary: toVoiceAnalysisSummary(analysis),
  };
}

export async function benchVoiceAnalysis() {
  const dir = mkdtempSync(path.join(tmpdir(), 'familystar-bench-voice-'));
  try {
    // The first input measured also pays for loading the modules and warming the JIT, once.
    const results: Record<string, unknown> = {
      syntheticOpus: await time(syntheticVoice(path.join(dir, 'voice.webm'))),
      espeak: await time(await spokenStory(dir)),
    };
    if (existsSync(LOCAL_SAMPLE)) {
      const file = path.join(dir, 'talking-woman.wav');
      ffmpeg(['-i', LOCAL_SAMPLE, '-vn', '-t', String(SECONDS), file]);
      results.talkingWoman = await time(file);
    }
    return results;
  } finally {
    await closeSpeech();
    rmSync(dir, { recursive: true, force: true });
  }
}
