import { useQuery } from '@tanstack/react-query';
import type { VideoTemplate } from '@shared/api-types';

export const templateQueryKey = (id: number) => ['/api/videoTemplates', id] as const;

/** One template; visitors may read a free one (the public preview). */
export function useTemplate(id: number | undefined) {
  return useQuery<VideoTemplate>({ queryKey: templateQueryKey(id ?? 0), enabled: id !== undefined });
}
