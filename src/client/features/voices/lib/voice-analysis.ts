// How a voice recording's analysis reads to a parent: its state, and its figures in words.
import type { VoiceRecording } from '@shared/api-types';
import type { VoiceAnalysisSummary } from '@shared/voice-analysis';

/** Saved, but the server has neither measured it nor given up yet. */
export function isAwaitingAnalysis(recording: Pick<VoiceRecording, 'mlProcessed' | 'analysisError'>): boolean {
  return !recording.mlProcessed && !recording.analysisError;
}

/** "Pitch 212 Hz (180–260)": the median and the usual range (10th–90th percentile) of the voice. */
export function formatPitch({ pitchMedianHz, pitchLowHz, pitchHighHz }: VoiceAnalysisSummary): string {
  if (pitchMedianHz === null) return 'Pitch unclear';
  const range = pitchLowHz !== null && pitchHighHz !== null ? ` (${Math.round(pitchLowHz)}–${Math.round(pitchHighHz)})` : '';
  return `Pitch ${Math.round(pitchMedianHz)} Hz${range}`;
}

/** "−21 LUFS" (a true minus sign); below the −70 LUFS gate there is nothing to measure. */
export function formatLoudness({ loudnessLufs }: VoiceAnalysisSummary): string {
  if (loudnessLufs === null) return 'Silent';
  const rounded = Math.round(loudnessLufs);
  return `${rounded < 0 ? '\u2212' : ''}${Math.abs(rounded)} LUFS`;
}

/** "Speech 86%": how much of the recording is speech rather than silence. */
export function formatSpeechShare({ speechShare }: VoiceAnalysisSummary): string {
  return `Speech ${Math.round(speechShare * 100)}%`;
}
