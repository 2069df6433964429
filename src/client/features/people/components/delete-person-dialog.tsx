import type { Person } from '@shared/api-types';
import { ConfirmDeleteDialog } from '@client/components/ui/confirm-dialog';

interface DeletePersonDialogProps {
  person: Person | null;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (person: Person) => void;
}

export function DeletePersonDialog({ person, pending, onOpenChange, onConfirm }: DeletePersonDialogProps) {
  return (
    <ConfirmDeleteDialog
      open={person !== null}
      title={`Delete ${person?.name}?`}
      question={`This permanently deletes ${person?.name} together with all their face images, face videos and voice recordings. It cannot be undone.`}
      confirmLabel="Delete Person"
      pending={pending}
      onCancel={() => onOpenChange(false)}
      onConfirm={() => person && onConfirm(person)}
    />
  );
}
