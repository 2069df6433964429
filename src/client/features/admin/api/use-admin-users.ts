import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_MESSAGES } from '@shared/admin-rules';
import type { AdminUser, Role, SubscriptionStatus } from '@shared/api-types';
import type { PlanId } from '@shared/plans';
import { apiRequest } from '@client/lib/api';
import { toast } from '@client/components/ui/use-toast';
import { refreshCurrentUser } from '@client/features/auth/api/use-current-user';

export const adminUsersQueryKey = ['/api/admin/users'] as const;

export function useAdminUsers() {
  return useQuery<AdminUser[]>({ queryKey: adminUsersQueryKey });
}

type Change =
  | { kind: 'role'; value: Role }
  | { kind: 'subscription'; value: SubscriptionStatus }
  | { kind: 'plan'; value: PlanId };

const BODY_FIELD = { role: 'role', subscription: 'subscriptionStatus', plan: 'plan' } as const;
const FAILURE_TITLE = {
  role: ADMIN_MESSAGES.roleUpdateFailed,
  subscription: ADMIN_MESSAGES.subscriptionUpdateFailed,
  plan: ADMIN_MESSAGES.planUpdateFailed,
} as const;
const SUCCESS_TITLE = { role: 'User role updated', subscription: 'Subscription status updated', plan: 'Plan updated' } as const;

/** PATCH /api/admin/users/:id/{role|subscription|plan}; toasts the server's message on failure. */
export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, change }: { userId: number; change: Change }) =>
      apiRequest<AdminUser>('PATCH', `/api/admin/users/${userId}/${change.kind}`, { [BODY_FIELD[change.kind]]: change.value }),
    onSuccess: async (user, { change }) => {
      toast({ title: SUCCESS_TITLE[change.kind], description: `${user.displayName} (${user.username}) was updated.` });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
        refreshCurrentUser(),
        queryClient.invalidateQueries({ queryKey: ['/api/admin/analytics'] }),
      ]);
    },
    onError: (error, { change }) => {
      toast({ variant: 'destructive', title: FAILURE_TITLE[change.kind], description: error.message || 'An unknown error occurred' });
    },
  });
}
