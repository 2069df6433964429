// Consent for one person (decision 016): one short paragraph, who is giving it, and the wording's version.
// Asked when a person is added and before their first face or voice (use-consent-gate.tsx).
import { zodResolver } from '@hookform/resolvers/zod';
import { CircleAlert, ShieldCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { Person } from '@shared/api-types';
import { CONSENT_BASES, CONSENT_WORDING_VERSION, type ConsentInput, consentBasisLabel, consentSchema, consentStatement } from '@shared/privacy';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { FieldError } from '@client/components/ui/form-field';
import { cn } from '@client/lib/utils';
import { useGiveConsent } from '../api/use-give-consent';

interface ConsentDialogProps {
  /** Open while a person is set. */
  person: Person | null;
  onOpenChange: (open: boolean) => void;
  /** The person as the server recorded the consent. */
  onGiven: (person: Person) => void;
}

export function ConsentDialog({ person, onOpenChange, onGiven }: ConsentDialogProps) {
  return (
    <Dialog open={person !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        {person && (
          <>
            <DialogHeader>
              <DialogTitle className="flex items-center gap-2">
                <ShieldCheck className="size-5 shrink-0 text-primary" aria-hidden="true" /> Consent for {person.name}
              </DialogTitle>
              <DialogDescription>{consentStatement(person.name)}</DialogDescription>
            </DialogHeader>
            {/* Keyed by person: a new person starts with nothing chosen. */}
            <ConsentForm key={person.id} person={person} onCancel={() => onOpenChange(false)} onGiven={onGiven} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function ConsentForm({ person, onCancel, onGiven }: { person: Person; onCancel: () => void; onGiven: (person: Person) => void }) {
  const give = useGiveConsent();
  const form = useForm<ConsentInput>({ resolver: zodResolver(consentSchema) });
  const chosen = form.watch('basis');
  const error = form.formState.errors.basis?.message;

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit(({ basis }) => give.mutate({ person, basis }, { onSuccess: onGiven }))}
    >
      <fieldset className="grid gap-2" aria-describedby={error ? 'consent-basis-error' : undefined}>
        <legend className="mb-2 text-sm font-medium">Who is giving consent?</legend>
        {CONSENT_BASES.map((basis) => (
          <label
            key={basis}
            className={cn(
              'flex cursor-pointer items-center gap-3 rounded-xl border-2 px-3 py-2.5 text-sm transition-colors',
              chosen === basis ? 'border-primary bg-primary/5' : 'border-border hover:bg-muted/60',
            )}
          >
            <input type="radio" value={basis} className="size-4 shrink-0 accent-primary" {...form.register('basis')} />
            <span className="font-medium">{consentBasisLabel(basis, person.name)}</span>
          </label>
        ))}
        <FieldError id="consent-basis-error" message={error} />
      </fieldset>
      {give.isError && (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{give.error.message}</AlertDescription>
        </Alert>
      )}
      <p className="text-xs text-muted-foreground">Consent wording version {CONSENT_WORDING_VERSION}</p>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Not now
        </Button>
        <Button type="submit" disabled={give.isPending}>
          <ShieldCheck aria-hidden="true" /> {give.isPending ? 'Saving…' : 'Give consent'}
        </Button>
      </DialogFooter>
    </form>
  );
}
