import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProcessedVideo } from '@shared/api-types';
import type { RetryProcessedVideoInput } from '@shared/video-rules';
import { apiRequest } from '@client/lib/api';
import { processedVideoQueryKey } from './use-processed-video';
import { processedVideosQueryKey } from './use-processed-videos';

/**
 * POST /api/processedVideos/{id}/retry: a failed video queued again (`pending`) with the same choices, or
 * with another face or recording of the same person. A plan limit answers with `code: 'plan_limit'`.
 */
export function useRetryProcessedVideo(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: { id: number } & RetryProcessedVideoInput) =>
      apiRequest<ProcessedVideo>('POST', `/api/processedVideos/${id}/retry`, changes),
    onSuccess: async (video) => {
      queryClient.setQueryData(processedVideoQueryKey(video.id), video);
      if (userId !== undefined) await queryClient.invalidateQueries({ queryKey: processedVideosQueryKey(userId) });
    },
  });
}
