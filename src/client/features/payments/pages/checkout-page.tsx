// Checkout (spec 02 §2, §8; decision 017): a premium template bought by card with Stripe's Payment Element.
// The server prices the template; the purchase counts only once Stripe's webhook confirms it. Stripe.js that
// cannot load, or a payment intent the server refuses, ends in a toast and the library.
import { ArrowLeft, CreditCard, Wand2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import { Elements } from '@stripe/react-stripe-js';
import type { VideoTemplate } from '@shared/api-types';
import { PAYMENT_MESSAGES, type Entitlements } from '@shared/payments';
import { formatPrice } from '@shared/prices';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/components/ui/use-toast';
import { ApiError } from '@client/lib/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { useTemplate } from '@client/features/templates/api/use-template';
import { TemplateMeta } from '@client/features/templates/components/template-card-parts';
import { TemplateThumbnail } from '@client/features/templates/components/template-thumbnail';
import { mayUseTemplate, useEntitlements } from '../api/use-entitlements';
import { useCreatePaymentIntent } from '../api/use-create-payment-intent';
import { usePaymentsConfig } from '../api/use-payments-config';
import { PaymentForm, stripeAppearance } from '../components/payment-form';
import { loadStripeJs } from '../lib/stripe';

/** Where every failed set-up goes (spec 02 §2); the router sends it on to /library. */
const LIBRARY = '/video-library';

export default function CheckoutPage({ templateId }: { templateId: string }) {
  useDocumentTitle('Checkout');
  if (!/^\d+$/.test(templateId)) return <Redirect to={LIBRARY} replace />;
  return <Checkout templateId={Number(templateId)} />;
}

function Checkout({ templateId }: { templateId: number }) {
  const { user } = useCurrentUser();
  const template = useTemplate(templateId);
  const config = usePaymentsConfig();
  const entitlements = useEntitlements(user?.id);
  const missing = template.error instanceof ApiError && template.error.status === 404;
  const fetchFailed = template.isError && !missing;
  const usable = template.data !== undefined && !entitlements.isPending && mayUseTemplate(template.data, entitlements.data);

  useEffect(() => {
    if (fetchFailed) toast({ variant: 'destructive', title: PAYMENT_MESSAGES.fetchTemplateFailed, description: template.error.message });
  }, [fetchFailed, template.error]);

  return (
    <div className="container-page grid gap-6 py-8 md:py-10">
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link href="/library">
            <ArrowLeft aria-hidden="true" /> Back to Video Library
          </Link>
        </Button>
      </div>
      <h1 className="text-3xl font-bold tracking-tight">Checkout</h1>
      {missing ? (
        <Card className="mx-auto w-full max-w-lg text-center">
          <CardHeader>
            <CardTitle>{PAYMENT_MESSAGES.templateNotFound}</CardTitle>
            <CardDescription>The template you're looking for doesn't exist or may have been removed.</CardDescription>
          </CardHeader>
        </Card>
      ) : fetchFailed ? (
        <Alert variant="destructive">
          <AlertTitle>{PAYMENT_MESSAGES.fetchTemplateFailed}</AlertTitle>
          <AlertDescription>{template.error.message}</AlertDescription>
        </Alert>
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[2fr_3fr]">
          {template.data ? <TemplateSummary template={template.data} /> : <Skeleton className="h-96 rounded-2xl" />}
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <CreditCard className="size-5 text-primary" aria-hidden="true" /> Payment
              </CardTitle>
              {!usable && <CardDescription>Pay once by card; the template is yours to use as often as you like.</CardDescription>}
            </CardHeader>
            <CardContent>
              {!template.data || config.isPending || entitlements.isPending ? (
                <PaymentSkeleton />
              ) : usable ? (
                <NothingToBuy template={template.data} entitlements={entitlements.data} />
              ) : !config.data?.configured || !config.data.publishableKey ? (
                <NotConfigured />
              ) : (
                <StripePayment publishableKey={config.data.publishableKey} templateId={template.data.id} />
              )}
            </CardContent>
          </Card>
        </div>
      )}
    </div>
  );
}

function TemplateSummary({ template }: { template: VideoTemplate }) {
  return (
    <Card className="overflow-hidden p-0">
      <div className="relative aspect-video bg-muted">
        <TemplateThumbnail src={template.thumbnailUrl} />
      </div>
      <CardContent className="grid gap-3 p-5">
        <h2 className="text-xl font-semibold leading-snug">{template.title}</h2>
        <p className="text-sm text-muted-foreground">{template.description}</p>
        <TemplateMeta template={{ ...template, price: null }} />
        <dl className="flex items-baseline justify-between rounded-xl bg-muted/60 px-4 py-3">
          <dt className="font-medium">Price</dt>
          <dd className="text-2xl font-bold">{template.price === null ? '—' : formatPrice(template.price)}</dd>
        </dl>
      </CardContent>
    </Card>
  );
}

function PaymentSkeleton() {
  return (
    <div className="grid gap-4" aria-busy="true" aria-label="Preparing the payment form">
      <Skeleton className="h-10 rounded-lg" />
      <div className="grid grid-cols-2 gap-4">
        <Skeleton className="h-10 rounded-lg" />
        <Skeleton className="h-10 rounded-lg" />
      </div>
      <Skeleton className="h-11 rounded-lg" />
    </div>
  );
}

/** A free template, one already bought, or a plan that includes it: the server would refuse to sell it. */
function NothingToBuy({ template, entitlements }: { template: VideoTemplate; entitlements: Entitlements | undefined }) {
  const message = !template.isPremium
    ? PAYMENT_MESSAGES.freeTemplate
    : entitlements?.allPremium
      ? PAYMENT_MESSAGES.planIncludesPremium
      : PAYMENT_MESSAGES.alreadyOwned;
  return (
    <div className="grid gap-4">
      <p>{message}</p>
      <Button asChild className="w-fit">
        <Link href={`/process/${template.id}`}>
          <Wand2 aria-hidden="true" /> Use This Template
        </Link>
      </Button>
    </div>
  );
}

/** Without Stripe's keys nothing is offered that could look like a payment (decisions page). */
function NotConfigured() {
  return (
    <div className="grid gap-4">
      <Alert>
        <CreditCard aria-hidden="true" />
        <AlertTitle>{PAYMENT_MESSAGES.notConfigured}</AlertTitle>
        <AlertDescription>Premium templates cannot be bought here until the server's administrator sets up Stripe.</AlertDescription>
      </Alert>
      <Button asChild variant="outline" className="w-fit">
        <Link href="/library">
          <ArrowLeft aria-hidden="true" /> Back to Video Library
        </Link>
      </Button>
    </div>
  );
}

/** Stripe.js first (no payment intent is made for a page that cannot take the card), then the intent. */
function StripePayment({ publishableKey, templateId }: { publishableKey: string; templateId: number }) {
  const [, navigate] = useLocation();
  const stripe = useQuery({
    queryKey: ['stripe.js', publishableKey],
    queryFn: () => loadStripeJs(publishableKey),
    staleTime: Infinity,
    gcTime: Infinity,
    // A Stripe instance is no plain data: keep it as it is.
    structuralSharing: false,
    retry: false,
  });
  const intent = useCreatePaymentIntent();
  // Each outcome acts once, however often the effect runs.
  const acted = useRef(false);

  useEffect(() => {
    if (acted.current || stripe.isPending) return;
    acted.current = true;
    if (stripe.isError) {
      toast({ variant: 'destructive', title: PAYMENT_MESSAGES.initializeFailed, description: PAYMENT_MESSAGES.providerUnavailable });
      navigate(LIBRARY, { replace: true });
    } else {
      intent.mutate(templateId, { onError: () => navigate(LIBRARY, { replace: true }) });
    }
  }, [stripe.isPending, stripe.isError, intent, templateId, navigate]);

  if (!stripe.data || !intent.data) {
    return (
      <div className="grid gap-4">
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner className="size-4" label="Preparing" /> Preparing a secure card form…
        </p>
        <PaymentSkeleton />
      </div>
    );
  }
  return (
    <Elements stripe={stripe.data} options={{ clientSecret: intent.data.clientSecret, appearance: stripeAppearance() }}>
      <PaymentForm
        templateId={templateId}
        amount={intent.data.amount}
        onLoadError={() => {
          toast({ variant: 'destructive', title: PAYMENT_MESSAGES.initializeFailed, description: PAYMENT_MESSAGES.providerUnavailable });
          navigate(LIBRARY, { replace: true });
        }}
      />
    </Elements>
  );
}
