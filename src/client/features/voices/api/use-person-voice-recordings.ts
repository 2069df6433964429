import { useQuery } from '@tanstack/react-query';
import type { VoiceRecording } from '@shared/api-types';
import { isAwaitingAnalysis } from '../lib/voice-analysis';
import { VOICE_ANALYSIS_POLL_MS } from './use-voice-recording';

export function personVoiceRecordingsQueryKey(personId: number) {
  return ['/api/people', personId, 'voiceRecordings'] as const;
}

export function userVoiceRecordingsQueryKey(userId: number) {
  return ['/api/users', userId, 'voiceRecordings'] as const;
}

/** GET /api/people/{personId}/voiceRecordings, polled while a recording is still being analysed. */
export function usePersonVoiceRecordings(personId: number | undefined) {
  return useQuery<VoiceRecording[]>({
    queryKey: personVoiceRecordingsQueryKey(personId ?? 0),
    enabled: personId !== undefined,
    refetchInterval: (query) => (query.state.data?.some(isAwaitingAnalysis) ? VOICE_ANALYSIS_POLL_MS : false),
  });
}
