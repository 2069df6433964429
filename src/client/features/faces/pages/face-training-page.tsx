// Face training for one person (spec 01 §2): what training does, counters, the guide, and the collection.
import { ArrowLeft, Camera, Home, ScanFace, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '@shared/media-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { usePerson } from '@client/features/people/api/use-person';
import { usePersonFaceImages } from '../api/use-person-face-images';
import { FaceTrainingGuide } from '../components/face-training-guide';

const BENEFITS = [
  'Captures your face from multiple angles',
  'Learns your different expressions',
  'Adapts to different lighting conditions',
  'Gives better quality in the final videos',
];

/** The router only lets a numeric personId through. */
export default function FaceTrainingPage({ personId }: { personId: number }) {
  const [, navigate] = useLocation();
  const person = usePerson(personId);
  const faceImages = usePersonFaceImages(personId);
  const [training, setTraining] = useState(false);
  useDocumentTitle(person.data ? `Face Training for ${person.data.name}` : 'Face Training');

  const error = person.error ?? faceImages.error;
  if (error) {
    return (
      <div className="container-page py-10">
        <Alert variant="destructive" className="max-w-xl">
          <AlertTitle>Error</AlertTitle>
          <AlertDescription>
            <p>{error.message || MEDIA_MESSAGES.loadPersonFailed}</p>
            <Button variant="outline" asChild className="mt-3 w-fit text-foreground">
              <Link href="/">
                <Home aria-hidden="true" /> Back to Home
              </Link>
            </Button>
          </AlertDescription>
        </Alert>
      </div>
    );
  }

  if (person.isLoading || faceImages.isLoading || !person.data) {
    return (
      <div className="container-page grid gap-6 py-10" aria-busy="true">
        <Skeleton className="h-9 w-80" />
        <div className="grid gap-6 md:grid-cols-2">
          <Skeleton className="h-80" />
          <Skeleton className="h-80" />
        </div>
      </div>
    );
  }

  const images = faceImages.data ?? [];
  const expressions = new Set(images.map((image) => image.expressionType ?? 'unknown'));
  const preview = images.slice(0, MEDIA_LIMITS.faceCollectionPreview);

  return (
    <div className="container-page py-8 md:py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Face Training for {person.data.name}</h1>
          <p className="mt-1 max-w-2xl text-muted-foreground">
            Train the AI to recognise {person.data.name}&apos;s face, so every video looks just like them.
          </p>
        </div>
        <Button variant="outline" asChild>
          <Link href="/people">
            <ArrowLeft aria-hidden="true" /> Back to Profile
          </Link>
        </Button>
      </div>

      <div className="mt-8 grid items-start gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ScanFace className="size-5 text-primary" aria-hidden="true" /> Why face training?
            </CardTitle>
            <CardDescription>Five short guided clips give the AI everything it needs.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <ul className="grid gap-2">
              {BENEFITS.map((benefit) => (
                <li key={benefit} className="flex items-start gap-2 text-sm">
                  <Sparkles className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" /> {benefit}
                </li>
              ))}
            </ul>
            <dl className="grid grid-cols-2 gap-3">
              <div className="rounded-xl bg-secondary/70 p-4">
                <dt className="text-sm text-muted-foreground">Total Face Images</dt>
                <dd className="text-3xl font-bold tabular-nums">{images.length}</dd>
              </div>
              <div className="rounded-xl bg-secondary/70 p-4">
                <dt className="text-sm text-muted-foreground">Unique Expressions</dt>
                <dd className="text-3xl font-bold tabular-nums">{expressions.size}</dd>
              </div>
            </dl>
            <Button size="lg" onClick={() => setTraining(true)}>
              <Camera aria-hidden="true" /> Start Face Training
            </Button>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Face Collection</CardTitle>
            <CardDescription>
              {images.length > preview.length ? `The first ${preview.length} of ${images.length} face images.` : 'The face images the AI learns from.'}
            </CardDescription>
          </CardHeader>
          <CardContent>
            {preview.length === 0 ? (
              <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed bg-muted/40 p-8 text-center">
                <ScanFace className="size-10 text-muted-foreground" aria-hidden="true" />
                <p className="font-semibold">No face images available yet.</p>
                <p className="text-sm text-muted-foreground">Start face training to add some!</p>
                <Button variant="outline" asChild className="mt-2">
                  <Link href="/people">Back to People Management</Link>
                </Button>
              </div>
            ) : (
              <ul className="grid grid-cols-2 gap-3">
                {preview.map((image) => (
                  <li key={image.id} className="group relative aspect-square overflow-hidden rounded-xl bg-muted" tabIndex={0}>
                    <img src={image.imageUrl} alt={image.name} className="size-full object-cover" />
                    {image.isDefault && <Badge className="absolute top-2 left-2">Default</Badge>}
                    <div className="absolute inset-x-0 bottom-0 translate-y-full bg-linear-to-t from-black/80 to-transparent p-3 text-white transition-transform group-hover:translate-y-0 group-focus:translate-y-0">
                      <p className="truncate text-sm font-semibold">{image.name}</p>
                      <p className="text-xs capitalize opacity-90">{image.expressionType || 'unknown'}</p>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      {training && (
        <FaceTrainingGuide
          open
          person={person.data}
          onCancel={() => setTraining(false)}
          onComplete={() => navigate('/people')}
        />
      )}
    </div>
  );
}
