// /process/new (the menu's Create Video): pick the template first, then the Create page opens for it. A
// premium template the user may not use yet leads to its Checkout instead.
import { ShoppingCart, Wand2 } from 'lucide-react';
import { Link } from 'wouter';
import { Card } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { mayUseTemplate, useEntitlements } from '@client/features/payments/api/use-entitlements';
import { useTemplates } from '@client/features/templates/api/use-templates';
import { PremiumBadge, TemplateDurationChip, TemplateMeta } from '@client/features/templates/components/template-card-parts';
import { TemplateThumbnail } from '@client/features/templates/components/template-thumbnail';

export function TemplatePicker() {
  const templates = useTemplates();
  const { user } = useCurrentUser();
  const entitlements = useEntitlements(user?.id);
  if (templates.isPending) {
    return (
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2].map((n) => (
          <Skeleton key={n} className="aspect-video rounded-2xl" />
        ))}
      </div>
    );
  }
  if (!templates.data?.length) {
    return (
      <Card className="p-6 text-center text-muted-foreground">
        No video templates yet. <Link href="/library" className="text-primary underline">Go to Library</Link>
      </Card>
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Video templates">
      {templates.data.map((template) => {
        const usable = mayUseTemplate(template, entitlements.data);
        return (
          <li key={template.id}>
            <Link
              href={usable ? `/process/${template.id}` : `/checkout/${template.id}`}
              className="group block overflow-hidden rounded-2xl border bg-card shadow-sm outline-none transition hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/40"
            >
              <div className="relative aspect-video bg-muted">
                <TemplateThumbnail src={template.thumbnailUrl} />
                <TemplateDurationChip seconds={template.duration} />
                {template.isPremium && <PremiumBadge />}
              </div>
              <div className="grid gap-2 p-4">
                <TemplateMeta template={template} />
                <span className="font-semibold group-hover:underline">{template.title}</span>
                <span className="flex items-center gap-1.5 text-sm font-medium text-primary">
                  {usable ? <Wand2 className="size-4" aria-hidden="true" /> : <ShoppingCart className="size-4" aria-hidden="true" />}
                  {usable ? 'Use This Template' : 'Purchase'}
                </span>
              </div>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
