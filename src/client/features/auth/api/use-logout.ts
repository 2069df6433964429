import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { apiRequest } from '@client/lib/api';
import { toast } from '@client/components/ui/use-toast';
import { forgetNewAccount } from '../lib/session-hints';
import { setCurrentUser } from './use-current-user';

export function logout(): Promise<void> {
  return apiRequest<void>('POST', '/api/logout');
}

export function useLogout() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      forgetNewAccount();
      // Both changes land in the same render, so the guarded page never redirects to /auth on the way out.
      setCurrentUser(null);
      navigate('/landing');
      queryClient.removeQueries();
      toast({ title: 'Logged out', description: 'You have been successfully logged out.' });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Logout failed', description: error.message });
    },
  });
}
