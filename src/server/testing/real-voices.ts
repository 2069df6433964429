// Real people's voices for the voice tests and the voices bench, made at run time in a temporary folder
// from recordings that Debian packages ship (never committed):
// - a woman: alsa-utils' recorded phrases ("Front center", …), 1.3–1.5 s each, four to a recording;
// - a man: codec2-examples' vk5qi.wav, a real man reading on a radio link (13.5 s, 8 kHz);
// - a child-range voice: the woman's phrases with pitch and formants raised together ×1.5 (real jitter
//   and breath, a child's pitch and formants; not a real child, which no package ships);
// and, for each, the same with room noise (20 dB SNR), reverb (RT60 ~0.5 s) and a phone's band. Each
// speaker has a held-out recording of other words, for timbre checks. Praat (Debian `praat`) gives the
// independent pitch estimate. `.ci/run` installs the three packages.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ffmpegBinary } from '../media/ffmpeg';

const ALSA = '/usr/share/sounds/alsa';
const CODEC2 = '/usr/share/codec2/wav';
const PRAAT = '/usr/bin/praat_nogui';

/** The Debian packages the real voices come from, with a file each ships. */
const PACKAGES = { 'alsa-utils': `${ALSA}/Front_Center.wav`, 'codec2-examples': `${CODEC2}/vk5qi.wav`, praat: PRAAT } as const;

/** Throws, naming the packages to install, when one is missing (the tests need every one). */
export function requireRealVoicePackages(): void {
  const missing = Object.entries(PACKAGES).filter(([, file]) => !existsSync(file)).map(([name]) => name);
  if (missing.length) throw new Error(`Real voices need Debian packages: apt-get install ${missing.join(' ')}`);
}

export type Speaker = 'woman' | 'man' | 'child-range';
export type Condition = 'clean' | 'noisy' | 'reverb' | 'phone';
export const CONDITIONS: readonly Condition[] = ['clean', 'noisy', 'reverb', 'phone'];

export interface RealVoice {
  name: string;
  speaker: Speaker;
  condition: Condition;
  file: string;
}

export interface RealVoiceSet {
  /** Every speaker in every condition (WAV). */
  voices: RealVoice[];
  /** Per speaker, a clean recording of other words by the same person. */
  heldOut: Record<Speaker, string>;
  /** The clean recording of each speaker. */
  clean(speaker: Speaker): string;
}

const WOMAN_PHRASES = ['Front_Center', 'Front_Left', 'Front_Right', 'Rear_Center'];
const WOMAN_HELD_OUT = ['Rear_Left', 'Rear_Right', 'Side_Left', 'Side_Right'];
/** vk5qi is one man reading: the first 7.5 s are his recording, the rest held out. */
const MAN_SPLIT_SECONDS = 7.5;
/** Children's pitch and formants are ~1.3–1.5× a woman's (and ~1.5–2× a man's). */
export const CHILD_FACTOR = 1.5;

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', ...args]);
}

function concatenate(files: string[], output: string): string {
  const inputs = files.flatMap((file) => ['-i', file]);
  ffmpeg([...inputs, '-filter_complex', `concat=n=${files.length}:v=0:a=1`, '-ar', '48000', output]);
  return output;
}

/** Pitch and formants × factor, same length: play it faster (asetrate), then restore the tempo (atempo keeps pitch). */
function raiseVoice(input: string, factor: number, output: string): string {
  ffmpeg(['-i', input, '-af', `aresample=48000,asetrate=${Math.round(48000 * factor)},aresample=48000,atempo=${1 / factor}`, output]);
  return output;
}

/** Brown room noise 20 dB under the speech (both measured as EBU R128 integrated loudness). */
function withRoomNoise(input: string, output: string): string {
  ffmpeg([
    '-i', input, '-f', 'lavfi', '-i', 'anoisesrc=c=brown:a=1:r=48000:seed=7',
    '-filter_complex',
    '[0]aresample=48000,loudnorm=I=-23:TP=-2:LRA=20:linear=true[voice];[1]highpass=f=60,loudnorm=I=-43:linear=true[noise];' +
      "[voice][noise]amix=inputs=2:duration=first:weights='1 1',volume=2",
    output,
  ]);
  return output;
}

/** A room: the voice convolved with exponentially decaying noise (RT60 ~0.5 s), half dry, half wet. */
function withReverb(input: string, dir: string, output: string): string {
  const response = path.join(dir, 'room-impulse.wav');
  if (!existsSync(response)) ffmpeg(['-f', 'lavfi', '-i', "aevalsrc=exprs='(2*random(0)-1)*exp(-13.8*t/0.5)':s=48000:d=0.6", response]);
  ffmpeg(['-i', input, '-i', response, '-filter_complex', '[0]aresample=48000[voice];[voice][1]afir=dry=5:wet=5', output]);
  return output;
}

/** A phone call: 300–3400 Hz, 8 kHz, μ-law. */
function throughPhone(input: string, output: string): string {
  ffmpeg(['-i', input, '-af', 'highpass=f=300,lowpass=f=3400,aresample=8000', '-c:a', 'pcm_mulaw', output]);
  return output;
}

/** Makes every real voice in `dir` (a few seconds of ffmpeg). */
export function makeRealVoices(dir: string): RealVoiceSet {
  requireRealVoicePackages();
  const at = (name: string) => path.join(dir, name);
  const alsa = (names: string[]) => names.map((name) => `${ALSA}/${name}.wav`);
  const woman = concatenate(alsa(WOMAN_PHRASES), at('woman-clean.wav'));
  const womanHeldOut = concatenate(alsa(WOMAN_HELD_OUT), at('woman-held-out.wav'));
  const man = at('man-clean.wav');
  ffmpeg(['-i', `${CODEC2}/vk5qi.wav`, '-t', String(MAN_SPLIT_SECONDS), man]);
  const manHeldOut = at('man-held-out.wav');
  ffmpeg(['-ss', String(MAN_SPLIT_SECONDS), '-i', `${CODEC2}/vk5qi.wav`, manHeldOut]);
  const child = raiseVoice(woman, CHILD_FACTOR, at('child-range-clean.wav'));
  const childHeldOut = raiseVoice(womanHeldOut, CHILD_FACTOR, at('child-range-held-out.wav'));

  const clean: Record<Speaker, string> = { woman, man, 'child-range': child };
  const voices: RealVoice[] = [];
  for (const speaker of Object.keys(clean) as Speaker[]) {
    const source = clean[speaker];
    const file = (condition: Condition) => at(`${speaker}-${condition}.wav`);
    const made: Record<Condition, string> = {
      clean: source,
      noisy: withRoomNoise(source, file('noisy')),
      reverb: withReverb(source, dir, file('reverb')),
      phone: throughPhone(source, file('phone')),
    };
    for (const condition of CONDITIONS) voices.push({ name: `${speaker}, ${condition}`, speaker, condition, file: made[condition] });
  }
  return { voices, heldOut: { woman: womanHeldOut, man: manHeldOut, 'child-range': childHeldOut }, clean: (speaker) => clean[speaker] };
}

const PRAAT_SCRIPT = `form Pitch
  sentence file
endform
sound = Read from file: file$
pitch = To Pitch: 0.01, 60, 700
median = Get quantile: 0, 0, 0.5, "Hertz"
writeInfoLine: fixed$(median, 2)
`;

/**
 * The median pitch (Hz) Praat finds (its autocorrelation method, 60–700 Hz, the range our tracker
 * covers): an estimate that shares no code or method detail with ours. Null when Praat finds none.
 */
export function praatMedianPitch(file: string, scriptDir: string): number | null {
  requireRealVoicePackages();
  const script = path.join(scriptDir, 'median-pitch.praat');
  if (!existsSync(script)) writeFileSync(script, PRAAT_SCRIPT);
  // Praat reads a WAV it can open; μ-law and 8 kHz are fine, WebM is not: decode to 16-bit PCM first.
  const wav = path.join(scriptDir, `praat-${path.basename(file)}.wav`);
  ffmpeg(['-i', file, '-ac', '1', '-c:a', 'pcm_s16le', wav]);
  const output = execFileSync(PRAAT, ['--run', script, wav], { encoding: 'utf8' }).trim();
  const hz = Number(output.split('\n').at(-1));
  return Number.isFinite(hz) && hz > 0 ? hz : null;
}
