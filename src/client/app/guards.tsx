// Route guards (spec 01 §2): visitors go to /auth, non-admins to /, signed-in users away from /landing and /auth.
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { PageSpinner } from '@client/components/ui/spinner';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';

export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <PageSpinner />;
  if (!user) return <Redirect to="/auth" replace />;
  return children;
}

export function AdminRoute({ children }: { children: ReactNode }) {
  const { user, isLoading, isAdmin } = useCurrentUser();
  if (isLoading) return <PageSpinner />;
  if (!user) return <Redirect to="/auth" replace />;
  if (!isAdmin) return <Redirect to="/" replace />;
  return children;
}

/** Public pages for visitors; they render at once (no spinner) and send a signed-in user home. */
export function PublicOnlyRoute({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  if (user) return <Redirect to="/" replace />;
  return children;
}
