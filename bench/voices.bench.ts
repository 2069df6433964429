// The voice pipeline on real people (testing/real-voices.ts: a woman, a man, a child-range voice, each
// clean, noisy, reverberant and through a phone; the clean ones also recorded through Chromium as
// WebM/Opus) and on the music-only soundtrack of talking-woman.mp4: our pitch against Praat's, the
// voiced share and warnings, then each recording used as the person for a real narrator of another
// speaker (conversion speed, output pitch, timbre against the person's held-out words and the narrator).
// A markdown table for closing notes, and the rows as JSON.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertVoice, timbreDistance } from '../src/server/pipeline/render/voice-conversion';
import { type VoiceAnalysis, analyseVoice } from '../src/server/pipeline/voice-analysis';
import { recordManyThroughBrowser } from '../src/server/testing/browser-recording';
import { type Condition, type Speaker, makeRealVoices, praatMedianPitch } from '../src/server/testing/real-voices';

const SOUNDTRACK = fileURLToPath(new URL('../../shared/media/talking-woman.mp4', import.meta.url));
/** A real man reading (13.5 s, 8 kHz: a radio link's band). */
const MAN_NARRATION = '/usr/share/codec2/wav/vk5qi.wav';
const SPEAKERS: readonly Speaker[] = ['woman', 'man', 'child-range'];

interface Recording {
  recording: string;
  condition: Condition | 'music';
  format: 'WAV' | 'WebM/Opus' | 'MP4/AAC';
  file: string;
  /** Null for the soundtrack: nobody to convert to. */
  speaker: Speaker | null;
}

interface Narrator {
  name: string;
  file: string;
  analysis: VoiceAnalysis;
}

export interface VoiceRow {
  recording: string;
  condition: string;
  format: string;
  praatHz: number | null;
  oursHz: number | null;
  pitchErrorVsPraatPercent: number | null;
  voicedShare: number;
  speechSeconds: number;
  duration: number;
  warnings: string[];
  conversion: {
    narrator: string;
    narrationSeconds: number;
    totalMs: number;
    timesRealTime: number;
    personPitchHz: number | null;
    outputPitchHz: number | null;
    outputPitchErrorPercent: number | null;
    timbreToPersonHeldOut: number;
    timbreToNarrator: number;
  } | null;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Signed error of `measured` against `reference`, %; null when either is missing. */
function errorPercent(measured: number | null, reference: number | null): number | null {
  return measured !== null && reference !== null ? round((measured / reference - 1) * 100, 1) : null;
}

async function recordings(dir: string): Promise<{ rows: Recording[]; heldOut: Record<Speaker, string> }> {
  const real = makeRealVoices(dir);
  const rows: Recording[] = real.voices.map((voice) => ({ recording: voice.speaker, condition: voice.condition, format: 'WAV', file: voice.file, speaker: voice.speaker }));
  const browser = SPEAKERS.map((speaker) => ({ speaker, wavFile: real.clean(speaker), outputFile: path.join(dir, `${speaker}-browser.webm`) }));
  await recordManyThroughBrowser(browser);
  for (const { speaker, outputFile } of browser) rows.push({ recording: speaker, condition: 'clean', format: 'WebM/Opus', file: outputFile, speaker });
  if (existsSync(SOUNDTRACK)) rows.push({ recording: 'talking-woman.mp4 soundtrack', condition: 'music', format: 'MP4/AAC', file: SOUNDTRACK, speaker: null });
  return { rows, heldOut: real.heldOut };
}

async function measure(row: Recording, dir: string, narrators: Record<'woman' | 'man', Narrator>, heldOut: Record<Speaker, VoiceAnalysis>): Promise<VoiceRow> {
  const analysis = await analyseVoice(row.file);
  const praatHz = praatMedianPitch(row.file, dir);
  const measured: VoiceRow = {
    recording: row.recording,
    condition: row.condition,
    format: row.format,
    praatHz: praatHz === null ? null : round(praatHz, 1),
    oursHz: analysis.pitchMedianHz === null ? null : round(analysis.pitchMedianHz, 1),
    pitchErrorVsPraatPercent: errorPercent(analysis.pitchMedianHz, praatHz),
    voicedShare: round(analysis.voicedSeconds / analysis.duration, 2),
    speechSeconds: round(analysis.speechSeconds, 2),
    duration: round(analysis.duration, 2),
    warnings: analysis.warnings.map((warning) => warning.code),
    conversion: null,
  };
  if (!row.speaker) return measured;

  // The narrator is always someone else: the man narrates for the woman, the woman for everyone else.
  const narrator = row.speaker === 'woman' ? narrators.man : narrators.woman;
  const output = path.join(dir, `converted-${path.basename(row.file)}.wav`);
  const report = await convertVoice({ narration: narrator.file, person: row.file, output });
  const converted = await analyseVoice(output);
  measured.conversion = {
    narrator: narrator.name,
    narrationSeconds: round(report.narrationSeconds, 2),
    totalMs: report.stagesMs.total,
    timesRealTime: round((report.narrationSeconds * 1000) / report.stagesMs.total, 1),
    personPitchHz: report.personPitchHz === null ? null : round(report.personPitchHz, 1),
    outputPitchHz: report.outputPitchHz === null ? null : round(report.outputPitchHz, 1),
    outputPitchErrorPercent: errorPercent(report.outputPitchHz, report.personPitchHz),
    timbreToPersonHeldOut: round(timbreDistance(converted, heldOut[row.speaker]), 2),
    timbreToNarrator: round(timbreDistance(converted, narrator.analysis), 2),
  };
  return measured;
}

function markdownTable(rows: VoiceRow[]): string {
  const cell = (value: number | string | null | undefined, suffix = '') => (value === null || value === undefined ? '—' : `${value}${suffix}`);
  const signed = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${value > 0 ? '+' : ''}${value}%`);
  const header = ['Recording', 'Condition', 'Format', 'Praat Hz', 'Ours Hz', 'Pitch vs Praat', 'Voiced share', 'Warnings', 'Conversion ×RT', 'Output pitch error', 'Timbre → person (held-out)', 'Timbre → narrator'];
  const lines = rows.map((row) => [
    row.recording,
    row.condition,
    row.format,
    cell(row.praatHz),
    cell(row.oursHz),
    signed(row.pitchErrorVsPraatPercent),
    cell(row.voicedShare),
    row.warnings.join(', ') || '—',
    cell(row.conversion?.timesRealTime, '×'),
    signed(row.conversion?.outputPitchErrorPercent),
    cell(row.conversion?.timbreToPersonHeldOut),
    cell(row.conversion?.timbreToNarrator),
  ]);
  return [header, header.map(() => '---'), ...lines].map((line) => `| ${line.join(' | ')} |`).join('\n');
}

export async function benchVoices(): Promise<VoiceRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'familystar-bench-voices-'));
  try {
    const { rows: material, heldOut } = await recordings(dir);
    const [womanNarration, manNarration, ...heldOutAnalyses] = await Promise.all([
      analyseVoice(heldOut.woman),
      analyseVoice(MAN_NARRATION),
      ...SPEAKERS.map((speaker) => analyseVoice(heldOut[speaker])),
    ]);
    const narrators = {
      woman: { name: 'woman (held-out phrases)', file: heldOut.woman, analysis: womanNarration! },
      man: { name: 'man (vk5qi.wav)', file: MAN_NARRATION, analysis: manNarration! },
    };
    const heldOutBySpeaker = Object.fromEntries(SPEAKERS.map((speaker, index) => [speaker, heldOutAnalyses[index]!])) as Record<Speaker, VoiceAnalysis>;
    // Warm-up: module loading and the JIT, so the first row's conversion speed is not the cold start.
    await convertVoice({ narration: MAN_NARRATION, person: heldOut.woman, output: path.join(dir, 'warm-up.wav') });

    // One at a time: each conversion's wall clock is its own.
    const rows: VoiceRow[] = [];
    for (const recording of material) rows.push(await measure(recording, dir, narrators, heldOutBySpeaker));
    console.log(markdownTable(rows));
    console.log(
      '\nPitch errors are signed (ours vs Praat; the converted output vs our pitch of the recording). ×RT: narration seconds over ' +
        "convertVoice's wall time in full (narration, person and output all analysed). Narrators: the man (vk5qi.wav) for the " +
        "woman's rows, the woman's held-out phrases for the others. Timbre: distance of MFCC means, lower is closer.",
    );
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchVoices(), null, 2));
}
