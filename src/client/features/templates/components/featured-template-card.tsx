import { Clock, Crown, Film, Play } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { formatDollars } from '@shared/plans';
import { Badge } from '@client/components/ui/badge';
import { Skeleton } from '@client/components/ui/skeleton';
import { formatDuration } from '@client/lib/utils';
import type { VideoTemplate } from '@shared/api-types';

/** A featured template; choosing it opens the creation screen for that template. */
export function FeaturedTemplateCard({ template }: { template: VideoTemplate }) {
  const [thumbnailFailed, setThumbnailFailed] = useState(false);
  return (
    <Link
      href={`/process/${template.id}`}
      className="group flex flex-col overflow-hidden rounded-2xl border bg-card shadow-sm transition-all outline-none hover:-translate-y-0.5 hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <div className="relative aspect-video overflow-hidden bg-muted">
        {template.thumbnailUrl && !thumbnailFailed ? (
          <img
            src={template.thumbnailUrl}
            alt=""
            loading="lazy"
            onError={() => setThumbnailFailed(true)}
            className="size-full object-cover transition-transform duration-300 group-hover:scale-105"
          />
        ) : (
          <span className="flex size-full items-center justify-center bg-linear-to-br from-secondary to-accent text-primary/60">
            <Film className="size-10" aria-hidden="true" />
          </span>
        )}
        <span className="absolute inset-0 flex items-center justify-center bg-foreground/0 transition-colors group-hover:bg-foreground/20">
          <span className="flex size-12 scale-90 items-center justify-center rounded-full bg-card/90 text-primary opacity-0 shadow transition-all group-hover:scale-100 group-hover:opacity-100">
            <Play className="size-5 fill-current" aria-hidden="true" />
          </span>
        </span>
        <span className="absolute right-2 bottom-2 inline-flex items-center gap-1 rounded-md bg-foreground/75 px-1.5 py-0.5 text-xs font-medium text-background">
          <Clock className="size-3" aria-hidden="true" />
          {formatDuration(template.duration)}
        </span>
        {template.isPremium && (
          <Badge className="absolute top-2 left-2">
            <Crown aria-hidden="true" />
            Premium
          </Badge>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <Badge variant="secondary" className="capitalize">
            {template.category}
          </Badge>
          <span>{template.ageRange} years</span>
          {template.isPremium && template.price !== null && (
            <span className="ml-auto font-semibold text-foreground">{formatDollars(Math.round(template.price * 100))}</span>
          )}
        </div>
        <h3 className="font-semibold leading-snug">{template.title}</h3>
        <p className="line-clamp-2 text-sm text-muted-foreground">{template.description}</p>
      </div>
    </Link>
  );
}

export function FeaturedTemplateCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border bg-card" data-testid="template-card-skeleton">
      <Skeleton className="aspect-video rounded-none" />
      <div className="grid gap-2 p-4">
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-4 w-full" />
      </div>
    </div>
  );
}
