// User Management tab (spec 02 §2): every user with their role, subscription status and plan, each
// changed on the spot, and deleted after a confirmation that says what goes (issue 17). The server
// refuses what it must (the last admin, values outside the sets).
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { SUBSCRIPTION_STATUS_LABELS } from '@shared/admin-rules';
import { ROLES, SUBSCRIPTION_STATUSES, type AdminUser, type Role, type SubscriptionStatus } from '@shared/api-types';
import { PLANS, type PlanId } from '@shared/plans';
import { PRIVACY_MESSAGES } from '@shared/privacy';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { NativeSelect } from '@client/components/ui/native-select';
import { Skeleton } from '@client/components/ui/skeleton';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { useAdminUsers, useUpdateAdminUser } from '../api/use-admin-users';
import { useDeleteUser } from '../api/use-delete-user';

function UserRow({ user, isSelf, onDelete }: { user: AdminUser; isSelf: boolean; onDelete: (user: AdminUser) => void }) {
  const update = useUpdateAdminUser();
  const busy = update.isPending;
  const who = user.displayName || user.username;
  return (
    <tr className="border-t align-middle" data-testid={`user-row-${user.username}`}>
      <td className="py-3 pr-4">
        <div className="font-medium">
          {who} {isSelf && <Badge variant="outline">You</Badge>}
        </div>
        <div className="text-xs text-muted-foreground">
          {user.username} · {user.email}
        </div>
      </td>
      <td className="py-3 pr-4">
        <NativeSelect
          aria-label={`Role of ${user.username}`}
          value={user.role}
          disabled={busy}
          onChange={(event) => update.mutate({ userId: user.id, change: { kind: 'role', value: event.target.value as Role } })}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role === 'admin' ? 'Admin' : 'User'}
            </option>
          ))}
        </NativeSelect>
      </td>
      <td className="py-3 pr-4">
        <NativeSelect
          aria-label={`Subscription status of ${user.username}`}
          value={user.subscriptionStatus}
          disabled={busy}
          onChange={(event) =>
            update.mutate({ userId: user.id, change: { kind: 'subscription', value: event.target.value as SubscriptionStatus } })
          }
        >
          {SUBSCRIPTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {SUBSCRIPTION_STATUS_LABELS[status]}
            </option>
          ))}
        </NativeSelect>
      </td>
      <td className="py-3 pr-4">
        <NativeSelect
          aria-label={`Plan of ${user.username}`}
          value={user.plan}
          disabled={busy}
          onChange={(event) => update.mutate({ userId: user.id, change: { kind: 'plan', value: event.target.value as PlanId } })}
        >
          {PLANS.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {plan.name}
            </option>
          ))}
        </NativeSelect>
      </td>
      <td className="py-3 pr-4 text-sm whitespace-nowrap text-muted-foreground">{new Date(user.createdAt).toLocaleDateString()}</td>
      <td className="py-3 text-right">
        {/* An admin's own account is deleted from the profile, with its password. */}
        {!isSelf && (
          <Button variant="ghost" size="icon" aria-label={`Delete ${user.username}`} onClick={() => onDelete(user)}>
            <Trash2 aria-hidden="true" className="text-destructive" />
          </Button>
        )}
      </td>
    </tr>
  );
}

export function UserManagement() {
  const { data: users, isLoading, error } = useAdminUsers();
  const { user: me } = useCurrentUser();
  const [deleting, setDeleting] = useState<AdminUser>();
  const remove = useDeleteUser();
  if (error) return <p className="text-destructive">{error.message}</p>;
  return (
    <div className="overflow-x-auto rounded-2xl border bg-card p-4 md:p-6">
      <h2 className="text-lg font-semibold">Users</h2>
      <p className="text-sm text-muted-foreground">Change a user's role, subscription status or plan. Changes save at once.</p>
      <table className="mt-4 w-full min-w-[44rem] text-left text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="text-xs tracking-wide text-muted-foreground uppercase">
          <tr>
            <th scope="col" className="pb-2 font-medium">User</th>
            <th scope="col" className="pb-2 font-medium">Role</th>
            <th scope="col" className="pb-2 font-medium">Subscription</th>
            <th scope="col" className="pb-2 font-medium">Plan</th>
            <th scope="col" className="pb-2 font-medium">Joined</th>
            <th scope="col" className="pb-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {isLoading
            ? [0, 1, 2].map((row) => (
                <tr key={row} className="border-t">
                  <td colSpan={6} className="py-3">
                    <Skeleton className="h-8 w-full" />
                  </td>
                </tr>
              ))
            : users?.map((user) => <UserRow key={user.id} user={user} isSelf={user.id === me?.id} onDelete={setDeleting} />)}
        </tbody>
      </table>

      <Dialog open={deleting !== undefined} onOpenChange={(open) => !open && setDeleting(undefined)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete Account</DialogTitle>
            <DialogDescription>{deleting && PRIVACY_MESSAGES.adminDeleteConfirm(deleting.username)}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setDeleting(undefined)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(undefined) })}
            >
              Delete account
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
