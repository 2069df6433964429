import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FaceImage } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { personFaceImagesQueryKey } from './use-person-face-images';
import { userFaceImagesQueryKey } from './use-user-face-images';

export function deleteFaceImage(faceImageId: number): Promise<void> {
  return apiRequest<void>('DELETE', `/api/faceImages/${faceImageId}`);
}

export function useDeleteFaceImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: FaceImage) => deleteFaceImage(image.id),
    onSuccess: async (_result, image) => {
      notifySuccess('Face image deleted successfully');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: personFaceImagesQueryKey(image.personId) }),
        queryClient.invalidateQueries({ queryKey: userFaceImagesQueryKey(image.userId) }),
      ]);
    },
    onError: (error) => notifyError(error.message),
  });
}
