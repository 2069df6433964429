// Create Your Video (spec 02 §2): /process/{templateId}, or /process/new to pick a template first. After
// Create My Video the address carries ?video={id}, so the status card survives a reload; ?from={id} opens
// the form with a failed video's choices, to change one and make it again. A premium template the user may
// not use yet shows Purchase and Upgrade instead of the form.
import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { mayUseTemplate, useEntitlements } from '@client/features/payments/api/use-entitlements';
import { awaitingPaymentConfirmation, forgetPayment } from '@client/features/payments/lib/recent-payment';
import { useTemplate } from '@client/features/templates/api/use-template';
import { useProcessedVideo } from '../api/use-processed-video';
import { CreateVideoForm } from '../components/create-video-form';
import { PremiumTemplateLocked } from '../components/premium-template-locked';
import { ProcessingStatusCard } from '../components/processing-status-card';
import { TemplatePicker } from '../components/template-picker';
import { TemplateSummaryCard } from '../components/template-summary-card';

export default function ProcessPage({ templateId }: { templateId: string }) {
  useDocumentTitle('Create Your Video');
  return (
    <div className="container-page grid gap-6 py-8">
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link href="/library">
            <ArrowLeft aria-hidden="true" /> Back to Library
          </Link>
        </Button>
      </div>
      {templateId === 'new' ? (
        <section className="grid gap-4">
          <h1 className="text-3xl font-bold tracking-tight">Create Your Video</h1>
          <p className="text-muted-foreground">Pick a video to star your loved one in.</p>
          <TemplatePicker />
        </section>
      ) : /^\d+$/.test(templateId) ? (
        <CreateForTemplate id={Number(templateId)} />
      ) : (
        <InvalidTemplate />
      )}
    </div>
  );
}

function CreateForTemplate({ id }: { id: number }) {
  const template = useTemplate(id);
  const { user } = useCurrentUser();
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const videoId = idParam(search.get('video'));
  const fromId = idParam(search.get('from'));
  const startFrom = useProcessedVideo(videoId === undefined ? fromId : undefined);
  const premium = template.data?.isPremium === true;
  const awaitingPayment = premium && awaitingPaymentConfirmation(id);
  const entitlements = useEntitlements(premium ? user?.id : undefined, { pollMs: awaitingPayment ? PAYMENT_POLL_MS : undefined });
  const usable = template.data !== undefined && mayUseTemplate(template.data, entitlements.data);
  useEffect(() => {
    if (premium && usable) forgetPayment();
  }, [premium, usable]);

  if (template.isError) return <InvalidTemplate />;
  if (!template.data || !user || (fromId !== undefined && startFrom.isPending) || (premium && entitlements.isPending)) {
    return (
      <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
        <Skeleton className="h-96 rounded-2xl" />
        <Skeleton className="h-96 rounded-2xl" />
      </div>
    );
  }
  return (
    <section className="grid gap-6">
      <h1 className="text-3xl font-bold tracking-tight">Create Your Video</h1>
      <div className="grid items-start gap-6 lg:grid-cols-[2fr_3fr]">
        <TemplateSummaryCard template={template.data} />
        {videoId !== undefined ? (
          <ProcessingStatusCard videoId={videoId} onChangeChoices={() => navigate(`/process/${id}?from=${videoId}`, { replace: true })} onStartOver={() => navigate(`/process/${id}`, { replace: true })} />
        ) : !usable ? (
          <PremiumTemplateLocked template={template.data} awaitingConfirmation={awaitingPayment} />
        ) : (
          <CreateVideoForm
            // A new key when the starting video arrives, so the form's state starts from it.
            key={startFrom.data?.id ?? 'new'}
            template={template.data}
            user={user}
            startFrom={startFrom.data?.templateId === id ? startFrom.data : undefined}
            onCreated={(video) => navigate(`/process/${id}?video=${video.id}`, { replace: true })}
          />
        )}
      </div>
    </section>
  );
}

/** How often a payment just made is looked for, until its webhook has recorded it. */
const PAYMENT_POLL_MS = 3_000;

function idParam(value: string | null): number | undefined {
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

function InvalidTemplate() {
  return (
    <Card className="mx-auto w-full max-w-lg text-center">
      <CardHeader>
        <CardTitle>Invalid template ID</CardTitle>
        <CardDescription>The template you're looking for doesn't exist or may have been removed.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild>
          <Link href="/library">Go to Library</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
