import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FaceImage } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { personFaceImagesQueryKey } from './use-person-face-images';
import { userFaceImagesQueryKey } from './use-user-face-images';

export interface NewFaceImage {
  userId: number;
  personId: number;
  name: string;
  /** A data URL: the camera's JPEG or the uploaded file. */
  imageData: string;
  isDefault: boolean;
}

export function createFaceImage(faceImage: NewFaceImage): Promise<FaceImage> {
  return apiRequest<FaceImage>('POST', '/api/faceImages', faceImage);
}

export const FACE_IMAGE_ADDED = 'Face image added successfully';

/**
 * POST /api/faceImages. With `notify: false` the caller tells the outcome itself: a dialog shows the
 * error inline (a toast would repeat it over the dialog) and its success when it closes.
 */
export function useCreateFaceImage({ notify = true }: { notify?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFaceImage,
    onSuccess: async (_image, { userId, personId }) => {
      if (notify) notifySuccess(FACE_IMAGE_ADDED);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: personFaceImagesQueryKey(personId) }),
        queryClient.invalidateQueries({ queryKey: userFaceImagesQueryKey(userId) }),
      ]);
    },
    onError: (error) => {
      if (notify) notifyError(error.message);
    },
  });
}
