import { Suspense, useEffect, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { returnPathOf } from '@client/lib/return-path';
import { showsChrome } from './chrome-paths';
import { useNavigationPending } from './deferred-location';
import { NAV_LINKS } from './nav-links';
import { PageErrorBoundary } from './page-error-boundary';
import { PageSkeleton } from './page-skeleton';
import { appChrome as AppChrome } from './pages';
import { usePrefetchOnFirstFocus, usePrefetchOnIntent, usePrefetchWhenIdle } from './prefetch';

// A signed-in user's likely next pages: the main navigation. A visitor signing in goes home next, or
// back to the page in ?next=.
const SIGNED_IN_NEXT = NAV_LINKS.map((link) => link.href);
const NOTHING: string[] = [];

/** A thin bar at the top while the next page gets ready; shown only when that takes a noticeable while. */
function NavigationProgress() {
  return (
    <div aria-hidden="true" className="fixed inset-x-0 top-0 z-50 h-0.5 animate-[fade-in_200ms_ease-out_200ms_both]">
      <div className="size-full animate-pulse bg-primary" />
    </div>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const search = useSearch();
  const { user } = useCurrentUser();
  const pending = useNavigationPending();
  usePrefetchOnIntent();
  usePrefetchWhenIdle(user ? SIGNED_IN_NEXT : NOTHING);
  const signingInNext = returnPathOf(search);
  usePrefetchOnFirstFocus(!user && location === '/auth' ? [signingInNext] : NOTHING);

  // A new page starts at its top, as after a full page load.
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0);
  }, [location]);

  const page = (
    <PageErrorBoundary resetKey={location}>
      <Suspense fallback={<PageSkeleton />}>{children}</Suspense>
    </PageErrorBoundary>
  );
  // The chrome's chunk is here before the first render on its pages (main.tsx) and comes with the next
  // page's when that is prefetched; otherwise the deferred location keeps this page on screen meanwhile.
  return (
    <>
      {pending && <NavigationProgress />}
      {showsChrome(location) ? <AppChrome>{page}</AppChrome> : page}
    </>
  );
}
