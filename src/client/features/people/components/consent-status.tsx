// The person's consent on their card: who gave it, when and as whom, with 'Withdraw consent'; or
// 'No consent yet' with 'Give consent'.
import { ShieldAlert, ShieldCheck, ShieldOff } from 'lucide-react';
import type { Person } from '@shared/api-types';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { consentSummary } from '../lib/consent';

interface ConsentStatusProps {
  person: Person;
  /** The signed-in user, to say 'by you'. */
  viewerId: number | undefined;
  onGive: () => void;
  onWithdraw: () => void;
  className?: string;
}

export function ConsentStatus({ person, viewerId, onGive, onWithdraw, className }: ConsentStatusProps) {
  const { consent } = person;
  return (
    <section
      aria-label="Consent"
      className={cn(
        'flex flex-wrap items-center gap-3 rounded-xl border px-4 py-3 text-sm',
        consent ? 'border-emerald-600/25 bg-emerald-50 dark:bg-emerald-950/30' : 'border-[#f1d58a] bg-sunshine/15',
        className,
      )}
    >
      {consent ? (
        <ShieldCheck className="size-5 shrink-0 text-emerald-700 dark:text-emerald-400" aria-hidden="true" />
      ) : (
        <ShieldAlert className="size-5 shrink-0 text-[#a86a00]" aria-hidden="true" />
      )}
      <div className="grid min-w-0 flex-1 basis-56 gap-0.5">
        {consent ? (
          <>
            <p className="font-medium">{consentSummary(consent, viewerId)}</p>
            <p className="text-xs text-muted-foreground">Consent wording version {consent.wordingVersion}</p>
          </>
        ) : (
          <>
            <p className="font-medium">No consent yet</p>
            <p className="text-xs text-muted-foreground">
              Give consent before adding {person.name}&apos;s face or voice.
            </p>
          </>
        )}
      </div>
      {consent ? (
        <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={onWithdraw}>
          <ShieldOff aria-hidden="true" /> Withdraw consent
        </Button>
      ) : (
        <Button size="sm" onClick={onGive}>
          <ShieldCheck aria-hidden="true" /> Give consent
        </Button>
      )}
    </section>
  );
}
