import { Check } from 'lucide-react';
import { Link } from 'wouter';
import { formatDollars, PLANS, type PlanId } from '@shared/plans';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { cn } from '@client/lib/utils';
import { SectionHeading } from './section-heading';

const HIGHLIGHTED_PLAN: PlanId = 'premium';

export function Pricing() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="bg-card py-16 md:py-24">
      <div className="container-page">
        <SectionHeading id="pricing-title" eyebrow="Simple plans" title="Pricing">
          Start free. Upgrade when the whole family wants a starring role.
        </SectionHeading>
        <div className="mx-auto mt-12 grid max-w-5xl gap-6 md:grid-cols-3">
          {PLANS.map((plan) => {
            const highlighted = plan.id === HIGHLIGHTED_PLAN;
            const free = plan.priceCents === 0;
            return (
              <Card
                key={plan.id}
                aria-labelledby={`plan-${plan.id}`}
                role="group"
                className={cn(
                  'relative flex flex-col',
                  highlighted && 'border-2 border-primary shadow-lg shadow-primary/15 md:-translate-y-2',
                )}
              >
                {highlighted && <Badge className="absolute -top-3 left-1/2 -translate-x-1/2">Most popular</Badge>}
                <CardHeader>
                  <CardTitle id={`plan-${plan.id}`}>{plan.name}</CardTitle>
                  <p className="mt-2 flex items-baseline gap-1">
                    <span className="text-4xl font-extrabold tracking-tight">{formatDollars(plan.priceCents)}</span>
                    {!free && <span className="text-muted-foreground">/month</span>}
                  </p>
                </CardHeader>
                <CardContent className="flex-1">
                  <ul className="grid gap-3">
                    {plan.features.map((feature) => (
                      <li key={feature} className="flex items-center gap-3">
                        <Check className="size-4 shrink-0 text-primary" aria-hidden="true" />
                        {feature}
                      </li>
                    ))}
                  </ul>
                </CardContent>
                <CardFooter>
                  <Button asChild size="lg" variant={highlighted ? 'default' : 'outline'} className="w-full">
                    <Link href="/auth?tab=register">{free ? 'Start Free' : `Choose ${plan.name}`}</Link>
                  </Button>
                </CardFooter>
              </Card>
            );
          })}
        </div>
      </div>
    </section>
  );
}
