import { useQuery } from '@tanstack/react-query';
import type { VideoTemplate } from '@shared/api-types';

export const featuredTemplatesQueryKey = ['/api/videoTemplates/featured'] as const;

/** The featured templates (public). */
export function useFeaturedTemplates() {
  return useQuery<VideoTemplate[]>({ queryKey: featuredTemplatesQueryKey });
}
