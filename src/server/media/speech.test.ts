import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Pitchfinder from 'pitchfinder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from './ffmpeg';
import { closeSpeech, speak } from './speech';

const TEXT = 'Hello there. This is a test of the voice, spoken slowly and clearly for everyone.';

/** Median pitch in Hz of a 16-bit mono WAV as `speak` writes it (44-byte header). */
function medianPitch(wavFile: string): number {
  const bytes = readFileSync(wavFile);
  const sampleRate = bytes.readUInt32LE(24);
  const samples = new Int16Array(bytes.buffer, bytes.byteOffset + 44, (bytes.length - 44) / 2);
  const yin = Pitchfinder.YIN({ sampleRate });
  const found: number[] = [];
  for (let start = 0; start + 1024 <= samples.length; start += 441) {
    const pitch = yin(Float32Array.from(samples.subarray(start, start + 1024), (sample) => sample / 32768));
    if (pitch && pitch > 50 && pitch < 600) found.push(pitch);
  }
  found.sort((a, b) => a - b);
  return found[found.length >> 1]!;
}

describe('speak', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'familystar-speech-'));
  });
  afterAll(async () => {
    await closeSpeech();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes WAVs of plausible length in two voices of clearly different pitch', async () => {
    const female = path.join(dir, 'female.wav');
    const male = path.join(dir, 'male.wav');
    const [high, low] = await Promise.all([
      speak(TEXT, { voice: 'en-us+f3', pitch: 55, speed: 135 }, female),
      speak(TEXT, { voice: 'en-us+m3', pitch: 20, speed: 135 }, male),
    ]);
    for (const [file, spoken] of [
      [female, high],
      [male, low],
    ] as const) {
      // 14 words at 135 words a minute: about 6 s.
      expect(spoken.seconds).toBeGreaterThan(4);
      expect(spoken.seconds).toBeLessThan(9);
      const media = await probe(file);
      expect(media).toMatchObject({ formatName: 'wav', hasAudio: true, hasVideo: false });
      expect(media.duration).toBeCloseTo(spoken.seconds, 2);
    }
    const highHz = medianPitch(female);
    const lowHz = medianPitch(male);
    expect(highHz).toBeGreaterThan(180);
    expect(lowHz).toBeLessThan(130);
  }, 30_000);

  it('speaks faster at a higher speed', async () => {
    const slow = await speak('One, two, three, four, five.', { speed: 100 }, path.join(dir, 'slow.wav'));
    const fast = await speak('One, two, three, four, five.', { speed: 300 }, path.join(dir, 'fast.wav'));
    expect(fast.seconds).toBeLessThan(slow.seconds * 0.6);
  }, 30_000);

  it('refuses an unknown voice, variant or an out-of-range pitch', async () => {
    await expect(speak('Hi.', { voice: 'xx-nowhere' }, path.join(dir, 'x.wav'))).rejects.toThrow(/unknown voice xx-nowhere/);
    await expect(speak('Hi.', { voice: 'en-us+f99' }, path.join(dir, 'x.wav'))).rejects.toThrow(/unknown voice variant f99/);
    expect(() => speak('Hi.', { pitch: 100 }, path.join(dir, 'x.wav'))).toThrow(/pitch must be a whole number from 0 to 99/);
  }, 30_000);
});
