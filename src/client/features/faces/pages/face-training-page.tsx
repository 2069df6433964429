// Face training for one person (spec 01 §2): what training does, counters, the guide, and the collection.
// The counters and labels are the expressions the classifier saw in each face image (photos and faces
// extracted from clips), not what the guide asked for; the collection follows clips still being processed.
import { ArrowLeft, Camera, Clock, Home, ScanFace, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { FaceImage } from '@shared/api-types';
import { moreExpressionsHint } from '@shared/face-analysis';
import { FACE_EXPRESSIONS, MEDIA_LIMITS, MEDIA_MESSAGES } from '@shared/media-rules';
import { rawClipRetentionText } from '@shared/privacy';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { cn } from '@client/lib/utils';
import { usePerson } from '@client/features/people/api/use-person';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { usePrivacySettings } from '@client/features/users/api/use-privacy-settings';
import { FaceTrainingGuide } from '../components/face-training-guide';
import { FaceVideoStatusList } from '../components/face-video-status-list';
import { expressionTitle } from '../lib/face-expressions';
import { useFaceCollection } from '../lib/use-face-collection';

/** Face images per expression type: the five trained ones first (also when none), then any other label. */
function countByExpression(images: FaceImage[]): [string, number][] {
  const counts = new Map<string, number>(FACE_EXPRESSIONS.map((type) => [type, 0]));
  for (const image of images) {
    const type = image.expressionType || 'unknown';
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return [...counts];
}

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
  const { faceImages, faceVideos, processing } = useFaceCollection(personId, person.data?.userId);
  const [training, setTraining] = useState(false);
  const consent = useConsentGate();
  const privacy = usePrivacySettings();
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
  const perExpression = countByExpression(images);
  const uniqueExpressions = perExpression.filter(([, count]) => count > 0).length;
  const videos = faceVideos.data ?? [];
  const preview = images.slice(0, MEDIA_LIMITS.faceCollectionPreview);

  return (
    <div className="container-page py-8 md:py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Face Training for {person.data.name}</h1>
          <p className="mt-1 max-w-2xl text-muted-foreground">
            Train the AI to recognise {person.data.name}&apos;s face, so every video looks just like them.
          </p>
          <p className="mt-1 max-w-2xl text-sm text-muted-foreground">{moreExpressionsHint(person.data.name)}</p>
        </div>
        <Button variant="outline" asChild>
          <Link href={`/people?person=${person.data.id}`}>
            <ArrowLeft aria-hidden="true" /> Back to Profile
          </Link>
        </Button>
      </div>

      {/* One bounded column on a phone: an auto column took the width of the widest unbreakable line (the
          empty collection's button) and the cards were 16 px wider than the screen. */}
      <div className="mt-8 grid grid-cols-1 items-start gap-6 md:grid-cols-2">
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
                <dd className="text-3xl font-bold tabular-nums">{uniqueExpressions}</dd>
              </div>
            </dl>
            <ul className="grid gap-1.5" aria-label="Face images per expression">
              {perExpression.map(([type, count]) => (
                <li
                  key={type}
                  className={cn('flex items-center justify-between rounded-lg bg-muted/60 px-3 py-1.5 text-sm', count === 0 && 'text-muted-foreground')}
                >
                  <span>{expressionTitle(type)}</span>
                  <span className="font-semibold tabular-nums">{count}</span>
                </li>
              ))}
            </ul>
            <div className="grid gap-2">
              <Button size="lg" onClick={() => person.data && consent.ask(person.data, () => setTraining(true))}>
                <Camera aria-hidden="true" /> Start Face Training
              </Button>
              {privacy.data && (
                <p className="flex items-center justify-center gap-1.5 text-center text-xs text-muted-foreground">
                  <Clock className="size-3.5 shrink-0" aria-hidden="true" />
                  {rawClipRetentionText(privacy.data.rawClipRetentionDays)}; the faces taken from them are kept.
                </p>
              )}
            </div>
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
              <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed bg-muted/40 p-6 text-center sm:p-8">
                <ScanFace className="size-10 text-muted-foreground" aria-hidden="true" />
                <p className="font-semibold">No face images available yet.</p>
                <p className="text-sm text-muted-foreground">Start face training to add some!</p>
                <Button variant="outline" asChild className="mt-2 h-auto min-h-10 whitespace-normal">
                  <Link href={`/people?person=${person.data.id}`}>Back to People Management</Link>
                </Button>
              </div>
            ) : (
              <ul className="grid grid-cols-2 gap-3">
                {preview.map((image) => (
                  <li key={image.id} className="group relative aspect-square overflow-hidden rounded-xl bg-muted" tabIndex={0}>
                    <img src={image.imageUrl} alt={image.name} className="size-full object-cover" />
                    {image.isDefault && <Badge className="absolute top-2 left-2">Default</Badge>}
                    <div className="absolute inset-x-0 bottom-0 bg-linear-to-t from-black/80 to-transparent p-3 pt-8 text-white">
                      {/* The name on hover or focus (spec); the expression always, as touch screens cannot hover. */}
                      <p className="hidden truncate text-sm font-semibold group-hover:block group-focus:block">{image.name}</p>
                      <p className="text-xs font-medium opacity-90">{expressionTitle(image.expressionType)}</p>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            {videos.length > 0 && (
              <section aria-labelledby="face-training-videos" className="mt-6 grid gap-2">
                <h3 id="face-training-videos" className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
                  Face Videos
                </h3>
                {processing.length > 0 && (
                  <p className="text-sm text-muted-foreground" role="status">
                    Extracting faces from {processing.length === 1 ? '1 clip' : `${processing.length} clips`}: new face images
                    appear here as they are found.
                  </p>
                )}
                <FaceVideoStatusList videos={videos} limit={FACE_EXPRESSIONS.length} />
              </section>
            )}
          </CardContent>
        </Card>
      </div>

      {consent.dialog}
      {training && (
        <FaceTrainingGuide
          open
          person={person.data}
          onCancel={() => setTraining(false)}
          onComplete={() => navigate(`/people?person=${person.data.id}`)}
        />
      )}
    </div>
  );
}
