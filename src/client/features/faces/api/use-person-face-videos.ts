import { useQuery } from '@tanstack/react-query';
import type { FaceVideo } from '@shared/api-types';

/** While the server extracts faces, look again this often (spec 01 §4: the images refresh after 5 s). */
export const FACE_EXTRACTION_POLL_MS = 5000;

export function personFaceVideosQueryKey(personId: number) {
  return ['/api/people', personId, 'faceVideos'] as const;
}

export function isProcessing(video: FaceVideo): boolean {
  return video.processingStatus === 'pending' || video.processingStatus === 'processing';
}

/** GET /api/people/{personId}/faceVideos, polled only while a video is still being processed. */
export function usePersonFaceVideos(personId: number | undefined) {
  return useQuery<FaceVideo[]>({
    queryKey: personFaceVideosQueryKey(personId ?? 0),
    enabled: personId !== undefined,
    refetchInterval: (query) => (query.state.data?.some(isProcessing) ? FACE_EXTRACTION_POLL_MS : false),
  });
}
