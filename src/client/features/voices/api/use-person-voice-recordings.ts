import { useQuery } from '@tanstack/react-query';
import type { VoiceRecording } from '@shared/api-types';

export function personVoiceRecordingsQueryKey(personId: number) {
  return ['/api/people', personId, 'voiceRecordings'] as const;
}

export function userVoiceRecordingsQueryKey(userId: number) {
  return ['/api/users', userId, 'voiceRecordings'] as const;
}

/** GET /api/people/{personId}/voiceRecordings. */
export function usePersonVoiceRecordings(personId: number | undefined) {
  return useQuery<VoiceRecording[]>({
    queryKey: personVoiceRecordingsQueryKey(personId ?? 0),
    enabled: personId !== undefined,
  });
}
