// The Create page's left card (spec 02 §2): what is being personalised.
import type { VideoTemplate } from '@shared/api-types';
import { Card, CardContent } from '@client/components/ui/card';
import { formatDuration } from '@client/lib/utils';
import { PremiumBadge, TemplateDurationChip, TemplateMeta, VoiceOnlyLink } from '@client/features/templates/components/template-card-parts';
import { TemplateThumbnail } from '@client/features/templates/components/template-thumbnail';

export function TemplateSummaryCard({ template }: { template: VideoTemplate }) {
  return (
    <Card className="overflow-hidden p-0">
      <div className="relative aspect-video bg-muted">
        <TemplateThumbnail src={template.thumbnailUrl} />
        <TemplateDurationChip seconds={template.duration} />
        {template.isPremium && <PremiumBadge />}
      </div>
      <CardContent className="grid gap-3 p-5">
        <h2 className="text-xl font-semibold leading-snug">{template.title}</h2>
        <p className="text-sm text-muted-foreground">{template.description}</p>
        <TemplateMeta template={template} />
        <dl className="grid grid-cols-3 gap-2 rounded-xl bg-muted/60 p-3 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">Category</dt>
            <dd className="font-medium capitalize">{template.category}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Age</dt>
            <dd className="font-medium">{template.ageRange} years</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Duration</dt>
            <dd className="font-medium">{formatDuration(template.duration)}</dd>
          </div>
        </dl>
        {template.voiceOnly && (
          <div className="grid gap-1">
            <p className="text-sm text-muted-foreground">This template personalises the narrator's voice; the picture stays as it is.</p>
            <VoiceOnlyLink />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
