import { useQuery } from '@tanstack/react-query';
import type { Person } from '@shared/api-types';

export function peopleQueryKey(userId: number) {
  return ['/api/users', userId, 'people'] as const;
}

/** GET /api/users/{userId}/people; waits until the user is known. */
export function usePeople(userId: number | undefined) {
  return useQuery<Person[]>({ queryKey: peopleQueryKey(userId ?? 0), enabled: userId !== undefined });
}
