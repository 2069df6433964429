import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ProcessedVideo } from '@shared/api-types';
import { isInProgress } from './use-processed-videos';

export function processedVideoQueryKey(id: number) {
  return ['/api/processedVideos', id] as const;
}

/** The plain-GET fallback's period when the event stream is unavailable. */
const POLL_MS = 2000;

/**
 * GET /api/processedVideos/{id}. While it renders, progress arrives as Server-Sent Events
 * (`/api/processedVideos/{id}/events`) written straight into the query cache; if the stream fails
 * the query polls instead.
 */
export function useProcessedVideo(id: number | undefined, { live = false } = {}) {
  const queryClient = useQueryClient();
  const query = useQuery<ProcessedVideo>({
    queryKey: processedVideoQueryKey(id ?? 0),
    enabled: id !== undefined,
    refetchInterval: (q) => (live && typeof EventSource === 'undefined' && q.state.data && isInProgress(q.state.data) ? POLL_MS : false),
  });
  const running = query.data ? isInProgress(query.data) : false;

  useEffect(() => {
    if (!live || id === undefined || !running || typeof EventSource === 'undefined') return;
    const key = processedVideoQueryKey(id);
    const source = new EventSource(`/api/processedVideos/${id}/events`, { withCredentials: true });
    let fallback: ReturnType<typeof setInterval> | undefined;
    source.onmessage = (event) => {
      const video = JSON.parse(event.data as string) as ProcessedVideo;
      queryClient.setQueryData(key, video);
      if (!isInProgress(video)) source.close();
    };
    source.addEventListener('deleted', () => {
      source.close();
      void queryClient.invalidateQueries({ queryKey: key });
    });
    source.onerror = () => {
      // EventSource reconnects by itself after a stream ends; only a closed stream falls back to polling.
      if (source.readyState === EventSource.CLOSED && !fallback) {
        fallback = setInterval(() => void queryClient.invalidateQueries({ queryKey: key }), POLL_MS);
      }
    };
    return () => {
      source.close();
      if (fallback) clearInterval(fallback);
    };
  }, [live, id, running, queryClient]);

  return query;
}
