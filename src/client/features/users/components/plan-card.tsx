// The profile's plan section (id "plan", where every 'See plans' and 'Upgrade' leads): the plan, what is
// used of its limits this month, and the other plans with Upgrade (Stripe Checkout) or Manage subscription
// (Stripe's customer portal). Without Stripe's keys it says so and offers no button (decision 017).
import { Check, CreditCard, PartyPopper, Settings } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearch } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import type { SubscriptionStatus, UserProfile } from '@shared/api-types';
import { PAYMENT_MESSAGES, type PaidPlanId, type PaymentsConfig } from '@shared/payments';
import { PLANS, formatDollars, planById } from '@shared/plans';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Progress } from '@client/components/ui/progress';
import { Skeleton } from '@client/components/ui/skeleton';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';
import { refreshCurrentUser } from '@client/features/auth/api/use-current-user';
import { usePaymentsConfig } from '@client/features/payments/api/use-payments-config';
import { useSubscriptionCheckout } from '@client/features/payments/api/use-subscription-checkout';
import { useSubscriptionPortal } from '@client/features/payments/api/use-subscription-portal';
import { useUsage } from '../api/use-usage';
import { useUser, userQueryKey } from '../api/use-user';

/** After Stripe Checkout the webhook may take a moment: look again this often, for at most this long. */
const CONFIRMATION_POLL_MS = 3_000;
const CONFIRMATION_WAIT_MS = 60_000;

const STATUS_LABEL: Record<SubscriptionStatus, string | null> = { none: null, trial: 'Trial', active: 'Active', expired: 'Expired' };

/** A paid plan whose subscription runs (active or on trial): the portal manages it. */
function subscribed(user: Pick<UserProfile, 'plan' | 'subscriptionStatus'>): boolean {
  return user.plan !== 'free' && (user.subscriptionStatus === 'active' || user.subscriptionStatus === 'trial');
}

export function PlanCard({ userId }: { userId: number }) {
  const usage = useUsage(userId);
  const profile = useUser(userId);
  const config = usePaymentsConfig();
  const user = profile.data;
  const current = usage.data ? planById(usage.data.plan) : undefined;
  const isAdmin = user?.role === 'admin';
  const justSubscribed = new URLSearchParams(useSearch()).get('checkout') === 'success';
  const confirmed = user !== undefined && subscribed(user);
  useConfirmationPolling(userId, justSubscribed && !confirmed);

  const sectionRef = useRef<HTMLDivElement>(null);
  // The page is loaded lazily, after the browser looked for #plan: go there once it exists.
  useEffect(() => {
    if (window.location.hash === '#plan') sectionRef.current?.scrollIntoView();
  }, []);

  return (
    <Card ref={sectionRef} id="plan" className="scroll-mt-20" aria-labelledby="plan-title">
      <CardHeader>
        <CardTitle id="plan-title" className="flex flex-wrap items-center gap-2">
          Your plan{current ? `: ${current.name}` : ''}
          {user && !isAdmin && STATUS_LABEL[user.subscriptionStatus] && (
            <Badge variant={user.subscriptionStatus === 'expired' ? 'destructive' : 'secondary'}>{STATUS_LABEL[user.subscriptionStatus]}</Badge>
          )}
          {isAdmin && <Badge>Admin</Badge>}
        </CardTitle>
        <CardDescription>
          {isAdmin
            ? 'As an admin you may use every template, with no limits.'
            : 'What your plan allows, and what you have used this month. Videos that failed do not count.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {justSubscribed && (
          <Alert>
            <PartyPopper aria-hidden="true" />
            <AlertTitle>Thank you!</AlertTitle>
            <AlertDescription>
              {confirmed && user
                ? `Your ${planById(user.plan).name} subscription is on: every premium template is yours to use.`
                : 'Your subscription starts as soon as Stripe confirms the payment. This usually takes a few seconds.'}
            </AlertDescription>
          </Alert>
        )}
        {user?.plan !== 'free' && user?.subscriptionStatus === 'expired' && !isAdmin && (
          <Alert variant="destructive">
            <CreditCard aria-hidden="true" />
            <AlertTitle>Your subscription has expired</AlertTitle>
            <AlertDescription>The last payment did not go through. Update your card with Manage subscription to keep your plan.</AlertDescription>
          </Alert>
        )}
        {!usage.data || !user ? (
          <Skeleton className="h-16 rounded-xl" />
        ) : (
          <dl className="grid gap-4 sm:grid-cols-2">
            <UsageLine label="People" used={usage.data.people.used} limit={usage.data.people.limit} admin={isAdmin} />
            <UsageLine label="Videos this month" used={usage.data.videosThisMonth.used} limit={usage.data.videosThisMonth.limit} admin={isAdmin} />
          </dl>
        )}
        <ul className="grid gap-3 md:grid-cols-3" aria-label="Plans">
          {PLANS.map((plan) => {
            const isCurrent = plan.id === current?.id;
            const offered = user && config.data && canUpgrade(user, config.data) && plan.id !== 'free' && !isCurrent;
            return (
              <li
                key={plan.id}
                aria-label={plan.name}
                className={cn('flex flex-col gap-2 rounded-xl border p-4', isCurrent && 'border-2 border-primary')}
              >
                <p className="flex items-center justify-between gap-2 font-semibold">
                  {plan.name}
                  {isCurrent && <Badge>Current</Badge>}
                </p>
                <p className="text-sm text-muted-foreground">
                  {formatDollars(plan.priceCents)}
                  {plan.priceCents > 0 && ' / month'}
                </p>
                <ul className="mb-2 grid gap-1 text-sm">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex items-center gap-2">
                      <Check className="size-3.5 shrink-0 text-primary" aria-hidden="true" />
                      {feature}
                    </li>
                  ))}
                </ul>
                {offered && <UpgradeButton plan={plan.id as PaidPlanId} />}
              </li>
            );
          })}
        </ul>
        {user && <PlanActions user={user} config={config.data} configPending={config.isPending} />}
      </CardContent>
    </Card>
  );
}

/** Checkout is for a parent whose paid plan is not running; a running one changes plan in the portal. */
function canUpgrade(user: UserProfile, config: PaymentsConfig): boolean {
  return user.role !== 'admin' && config.configured && config.subscriptions && !subscribed(user);
}

function UpgradeButton({ plan }: { plan: PaidPlanId }) {
  const checkout = useSubscriptionCheckout();
  const name = planById(plan).name;
  return (
    <Button
      // At the foot of its plan, level with the other plan's.
      className="mt-auto"
      variant={plan === 'premium' ? 'default' : 'outline'}
      disabled={checkout.isPending}
      onClick={() => checkout.mutate(plan)}
    >
      {checkout.isPending ? <Spinner className="size-4 text-current" label="Opening Stripe Checkout" /> : null}
      Upgrade to {name}
    </Button>
  );
}

/** What is said and offered below the plans: why nothing can be bought, or the customer portal. */
function PlanActions({ user, config, configPending }: { user: UserProfile; config: PaymentsConfig | undefined; configPending: boolean }) {
  const portal = useSubscriptionPortal();
  if (user.role === 'admin') return null;
  if (configPending) return <Skeleton className="h-5 w-72" />;
  if (!config?.configured) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <CreditCard className="size-4 shrink-0" aria-hidden="true" />
        {PAYMENT_MESSAGES.notConfigured}
      </p>
    );
  }
  const paidPlan = user.plan !== 'free' && user.subscriptionStatus !== 'none';
  return (
    <div className="flex flex-wrap items-center gap-3">
      {paidPlan && (
        <Button variant="outline" disabled={portal.isPending} onClick={() => portal.mutate()}>
          {portal.isPending ? <Spinner className="size-4 text-current" label="Opening the customer portal" /> : <Settings aria-hidden="true" />}
          Manage subscription
        </Button>
      )}
      <p className="text-sm text-muted-foreground">
        {!config.subscriptions
          ? PAYMENT_MESSAGES.subscriptionsNotConfigured
          : paidPlan
            ? "Change plan, update your card or cancel on Stripe's secure page."
            : 'Payments are handled by Stripe. Cancel at any time.'}
      </p>
    </div>
  );
}

function UsageLine({ label, used, limit, admin }: { label: string; used: number; limit: number | null; admin: boolean }) {
  return (
    <div className="grid gap-1.5">
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="grid gap-1.5 text-sm text-muted-foreground">
        {admin ? `${used} used · Unlimited (admin)` : limit === null ? `${used} (unlimited)` : `${used} of ${limit}`}
        {!admin && limit !== null && <Progress value={Math.min(100, (used / limit) * 100)} aria-label={`${label}: ${used} of ${limit}`} />}
      </dd>
    </div>
  );
}

/** Back from Stripe Checkout: read the plan again until the webhook has recorded it (or a minute passed). */
function useConfirmationPolling(userId: number, waiting: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!waiting) return;
    const started = Date.now();
    const refresh = () =>
      // The user's key is the prefix of their usage and entitlements: all three are read again.
      Promise.all([queryClient.invalidateQueries({ queryKey: userQueryKey(userId) }), refreshCurrentUser()]);
    void refresh();
    const timer = setInterval(() => {
      if (Date.now() - started > CONFIRMATION_WAIT_MS) clearInterval(timer);
      else void refresh();
    }, CONFIRMATION_POLL_MS);
    return () => clearInterval(timer);
  }, [queryClient, userId, waiting]);
}
