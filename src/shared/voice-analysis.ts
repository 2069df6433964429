// What the analysis of a voice recording tells the parent: the warnings (codes and their words) and the
// summary the API returns. The voice fingerprint (embedding) is biometric data and stays on the server.

export const VOICE_WARNING_MESSAGES = {
  tooQuiet: 'The recording is very quiet. Record closer to the microphone.',
  clipped: 'The recording is distorted (too loud). Move a little away from the microphone.',
  noVoice: 'No voice was heard in this recording, only silence, noise or music. Record again with the person speaking close to the microphone and no music or TV playing.',
  littleSpeech: 'There is little speech in this recording. Record again and keep talking for most of it.',
} as const;

export type VoiceWarningCode = keyof typeof VOICE_WARNING_MESSAGES;

export interface VoiceWarning {
  code: VoiceWarningCode;
  message: string;
}

export function voiceWarning(code: VoiceWarningCode): VoiceWarning {
  return { code, message: VOICE_WARNING_MESSAGES[code] };
}

/** When the analysis itself fails (a damaged file is reported with MEDIA_MESSAGES.unreadableMedia). */
export const VOICE_ANALYSIS_MESSAGES = {
  timedOut: 'Analysing this recording took too long. Please record it again.',
  tooShort: 'Less than a second of sound could be read from this recording. It may be incomplete: please record it again.',
} as const;

/** A voice recording's analysis as the API returns it. */
export interface VoiceAnalysisSummary {
  /** Median pitch of the voiced speech, Hz; null when there is too little voiced speech to tell. */
  pitchMedianHz: number | null;
  /** 10th percentile of the voiced pitch, Hz. */
  pitchLowHz: number | null;
  /** 90th percentile of the voiced pitch, Hz. */
  pitchHighHz: number | null;
  /** Integrated loudness (EBU R128) of the mono mix, LUFS; null when everything is below the −70 LUFS gate. */
  loudnessLufs: number | null;
  /** Sample peak of the mono mix at 48 kHz, dBFS (above 0 when clipped audio overshoots); null for digital silence. */
  peakDb: number | null;
  /** 0..1: share of the recording that is speech rather than silence. */
  speechShare: number;
  /** Most important first. */
  warnings: VoiceWarning[];
}

/**
 * What the analysis of a template's narration found (decision 012): the narrator's median pitch, or null
 * when no voice was heard in it (music, silence, no sound at all). Such a template's voice cannot be
 * changed, and a video asking for it is refused before anything is queued.
 */
export interface TemplateNarration {
  pitchMedianHz: number | null;
  /** Seconds of voiced narration found. */
  voicedSeconds: number;
}

export const NARRATION_MESSAGES = {
  /** The admin's view of a template whose narration has no voice. */
  noVoice: 'No voice found in the narration',
  /** A parent asking for a voice swap on such a template. */
  noVoiceToChange: "This template's narration has no voice to change. Turn off Voice Swap to keep the template's own sound.",
  /** The render found no voice in the narration after all (a template analysed before this check existed). */
  renderNoVoice: "The template's narration has no voice to change. Make the video again with Voice Swap turned off.",
} as const;

/** False when a recording's analysis heard no voice in it (not analysed yet: true, the render checks it). */
export function heardVoice(analysis: Pick<VoiceAnalysisSummary, 'warnings'> | null | undefined): boolean {
  return !(analysis?.warnings ?? []).some((warning) => warning.code === 'noVoice');
}

/** A parent's recording in which no voice was heard cannot be chosen for a video. */
export const unusableRecordingMessage = (name: string) =>
  `No voice could be heard in the recording "${name}". Choose another recording or record again.`;
