import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsentWithdrawal, Person } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { auditQueryKey } from '@client/features/users/api/use-audit';
import { withdrawnSummary } from '../lib/consent';
import { rememberPerson } from './use-give-consent';
import { peopleQueryKey } from './use-people';
import { personQueryKey } from './use-person';

export function withdrawConsent(personId: number): Promise<ConsentWithdrawal> {
  return apiRequest<ConsentWithdrawal>('DELETE', `/api/people/${personId}/consent`);
}

/**
 * DELETE /api/people/{id}/consent: the server deletes the person's faces, clips, voices and every video
 * made with them. Everything that listed them is read again.
 */
export function useWithdrawConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (person: Person) => withdrawConsent(person.id),
    onSuccess: async ({ person, deleted }) => {
      notifySuccess(`Consent withdrawn for ${person.name}`, withdrawnSummary(deleted));
      rememberPerson(queryClient, person);
      const { userId } = person;
      await Promise.all([
        // The person's faces, clips and voices all sit under ['/api/people', id, …].
        queryClient.invalidateQueries({ queryKey: personQueryKey(person.id) }),
        queryClient.invalidateQueries({ queryKey: peopleQueryKey(userId) }),
        queryClient.invalidateQueries({ queryKey: ['/api/users', userId, 'faceImages'] }),
        queryClient.invalidateQueries({ queryKey: ['/api/users', userId, 'voiceRecordings'] }),
        queryClient.invalidateQueries({ queryKey: ['/api/users', userId, 'processedVideos'] }),
        queryClient.invalidateQueries({ queryKey: ['/api/users', userId, 'usage'] }),
        queryClient.invalidateQueries({ queryKey: auditQueryKey(userId) }),
      ]);
    },
    onError: (error) => notifyError(error.message),
  });
}
