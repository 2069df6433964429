import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useToast } from '@client/components/ui/use-toast';

// Toasts only follow an action, so the toast component (and its library) loads with the first toast;
// a toast raised before it arrives waits in the toast store and shows once it has.
const Toaster = lazy(() => import('@client/components/ui/toaster').then((module) => ({ default: module.Toaster })));

function LazyToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (toasts.length > 0 && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

// The query library's client is not here: it comes with the pages that read server data (query-provider.tsx).
export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <LazyToaster />
    </>
  );
}
