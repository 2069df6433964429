// Route guards (spec 01 §2): visitors go to /auth, non-admins to /, signed-in users away from /landing and /auth.
// A visitor keeps the page asked for: /auth?next=… leads back to it after signing in or up (issue 20).
import { useEffect, type ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { returnPathOf, signInPath } from '@client/lib/return-path';
import { useNavigationPending } from './deferred-location';
import { prefetch, type LazyPage } from './lazy-page';
import { PageSkeleton } from './page-skeleton';

interface GuardProps {
  children: ReactNode;
  /** The guarded page: its chunk loads while the user is being checked, not after. */
  page?: Pick<LazyPage, 'preload'>;
}

function usePreload(page: GuardProps['page']) {
  useEffect(() => {
    if (page) prefetch(page);
  }, [page]);
}

/** The sign-in page's address that comes back here (the page shown, with its query). */
function useSignInHere(): string {
  const [path] = useLocation();
  const search = useSearch();
  return signInPath(search ? `${path}?${search}` : path);
}

// The guards ask the server even without the signed-in hint: a session from before the hint is found here.
export function ProtectedRoute({ children, page }: GuardProps) {
  const { user, isLoading } = useCurrentUser({ ask: 'always' });
  const leaving = useNavigationPending();
  const signIn = useSignInHere();
  usePreload(page);
  if (isLoading) return <PageSkeleton />;
  // On the way out (logging out goes to /landing), the next page is coming: no detour through /auth.
  if (!user) return leaving ? null : <Redirect to={signIn} replace />;
  return children;
}

export function AdminRoute({ children, page }: GuardProps) {
  const { user, isLoading, isAdmin } = useCurrentUser({ ask: 'always' });
  const leaving = useNavigationPending();
  const signIn = useSignInHere();
  usePreload(page);
  if (isLoading) return <PageSkeleton />;
  if (!user) return leaving ? null : <Redirect to={signIn} replace />;
  if (!isAdmin) return leaving ? null : <Redirect to="/" replace />;
  return children;
}

/**
 * Public pages for visitors; they render at once (no placeholder) and send a signed-in user home, or to
 * the page in ?next= (a path of this site only). The page stays on screen until that one is ready to be
 * shown (the location is deferred), so signing in does not blank the screen.
 */
export function PublicOnlyRoute({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  const next = returnPathOf(useSearch());
  if (user) {
    return (
      <>
        {children}
        <Redirect to={next} replace />
      </>
    );
  }
  return children;
}
