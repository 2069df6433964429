// User Management tab (spec 02 §2): every user with their role, subscription status and plan, each
// changed on the spot, and deleted after a confirmation that says what goes (issue 17). The server
// refuses what it must (the last admin, values outside the sets). Below the lg breakpoint each user is a
// card with every field labelled: a table scrolled sideways showed a phone only its Role column (issue 20).
import { Trash2 } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { SUBSCRIPTION_STATUS_LABELS } from '@shared/admin-rules';
import { ROLES, SUBSCRIPTION_STATUSES, type AdminUser, type Role, type SubscriptionStatus } from '@shared/api-types';
import { PLANS, type PlanId } from '@shared/plans';
import { PRIVACY_MESSAGES } from '@shared/privacy';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { ConfirmDeleteDialog } from '@client/components/ui/confirm-dialog';
import { NativeSelect } from '@client/components/ui/native-select';
import { Skeleton } from '@client/components/ui/skeleton';
import { cn } from '@client/lib/utils';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { useAdminUsers, useUpdateAdminUser } from '../api/use-admin-users';
import { useDeleteUser } from '../api/use-delete-user';

/** A cell: a labelled row of the card on a phone, a table cell from lg up (where the header names it). */
function Cell({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <td className={cn('grid grid-cols-[5.5rem_minmax(0,1fr)] items-center gap-3 lg:table-cell lg:py-3 lg:pr-4', className)}>
      <span aria-hidden="true" className="text-xs text-muted-foreground lg:hidden">
        {label}
      </span>
      {children}
    </td>
  );
}

function UserRow({ user, isSelf, onDelete }: { user: AdminUser; isSelf: boolean; onDelete: (user: AdminUser) => void }) {
  const update = useUpdateAdminUser();
  const busy = update.isPending;
  const who = user.displayName || user.username;
  return (
    <tr
      className="relative grid gap-2 rounded-xl border p-3 align-middle lg:table-row lg:rounded-none lg:border-x-0 lg:border-b-0 lg:p-0"
      data-testid={`user-row-${user.username}`}
    >
      <td className="min-w-0 pr-10 lg:table-cell lg:py-3 lg:pr-4">
        <div className="font-medium break-words">
          {who} {isSelf && <Badge variant="outline">You</Badge>}
        </div>
        <div className="text-xs break-all text-muted-foreground">
          {user.username} · {user.email}
        </div>
      </td>
      <Cell label="Role">
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
      </Cell>
      <Cell label="Subscription">
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
      </Cell>
      <Cell label="Plan">
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
      </Cell>
      <Cell label="Joined" className="text-sm whitespace-nowrap text-muted-foreground">
        <span>{new Date(user.createdAt).toLocaleDateString()}</span>
      </Cell>
      <td className="absolute top-1.5 right-1.5 lg:static lg:table-cell lg:py-3 lg:text-right">
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
  // The row's Delete button goes with the account: the focus lands on the table's heading.
  const headingRef = useRef<HTMLHeadingElement>(null);
  if (error) return <p className="text-destructive">{error.message}</p>;
  return (
    <div className="rounded-2xl border bg-card p-4 md:p-6">
      <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
        Users
      </h2>
      <p className="text-sm text-muted-foreground">
        Change a user's role, subscription status or plan. The subscription is what they pay for; the plan sets their
        limits. Changes save at once.
      </p>
      <table className="mt-4 block w-full text-left text-sm lg:table">
        <caption className="sr-only">Users</caption>
        <thead className="sr-only text-xs tracking-wide text-muted-foreground uppercase lg:not-sr-only lg:table-header-group">
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
        <tbody className="grid gap-3 sm:grid-cols-2 lg:table-row-group">
          {isLoading
            ? [0, 1, 2].map((row) => (
                <tr key={row} className="block lg:table-row lg:border-t">
                  <td colSpan={6} className="block lg:table-cell lg:py-3">
                    <Skeleton className="h-8 w-full" />
                  </td>
                </tr>
              ))
            : users?.map((user) => <UserRow key={user.id} user={user} isSelf={user.id === me?.id} onDelete={setDeleting} />)}
        </tbody>
      </table>

      <ConfirmDeleteDialog
        open={deleting !== undefined}
        title="Delete Account"
        question={deleting ? PRIVACY_MESSAGES.adminDeleteConfirm(deleting.username) : ''}
        confirmLabel="Delete account"
        pending={remove.isPending}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(undefined) })}
        focusAfterDelete={headingRef}
      />
    </div>
  );
}
