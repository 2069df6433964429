import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { processedVideoQueryKey } from './use-processed-video';
import { processedVideosQueryKey } from './use-processed-videos';

/** DELETE /api/processedVideos/{id}: the server cancels a running render and removes the files. */
export function useDeleteProcessedVideo(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<void>('DELETE', `/api/processedVideos/${id}`),
    onSuccess: async (_result, id) => {
      notifySuccess('Video deleted', 'The video has been successfully deleted.');
      queryClient.removeQueries({ queryKey: processedVideoQueryKey(id) });
      if (userId !== undefined) await queryClient.invalidateQueries({ queryKey: processedVideosQueryKey(userId) });
    },
    onError: (error) => notifyError(error.message || 'An unknown error occurred', 'Error deleting video'),
  });
}
