// The renderer's voice stage on 20 s of eSpeak NG narration (the demo templates' narrator, en-us+f3 at
// pitch 55) converted towards a low male voice: median of 3 runs, per stage, and how many times faster
// than real time. Two paths: as the renderer runs it (both voices analysed before, not re-measured
// afterwards) and the full one (both analysed here, the output analysed again for the report).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { closeSpeech, speak } from '../src/server/media/speech';
import { type ConversionReport, convertVoice } from '../src/server/pipeline/render/voice-conversion';
import { analyseVoice } from '../src/server/pipeline/voice-analysis';

const SECONDS = 20;
const RUNS = 3;

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', ...args]);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/**
 * CPU time (ms) of this process and its finished children (ffmpeg) from /proc (Linux; 0 elsewhere):
 * on a machine busy with other work, wall time says more about the neighbours than about us.
 */
function cpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime, cstime: fields 14–17 of stat, 11–14 after the command name.
    return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) * 10; // clock ticks of 10 ms
  } catch {
    return 0;
  }
}

async function timed(runs: () => Promise<ConversionReport>) {
  const reports: ConversionReport[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const before = cpuMs();
    reports.push(await runs());
    cpu.push(cpuMs() - before);
  }
  const stages = Object.keys(reports[0]!.stagesMs) as (keyof ConversionReport['stagesMs'])[];
  const stagesMs = Object.fromEntries(stages.map((stage) => [stage, median(reports.map((report) => report.stagesMs[stage]))]));
  const totalMs = stagesMs.total!;
  const last = reports.at(-1)!;
  return {
    audioSeconds: last.narrationSeconds,
    medianMs: totalMs,
    timesFasterThanRealTime: Math.round((last.narrationSeconds * 1000 * 10) / totalMs) / 10,
    medianCpuMs: median(cpu),
    cpuTimesFasterThanRealTime: Math.round((last.narrationSeconds * 1000 * 10) / median(cpu)) / 10,
    stagesMs,
    pitchRatio: last.pitchRatio,
    formantFactor: last.formantFactor,
    outputPitchHz: last.outputPitchHz,
    timbre: last.timbre,
  };
}

export async function benchVoiceConversion() {
  const dir = mkdtempSync(path.join(tmpdir(), 'familystar-bench-voice-conversion-'));
  try {
    const once = path.join(dir, 'narration-once.wav');
    await speak(
      'Once upon a time a little bear lived by the river with his mother. Every morning they went down to the water to catch fish, ' +
        'and every evening they sat by the fire and told each other stories about the stars, the moon and the old owl in the oak tree.',
      { voice: 'en-us+f3', pitch: 55, speed: 135 },
      once,
    );
    const narration = path.join(dir, 'narration.wav');
    ffmpeg(['-stream_loop', '-1', '-i', once, '-t', String(SECONDS), narration]);
    const person = path.join(dir, 'person.wav');
    await speak('The quick brown fox jumps over the lazy dog. My favourite colour is green, and I like to walk in the park.', { voice: 'en-us+m3', pitch: 25, speed: 135 }, person);
    const output = path.join(dir, 'converted.wav');
    // Warm-up: module loading and the JIT, once.
    await convertVoice({ narration, person, output });

    const [narratorAnalysis, personAnalysis] = await Promise.all([analyseVoice(narration), analyseVoice(person)]);
    return {
      asRendered: await timed(() => convertVoice({ narration, person, output, narratorAnalysis, personAnalysis, verify: false })),
      full: await timed(() => convertVoice({ narration, person, output })),
    };
  } finally {
    await closeSpeech();
    rmSync(dir, { recursive: true, force: true });
  }
}
