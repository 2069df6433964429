import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VoiceRecording } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError } from '@client/lib/notify';
import { personVoiceRecordingsQueryKey, userVoiceRecordingsQueryKey } from './use-person-voice-recordings';
import { voiceRecordingQueryKey } from './use-voice-recording';

export interface NewVoiceRecording {
  userId: number;
  personId: number;
  name: string;
  /** A data URL of the recorded webm/ogg. */
  audioData: string;
  /** Seconds as timed by the recorder; the server measures its own. */
  duration: number;
  isDefault: boolean;
  /** The training wizard's step type. */
  type?: string;
}

export function createVoiceRecording(recording: NewVoiceRecording): Promise<VoiceRecording> {
  return apiRequest<VoiceRecording>('POST', '/api/voiceRecordings', recording);
}

/**
 * POST /api/voiceRecordings. Callers raise their own success toast (the dialog and the wizard differ).
 * With `notify: false` the caller also shows the error itself (a dialog, inline: a toast would repeat it).
 */
export function useCreateVoiceRecording({ notify = true }: { notify?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createVoiceRecording,
    onSuccess: async (recording, { userId, personId }) => {
      // Whoever follows its analysis (useVoiceRecording) starts from the saved row.
      queryClient.setQueryData(voiceRecordingQueryKey(recording.id), recording);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: personVoiceRecordingsQueryKey(personId) }),
        queryClient.invalidateQueries({ queryKey: userVoiceRecordingsQueryKey(userId) }),
      ]);
    },
    onError: (error) => {
      if (notify) notifyError(error.message);
    },
  });
}
