import { useQuery } from '@tanstack/react-query';
import type { VideoTemplate } from '@shared/api-types';

export const templatesQueryKey = ['/api/videoTemplates'] as const;

/** Every template, for the library (signed-in users). */
export function useTemplates() {
  return useQuery<VideoTemplate[]>({ queryKey: templatesQueryKey });
}
