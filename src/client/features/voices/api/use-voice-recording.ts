import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VoiceRecording } from '@shared/api-types';
import { isAwaitingAnalysis } from '../lib/voice-analysis';

/** The analysis takes a few seconds: look again this often until it is done or has failed. */
export const VOICE_ANALYSIS_POLL_MS = 2000;

export function voiceRecordingQueryKey(recordingId: number) {
  return ['/api/voiceRecordings', recordingId] as const;
}

/** GET /api/voiceRecordings/{id}, polled until `mlProcessed` or `analysisError`. */
export function voiceRecordingQueryOptions(recordingId: number) {
  return queryOptions<VoiceRecording>({
    queryKey: voiceRecordingQueryKey(recordingId),
    refetchInterval: ({ state }) => {
      if (state.status === 'error') return false;
      return !state.data || isAwaitingAnalysis(state.data) ? VOICE_ANALYSIS_POLL_MS : false;
    },
  });
}

export function useVoiceRecording(recordingId: number) {
  return useQuery(voiceRecordingQueryOptions(recordingId));
}
