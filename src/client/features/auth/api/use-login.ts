import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '@shared/api-types';
import type { LoginRequest } from '@shared/validation';
import { apiRequest } from '@client/lib/api';
import { toast } from '@client/components/ui/use-toast';
import { forgetNewAccount } from '../lib/session-hints';
import { currentUserQueryKey } from './use-current-user';

export function login(credentials: LoginRequest): Promise<CurrentUser> {
  return apiRequest<CurrentUser>('POST', '/api/login', credentials);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      forgetNewAccount();
      queryClient.setQueryData(currentUserQueryKey, user);
      toast({ title: 'Login successful', description: `Welcome back, ${user.displayName}!` });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Login failed', description: error.message });
    },
  });
}
