// Pieces shared by the library card and the featured card (spec 02 §2 Video cards): the thumbnail's
// duration chip and Premium badge, the meta row (category, ages, price), and a voice-only template's
// way to the voice-only processor.
import { Clock, Crown, Mic } from 'lucide-react';
import { Link } from 'wouter';
import type { VideoTemplate } from '@shared/api-types';
import { formatPrice } from '@shared/prices';
import { Badge } from '@client/components/ui/badge';
import { Skeleton } from '@client/components/ui/skeleton';
import { cn, formatDuration } from '@client/lib/utils';
import { capitalise } from '../lib/library-filters';

/** "m:ss" in the thumbnail's bottom-right corner; the thumbnail must be `relative`. */
export function TemplateDurationChip({ seconds }: { seconds: number }) {
  return (
    <span className="absolute right-2 bottom-2 inline-flex items-center gap-1 rounded-md bg-foreground/75 px-1.5 py-0.5 text-xs font-medium text-background">
      <Clock className="size-3" aria-hidden="true" />
      {formatDuration(seconds)}
    </span>
  );
}

/** The "Premium" badge in the thumbnail's top-left corner; the thumbnail must be `relative`. */
export function PremiumBadge() {
  return (
    <Badge className="absolute top-2 left-2">
      <Crown aria-hidden="true" />
      Premium
    </Badge>
  );
}

/** Category, "{ageRange} years" and, for a priced premium template, its price ("$2.99"). */
export function TemplateMeta({
  template,
  priceClassName,
}: {
  template: Pick<VideoTemplate, 'category' | 'ageRange' | 'isPremium' | 'price'>;
  /** Extra classes for the price, e.g. its text size. */
  priceClassName?: string;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
      <Badge variant="secondary">{capitalise(template.category)}</Badge>
      <span>{template.ageRange} years</span>
      {template.isPremium && template.price !== null && (
        <span className={cn('ml-auto font-semibold text-foreground', priceClassName)}>{formatPrice(template.price)}</span>
      )}
    </div>
  );
}

/**
 * A voice-only template changes the narrator's voice only: the same can be done to a film of the parent's
 * own, on /voice-only.
 */
export function VoiceOnlyLink({ className }: { className?: string }) {
  return (
    <Link
      href="/voice-only"
      className={cn(
        'inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:underline focus-visible:ring-[3px] focus-visible:ring-ring/50',
        className,
      )}
    >
      <Mic className="size-4 shrink-0" aria-hidden="true" />
      Use your own video instead
    </Link>
  );
}

/** A card's loading placeholder; `actions` adds the bar where the library card's buttons go. */
export function TemplateCardSkeletonFrame({ actions = false }: { actions?: boolean }) {
  return (
    <div className="overflow-hidden rounded-2xl border bg-card" data-testid="template-card-skeleton">
      <Skeleton className="aspect-video rounded-none" />
      <div className="grid gap-2 p-4">
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-4 w-full" />
        {actions && <Skeleton className="mt-2 h-8 w-full" />}
      </div>
    </div>
  );
}
