import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FaceImage } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { personFaceImagesQueryKey } from './use-person-face-images';
import { userFaceImagesQueryKey } from './use-user-face-images';

export function deleteFaceImage(faceImageId: number): Promise<void> {
  return apiRequest<void>('DELETE', `/api/faceImages/${faceImageId}`);
}

/**
 * DELETE /api/faceImages/{id}. With `notify: false` the caller tells the outcome itself (the Add Face
 * Image dialog replacing a photo by its crop: the parent deleted nothing).
 */
export function useDeleteFaceImage({ notify = true }: { notify?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: FaceImage) => deleteFaceImage(image.id),
    onSuccess: async (_result, image) => {
      if (notify) notifySuccess('Face image deleted successfully');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: personFaceImagesQueryKey(image.personId) }),
        queryClient.invalidateQueries({ queryKey: userFaceImagesQueryKey(image.userId) }),
      ]);
    },
    onError: (error) => {
      if (notify) notifyError(error.message);
    },
  });
}
