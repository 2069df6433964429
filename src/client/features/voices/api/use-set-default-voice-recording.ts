import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VoiceRecording } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { personVoiceRecordingsQueryKey, userVoiceRecordingsQueryKey } from './use-person-voice-recordings';

export function setDefaultVoiceRecording(recordingId: number): Promise<VoiceRecording> {
  return apiRequest<VoiceRecording>('PATCH', `/api/voiceRecordings/${recordingId}/setDefault`);
}

export function useSetDefaultVoiceRecording() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recording: VoiceRecording) => setDefaultVoiceRecording(recording.id),
    onSuccess: async (_result, recording) => {
      notifySuccess('Default voice recording updated');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: personVoiceRecordingsQueryKey(recording.personId) }),
        queryClient.invalidateQueries({ queryKey: userVoiceRecordingsQueryKey(recording.userId) }),
      ]);
    },
    onError: (error) => notifyError(error.message || 'Failed to set default recording'),
  });
}
