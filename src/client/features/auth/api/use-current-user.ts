import { useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@shared/api-types';
import { CURRENT_USER_STALE_MS } from '@shared/constants';
import { getQueryFn } from '@client/lib/api';

export const currentUserQueryKey = ['/api/me'] as const;

/** The signed-in user, loaded once and cached for 5 minutes; a 401 means nobody is signed in (null). */
export function useCurrentUser() {
  const query = useQuery<CurrentUser | null>({
    queryKey: currentUserQueryKey,
    queryFn: getQueryFn<CurrentUser | null>({ on401: 'returnNull' }),
    staleTime: CURRENT_USER_STALE_MS,
  });
  const user = query.data ?? null;
  return { user, isLoading: query.isLoading, isAdmin: user?.role === 'admin', error: query.error };
}
