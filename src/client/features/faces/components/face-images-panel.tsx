// A person's face images: add by camera or upload, add a face video (its faces are extracted in the
// background and appear here as they are stored), set the default, delete (asked first: it is biometric
// data). Adding asks for the person's consent first when none is recorded.
import { Camera, Film, ScanFace, Star, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { FACE_ANALYSIS_MESSAGES } from '@shared/face-analysis';
import type { FaceImage, Person } from '@shared/api-types';
import { deleteFaceImageQuestion } from '@shared/media-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { ConfirmDeleteDialog } from '@client/components/ui/confirm-dialog';
import { Skeleton } from '@client/components/ui/skeleton';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { useDeleteFaceImage } from '../api/use-delete-face-image';
import { useSetDefaultFaceImage } from '../api/use-set-default-face-image';
import { expressionTitle } from '../lib/face-expressions';
import { useFaceCollection } from '../lib/use-face-collection';
import { AddFaceImageDialog } from './add-face-image-dialog';
import { AddFaceVideoDialog } from './add-face-video-dialog';
import { FaceVideoStatusList } from './face-video-status-list';

/** Face videos listed before "Show all". */
const VIDEOS_SHOWN = 3;

/** What a photo was flagged for on arrival (kept either way), as the list marks it; the full message on hover. */
const PHOTO_WARNINGS = [
  { flag: 'turnedAway', label: 'Turned to one side' },
  { flag: 'blurred', label: 'Looks blurred' },
  { flag: 'smallFace', label: 'Face is small' },
  { flag: 'eyesClosed', label: 'Eyes closed' },
  { flag: 'looksAside', label: 'Looking aside' },
] as const;

export function FaceImagesPanel({ person }: { person: Person }) {
  const { faceImages, faceVideos, processing } = useFaceCollection(person.id, person.userId);
  const setDefault = useSetDefaultFaceImage();
  const remove = useDeleteFaceImage();
  const [dialog, setDialog] = useState<'image' | 'video' | null>(null);
  const [deleting, setDeleting] = useState<FaceImage | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const consent = useConsentGate();
  const images = faceImages.data ?? [];
  const videos = faceVideos.data ?? [];

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
          {person.name}&apos;s Face Images
        </h3>
        <div className="grid w-full grid-cols-1 gap-2 min-[420px]:flex min-[420px]:w-auto min-[420px]:flex-wrap">
          <Button variant="outline" asChild>
            <Link href={`/face-training/${person.id}`}>
              <ScanFace aria-hidden="true" /> Face Training
            </Link>
          </Button>
          <Button variant="outline" onClick={() => consent.ask(person, () => setDialog('video'))}>
            <Film aria-hidden="true" /> Add Face Video
          </Button>
          <Button onClick={() => consent.ask(person, () => setDialog('image'))}>
            <Camera aria-hidden="true" /> Add Face Image
          </Button>
        </div>
      </div>

      {videos.length > 0 && (
        <section aria-labelledby={`face-videos-${person.id}`} className="grid gap-2">
          <h4 id={`face-videos-${person.id}`} className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
            Face Videos
          </h4>
          {processing.length > 0 && (
            <p className="rounded-xl bg-sky/10 px-4 py-3 text-sm" role="status">
              {processing.length === 1 ? '1 face video is' : `${processing.length} face videos are`} being processed. New
              face images will appear here automatically.
            </p>
          )}
          <FaceVideoStatusList videos={videos} limit={VIDEOS_SHOWN} />
        </section>
      )}

      {faceImages.isLoading ? (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="aspect-square" />
          ))}
        </div>
      ) : faceImages.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Error</AlertTitle>
          <AlertDescription>{faceImages.error.message}</AlertDescription>
        </Alert>
      ) : images.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed bg-muted/40 p-8 text-center">
          <ScanFace className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-semibold">No face images yet</p>
          <p className="max-w-sm text-sm text-muted-foreground">
            Take a photo, upload one, or run Face Training to capture {person.name} from every angle.
          </p>
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Face images">
          {images.map((image) => (
            <li key={image.id} className="overflow-hidden rounded-xl border bg-card">
              <div className="relative aspect-square bg-muted">
                <img src={image.imageUrl} alt={image.name} loading="lazy" className="size-full object-cover" />
                {image.isDefault && <Badge className="absolute top-2 left-2">Default</Badge>}
                {image.sourceVideoId !== null && (
                  <Badge variant="secondary" className="absolute top-2 right-2" title="Extracted from a face video">
                    <Film aria-hidden="true" /> Video
                  </Badge>
                )}
              </div>
              <div className="flex items-center gap-1 p-2">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{image.name}</p>
                  <p className="text-xs text-muted-foreground">{expressionTitle(image.expressionType)}</p>
                  {PHOTO_WARNINGS.filter(({ flag }) => image[flag]).map(({ flag, label }) => (
                    <p key={flag} className="text-xs text-amber-700 dark:text-amber-300" title={FACE_ANALYSIS_MESSAGES[flag]}>
                      {label}
                    </p>
                  ))}
                </div>
                {!image.isDefault && (
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8"
                    aria-label={`Set ${image.name} as default`}
                    title="Set as default"
                    disabled={setDefault.isPending}
                    onClick={() => setDefault.mutate(image)}
                  >
                    <Star aria-hidden="true" />
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8 text-destructive hover:text-destructive"
                  aria-label={`Delete ${image.name}`}
                  title="Delete"
                  disabled={remove.isPending}
                  onClick={() => setDeleting(image)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      <AddFaceImageDialog
        person={person}
        hasDefault={images.some((image) => image.isDefault)}
        count={images.length}
        open={dialog === 'image'}
        onOpenChange={(open) => setDialog(open ? 'image' : null)}
      />
      <AddFaceVideoDialog person={person} open={dialog === 'video'} onOpenChange={(open) => setDialog(open ? 'video' : null)} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        title="Delete Face Photo"
        question={deleteFaceImageQuestion(deleting?.name ?? '')}
        confirmLabel="Delete Photo"
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
        focusAfterDelete={headingRef}
      />
      {consent.dialog}
    </div>
  );
}
