// Subscriptions tab: the one plan catalogue (src/shared/plans.ts), as the landing page shows it.
import { Check } from 'lucide-react';
import { PLANS, formatDollars } from '@shared/plans';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';

export function SubscriptionsTab() {
  return (
    <div className="grid gap-6 md:grid-cols-3">
      {PLANS.map((plan) => (
        <Card key={plan.id} data-testid={`plan-${plan.id}`}>
          <CardHeader>
            <CardTitle>{plan.name}</CardTitle>
            <CardDescription>
              <span className="text-2xl font-bold text-foreground">{formatDollars(plan.priceCents)}</span>
              {plan.priceCents > 0 && ' / month'}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2 text-sm">
              {plan.features.map((feature) => (
                <li key={feature} className="flex items-center gap-2">
                  <Check className="size-4 text-primary" aria-hidden="true" />
                  {feature}
                </li>
              ))}
              <li className="text-muted-foreground">
                Limits: {plan.maxPeople} {plan.maxPeople === 1 ? 'person' : 'people'},{' '}
                {plan.videosPerMonth === null ? 'unlimited videos' : `${plan.videosPerMonth} videos per month`}
              </li>
            </ul>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
