import { Suspense, useEffect, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { PageSpinner } from '@client/components/ui/spinner';
import { Header } from './header';

// These pages draw their own header.
const PAGES_WITHOUT_HEADER = new Set(['/landing', '/auth']);

export function Layout({ children }: { children: ReactNode }) {
  const [location] = useLocation();

  // A new page starts at its top, as after a full page load.
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0);
  }, [location]);

  if (PAGES_WITHOUT_HEADER.has(location)) return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;

  return (
    <div className="flex min-h-screen flex-col">
      <Header />
      <main className="flex-1">
        <Suspense fallback={<PageSpinner />}>{children}</Suspense>
      </main>
    </div>
  );
}
