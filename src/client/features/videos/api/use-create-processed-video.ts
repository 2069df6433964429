import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProcessedVideo } from '@shared/api-types';
import type { CreateProcessedVideoInput } from '@shared/video-rules';
import { apiRequest } from '@client/lib/api';
import { processedVideoQueryKey } from './use-processed-video';
import { processedVideosQueryKey } from './use-processed-videos';

/** POST /api/processedVideos: the server writes the row `pending` and queues the render. */
export function useCreateProcessedVideo(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateProcessedVideoInput) => apiRequest<ProcessedVideo>('POST', '/api/processedVideos', input),
    onSuccess: async (video) => {
      queryClient.setQueryData(processedVideoQueryKey(video.id), video);
      if (userId !== undefined) await queryClient.invalidateQueries({ queryKey: processedVideosQueryKey(userId) });
    },
  });
}
