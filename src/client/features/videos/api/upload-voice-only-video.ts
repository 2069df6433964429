import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProcessedVideo } from '@shared/api-types';
import type { VoiceOnlyFields } from '@shared/voice-only-rules';
import { uploadWithProgress } from '@client/lib/api';
import { processedVideoQueryKey } from './use-processed-video';
import { processedVideosQueryKey } from './use-processed-videos';

export interface VoiceOnlyUpload extends VoiceOnlyFields {
  file: File;
}

/** POST /api/upload/voice-only-video (multipart: title, personId, video), reporting progress 0–100. */
export function uploadVoiceOnlyVideo(fields: VoiceOnlyUpload, onProgress?: (percent: number) => void): Promise<ProcessedVideo> {
  const form = new FormData();
  // Text fields first: the server checks them before it reads the video.
  form.append('title', fields.title);
  form.append('personId', String(fields.personId));
  form.append('video', fields.file, fields.file.name);
  return uploadWithProgress<ProcessedVideo>('/api/upload/voice-only-video', form, onProgress);
}

/** The upload as a mutation: the server writes the video `pending` and queues it; the saved list is refreshed. */
export function useUploadVoiceOnlyVideo(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ onProgress, ...fields }: VoiceOnlyUpload & { onProgress?: (percent: number) => void }) => uploadVoiceOnlyVideo(fields, onProgress),
    onSuccess: async (video) => {
      queryClient.setQueryData(processedVideoQueryKey(video.id), video);
      if (userId !== undefined) await queryClient.invalidateQueries({ queryKey: processedVideosQueryKey(userId) });
    },
  });
}
