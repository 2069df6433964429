// The lighting model of the face paste: smooth surfaces fitted over skin samples, robust to what is not
// skin, and the transfer that takes the photo's light out and puts the actor's in.
import { describe, expect, it } from 'vitest';
import { LIGHT, type Surface, castShare, createLightFollower, evaluate, fitLighting, lightTransfer, transferLuma } from './face-light';

/** Samples on a grid over the face (±0.45 face heights), Y/U/V from the given surfaces plus a little texture. */
function samples(y: Surface, u: Surface, v: Surface, texture = 3) {
  const out: { x: number; y: number; Y: number; U: number; V: number }[] = [];
  let seed = 7;
  const noise = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 2 * texture;
  for (let gy = -0.45; gy <= 0.45; gy += 0.03) {
    for (let gx = -0.35; gx <= 0.35; gx += 0.03) {
      out.push({ x: gx, y: gy, Y: evaluate(y, gx, gy) + noise(), U: evaluate(u, gx, gy) + noise() / 3, V: evaluate(v, gx, gy) + noise() / 3 });
    }
  }
  return out;
}

describe('face lighting', () => {
  // A lamp on the person's left (brighter to the right of the picture) and a warm cast.
  const lamp: Surface = [140, 40, -10, -20, 0, -30];
  const warmU: Surface = [118, -4, 0, 0, 0, 0];
  const warmV: Surface = [150, 6, 2, 0, 0, 0];

  it('recovers the light and tint of the skin, whatever strands of hair lie across it', () => {
    const clean = samples(lamp, warmU, warmV);
    // A tenth of the points are a dark strand: far from the skin, left out of the second fit.
    const withHair = clean.map((s, i) => (i % 10 === 0 ? { ...s, Y: 40, U: 125, V: 132 } : s));
    for (const set of [clean, withHair]) {
      const fit = fitLighting(set)!;
      for (const [x, y] of [[0, 0], [0.3, 0.1], [-0.3, -0.3], [0.2, 0.4]] as const) {
        expect(Math.abs(evaluate(fit.y, x, y) - evaluate(lamp, x, y))).toBeLessThan(4);
        expect(Math.abs(evaluate(fit.u, x, y) - evaluate(warmU, x, y))).toBeLessThan(1.5);
        expect(Math.abs(evaluate(fit.v, x, y) - evaluate(warmV, x, y))).toBeLessThan(1.5);
      }
    }
    expect(fitLighting(clean.slice(0, 10))).toBeUndefined();
  });

  it('moves the photo’s light to the actor’s and keeps the skin’s own detail', () => {
    const person = fitLighting(samples(lamp, warmU, warmV))!;
    // The actor: lit evenly from the front, a cooler skin.
    const flat: Surface = [120, 0, 0, 0, 0, -15];
    const coolU: Surface = [124, 0, 0, 0, 0, 0];
    const coolV: Surface = [140, 0, 0, 0, 0, 0];
    const actor = fitLighting(samples(flat, coolU, coolV))!;
    const transfer = lightTransfer(person, actor);
    for (const [x, y] of [[0.3, 0], [-0.3, 0.2]] as const) {
      const lit = evaluate(lamp, x, y);
      const target = evaluate(flat, x, y);
      // Skin as lit as the photo's surface lands on the actor's surface, wherever the lamp was.
      expect(transferLuma(transfer, lit, x, y)).toBeCloseTo(target, 0);
      // The skin's own detail is kept: darker detail in proportion to the new light, brighter detail (a
      // glint) at most at its own size.
      const [fittedLit, fittedTarget] = [evaluate(person.y, x, y), evaluate(actor.y, x, y)];
      const ratio = (fittedTarget - 16) / (fittedLit - 16);
      expect(transferLuma(transfer, fittedLit - 6, x, y) - fittedTarget).toBeCloseTo(-6 * transfer.gain * ratio, 1);
      expect(transferLuma(transfer, fittedLit + 6, x, y) - fittedTarget).toBeCloseTo(6 * transfer.gain * Math.min(1, ratio), 1);
      // A glint far brighter than the skin (60 % above it) is softened past LIGHT.highlightKnee, not carried whole.
      const glint = 0.6 * (fittedLit - 16);
      const softened = LIGHT.highlightKnee + LIGHT.highlightSlope * (0.6 - LIGHT.highlightKnee);
      expect(transferLuma(transfer, fittedLit + glint, x, y) - fittedTarget).toBeCloseTo(transfer.gain * softened * Math.min(fittedLit - 16, fittedTarget - 16), 0);
      // Light multiplies: a brow at 30 % of the skin's brightness stays near 30 % of the new skin's, not lifted grey.
      const brow = 16 + 0.3 * (lit - 16);
      expect(transferLuma(transfer, brow, x, y) - 16).toBeLessThan(0.5 * (target - 16));
      // The colour cast moves lit skin fully to the actor's tint, and a dark brow only in proportion.
      expect(evaluate(warmU, x, y) + castShare(transfer, lit, x, y) * evaluate(transfer.shiftU, x, y)).toBeCloseTo(evaluate(coolU, x, y), 0);
      expect(castShare(transfer, brow, x, y)).toBeCloseTo(0.3 / LIGHT.fullToneAbove, 1);
    }
    expect(transfer.gain).toBeGreaterThanOrEqual(LIGHT.minDetailRatio);
    expect(transfer.gain).toBeLessThanOrEqual(LIGHT.maxDetailRatio);
  });

  it('never flattens the person’s relief under a smoother actor, and lends a rougher actor’s up to a third', () => {
    const person = fitLighting(samples(lamp, warmU, warmV, 6))!;
    const smooth = fitLighting(samples(lamp, warmU, warmV, 2))!;
    const rough = fitLighting(samples(lamp, warmU, warmV, 12))!;
    // The smooth actor's skin has a third of the photo's relief: the face keeps all of its own (eyes and
    // brows as deep against the skin; scaled to 0.75 of it, face-api's detector lost the dim faces).
    expect(lightTransfer(person, smooth).gain).toBe(1);
    const brow = 16 + 0.3 * (evaluate(person.y, 0, 0) - 16);
    const target = evaluate(smooth.y, 0, 0) - 16;
    expect((transferLuma(lightTransfer(person, smooth), brow, 0, 0) - 16) / target).toBeCloseTo(0.3, 1);
    expect(lightTransfer(person, rough).gain).toBeCloseTo(LIGHT.maxDetailRatio, 5);
  });

  it('follows the actor’s light smoothly over frames, never jumping with one frame’s fit', () => {
    const follower = createLightFollower();
    const dim = fitLighting(samples([100, 0, 0, 0, 0, 0], warmU, warmV, 0.5))!;
    const bright = fitLighting(samples([160, 0, 0, 0, 0, 0], warmU, warmV, 0.5))!;
    expect(follower.follow(dim).y[0]).toBeCloseTo(100, 0);
    const next = follower.follow(bright).y[0];
    expect(next).toBeGreaterThan(110);
    expect(next).toBeLessThan(140);
    for (let i = 0; i < 20; i++) follower.follow(bright);
    expect(follower.follow(bright).y[0]).toBeCloseTo(160, 0);
  });
});
