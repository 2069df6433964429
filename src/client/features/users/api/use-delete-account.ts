import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { apiRequest } from '@client/lib/api';
import { toast } from '@client/components/ui/use-toast';
import { setCurrentUser } from '@client/features/auth/api/use-current-user';
import { forgetSignedIn } from '@client/features/auth/lib/session-hints';

export const ACCOUNT_DELETED = 'Your account and all its data were deleted.';

export function deleteAccount(userId: number, password: string): Promise<void> {
  return apiRequest<void>('DELETE', `/api/users/${userId}`, { password });
}

/**
 * DELETE /api/users/{id} with the password: the server deletes everything and ends the session. The
 * client then forgets the user as logging out does. A refusal (wrong password, the last admin) is left
 * to the dialog, which shows it under the field.
 */
export function useDeleteAccount(userId: number) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: (password: string) => deleteAccount(userId, password),
    onSuccess: () => {
      forgetSignedIn();
      // Both changes land in the same render, so the guarded page never redirects to /auth on the way out.
      setCurrentUser(null);
      navigate('/landing');
      queryClient.removeQueries();
      toast({ title: ACCOUNT_DELETED });
    },
  });
}
