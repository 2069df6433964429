import { describe, expect, it } from 'vitest';
import { type VoiceAnalysisSummary, type VoiceWarningCode, voiceWarning } from '@shared/voice-analysis';
import {
  describeLoudness,
  describeSpeech,
  formatLoudness,
  formatPitch,
  formatSpeechShare,
  isAwaitingAnalysis,
  loudnessVerdict,
  recordingKindLabel,
} from './voice-analysis';

const analysis: VoiceAnalysisSummary = {
  pitchMedianHz: 214.1,
  pitchLowHz: 177.4,
  pitchHighHz: 248.8,
  loudnessLufs: -19.6,
  peakDb: -3.4,
  speechShare: 0.857,
  warnings: [],
};

const warnedOf = (...codes: VoiceWarningCode[]) => ({ ...analysis, warnings: codes.map(voiceWarning) });

describe('voice analysis in words', () => {
  it('rounds the figures the way the details show them', () => {
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

describe('the plain verdicts a parent reads', () => {
  it('reads loudness from the analysis’ own warnings', () => {
    expect(describeLoudness(analysis)).toBe('Loudness: good');
    expect(describeLoudness(warnedOf('tooQuiet'))).toBe('Loudness: too quiet');
    expect(describeLoudness(warnedOf('clipped'))).toBe('Loudness: too loud');
    // Quiet overall with distorted peaks: the distortion is what to fix first.
    expect(loudnessVerdict(warnedOf('tooQuiet', 'clipped'))).toBe('too loud');
    // Silence is below the quiet threshold too (the server warns tooQuiet with no loudness at all).
    const silent: VoiceAnalysisSummary = { ...warnedOf('tooQuiet', 'noVoice'), loudnessLufs: null };
    expect(loudnessVerdict(silent)).toBe('too quiet');
  });

  it('reads speech from the same warnings', () => {
    expect(describeSpeech(analysis)).toBe('Speech: enough');
    expect(describeSpeech(warnedOf('littleSpeech'))).toBe('Speech: too little');
    expect(describeSpeech(warnedOf('noVoice', 'littleSpeech'))).toBe('No voice heard');
  });

  it('names a recording’s kind by the training step that made it, and hides a type no parent chose', () => {
    expect(recordingKindLabel('casual')).toBe('Introduction');
    expect(recordingKindLabel('instructional')).toBe('Counting');
    expect(recordingKindLabel('sample')).toBeNull();
    expect(recordingKindLabel(null)).toBeNull();
  });
});
