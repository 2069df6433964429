import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

/** A determinate progress bar (0–100) with the progressbar role; give it an aria-label. */
export function Progress({ value, className, ...props }: ComponentProps<'div'> & { value: number }) {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={cn('relative h-2.5 w-full overflow-hidden rounded-full bg-muted', className)}
      {...props}
    >
      <div className="h-full rounded-full bg-primary transition-[width] duration-300 ease-out" style={{ width: `${percent}%` }} />
    </div>
  );
}
