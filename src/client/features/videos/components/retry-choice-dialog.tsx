// Trying a failed video again with one thing changed: a dialog listing the person's photos or recordings,
// the one used last time marked, and a button that retries with the one chosen.
import { useId, useState, type ReactNode } from 'react';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Skeleton } from '@client/components/ui/skeleton';
import { cn } from '@client/lib/utils';

export interface RetryChoice {
  id: number;
  name: string;
  /** A short figure shown on the right (a recording's length). */
  detail?: string;
  /** A photo's picture, shown beside its name. */
  pictureUrl?: string;
  /** Why this one cannot be chosen, in words; it is then shown but disabled. */
  unusable?: string;
  /** Shown after the choice, outside its label (a recording's play button). */
  trailing?: ReactNode;
}

interface RetryChoiceDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: string;
  /** The radio group's name for screen readers ("Grandpa Joe's recordings"). */
  legend: string;
  /** undefined while they load. */
  choices: RetryChoice[] | undefined;
  /** The one the failed video used. */
  usedId: number | null;
  /** Shown when there is nothing else to choose (where to add another). */
  nothingElse: ReactNode;
  confirmLabel: string;
  pending: boolean;
  error: Error | null;
  onConfirm(id: number): void;
  /** Where the focus goes once the dialog has closed (there is no Radix trigger to go back to). */
  onCloseAutoFocus(event: Event): void;
}

/** The first usable choice other than the one that failed, else the one that failed. */
function firstPick(choices: RetryChoice[], usedId: number | null): number | undefined {
  const usable = choices.filter((choice) => !choice.unusable);
  return (usable.find((choice) => choice.id !== usedId) ?? usable[0])?.id;
}

export function RetryChoiceDialog(props: RetryChoiceDialogProps) {
  const { open, onOpenChange, title, description, onCloseAutoFocus } = props;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {/* Mounted while open only, so each opening starts from the best choice again. */}
        {open && <ChoiceForm {...props} />}
      </DialogContent>
    </Dialog>
  );
}

function ChoiceForm({ legend, choices, usedId, nothingElse, confirmLabel, pending, error, onConfirm, onOpenChange }: RetryChoiceDialogProps) {
  const name = useId();
  const [picked, setPicked] = useState<number>();
  const selected = picked ?? (choices && firstPick(choices, usedId));
  const hasOther = choices?.some((choice) => choice.id !== usedId && !choice.unusable) ?? true;

  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (selected !== undefined) onConfirm(selected);
      }}
    >
      {choices === undefined ? (
        <div className="grid gap-2" aria-busy="true" aria-label="Loading">
          <Skeleton className="h-14 rounded-xl" />
          <Skeleton className="h-14 rounded-xl" />
        </div>
      ) : (
        <fieldset className="grid gap-2">
          <legend className="sr-only">{legend}</legend>
          {choices.map((choice) => {
            const checked = choice.id === selected;
            return (
              <div
                key={choice.id}
                className={cn(
                  'flex items-center gap-3 rounded-xl border-2 p-2 pr-3',
                  checked ? 'border-primary bg-primary/5' : 'border-border',
                  choice.unusable && 'opacity-70',
                )}
              >
                <label className={cn('flex min-w-0 flex-1 items-center gap-3 text-sm', !choice.unusable && 'cursor-pointer')}>
                  <input
                    type="radio"
                    name={name}
                    value={choice.id}
                    checked={checked}
                    disabled={Boolean(choice.unusable)}
                    onChange={() => setPicked(choice.id)}
                    className="size-4 shrink-0 accent-primary"
                  />
                  {choice.pictureUrl && <img src={choice.pictureUrl} alt="" className="size-12 shrink-0 rounded-lg object-cover" loading="lazy" />}
                  <span className="grid min-w-0 flex-1 gap-0.5">
                    <span className="font-medium break-words">{choice.name}</span>
                    {choice.id === usedId && <span className="text-xs text-muted-foreground">Used last time</span>}
                    {choice.unusable && <span className="text-xs text-destructive">{choice.unusable}</span>}
                  </span>
                  {choice.detail && <span className="shrink-0 text-muted-foreground tabular-nums">{choice.detail}</span>}
                </label>
                {choice.trailing}
              </div>
            );
          })}
        </fieldset>
      )}
      {!hasOther && <p className="text-sm text-muted-foreground">{nothingElse}</p>}
      {error && (
        <Alert variant="destructive">
          <AlertDescription>{error.message}</AlertDescription>
        </Alert>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={selected === undefined || pending}>
          {confirmLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
