import type { MediaLink, MediaLinkPurpose } from '@shared/video-rules';
import { apiRequest } from '@client/lib/api';

/** A short-lived signed URL of a completed video's file: for a download, or for a TV (which has no cookie). */
export function createMediaLink(videoId: number, purpose: MediaLinkPurpose): Promise<MediaLink> {
  return apiRequest<MediaLink>('POST', `/api/processedVideos/${videoId}/link`, { purpose });
}
