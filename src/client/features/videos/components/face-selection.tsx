// Face Selection on the Create page: one of the person's face images (their default first), or a new
// one from the camera or a file (the same dialog as on the People page). The chosen photo's warnings
// (turned, blurred, eyes closed) are said under it, in the finished video's note's words, while another
// photo can still be chosen.
import { Camera, Star } from 'lucide-react';
import { useState } from 'react';
import type { FaceImage, Person } from '@shared/api-types';
import { moreExpressionsHint } from '@shared/face-analysis';
import { chosenImageNotices } from '@shared/video-rules';
import { Button } from '@client/components/ui/button';
import { FieldError } from '@client/components/ui/form-field';
import { Skeleton } from '@client/components/ui/skeleton';
import { cn } from '@client/lib/utils';
import { AddFaceImageDialog } from '@client/features/faces/components/add-face-image-dialog';
import { FaceCropPreview } from '@client/features/faces/components/face-crop-preview';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';

interface FaceSelectionProps {
  person: Person;
  faces: FaceImage[] | undefined;
  selectedId: number | null;
  onSelect: (id: number) => void;
  error?: string;
}

export function FaceSelection({ person, faces, selectedId, onSelect, error }: FaceSelectionProps) {
  const [adding, setAdding] = useState(false);
  const consent = useConsentGate();
  const chosen = faces?.find((face) => face.id === selectedId);
  // Shut eyes, and eyes that look aside, are said whatever the other photos: a photo with open eyes at the
  // camera is still the better choice, and only the server knows which others show the same face and can lend theirs.
  const warnings = chosen ? chosenImageNotices(chosen) : [];
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? 'face-selection-error' : undefined}>
      <div className="flex items-center justify-between gap-2">
        <legend className="text-sm font-medium">Face Selection</legend>
        <Button type="button" size="sm" variant="outline" onClick={() => consent.ask(person, () => setAdding(true))}>
          <Camera aria-hidden="true" /> Add a photo
        </Button>
      </div>
      {faces === undefined ? (
        <div className="grid grid-cols-4 gap-2">
          {[0, 1, 2, 3].map((n) => (
            <Skeleton key={n} className="aspect-square rounded-xl" />
          ))}
        </div>
      ) : faces.length === 0 ? (
        <p className="rounded-xl bg-muted px-4 py-3 text-sm text-muted-foreground">
          {person.name} has no face images yet. Take or upload a clear, front-facing photo.
        </p>
      ) : (
        <div role="radiogroup" aria-label={`${person.name}'s face images`} className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {faces.map((face) => {
            const selected = face.id === selectedId;
            return (
              <button
                key={face.id}
                type="button"
                role="radio"
                aria-checked={selected}
                aria-label={face.name}
                onClick={() => onSelect(face.id)}
                className={cn(
                  'relative aspect-square overflow-hidden rounded-xl border-2 outline-none transition focus-visible:ring-[3px] focus-visible:ring-ring/40',
                  selected ? 'border-primary shadow-md' : 'border-transparent opacity-80 hover:opacity-100',
                )}
              >
                {/* The face the render uses, not the whole photo: in a group photo it is one face among several. */}
                <FaceCropPreview src={face.imageUrl} box={face.faceBox} alt="" className="size-full rounded-none border-0" />
                {face.isDefault && (
                  <Star aria-hidden="true" className="absolute top-1 right-1 size-4 fill-sunshine text-sunshine drop-shadow" />
                )}
              </button>
            );
          })}
        </div>
      )}
      {warnings.length > 0 && (
        <div role="note" aria-label="About the chosen photo" className="grid gap-1 text-sm text-amber-700 dark:text-amber-300">
          {warnings.map((warning) => (
            <p key={warning}>{warning}</p>
          ))}
        </div>
      )}
      {faces !== undefined && faces.length > 0 && <p className="text-sm text-muted-foreground">{moreExpressionsHint(person.name)}</p>}
      <FieldError id="face-selection-error" message={error} />
      <AddFaceImageDialog
        person={person}
        hasDefault={Boolean(faces?.some((face) => face.isDefault))}
        count={faces?.length ?? 0}
        open={adding}
        onOpenChange={setAdding}
        onSaved={(image) => onSelect(image.id)}
      />
      {consent.dialog}
    </fieldset>
  );
}
