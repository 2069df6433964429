import { useQuery } from '@tanstack/react-query';
import type { FaceImage } from '@shared/api-types';
import { FACE_EXTRACTION_POLL_MS } from './use-person-face-videos';

export function personFaceImagesQueryKey(personId: number) {
  return ['/api/people', personId, 'faceImages'] as const;
}

/**
 * GET /api/people/{personId}/faceImages. With `whileExtracting` (a face video of the person is still
 * being processed) it is polled, so extracted faces appear as they are stored.
 */
export function usePersonFaceImages(personId: number | undefined, { whileExtracting = false } = {}) {
  return useQuery<FaceImage[]>({
    queryKey: personFaceImagesQueryKey(personId ?? 0),
    enabled: personId !== undefined,
    refetchInterval: whileExtracting ? FACE_EXTRACTION_POLL_MS : false,
  });
}
