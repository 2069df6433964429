import { Trash2 } from 'lucide-react';
import type { Person } from '@shared/api-types';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';

interface DeletePersonDialogProps {
  person: Person | null;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (person: Person) => void;
}

export function DeletePersonDialog({ person, pending, onOpenChange, onConfirm }: DeletePersonDialogProps) {
  return (
    <Dialog open={person !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md" role="alertdialog">
        <DialogHeader>
          <DialogTitle>Delete {person?.name}?</DialogTitle>
          <DialogDescription>
            This permanently deletes {person?.name} together with all their face images, face videos and voice
            recordings. It cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="button" variant="destructive" disabled={pending} onClick={() => person && onConfirm(person)}>
            <Trash2 aria-hidden="true" /> {pending ? 'Deleting…' : 'Delete Person'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
