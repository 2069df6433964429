import { useQuery } from '@tanstack/react-query';
import type { VideoTemplate } from '@shared/api-types';
import { FEATURED_TEMPLATES_PATH } from './featured-for-visitors';

export const featuredTemplatesQueryKey = [FEATURED_TEMPLATES_PATH] as const;

/** The featured templates (public). */
export function useFeaturedTemplates() {
  return useQuery<VideoTemplate[]>({ queryKey: featuredTemplatesQueryKey });
}
