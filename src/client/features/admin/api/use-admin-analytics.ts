import { useQuery } from '@tanstack/react-query';
import type { AdminAnalytics } from '@shared/api-types';

export const adminAnalyticsQueryKey = ['/api/admin/analytics'] as const;

/** Real figures from the database; fetched again each time the Analytics tab opens. */
export function useAdminAnalytics() {
  return useQuery<AdminAnalytics>({ queryKey: adminAnalyticsQueryKey, staleTime: 0, refetchOnMount: 'always' });
}
