import type { CurrentUser } from '@shared/api-types';
import type { LoginRequest } from '@shared/validation';
import { apiRequest } from '@client/lib/api';
import { useRequest } from '@client/lib/use-request';
import { toast } from '@client/components/ui/use-toast';
import { forgetNewAccount } from '../lib/session-hints';
import { setCurrentUser } from './use-current-user';

export function login(credentials: LoginRequest): Promise<CurrentUser> {
  return apiRequest<CurrentUser>('POST', '/api/login', credentials);
}

export function useLogin() {
  return useRequest(login, {
    onSuccess: (user) => {
      forgetNewAccount();
      setCurrentUser(user);
      toast({ title: 'Login successful', description: `Welcome back, ${user.displayName}!` });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Login failed', description: error.message });
    },
  });
}
