import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '@shared/api-types';
import { PRIVACY_MESSAGES } from '@shared/privacy';
import { apiRequest } from '@client/lib/api';
import { toast } from '@client/components/ui/use-toast';
import { adminUsersQueryKey } from './use-admin-users';

/** DELETE /api/users/:id as an admin (no password: it is another account); the list and figures refresh. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: AdminUser) => apiRequest<void>('DELETE', `/api/users/${user.id}`),
    onSuccess: async (_result, user) => {
      toast({ title: PRIVACY_MESSAGES.adminDeleteDone, description: `${user.displayName} (${user.username}) and all their data were deleted.` });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['/api/admin/analytics'] }),
      ]);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: PRIVACY_MESSAGES.adminDeleteFailed, description: error.message || 'An unknown error occurred' });
    },
  });
}
