import { useQuery } from '@tanstack/react-query';
import type { FaceImage } from '@shared/api-types';

export function personFaceImagesQueryKey(personId: number) {
  return ['/api/people', personId, 'faceImages'] as const;
}

/** GET /api/people/{personId}/faceImages. */
export function usePersonFaceImages(personId: number | undefined) {
  return useQuery<FaceImage[]>({ queryKey: personFaceImagesQueryKey(personId ?? 0), enabled: personId !== undefined });
}
