import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { peopleQueryKey } from './use-people';
import { personQueryKey } from './use-person';

export function deletePerson(personId: number): Promise<void> {
  return apiRequest<void>('DELETE', `/api/people/${personId}`);
}

/** DELETE /api/people/{id}: the server also removes their faces, voices, videos and files. */
export function useDeletePerson(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (personId: number) => deletePerson(personId),
    onSuccess: async (_result, personId) => {
      notifySuccess('Person deleted successfully');
      queryClient.removeQueries({ queryKey: personQueryKey(personId) });
      if (userId !== undefined) {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: peopleQueryKey(userId) }),
          queryClient.invalidateQueries({ queryKey: ['/api/users', userId, 'faceImages'] }),
          queryClient.invalidateQueries({ queryKey: ['/api/users', userId, 'voiceRecordings'] }),
        ]);
      }
    },
    onError: (error) => notifyError(error.message),
  });
}
