import { useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@shared/api-types';
import { CURRENT_USER_STALE_MS } from '@shared/constants';
import { getQueryFn } from '@client/lib/api';
import { maybeSignedIn } from '../lib/session-hints';

export const currentUserQueryKey = ['/api/me'] as const;

/**
 * The signed-in user, loaded once and cached for 5 minutes; a 401 means nobody is signed in (null).
 * Without the server's signed-in hint a visitor's pages do not ask at all (no 401 for every visitor,
 * decision 002). The guards of the signed-in pages ask anyway (`ask: 'always'`): a session made before
 * the hint existed is found there, and the answer brings the hint.
 */
export function useCurrentUser({ ask = 'ifHinted' }: { ask?: 'ifHinted' | 'always' } = {}) {
  const query = useQuery<CurrentUser | null>({
    queryKey: currentUserQueryKey,
    queryFn: getQueryFn<CurrentUser | null>({ on401: 'returnNull' }),
    staleTime: CURRENT_USER_STALE_MS,
    enabled: ask === 'always' || maybeSignedIn(),
  });
  const user = query.data ?? null;
  return { user, isLoading: query.isLoading, isAdmin: user?.role === 'admin', error: query.error };
}
