import { LoaderCircle } from 'lucide-react';
import { cn } from '@client/lib/utils';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className="inline-flex">
      <LoaderCircle aria-hidden="true" className={cn('size-6 animate-spin text-primary', className)} />
    </span>
  );
}

/** The centred spinner guarded pages show while the signed-in user is loading. */
export function PageSpinner() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Spinner className="size-10" />
    </div>
  );
}
