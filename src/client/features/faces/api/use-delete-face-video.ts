import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FaceVideo } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { personFaceVideosQueryKey } from './use-person-face-videos';

export function deleteFaceVideo(faceVideoId: number): Promise<void> {
  return apiRequest<void>('DELETE', `/api/faceVideos/${faceVideoId}`);
}

/** DELETE /api/faceVideos/{id}: the clip goes; face images already extracted from it stay. */
export function useDeleteFaceVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (video: FaceVideo) => deleteFaceVideo(video.id),
    onSuccess: async (_result, video) => {
      notifySuccess('Face video removed');
      await queryClient.invalidateQueries({ queryKey: personFaceVideosQueryKey(video.personId) });
    },
    onError: (error) => notifyError(error.message),
  });
}
