import { useQuery } from '@tanstack/react-query';
import type { ProcessingEstimate } from '@shared/video-rules';

/** GET /api/processedVideos/estimate?templateId=&face=&voice=: seconds the server expects this render to take. */
export function useProcessingEstimate(templateId: number | undefined, face: boolean, voice: boolean) {
  return useQuery<ProcessingEstimate>({
    queryKey: [`/api/processedVideos/estimate?templateId=${templateId ?? 0}&face=${face ? 1 : 0}&voice=${voice ? 1 : 0}`],
    enabled: templateId !== undefined,
  });
}
