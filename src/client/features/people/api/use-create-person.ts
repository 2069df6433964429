import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Person } from '@shared/api-types';
import type { PersonInput } from '@shared/media-rules';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { peopleQueryKey } from './use-people';

export function createPerson(userId: number, fields: PersonInput): Promise<Person> {
  return apiRequest<Person>('POST', '/api/people', { userId, ...fields });
}

/** POST /api/people; the plan limit arrives as the server's message in the Error toast. */
export function useCreatePerson(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: PersonInput) => createPerson(userId ?? 0, fields),
    onSuccess: async () => {
      notifySuccess('Person added successfully');
      if (userId !== undefined) await queryClient.invalidateQueries({ queryKey: peopleQueryKey(userId) });
    },
    onError: (error) => notifyError(error.message),
  });
}
