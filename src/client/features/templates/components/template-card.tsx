// A library card (spec 02 §2 Video cards): thumbnail, m:ss, category, ages, title, two lines of
// description; free templates can be used or previewed, premium ones bought.
import { Clock, Crown, Eye, ShoppingCart, Wand2 } from 'lucide-react';
import { Link } from 'wouter';
import type { VideoTemplate } from '@shared/api-types';
import { formatPrice } from '@shared/prices';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { formatDuration } from '@client/lib/utils';
import { capitalise } from '../lib/library-filters';
import { TemplateThumbnail } from './template-thumbnail';

export function TemplateCard({ template }: { template: VideoTemplate }) {
  const processHref = `/process/${template.id}`;
  return (
    <article
      className="group flex flex-col overflow-hidden rounded-2xl border bg-card shadow-sm transition-shadow hover:shadow-md"
      aria-labelledby={`template-${template.id}-title`}
      data-testid="template-card"
    >
      <Link href={processHref} tabIndex={-1} aria-hidden="true" className="relative block aspect-video overflow-hidden bg-muted">
        <TemplateThumbnail src={template.thumbnailUrl} className="transition-transform duration-300 group-hover:scale-105" />
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
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <Badge variant="secondary">{capitalise(template.category)}</Badge>
          <span>{template.ageRange} years</span>
          {template.isPremium && template.price !== null && (
            <span className="ml-auto text-sm font-semibold text-foreground">{formatPrice(template.price)}</span>
          )}
        </div>
        <h3 id={`template-${template.id}-title`} className="font-semibold leading-snug">
          <Link href={processHref} className="outline-none hover:underline focus-visible:underline">
            {template.title}
          </Link>
        </h3>
        <p className="line-clamp-2 text-sm text-muted-foreground">{template.description}</p>
        <div className="mt-auto flex flex-wrap gap-2 pt-2">
          {template.isPremium ? (
            <Button asChild size="sm" className="flex-1">
              <Link href={`/checkout/${template.id}`} aria-label={`Purchase ${template.title}`}>
                <ShoppingCart aria-hidden="true" />
                Purchase
              </Link>
            </Button>
          ) : (
            <>
              <Button asChild size="sm" className="flex-1">
                <Link href={processHref} aria-label={`Use This Template: ${template.title}`}>
                  <Wand2 aria-hidden="true" />
                  Use This Template
                </Link>
              </Button>
              <Button asChild size="sm" variant="outline" className="flex-1">
                <Link href={`/simple-preview?templateId=${template.id}`} aria-label={`Preview Original: ${template.title}`}>
                  <Eye aria-hidden="true" />
                  Preview Original
                </Link>
              </Button>
            </>
          )}
        </div>
      </div>
    </article>
  );
}

export function TemplateCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border bg-card" data-testid="template-card-skeleton">
      <Skeleton className="aspect-video rounded-none" />
      <div className="grid gap-2 p-4">
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="mt-2 h-8 w-full" />
      </div>
    </div>
  );
}
