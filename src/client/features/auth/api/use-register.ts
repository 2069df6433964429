import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '@shared/api-types';
import type { RegisterRequest } from '@shared/validation';
import { apiRequest } from '@client/lib/api';
import { toast } from '@client/components/ui/use-toast';
import { rememberNewAccount } from '../lib/session-hints';
import { currentUserQueryKey } from './use-current-user';

/** Sends the registration fields; confirmPassword stays in the form. */
export function register(fields: RegisterRequest): Promise<CurrentUser> {
  const { username, email, password, displayName } = fields;
  return apiRequest<CurrentUser>('POST', '/api/register', { username, email, password, displayName });
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      rememberNewAccount(user.id);
      queryClient.setQueryData(currentUserQueryKey, user);
      toast({
        title: 'Registration successful',
        description: `Welcome to FamilyStar, ${user.displayName}! Add a person to get started.`,
      });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Registration failed', description: error.message });
    },
  });
}
