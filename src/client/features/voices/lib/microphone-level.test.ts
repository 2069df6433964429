import { describe, expect, it } from 'vitest';
import { LEVEL_FLOOR_DBFS, levelFromDbfs, rmsDbfs, smoothDbfs } from './microphone-level';

describe('microphone level', () => {
  it('measures RMS in dBFS: a full-scale square wave is 0, a full-scale sine about −3, silence the floor', () => {
    expect(rmsDbfs(Float32Array.from({ length: 2048 }, (_, i) => (i % 2 ? 1 : -1)))).toBeCloseTo(0, 5);
    expect(rmsDbfs(Float32Array.from({ length: 2048 }, (_, i) => Math.sin((2 * Math.PI * i) / 64)))).toBeCloseTo(-3.01, 1);
    expect(rmsDbfs(new Float32Array(2048))).toBe(-100);
  });

  it('maps −60..0 dBFS onto the meter and clamps outside it', () => {
    expect(levelFromDbfs(LEVEL_FLOOR_DBFS)).toBe(0);
    expect(levelFromDbfs(-30)).toBeCloseTo(0.5);
    expect(levelFromDbfs(0)).toBe(1);
    expect(levelFromDbfs(-100)).toBe(0);
    expect(levelFromDbfs(6)).toBe(1);
  });

  it('rises fast and falls slowly', () => {
    // Over 50 ms (three frames) a 40 dB step is mostly climbed, but barely descended.
    expect(smoothDbfs(-60, -20, 50)).toBeGreaterThan(-26);
    expect(smoothDbfs(-20, -60, 50)).toBeGreaterThan(-27);
    expect(smoothDbfs(-60, -20, 0)).toBe(-60);
  });
});
