// The voice analysis on real people's voices (testing/real-voices.ts): a woman, a man and a child-range
// voice, clean, with room noise, with reverb, through a phone's band, and recorded through Chromium's
// fake microphone as the browser's own WebM/Opus (with its automatic gain and noise suppression). Each
// pitch is checked against Praat's, an independent tracker; none may be called "no voice". And what is
// not a voice stays so: the talking-woman clip's soundtrack is music only (she does not speak: her lips
// stay closed but for a grin), the talking-man clip is silent.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseVoice } from './voice-analysis';
import { recordManyThroughBrowser } from '../testing/browser-recording';
import { type RealVoiceSet, type Speaker, makeRealVoices, praatMedianPitch } from '../testing/real-voices';

const SHARED_MEDIA = path.resolve(import.meta.dirname, '../../../../shared/media');
const SPEAKERS: Speaker[] = ['woman', 'man', 'child-range'];
/** The pitch of each recording within this share of Praat's. */
const PITCH_TOLERANCE = 0.05;

let dir: string;
let real: RealVoiceSet;
const browserRecordings = new Map<Speaker, string>();

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'familystar-real-voices-'));
  real = makeRealVoices(dir);
  const recordings = SPEAKERS.map((speaker) => ({ wavFile: real.clean(speaker), outputFile: path.join(dir, `${speaker}-browser.webm`) }));
  await recordManyThroughBrowser(recordings);
  recordings.forEach(({ outputFile }, i) => browserRecordings.set(SPEAKERS[i]!, outputFile));
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const within = (measured: number | null, reference: number | null) =>
  measured !== null && reference !== null && Math.abs(measured / reference - 1) < PITCH_TOLERANCE;

describe('analyseVoice on real voices', () => {
  it('finds every real voice in every condition, at Praat\'s pitch', async () => {
    const rows = await Promise.all(
      real.voices.map(async (voice) => {
        const analysis = await analyseVoice(voice.file);
        return { ...voice, analysis, praat: praatMedianPitch(voice.file, dir) };
      }),
    );
    for (const { name, analysis, praat } of rows) {
      console.log(`${name}: ${analysis.pitchMedianHz} Hz (Praat ${praat}), voiced ${analysis.voicedSeconds} s, speech ${analysis.speechSeconds} s of ${analysis.duration} s, ${analysis.warnings.map((warning) => warning.code).join(', ') || 'no warning'}`);
    }
    for (const { name, analysis, praat } of rows) {
      expect(within(analysis.pitchMedianHz, praat), `${name}: ${analysis.pitchMedianHz} Hz against Praat's ${praat} Hz`).toBe(true);
      expect(analysis.warnings.map((warning) => warning.code), name).not.toContain('noVoice');
      expect(analysis.voicedSeconds, name).toBeGreaterThan(1.5);
    }
    // The three people are told apart: a man, then a woman, then the child-range voice ×1.5 above her.
    const clean = (speaker: Speaker) => rows.find((row) => row.speaker === speaker && row.condition === 'clean')!.analysis.pitchMedianHz!;
    expect(clean('man')).toBeLessThan(clean('woman') * 0.7);
    expect(clean('child-range') / clean('woman')).toBeCloseTo(1.5, 1);
  });

  it.each(SPEAKERS)('finds the %s recorded through the browser (WebM/Opus, automatic gain) at the pitch of the WAV and of Praat', async (speaker) => {
    const webm = browserRecordings.get(speaker)!;
    const [fromBrowser, fromWav] = await Promise.all([analyseVoice(webm), analyseVoice(real.clean(speaker))]);
    const praat = praatMedianPitch(webm, dir);
    console.log(`${speaker} through the browser: ${fromBrowser.pitchMedianHz} Hz (WAV ${fromWav.pitchMedianHz}, Praat ${praat}), ${fromBrowser.loudnessLufs} LUFS, ${fromBrowser.warnings.map((warning) => warning.code).join(', ') || 'no warning'}`);
    expect(within(fromBrowser.pitchMedianHz, praat)).toBe(true);
    expect(within(fromBrowser.pitchMedianHz, fromWav.pitchMedianHz)).toBe(true);
    expect(fromBrowser.warnings.map((warning) => warning.code)).not.toContain('noVoice');
  });
});

describe.runIf(existsSync(SHARED_MEDIA))('the shared talking clips', () => {
  it('talking-woman.mp4: its soundtrack is music (steady notes, chords, drums), no voice', async () => {
    const analysis = await analyseVoice(path.join(SHARED_MEDIA, 'talking-woman.mp4'));
    expect(analysis.pitchMedianHz).toBeNull();
    expect(analysis.warnings.map((warning) => warning.code)).toEqual(['noVoice']);
  });

  it('talking-man.mp4: silent, so too quiet and no voice', async () => {
    const analysis = await analyseVoice(path.join(SHARED_MEDIA, 'talking-man.mp4'));
    expect(analysis.warnings.map((warning) => warning.code)).toEqual(['tooQuiet', 'noVoice']);
  });
});
