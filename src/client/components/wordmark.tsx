import { Star } from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '@client/lib/utils';

/**
 * The two-part brand wordmark "Family" + "Star", the second part in the accent colour.
 * The inverse tone sits on the accent colour itself (white badge, sunshine "Star").
 */
export function Wordmark({
  href = '/',
  tone = 'default',
  className,
}: {
  href?: string;
  tone?: 'default' | 'inverse';
  className?: string;
}) {
  const inverse = tone === 'inverse';
  return (
    <Link
      href={href}
      aria-label="FamilyStar home"
      className={cn(
        'inline-flex items-center gap-2 rounded-lg text-xl font-extrabold tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
        className,
      )}
    >
      <span
        className={cn(
          'flex size-8 items-center justify-center rounded-lg shadow-sm',
          inverse ? 'bg-white text-primary' : 'bg-primary text-primary-foreground',
        )}
      >
        <Star className="size-4.5 fill-current" aria-hidden="true" />
      </span>
      <span>
        Family<span className={inverse ? 'text-sunshine' : 'text-primary'}>Star</span>
      </span>
    </Link>
  );
}
