// Public preview (decisions page): /simple-preview?templateId=N plays the original of a free template.
// Without a valid id, or for a template that is not public, it offers the featured templates instead. A
// visitor is told what a signed-in user is: a premium original is not public, a missing one is not found.
import { ArrowLeft, Crown, Wand2 } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { TEMPLATE_MESSAGES } from '@shared/template-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { PageSpinner } from '@client/components/ui/spinner';
import { ApiError } from '@client/lib/api';
import { formatDuration } from '@client/lib/utils';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useFeaturedTemplates } from '../api/use-featured-templates';
import { useTemplate } from '../api/use-template';
import { TemplateThumbnail } from '../components/template-thumbnail';
import { capitalise } from '../lib/library-filters';

function templateIdFrom(search: string): number | undefined {
  const raw = new URLSearchParams(search).get('templateId');
  return raw && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : undefined;
}

function FeaturedChoices() {
  const { data: featured, isLoading } = useFeaturedTemplates();
  const free = (featured ?? []).filter((template) => !template.isPremium && template.videoUrl);
  if (isLoading) return <PageSpinner />;
  if (free.length === 0) return <p className="text-muted-foreground">No featured videos available.</p>;
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {free.map((template) => (
        <li key={template.id}>
          <Link
            href={`/simple-preview?templateId=${template.id}`}
            className="group block overflow-hidden rounded-2xl border bg-card shadow-sm outline-none hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            <span className="block aspect-video overflow-hidden bg-muted">
              <TemplateThumbnail src={template.thumbnailUrl} />
            </span>
            <span className="block p-4 font-semibold">{template.title}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function SimplePreviewPage() {
  const templateId = templateIdFrom(useSearch());
  const { data: template, isLoading, error } = useTemplate(templateId);
  useDocumentTitle(template ? `Preview: ${template.title}` : 'Video Preview');

  if (templateId !== undefined && isLoading) return <PageSpinner />;

  const playable = template && !template.isPremium && template.videoUrl;
  if (!playable) {
    // Signed in, the template comes with its flag; a visitor's request is refused (403) for a premium one.
    const premium = template?.isPremium || (error instanceof ApiError && error.status === 403);
    return (
      <div className="container-page py-8 md:py-10">
        <h1 className="text-3xl font-bold tracking-tight">Video Preview</h1>
        {templateId !== undefined && (
          <Alert className="mt-6" variant={premium ? 'default' : 'destructive'}>
            {premium && <Crown aria-hidden="true" />}
            <AlertTitle>{premium ? 'This is a premium template' : 'This video cannot be previewed'}</AlertTitle>
            <AlertDescription>
              {premium ? TEMPLATE_MESSAGES.premiumOriginalNotPublic : (error?.message ?? 'The template does not exist or has no video.')}
            </AlertDescription>
          </Alert>
        )}
        <h2 className="mt-8 mb-4 text-xl font-semibold">Featured videos you can preview</h2>
        <FeaturedChoices />
      </div>
    );
  }

  return (
    <div className="container-page py-8 md:py-10">
      <Button asChild variant="ghost" className="-ml-3">
        <Link href="/library">
          <ArrowLeft aria-hidden="true" />
          Back to Library
        </Link>
      </Button>
      <div className="mt-4 grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(16rem,1fr)]">
        <video
          controls
          playsInline
          preload="metadata"
          src={template.videoUrl ?? undefined}
          poster={template.thumbnailUrl ?? undefined}
          controlsList="nodownload"
          aria-label={`${template.title} (original video)`}
          className="aspect-video w-full rounded-2xl bg-black shadow"
        />
        <div className="grid content-start gap-4">
          <h1 className="text-2xl font-bold tracking-tight">{template.title}</h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <Badge variant="secondary">{capitalise(template.category)}</Badge>
            <span>{template.ageRange} years</span>
            <span>{formatDuration(template.duration)}</span>
          </div>
          <p className="text-muted-foreground">{template.description}</p>
          <Button asChild>
            <Link href={`/process/${template.id}`}>
              <Wand2 aria-hidden="true" />
              Use This Template
            </Link>
          </Button>
        </div>
      </div>
    </div>
  );
}
