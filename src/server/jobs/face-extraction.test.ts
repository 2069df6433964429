// Which crop of a person's first clip becomes their default face (jobs/face-extraction.ts pickDefault): the
// default is what a video takes its eyes from when the parent picks no other image.
import { describe, expect, it } from 'vitest';
import type { ExtractedFace } from '../pipeline/face-extraction';
import { pickDefault } from './face-extraction';

const crop = (expressionType: string, yaw: number, gaze?: number) =>
  ({ expressionType, frontal: Math.abs(yaw) < 15, analysis: { pose: { yaw, pitch: 0, roll: 0 }, ...(gaze === undefined ? {} : { gaze }) } }) as unknown as ExtractedFace;

describe('pickDefault', () => {
  it('takes the first frontal neutral crop whose eyes look ahead, then any frontal neutral one', () => {
    expect(pickDefault([crop('smile', 0, 0), crop('neutral', 5, 0.21), crop('neutral', 8, -0.02)])).toBe(2);
    expect(pickDefault([crop('smile', 0, 0), crop('neutral', 5, 0.21)])).toBe(1);
    // Crops from before the gaze was measured count as looking ahead.
    expect(pickDefault([crop('smile', 0), crop('neutral', 5)])).toBe(1);
  });
  it('else the most frontal crop, among those that look ahead when there are some', () => {
    expect(pickDefault([crop('smile', 12, 0.01), crop('surprise', 2, -0.2), crop('smile', 7, 0.03)])).toBe(2);
    expect(pickDefault([crop('smile', 12, 0.2), crop('surprise', 2, -0.2)])).toBe(1);
  });
});
