import { Film } from 'lucide-react';
import type { VideoTemplate } from '@shared/api-types';
import { FEATURED_PLACEHOLDERS } from '@shared/constants';
import { DemoPreparingNote } from './demo-preparing-note';
import { FeaturedTemplateCard, FeaturedTemplateCardSkeleton } from './featured-template-card';

export interface FeaturedTemplatesAnswer {
  templates: VideoTemplate[] | undefined;
  isLoading: boolean;
  isError: boolean;
  /** A first start is making the demo library (issue 20): asked only while there is no featured template. */
  preparing: boolean;
}

/**
 * The featured templates: placeholders while loading, a friendly note when there are none, and while a
 * first start makes the demo library, that it is being prepared (it shows up without a reload). The data
 * comes from the caller: the query library on Home, a plain read on the landing page (decision 005).
 */
export function FeaturedTemplatesView({ templates, isLoading, isError, preparing }: FeaturedTemplatesAnswer) {
  if (isLoading) {
    return (
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
        {Array.from({ length: FEATURED_PLACEHOLDERS }, (_, index) => (
          <FeaturedTemplateCardSkeleton key={index} />
        ))}
      </div>
    );
  }

  if (preparing) return <DemoPreparingNote />;

  if (isError || !templates || templates.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed bg-card/60 px-6 py-12 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
          <Film className="size-6" aria-hidden="true" />
        </span>
        <p className="text-muted-foreground">No featured videos available.</p>
      </div>
    );
  }

  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {templates.map((template) => (
        <FeaturedTemplateCard key={template.id} template={template} />
      ))}
    </div>
  );
}
