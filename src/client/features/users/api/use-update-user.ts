import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserProfile } from '@shared/api-types';
import { MESSAGES, type ProfileUpdate } from '@shared/validation';
import { apiRequest } from '@client/lib/api';
import { toast } from '@client/components/ui/use-toast';
import { refreshCurrentUser } from '@client/features/auth/api/use-current-user';
import { userQueryKey } from './use-user';

export function updateUser(userId: number, fields: ProfileUpdate): Promise<UserProfile> {
  return apiRequest<UserProfile>('PATCH', `/api/users/${userId}`, fields);
}

export function useUpdateUser(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: ProfileUpdate) => {
      if (userId === undefined) throw new Error(MESSAGES.notSignedIn);
      return updateUser(userId, fields);
    },
    onSuccess: async () => {
      toast({ title: 'Profile updated', description: 'Your profile has been updated successfully.' });
      if (userId !== undefined) {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: userQueryKey(userId) }),
          refreshCurrentUser(),
        ]);
      }
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Failed to update profile',
        description: error.message || 'An unknown error occurred',
      });
    },
  });
}
