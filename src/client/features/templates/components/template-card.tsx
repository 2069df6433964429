// A library card (spec 02 §2 Video cards): thumbnail, m:ss, category, ages, title, two lines of
// description; free templates can be used or previewed, premium ones used when bought or in the plan,
// bought otherwise; a voice-only one also points to the voice-only processor.
import { Eye, ShoppingCart, Wand2 } from 'lucide-react';
import { Link } from 'wouter';
import type { VideoTemplate } from '@shared/api-types';
import { Button } from '@client/components/ui/button';
import { PremiumBadge, TemplateCardSkeletonFrame, TemplateDurationChip, TemplateMeta, VoiceOnlyLink } from './template-card-parts';
import { TemplateThumbnail } from './template-thumbnail';

interface TemplateCardProps {
  template: VideoTemplate;
  /** A premium template the user has bought or whose plan includes it (decisions page). */
  usable: boolean;
}

export function TemplateCard({ template, usable }: TemplateCardProps) {
  const processHref = `/process/${template.id}`;
  return (
    <article
      className="group flex flex-col overflow-hidden rounded-2xl border bg-card shadow-sm transition-shadow hover:shadow-md"
      aria-labelledby={`template-${template.id}-title`}
      data-testid="template-card"
    >
      <Link href={processHref} tabIndex={-1} aria-hidden="true" className="relative block aspect-video overflow-hidden bg-muted">
        <TemplateThumbnail src={template.thumbnailUrl} className="transition-transform duration-300 group-hover:scale-105" />
        <TemplateDurationChip seconds={template.duration} />
        {template.isPremium && <PremiumBadge />}
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <TemplateMeta template={template} priceClassName="text-sm" />
        <h3 id={`template-${template.id}-title`} className="font-semibold leading-snug">
          <Link href={processHref} className="outline-none hover:underline focus-visible:underline">
            {template.title}
          </Link>
        </h3>
        <p className="line-clamp-2 text-sm text-muted-foreground">{template.description}</p>
        <div className="mt-auto flex flex-wrap gap-2 pt-2">
          {template.isPremium && !usable ? (
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
              {/* Premium originals are not public (decisions page): the preview is for free templates. */}
              {!template.isPremium && (
                <Button asChild size="sm" variant="outline" className="flex-1">
                  <Link href={`/simple-preview?templateId=${template.id}`} aria-label={`Preview Original: ${template.title}`}>
                    <Eye aria-hidden="true" />
                    Preview Original
                  </Link>
                </Button>
              )}
            </>
          )}
        </div>
        {template.voiceOnly && <VoiceOnlyLink className="self-center" />}
      </div>
    </article>
  );
}

export function TemplateCardSkeleton() {
  return <TemplateCardSkeletonFrame actions />;
}
