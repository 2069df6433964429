// The Create page's answer for a premium template the user may not use yet (decisions page): the premium
// rule in the server's words, with Purchase (this template) and Upgrade (every premium template), before
// any form is filled in vain. Just back from paying, it waits for Stripe's confirmation instead.
import { Crown, ShoppingCart } from 'lucide-react';
import { Link } from 'wouter';
import type { VideoTemplate } from '@shared/api-types';
import { PAYMENT_MESSAGES } from '@shared/payments';
import { formatPrice } from '@shared/prices';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';

interface PremiumTemplateLockedProps {
  template: VideoTemplate;
  /** A payment for this template was just made here: its webhook has not arrived yet. */
  awaitingConfirmation: boolean;
}

export function PremiumTemplateLocked({ template, awaitingConfirmation }: PremiumTemplateLockedProps) {
  if (awaitingConfirmation) {
    return (
      <Card role="status">
        <CardContent className="flex items-center gap-3 p-6">
          <Spinner className="size-5" label="Confirming your payment" />
          <p>{PAYMENT_MESSAGES.paymentBeingConfirmed}</p>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card role="region" aria-labelledby="premium-locked-title" className="border-primary/30">
      <CardHeader>
        <CardTitle id="premium-locked-title" className="flex items-center gap-2">
          <Crown className="size-5 text-primary" aria-hidden="true" /> Premium template
        </CardTitle>
        <CardDescription className="text-base text-foreground">{PAYMENT_MESSAGES.premiumRequired}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        <Button asChild>
          <Link href={`/checkout/${template.id}`}>
            <ShoppingCart aria-hidden="true" /> Purchase{template.price !== null && ` for ${formatPrice(template.price)}`}
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/profile#plan">
            <Crown aria-hidden="true" /> Upgrade
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
