import { useQuery } from '@tanstack/react-query';
import type { UserProfile } from '@shared/api-types';

export function userQueryKey(userId: number) {
  return ['/api/users', userId] as const;
}

/** GET /api/users/{id}; waits until an id is known. */
export function useUser(userId: number | undefined) {
  return useQuery<UserProfile>({
    queryKey: userQueryKey(userId ?? 0),
    enabled: userId !== undefined,
  });
}
