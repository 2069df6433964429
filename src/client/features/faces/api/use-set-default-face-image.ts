import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FaceImage } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { personFaceImagesQueryKey } from './use-person-face-images';
import { userFaceImagesQueryKey } from './use-user-face-images';

export function setDefaultFaceImage(faceImageId: number): Promise<FaceImage> {
  return apiRequest<FaceImage>('PATCH', `/api/faceImages/${faceImageId}/setDefault`);
}

export function useSetDefaultFaceImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: FaceImage) => setDefaultFaceImage(image.id),
    onSuccess: async (_result, image) => {
      notifySuccess('Default face image updated');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: personFaceImagesQueryKey(image.personId) }),
        queryClient.invalidateQueries({ queryKey: userFaceImagesQueryKey(image.userId) }),
      ]);
    },
    onError: (error) => notifyError(error.message),
  });
}
