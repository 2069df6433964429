// The voice stage on real people (testing/real-voices.ts): a real woman narrating, converted to a real
// man's voice, and a real man narrating, converted to a child-range voice. The output must land on the
// person's pitch, sound more like a held-out recording of the person (other words) than like the
// narrator, and keep the narration's length and timing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '../../media/ffmpeg';
import { type RealVoiceSet, type Speaker, makeRealVoices } from '../../testing/real-voices';
import { analyseVoice } from '../voice-analysis';
import { convertVoice, measureSyncOffset, timbreDistance } from './voice-conversion';

/** A real man reading (13.5 s, 8 kHz: a radio link's band). */
const MAN_NARRATION = '/usr/share/codec2/wav/vk5qi.wav';

let dir: string;
let real: RealVoiceSet;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'familystar-real-conversion-'));
  real = makeRealVoices(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('convertVoice on real voices', () => {
  it.each([
    { case: 'a woman narrating, to a man', narrator: 'woman', person: 'man' as Speaker },
    { case: 'a man narrating, to a child-range voice', narrator: 'man', person: 'child-range' as Speaker },
  ])('$case: the person\'s pitch, closer to the person than to the narrator, same length, in sync', async ({ narrator, person }) => {
    // The woman narrates with her held-out phrases; the man is the codec2 reader.
    const narration = narrator === 'woman' ? real.heldOut.woman : MAN_NARRATION;
    const output = path.join(dir, `${narrator}-to-${person}.wav`);
    const report = await convertVoice({ narration, person: real.clean(person), output });
    const [converted, heldOut, narrated] = await Promise.all([analyseVoice(output), analyseVoice(real.heldOut[person]), analyseVoice(narration)]);
    const distances = { toPerson: timbreDistance(converted, heldOut), toNarrator: timbreDistance(converted, narrated) };
    const [narrationProbe, outputProbe] = await Promise.all([probe(narration), probe(output)]);
    const sync = await measureSyncOffset(narration, output);
    console.log(
      `${narrator} → ${person}: pitch ${report.narratorPitchHz} → ${converted.pitchMedianHz} Hz (person ${report.personPitchHz}); ` +
        `formant factor ${report.formantFactor}; timbre to the person's held-out recording ${distances.toPerson.toFixed(2)}, to the narrator ` +
        `${distances.toNarrator.toFixed(2)}; sync ${sync.offsetMs.toFixed(1)} ms`,
    );

    expect(Math.abs(converted.pitchMedianHz! / report.personPitchHz! - 1)).toBeLessThan(0.05);
    expect(distances.toPerson).toBeLessThan(distances.toNarrator);
    expect(Math.abs(outputProbe.duration! - narrationProbe.duration!)).toBeLessThan(0.01);
    expect(Math.abs(sync.offsetMs)).toBeLessThan(40);
  });
});
