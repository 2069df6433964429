// The question asked before something is deleted for good: it names the thing, with Cancel and a red button.
// Every such question in the app is this one (photos, recordings, people, consent, the admin's users and templates).
import { Trash2, type LucideIcon } from 'lucide-react';
import { useRef, type ReactNode, type RefObject } from 'react';
import { Button } from './button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './dialog';

interface ConfirmDeleteDialogProps {
  open: boolean;
  title: string;
  /** The question, naming what goes: 'Delete the face photo "…"? It cannot be undone.' (or its placeholder while it is counted). */
  question: ReactNode;
  confirmLabel: string;
  /** The red button's icon; a bin unless the action is not plainly a delete (withdrawing consent). */
  icon?: LucideIcon;
  pending?: boolean;
  /** The red button while the request runs. */
  pendingLabel?: string;
  /** False while the question is not complete yet (what goes is still being counted): the red button waits. */
  ready?: boolean;
  onConfirm(): void;
  onCancel(): void;
  /**
   * Where the focus goes once the thing is deleted (the button that asked went with it). The caller closes
   * the dialog itself after a delete; a failed one leaves it open, with the error's toast, for Cancel.
   */
  focusAfterDelete?: RefObject<HTMLElement | null>;
}

export function ConfirmDeleteDialog({
  open,
  title,
  question,
  confirmLabel,
  icon: Icon = Trash2,
  pending = false,
  pendingLabel = 'Deleting…',
  ready = true,
  onConfirm,
  onCancel,
  focusAfterDelete,
}: ConfirmDeleteDialogProps) {
  // Set by the red button, cleared by a cancel: when the dialog closes with it set, the thing is gone.
  const confirmed = useRef(false);
  const cancel = () => {
    if (pending) return;
    confirmed.current = false;
    onCancel();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && cancel()}>
      <DialogContent
        className="max-w-md"
        role="alertdialog"
        onOpenAutoFocus={() => {
          confirmed.current = false;
        }}
        onCloseAutoFocus={(event) => {
          const target = confirmed.current ? focusAfterDelete?.current : null;
          if (!target) return; // cancelled: back to the button that asked
          event.preventDefault();
          target.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription asChild>
            <div className="break-words">{question}</div>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={cancel} disabled={pending}>
            Cancel
          </Button>
          <Button
            type="button"
            variant="destructive"
            disabled={pending || !ready}
            onClick={() => {
              confirmed.current = true;
              onConfirm();
            }}
          >
            <Icon aria-hidden="true" /> {pending ? pendingLabel : confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
