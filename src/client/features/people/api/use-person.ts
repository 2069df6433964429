import { useQuery } from '@tanstack/react-query';
import type { Person } from '@shared/api-types';

/** Also the prefix of the person's face and voice lists, so invalidating it refreshes them all. */
export function personQueryKey(personId: number) {
  return ['/api/people', personId] as const;
}

/** GET /api/people/{personId}. */
export function usePerson(personId: number) {
  return useQuery<Person>({ queryKey: personQueryKey(personId) });
}
