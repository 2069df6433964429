import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Person } from '@shared/api-types';
import type { PersonInput } from '@shared/media-rules';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { peopleQueryKey } from './use-people';
import { personQueryKey } from './use-person';

export function updatePerson(personId: number, fields: PersonInput): Promise<Person> {
  return apiRequest<Person>('PATCH', `/api/people/${personId}`, fields);
}

export function useUpdatePerson(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ personId, fields }: { personId: number; fields: PersonInput }) => updatePerson(personId, fields),
    onSuccess: async (person) => {
      notifySuccess('Person updated successfully');
      queryClient.setQueryData(personQueryKey(person.id), person);
      if (userId !== undefined) await queryClient.invalidateQueries({ queryKey: peopleQueryKey(userId) });
    },
    onError: (error) => notifyError(error.message),
  });
}
