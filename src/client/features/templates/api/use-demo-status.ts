import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { DemoLibraryStatus } from '@shared/api-types';
import { DEMO_STATUS_PATH, DEMO_STATUS_POLL_MS } from './featured-for-visitors';
import { featuredTemplatesQueryKey } from './use-featured-templates';
import { templatesQueryKey } from './use-templates';

export const demoStatusQueryKey = [DEMO_STATUS_PATH] as const;

/**
 * Whether the demo library is being made right now (a first start, issue 20). Asked only when `ask`: the
 * landing page asks when it has no featured video, the library always (it may hold the first demo videos
 * already). While it is being made, the status and the template lists are read again every few seconds,
 * so the videos appear as they are made, without a reload; once more when it ends.
 */
export function useDemoLibraryPreparing(ask: boolean): boolean {
  const queryClient = useQueryClient();
  const { data, dataUpdatedAt } = useQuery<DemoLibraryStatus>({
    queryKey: demoStatusQueryKey,
    enabled: ask,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.preparing ? DEMO_STATUS_POLL_MS : false),
  });
  const preparing = ask && data?.preparing === true;
  // Whether the previous answer said preparing: the first one comes with the lists just read.
  const wasPreparing = useRef(false);
  useEffect(() => {
    if (!data) return;
    if (wasPreparing.current) {
      void queryClient.invalidateQueries({ queryKey: featuredTemplatesQueryKey, exact: true });
      void queryClient.invalidateQueries({ queryKey: templatesQueryKey, exact: true });
    }
    wasPreparing.current = data.preparing;
  }, [data, dataUpdatedAt, queryClient]);
  return preparing;
}
