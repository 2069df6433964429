import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VoiceRecording } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { personVoiceRecordingsQueryKey, userVoiceRecordingsQueryKey } from './use-person-voice-recordings';

export function deleteVoiceRecording(recordingId: number): Promise<void> {
  return apiRequest<void>('DELETE', `/api/voiceRecordings/${recordingId}`);
}

export function useDeleteVoiceRecording() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recording: VoiceRecording) => deleteVoiceRecording(recording.id),
    onSuccess: async (_result, recording) => {
      notifySuccess('Voice recording deleted successfully');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: personVoiceRecordingsQueryKey(recording.personId) }),
        queryClient.invalidateQueries({ queryKey: userVoiceRecordingsQueryKey(recording.userId) }),
      ]);
    },
    onError: (error) => notifyError(error.message || 'Failed to delete recording'),
  });
}
