// Add Face Image: a photo from the camera or a file. The server checks that it shows a face; when it does
// not, its message shows here and in a toast, and the dialog stays open for another photo.
import { CircleAlert, Save } from 'lucide-react';
import { useState } from 'react';
import type { Person } from '@shared/api-types';
import { mediaNameSchema } from '@shared/media-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { TextField } from '@client/components/ui/form-field';
import { useCreateFaceImage } from '../api/use-create-face-image';
import { FaceCapture } from './face-capture';

interface AddFaceImageDialogProps {
  person: Person;
  /** The first face image becomes the default. */
  hasDefault: boolean;
  /** How many face images the person has, for the suggested name. */
  count: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function AddFaceImageDialog({ person, hasDefault, count, open, onOpenChange }: AddFaceImageDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Add Face Image</DialogTitle>
          <DialogDescription>
            Take a photo of {person.name} or upload one. A clear, well-lit, front-facing photo works best.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so the camera is released when the dialog closes. */}
        {open && <AddFaceImageForm person={person} hasDefault={hasDefault} count={count} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function AddFaceImageForm({ person, hasDefault, count, onDone }: { person: Person; hasDefault: boolean; count: number; onDone: () => void }) {
  const [imageData, setImageData] = useState<string | null>(null);
  const [name, setName] = useState(`${person.name} - Photo ${count + 1}`);
  const [nameError, setNameError] = useState<string>();
  const create = useCreateFaceImage();

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = mediaNameSchema.safeParse(name);
        setNameError(parsed.success ? undefined : parsed.error.issues[0]?.message);
        if (!parsed.success || !imageData) return;
        create.mutate(
          { userId: person.userId, personId: person.id, name: parsed.data, imageData, isDefault: !hasDefault },
          { onSuccess: onDone },
        );
      }}
    >
      <FaceCapture
        value={imageData}
        onChange={(next) => {
          setImageData(next);
          create.reset();
        }}
      />
      {create.isError && (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>This photo was not saved</AlertTitle>
          <AlertDescription>{create.error.message}</AlertDescription>
        </Alert>
      )}
      <TextField label="Image Name" value={name} error={nameError} onChange={(event) => setName(event.target.value)} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={!imageData || create.isPending}>
          <Save aria-hidden="true" /> {create.isPending ? 'Saving…' : 'Save Face Image'}
        </Button>
      </DialogFooter>
    </form>
  );
}
