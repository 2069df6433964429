import { useQuery } from '@tanstack/react-query';
import type { PlanUsage } from '@shared/api-types';

/** GET /api/users/{id}/usage: the plan's limits and what is used of them, read afresh on every visit
 * (videos and people change it from many places). */
export function useUsage(userId: number | undefined) {
  return useQuery<PlanUsage>({
    queryKey: ['/api/users', userId ?? 0, 'usage'],
    enabled: userId !== undefined,
    refetchOnMount: 'always',
  });
}
