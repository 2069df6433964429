// Add New Person and Edit Person: name and relationship, checked with the shared personSchema.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { Person } from '@shared/api-types';
import { type PersonInput, personSchema } from '@shared/media-rules';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { TextField } from '@client/components/ui/form-field';

interface PersonFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Editing this person; absent when adding. */
  person?: Person;
  pending: boolean;
  onSubmit: (fields: PersonInput) => Promise<unknown>;
}

export function PersonFormDialog({ open, onOpenChange, person, pending, onSubmit }: PersonFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{person ? 'Edit Person' : 'Add New Person'}</DialogTitle>
          <DialogDescription>
            {person
              ? `Update ${person.name}'s name or relationship.`
              : 'Add a loved one who will star in your videos. You can record their face and voice next.'}
          </DialogDescription>
        </DialogHeader>
        {open && <PersonForm person={person} pending={pending} onSubmit={onSubmit} onCancel={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function PersonForm({
  person,
  pending,
  onSubmit,
  onCancel,
}: Pick<PersonFormDialogProps, 'person' | 'pending' | 'onSubmit'> & { onCancel: () => void }) {
  const form = useForm<PersonInput>({
    resolver: zodResolver(personSchema),
    defaultValues: { name: person?.name ?? '', relationship: person?.relationship ?? '' },
  });
  const { errors } = form.formState;
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit(async (fields) => {
        try {
          await onSubmit(fields);
        } catch {
          // The mutation raised the Error toast; keep the form open to fix and retry.
        }
      })}
    >
      <TextField label="Name" autoComplete="off" placeholder="e.g. Grandma Rose" error={errors.name?.message} {...form.register('name')} />
      <TextField
        label="Relationship"
        autoComplete="off"
        placeholder="e.g. Grandmother"
        error={errors.relationship?.message}
        {...form.register('relationship')}
      />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : person ? 'Save Changes' : 'Add Person'}
        </Button>
      </DialogFooter>
    </form>
  );
}
