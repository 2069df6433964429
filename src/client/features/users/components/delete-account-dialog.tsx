// 'Delete my account': says exactly what goes, asks for the password, and shows the server's refusal
// (a wrong password, the last admin) under the field.
import { zodResolver } from '@hookform/resolvers/zod';
import { Trash2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PRIVACY_MESSAGES } from '@shared/privacy';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { TextField } from '@client/components/ui/form-field';
import { useDeleteAccount } from '../api/use-delete-account';

/** What the dialog states, word for word. */
export const DELETE_ACCOUNT_WARNING =
  'This deletes your account, your people, their face photos, clips and voice recordings, your videos and your data exports. It cannot be undone.';

const passwordSchema = z.object({ password: z.string().min(1, PRIVACY_MESSAGES.passwordRequired) });

interface DeleteAccountDialogProps {
  userId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function DeleteAccountDialog({ userId, open, onOpenChange }: DeleteAccountDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md" role="alertdialog">
        <DialogHeader>
          <DialogTitle>Delete my account</DialogTitle>
          <DialogDescription>{DELETE_ACCOUNT_WARNING}</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so the password is never kept. */}
        {open && <DeleteAccountForm userId={userId} onCancel={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function DeleteAccountForm({ userId, onCancel }: { userId: number; onCancel: () => void }) {
  const remove = useDeleteAccount(userId);
  const form = useForm<z.infer<typeof passwordSchema>>({ resolver: zodResolver(passwordSchema), defaultValues: { password: '' } });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit(({ password }) =>
        remove.mutate(password, { onError: (error) => form.setError('password', { message: error.message }, { shouldFocus: true }) }),
      )}
    >
      <TextField
        label="Your password"
        type="password"
        autoComplete="current-password"
        autoFocus
        error={errors.password?.message}
        {...form.register('password')}
      />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={remove.isPending}>
          <Trash2 aria-hidden="true" /> {remove.isPending ? 'Deleting…' : 'Delete my account'}
        </Button>
      </DialogFooter>
    </form>
  );
}
