import { describe, expect, it } from 'vitest';
import type { VoiceAnalysisSummary } from '@shared/voice-analysis';
import { formatLoudness, formatPitch, formatSpeechShare, isAwaitingAnalysis } from './voice-analysis';

const analysis: VoiceAnalysisSummary = {
  pitchMedianHz: 214.1,
  pitchLowHz: 177.4,
  pitchHighHz: 248.8,
  loudnessLufs: -19.6,
  peakDb: -3.4,
  speechShare: 0.857,
  warnings: [],
};

describe('voice analysis in words', () => {
  it('rounds the figures the way the recordings list shows them', () => {
    expect(formatPitch(analysis)).toBe('Pitch 214 Hz (177–249)');
    expect(formatLoudness(analysis)).toBe('−20 LUFS');
    expect(formatSpeechShare(analysis)).toBe('Speech 86%');
  });

  it('says so when there is no voice or no sound to measure', () => {
    const silent = { ...analysis, pitchMedianHz: null, pitchLowHz: null, pitchHighHz: null, loudnessLufs: null, speechShare: 0 };
    expect(formatPitch(silent)).toBe('Pitch unclear');
    expect(formatLoudness(silent)).toBe('Silent');
    expect(formatSpeechShare(silent)).toBe('Speech 0%');
  });

  it('waits until the recording is measured or the analysis has failed', () => {
    expect(isAwaitingAnalysis({ mlProcessed: false, analysisError: null })).toBe(true);
    expect(isAwaitingAnalysis({ mlProcessed: true, analysisError: null })).toBe(false);
    expect(isAwaitingAnalysis({ mlProcessed: false, analysisError: 'We could not analyse this recording.' })).toBe(false);
  });
});
