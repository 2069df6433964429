// The one gate before a person's face or voice is stored: every place that adds one calls
// `consent.ask(person, next)` and renders `consent.dialog`. With a consent recorded, `next` runs at once;
// without, the consent dialog comes first and `next` runs once it is given ('Not now' stops there).
// Should the server refuse anyway (consent withdrawn in another tab), `consent.refused(error, person)`
// says so in a toast that offers the dialog.
import { type ReactNode, useCallback, useRef, useState } from 'react';
import type { Person } from '@shared/api-types';
import { ToastAction } from '@client/components/ui/toast';
import { toast } from '@client/components/ui/use-toast';
import { hasConsent, isConsentRequired } from '../lib/consent';
import { ConsentDialog } from './consent-dialog';

export interface ConsentGate {
  /** Runs `next` once the person has a consent, asking for it first when they have none. */
  ask: (person: Person, next?: () => void) => void;
  /** True (and the toast shown) when `error` is the server's refusal for want of a consent. */
  refused: (error: unknown, person: Person) => boolean;
  /** The consent dialog: render it once, anywhere in the component. */
  dialog: ReactNode;
}

export function useConsentGate(): ConsentGate {
  const [asking, setAsking] = useState<Person | null>(null);
  /** What to do once consent is given; a ref, so a newer ask replaces it without a render. */
  const next = useRef<(() => void) | undefined>(undefined);

  const ask = useCallback((person: Person, then?: () => void) => {
    if (hasConsent(person)) {
      then?.();
      return;
    }
    next.current = then;
    setAsking(person);
  }, []);

  const refused = useCallback((error: unknown, person: Person) => {
    if (!isConsentRequired(error, person)) return false;
    toast({
      variant: 'destructive',
      title: 'Consent needed',
      description: error.message,
      action: (
        <ToastAction
          altText={`Give consent for ${person.name}`}
          onClick={() => {
            next.current = undefined;
            setAsking(person);
          }}
        >
          Give consent
        </ToastAction>
      ),
    });
    return true;
  }, []);

  const dialog = (
    <ConsentDialog
      person={asking}
      onOpenChange={(open) => {
        if (open) return;
        next.current = undefined;
        setAsking(null);
      }}
      onGiven={() => {
        const then = next.current;
        next.current = undefined;
        setAsking(null);
        then?.();
      }}
    />
  );

  return { ask, refused, dialog };
}
