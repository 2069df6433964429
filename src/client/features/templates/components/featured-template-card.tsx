import { Film, Play } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { VideoTemplate } from '@shared/api-types';
import { PremiumBadge, TemplateCardSkeletonFrame, TemplateDurationChip, TemplateMeta } from './template-card-parts';

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
        <TemplateDurationChip seconds={template.duration} />
        {template.isPremium && <PremiumBadge />}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <TemplateMeta template={template} />
        <h3 className="font-semibold leading-snug">{template.title}</h3>
        <p className="line-clamp-2 text-sm text-muted-foreground">{template.description}</p>
      </div>
    </Link>
  );
}

export function FeaturedTemplateCardSkeleton() {
  return <TemplateCardSkeletonFrame />;
}
