// The expression mapping on fixed measures (no model involved).
import { describe, expect, it } from 'vitest';
import { FACE_EXPRESSIONS } from '../../shared/media-rules';
import { EXPRESSION_THRESHOLDS, type ExpressionEvidence, classifyExpression, expressionAgrees, isFaceExpression } from './expressions';

const face = (yaw: number, happy: number, mouthOpening: number): ExpressionEvidence => ({ pose: { yaw }, expressions: { happy }, mouthOpening });

describe('classifyExpression', () => {
  it.each([
    // Measures of real faces (docs/decisions/008-face-engine.md), then the edges of each threshold.
    { name: 'the astronaut: frontal, smiling with teeth', face: face(0, 0.99, 0.067), expected: 'smile' },
    { name: 'a full profile turned to her right (sample2)', face: face(-41, 0.03, 0.042), expected: 'profile-right' },
    { name: 'the same photo mirrored', face: face(44.6, 0.03, 0.042), expected: 'profile-left' },
    { name: 'the talking man saying "ah"', face: face(2.7, 0.21, 0.145), expected: 'talking' },
    { name: 'the talking man with closed lips', face: face(2.6, 0.01, 0.001), expected: 'neutral' },
    { name: 'a three-quarter view turned to her left, faint smile (sample4)', face: face(22.6, 0.32, 0.011), expected: 'profile-left' },
    { name: 'a slight turn, looking at the camera, smiling (sample4)', face: face(-19.2, 0.72, 0.024), expected: 'neutral' },
    { name: 'a slight turn, smiling broadly (sample1)', face: face(-14.1, 0.99, 0.069), expected: 'smile' },
    { name: 'a smile turned past the profile threshold', face: face(30, 0.99, 0.08), expected: 'profile-left' },
    { name: 'yaw exactly at the threshold', face: face(EXPRESSION_THRESHOLDS.profileYaw, 0, 0), expected: 'profile-left' },
    { name: 'yaw just under the threshold', face: face(-EXPRESSION_THRESHOLDS.profileYaw + 0.1, 0, 0), expected: 'neutral' },
    { name: 'happy exactly at the threshold', face: face(0, EXPRESSION_THRESHOLDS.smileHappy, 0), expected: 'smile' },
    { name: 'happy just under it', face: face(0, EXPRESSION_THRESHOLDS.smileHappy - 0.01, 0), expected: 'neutral' },
    { name: 'mouth exactly at the talking threshold', face: face(0, 0, EXPRESSION_THRESHOLDS.talkingMouthOpening), expected: 'talking' },
    { name: 'mouth just under it', face: face(0, 0, EXPRESSION_THRESHOLDS.talkingMouthOpening - 0.001), expected: 'neutral' },
  ])('$name → $expected', ({ face: evidence, expected }) => {
    expect(classifyExpression(evidence)).toBe(expected);
  });

  it('only ever answers one of the product types', () => {
    for (const yaw of [-90, -25, 0, 25, 90]) {
      for (const happy of [0, 0.5, 1]) {
        for (const mouth of [0, 0.05, 0.3]) expect(FACE_EXPRESSIONS).toContain(classifyExpression(face(yaw, happy, mouth)));
      }
    }
  });
});

describe('expressionAgrees', () => {
  it('checks the declared type’s own test', () => {
    const smilingTalker = face(0, 0.95, 0.12);
    expect(expressionAgrees(smilingTalker, 'smile')).toBe(true);
    expect(expressionAgrees(smilingTalker, 'talking')).toBe(true);
    expect(expressionAgrees(smilingTalker, 'neutral')).toBe(false);
    expect(expressionAgrees(smilingTalker, 'profile-left')).toBe(false);

    expect(expressionAgrees(face(40, 0.1, 0), 'profile-left')).toBe(true);
    expect(expressionAgrees(face(40, 0.1, 0), 'profile-right')).toBe(false);
    expect(expressionAgrees(face(-40, 0.1, 0), 'profile-right')).toBe(true);
    // A profile is not a frontal smile, even when the model says happy.
    expect(expressionAgrees(face(-40, 0.99, 0), 'smile')).toBe(false);
    expect(expressionAgrees(face(3, 0.1, 0.01), 'neutral')).toBe(true);
  });

  it('lets no unknown declared type agree', () => {
    expect(expressionAgrees(face(0, 0.1, 0), 'surprised')).toBe(false);
    expect(expressionAgrees(face(0, 0.1, 0), '')).toBe(false);
    expect(isFaceExpression('talking')).toBe(true);
    expect(isFaceExpression('Talking')).toBe(false);
  });
});
