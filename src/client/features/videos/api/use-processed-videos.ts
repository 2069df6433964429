import { useQuery } from '@tanstack/react-query';
import type { ProcessedVideo } from '@shared/api-types';

export function processedVideosQueryKey(userId: number) {
  return ['/api/users', userId, 'processedVideos'] as const;
}

/** Polled while any video is still pending or processing, so cards flip to Completed by themselves. */
export const PROCESSED_VIDEOS_POLL_MS = 3000;

export function isInProgress(video: Pick<ProcessedVideo, 'status'>): boolean {
  return video.status === 'pending' || video.status === 'processing';
}

/** GET /api/users/{userId}/processedVideos: the signed-in user's own, newest first. */
export function useProcessedVideos(userId: number | undefined) {
  return useQuery<ProcessedVideo[]>({
    queryKey: processedVideosQueryKey(userId ?? 0),
    enabled: userId !== undefined,
    refetchInterval: (query) => (query.state.data?.some(isInProgress) ? PROCESSED_VIDEOS_POLL_MS : false),
  });
}
