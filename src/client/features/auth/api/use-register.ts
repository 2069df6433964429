import type { CurrentUser } from '@shared/api-types';
import type { RegisterRequest } from '@shared/validation';
import { apiRequest } from '@client/lib/api';
import { useRequest } from '@client/lib/use-request';
import { toast } from '@client/components/ui/use-toast';
import { rememberNewAccount } from '../lib/session-hints';
import { setCurrentUser } from './use-current-user';

/** Sends the registration fields; confirmPassword stays in the form. */
export function register(fields: RegisterRequest): Promise<CurrentUser> {
  const { username, email, password, displayName } = fields;
  return apiRequest<CurrentUser>('POST', '/api/register', { username, email, password, displayName });
}

export function useRegister() {
  return useRequest(register, {
    onSuccess: (user) => {
      rememberNewAccount(user.id);
      setCurrentUser(user);
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
