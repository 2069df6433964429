import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useToast } from '@client/components/ui/use-toast';
import { queryClient } from '@client/lib/query-client';

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

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <LazyToaster />
    </QueryClientProvider>
  );
}
