import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Person } from '@shared/api-types';
import type { ConsentBasis } from '@shared/privacy';
import { apiRequest } from '@client/lib/api';
import { notifySuccess } from '@client/lib/notify';
import { auditQueryKey } from '@client/features/users/api/use-audit';
import { peopleQueryKey } from './use-people';
import { personQueryKey } from './use-person';

export function giveConsent(personId: number, basis: ConsentBasis): Promise<Person> {
  return apiRequest<Person>('POST', `/api/people/${personId}/consent`, { basis });
}

/**
 * POST /api/people/{id}/consent. The person is written into the caches at once, so whatever asked for the
 * consent (an Add Face Image button, the training pages) sees it before the lists are read again.
 */
export function useGiveConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ person, basis }: { person: Person; basis: ConsentBasis }) => giveConsent(person.id, basis),
    onSuccess: async (person) => {
      notifySuccess(`Consent recorded for ${person.name}`);
      rememberPerson(queryClient, person);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: peopleQueryKey(person.userId) }),
        queryClient.invalidateQueries({ queryKey: auditQueryKey(person.userId) }),
      ]);
    },
  });
}

/** Puts a person the server sent back into their own query and into the list they belong to. */
export function rememberPerson(queryClient: ReturnType<typeof useQueryClient>, person: Person): void {
  queryClient.setQueryData(personQueryKey(person.id), person);
  queryClient.setQueryData<Person[]>(peopleQueryKey(person.userId), (list) =>
    list?.map((candidate) => (candidate.id === person.id ? person : candidate)),
  );
}
