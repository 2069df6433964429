import { useQuery } from '@tanstack/react-query';
import type { FaceImage } from '@shared/api-types';

export function userFaceImagesQueryKey(userId: number) {
  return ['/api/users', userId, 'faceImages'] as const;
}

/** GET /api/users/{userId}/faceImages: every face image of the user's people (the list's avatars). */
export function useUserFaceImages(userId: number | undefined) {
  return useQuery<FaceImage[]>({ queryKey: userFaceImagesQueryKey(userId ?? 0), enabled: userId !== undefined });
}
