// The profile's plan section (id "plan", where every 'See plans' leads): the plan, what is used of its
// limits this month, and the other plans. Changing plan by card arrives with payments (spec 02 §2, the
// decisions page): until the server has them, it says so rather than pretending.
import { Check } from 'lucide-react';
import { PLANS, formatDollars, planById } from '@shared/plans';
import { Badge } from '@client/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Progress } from '@client/components/ui/progress';
import { Skeleton } from '@client/components/ui/skeleton';
import { cn } from '@client/lib/utils';
import { useUsage } from '../api/use-usage';

export function PlanCard({ userId }: { userId: number }) {
  const usage = useUsage(userId);
  const current = usage.data ? planById(usage.data.plan) : undefined;
  return (
    <Card id="plan" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>Your plan{current ? `: ${current.name}` : ''}</CardTitle>
        <CardDescription>What your plan allows, and what you have used this month. Videos that failed do not count.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {!usage.data ? (
          <Skeleton className="h-16 rounded-xl" />
        ) : (
          <dl className="grid gap-4 sm:grid-cols-2">
            <UsageLine label="People" used={usage.data.people.used} limit={usage.data.people.limit} />
            <UsageLine label="Videos this month" used={usage.data.videosThisMonth.used} limit={usage.data.videosThisMonth.limit} />
          </dl>
        )}
        <ul className="grid gap-3 md:grid-cols-3" aria-label="Plans">
          {PLANS.map((plan) => {
            const isCurrent = plan.id === current?.id;
            return (
              <li key={plan.id} className={cn('grid content-start gap-2 rounded-xl border p-4', isCurrent && 'border-2 border-primary')}>
                <p className="flex items-center justify-between gap-2 font-semibold">
                  {plan.name}
                  {isCurrent && <Badge>Current</Badge>}
                </p>
                <p className="text-sm text-muted-foreground">
                  {formatDollars(plan.priceCents)}
                  {plan.priceCents > 0 && ' / month'}
                </p>
                <ul className="grid gap-1 text-sm">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex items-center gap-2">
                      <Check className="size-3.5 shrink-0 text-primary" aria-hidden="true" />
                      {feature}
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
        <p className="text-sm text-muted-foreground">Payments are not configured on this server, so plans cannot be changed here yet.</p>
      </CardContent>
    </Card>
  );
}

function UsageLine({ label, used, limit }: { label: string; used: number; limit: number | null }) {
  return (
    <div className="grid gap-1.5">
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="grid gap-1.5 text-sm text-muted-foreground">
        {limit === null ? `${used} (unlimited)` : `${used} of ${limit}`}
        {limit !== null && <Progress value={Math.min(100, (used / limit) * 100)} aria-label={`${label}: ${used} of ${limit}`} />}
      </dd>
    </div>
  );
}
