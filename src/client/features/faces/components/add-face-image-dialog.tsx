// Add Face Image: a photo from the camera or a file. The server checks that it shows a face; when it does
// not, its message shows here (once: no toast over the dialog) and the dialog stays open for another photo.
// A photo of several people is saved with its largest face: the dialog shows that face and lets the
// parent keep it or crop the photo to the right one (the crop is saved and replaces the first photo).
import { Check, CircleAlert, Crop, Save } from 'lucide-react';
import { useState } from 'react';
import type { FaceImage, Person } from '@shared/api-types';
import { FACE_ANALYSIS_MESSAGES } from '@shared/face-analysis';
import { mediaNameSchema } from '@shared/media-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { TextField } from '@client/components/ui/form-field';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { FACE_IMAGE_ADDED, useCreateFaceImage } from '../api/use-create-face-image';
import { useDeleteFaceImage } from '../api/use-delete-face-image';
import { type Size, type Square, cropToDataUrl, loadImage, squareAround } from '../lib/face-crop';
import { FaceCapture } from './face-capture';
import { FaceCropPreview } from './face-crop-preview';
import { FaceCropper } from './face-cropper';

/** The crop starts around the face the server chose, with room for hair and jaw. */
const CROP_START_SCALE = 2;

interface AddFaceImageDialogProps {
  person: Person;
  /** The first face image becomes the default. */
  hasDefault: boolean;
  /** How many face images the person has, for the suggested name. */
  count: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The photo just saved (the Create page selects it). */
  onSaved?: (image: FaceImage) => void;
}

export function AddFaceImageDialog({ person, hasDefault, count, open, onOpenChange, onSaved }: AddFaceImageDialogProps) {
  /** A group photo is saved before the parent chooses: closing the dialog then keeps it, as 'Use this face' does. */
  const [unconfirmed, setUnconfirmed] = useState<FaceImage | null>(null);
  /** While a photo is being saved or replaced, the dialog stays open so the two never both remain. */
  const [busy, setBusy] = useState(false);

  function finish(image: FaceImage) {
    setUnconfirmed(null);
    // Kept either way; a face turned far to one side, blurred, small, with its eyes shut or looking aside, is said once the dialog has closed.
    const warnings = [
      image.turnedAway && FACE_ANALYSIS_MESSAGES.turnedAway,
      image.blurred && FACE_ANALYSIS_MESSAGES.blurred,
      image.smallFace && FACE_ANALYSIS_MESSAGES.smallFace,
      image.eyesClosed && FACE_ANALYSIS_MESSAGES.eyesClosed,
      image.looksAside && FACE_ANALYSIS_MESSAGES.looksAside,
    ].filter(Boolean);
    if (warnings.length) notifySuccess(FACE_IMAGE_ADDED, warnings.join(' '));
    else notifySuccess(FACE_IMAGE_ADDED);
    onOpenChange(false);
    onSaved?.(image);
  }

  function close() {
    if (busy) return;
    if (unconfirmed) finish(unconfirmed);
    else onOpenChange(false);
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="max-w-xl">
        {/* Mounted only while open, so the camera is released when the dialog closes. */}
        {open && (
          <AddFaceImageSteps
            person={person}
            hasDefault={hasDefault}
            count={count}
            onCancel={close}
            onSaved={finish}
            onUnconfirmed={setUnconfirmed}
            onBusyChange={setBusy}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** What was sent with the first save: a crop is saved under the same name and default choice. */
interface Sent {
  name: string;
  isDefault: boolean;
}

type Step =
  | { kind: 'photo' }
  /** Saved, with more than one face: the parent keeps its largest face or crops the photo. */
  | { kind: 'group'; image: FaceImage; sent: Sent }
  | { kind: 'crop'; image: FaceImage; sent: Sent; photo: Size; square: Square };

/** The heading over a failure's message, by the step it happened in. */
const FAILURE_TITLE: Record<Step['kind'], string> = {
  photo: 'This photo was not saved',
  group: 'The photo could not be cropped',
  crop: 'This crop was not saved',
};

interface AddFaceImageStepsProps {
  person: Person;
  hasDefault: boolean;
  count: number;
  onCancel: () => void;
  onSaved: (image: FaceImage) => void;
  onUnconfirmed: (image: FaceImage | null) => void;
  onBusyChange: (busy: boolean) => void;
}

function AddFaceImageSteps({ person, hasDefault, count, onCancel, onSaved, onUnconfirmed, onBusyChange }: AddFaceImageStepsProps) {
  const [step, setStep] = useState<Step>({ kind: 'photo' });
  const [imageData, setImageData] = useState<string | null>(null);
  const [name, setName] = useState(`${person.name} - Photo ${count + 1}`);
  const [nameError, setNameError] = useState<string>();
  /** Why the last save failed, shown once, here. */
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // The dialog tells the outcome itself: the error inline, the success when it closes.
  const create = useCreateFaceImage({ notify: false });
  const remove = useDeleteFaceImage({ notify: false });
  const consent = useConsentGate();

  /** A saved photo: done when it shows one face, else the parent chooses. */
  function saved(image: FaceImage, sent: Sent) {
    if (image.facesInPhoto > 1) {
      onUnconfirmed(image);
      setStep({ kind: 'group', image, sent });
    } else {
      onSaved(image);
    }
  }

  async function save(work: () => Promise<void>) {
    setSaving(true);
    onBusyChange(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      // Refused for want of a consent (withdrawn meanwhile): the toast offers it, and the photo stays for another try.
      if (!consent.refused(failure, person)) setError((failure as Error).message);
    } finally {
      setSaving(false);
      onBusyChange(false);
    }
  }

  function savePhoto() {
    const parsed = mediaNameSchema.safeParse(name);
    setNameError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (!parsed.success || !imageData) return;
    const sent = { name: parsed.data, isDefault: !hasDefault };
    void save(async () => {
      const image = await create.mutateAsync({ userId: person.userId, personId: person.id, imageData, ...sent });
      saved(image, sent);
    });
  }

  async function startCrop(image: FaceImage, sent: Sent) {
    if (!imageData) return;
    setError(null);
    try {
      const photo = await loadImage(imageData);
      const size = { width: photo.naturalWidth, height: photo.naturalHeight };
      setStep({ kind: 'crop', image, sent, photo: size, square: squareAround(image.faceBox, size, CROP_START_SCALE) });
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  /** The crop is saved as a new face image; only then does the first photo go (a refused crop leaves it). */
  function saveCrop(crop: Extract<Step, { kind: 'crop' }>) {
    if (!imageData) return;
    void save(async () => {
      const cropped = await create.mutateAsync({
        userId: person.userId,
        personId: person.id,
        imageData: await cropToDataUrl(imageData, crop.square),
        ...crop.sent,
      });
      onUnconfirmed(null);
      await remove.mutateAsync(crop.image).catch((failure: Error) => notifyError(failure.message, 'The whole photo was kept too'));
      saved(cropped, crop.sent);
    });
  }

  const failure = error && (
    <Alert variant="destructive">
      <CircleAlert aria-hidden="true" />
      <AlertTitle>{FAILURE_TITLE[step.kind]}</AlertTitle>
      <AlertDescription>{error}</AlertDescription>
    </Alert>
  );

  if (step.kind === 'group') {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Add Face Image</DialogTitle>
          <DialogDescription>
            We found {step.image.facesInPhoto} faces in this photo. We&apos;ll use this one:
          </DialogDescription>
        </DialogHeader>
        <FaceCropPreview src={step.image.imageUrl} box={step.image.faceBox} alt={`The face we'll use for ${person.name}`} className="mx-auto w-40" />
        <p className="text-center text-sm text-muted-foreground">
          Not {person.name}? Crop the photo to their face.
        </p>
        {failure}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => void startCrop(step.image, step.sent)}>
            <Crop aria-hidden="true" /> Crop the photo
          </Button>
          <Button type="button" onClick={() => onSaved(step.image)}>
            <Check aria-hidden="true" /> Use this face
          </Button>
        </DialogFooter>
      </>
    );
  }

  if (step.kind === 'crop' && imageData) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Add Face Image</DialogTitle>
          <DialogDescription>Crop the photo to {person.name}&apos;s face, then save it.</DialogDescription>
        </DialogHeader>
        <FaceCropper src={imageData} image={step.photo} square={step.square} onChange={(square) => setStep({ ...step, square })} />
        {failure}
        <DialogFooter>
          <Button type="button" variant="outline" disabled={saving} onClick={() => setStep({ kind: 'group', image: step.image, sent: step.sent })}>
            Back
          </Button>
          <Button type="button" disabled={saving} onClick={() => saveCrop(step)}>
            <Save aria-hidden="true" /> {saving ? 'Saving…' : 'Save Crop'}
          </Button>
        </DialogFooter>
        {consent.dialog}
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Add Face Image</DialogTitle>
        <DialogDescription>
          Take a photo of {person.name} or upload one. A clear, well-lit, front-facing photo works best.
        </DialogDescription>
      </DialogHeader>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          savePhoto();
        }}
      >
        <FaceCapture
          value={imageData}
          onChange={(next) => {
            setImageData(next);
            setError(null);
          }}
        />
        {failure}
        <TextField label="Image Name" value={name} error={nameError} onChange={(event) => setName(event.target.value)} />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={!imageData || saving}>
            <Save aria-hidden="true" /> {saving ? 'Saving…' : 'Save Face Image'}
          </Button>
        </DialogFooter>
      </form>
      {consent.dialog}
    </>
  );
}
