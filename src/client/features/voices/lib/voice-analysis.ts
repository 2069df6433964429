// How a voice recording reads to a parent: its analysis state, plain verdicts (loudness, speech) with the
// figures kept for a details view, and what kind of recording it is.
import type { VoiceRecording } from '@shared/api-types';
import type { VoiceAnalysisSummary } from '@shared/voice-analysis';
import { VOICE_TRAINING_STEPS } from './voice-training-steps';

/** Saved, but the server has neither measured it nor given up yet. */
export function isAwaitingAnalysis(recording: Pick<VoiceRecording, 'mlProcessed' | 'analysisError'>): boolean {
  return !recording.mlProcessed && !recording.analysisError;
}

type Warnings = Pick<VoiceAnalysisSummary, 'warnings'>;

function warned({ warnings }: Warnings, code: VoiceAnalysisSummary['warnings'][number]['code']): boolean {
  return warnings.some((warning) => warning.code === code);
}

export type LoudnessVerdict = 'good' | 'too quiet' | 'too loud';

/**
 * The server's own warnings decide (its thresholds live with the analysis, not here): distorted peaks
 * read 'too loud' first, since that is what spoils a recording even when it is quiet overall.
 */
export function loudnessVerdict(analysis: Warnings): LoudnessVerdict {
  if (warned(analysis, 'clipped')) return 'too loud';
  if (warned(analysis, 'tooQuiet')) return 'too quiet';
  return 'good';
}

/** "Loudness: good", "Loudness: too quiet" or "Loudness: too loud". */
export function describeLoudness(analysis: Warnings): string {
  return `Loudness: ${loudnessVerdict(analysis)}`;
}

/** "Speech: enough", "Speech: too little" or "No voice heard", from the same warnings. */
export function describeSpeech(analysis: Warnings): string {
  if (warned(analysis, 'noVoice')) return 'No voice heard';
  return warned(analysis, 'littleSpeech') ? 'Speech: too little' : 'Speech: enough';
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

/**
 * What kind of recording it is, in the words the parent saw when making it: a voice training step's title
 * ("Counting"), else nothing. A type no step uses (an older "sample", say) is data, not words for a parent.
 */
export function recordingKindLabel(type: string | null): string | null {
  return VOICE_TRAINING_STEPS.find((step) => step.type === type)?.title ?? null;
}
