// The face training guide (spec 01 §2): intro → camera-setup → recording (10 s) → processing (review)
// for each of the five expressions in turn, then completed. Each approved clip is uploaded as a face video.
import { useQueryClient } from '@tanstack/react-query';
import { Camera, Check, CheckCircle2, Circle, RotateCcw, ThumbsUp, Video } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Person } from '@shared/api-types';
import { FACE_EXPRESSIONS, MEDIA_LIMITS, MEDIA_MESSAGES } from '@shared/media-rules';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Progress } from '@client/components/ui/progress';
import { Spinner } from '@client/components/ui/spinner';
import { extensionFor, recorderMimeType } from '@client/lib/media';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { cn } from '@client/lib/utils';
import { peopleQueryKey } from '@client/features/people/api/use-people';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { createFaceVideo } from '../api/create-face-video';
import { personFaceImagesQueryKey } from '../api/use-person-face-images';
import { userFaceImagesQueryKey } from '../api/use-user-face-images';
import { personFaceVideosQueryKey, usePersonFaceVideos } from '../api/use-person-face-videos';
import { uploadVideo } from '../api/upload-video';
import { EXPRESSION_GUIDE } from '../lib/face-expressions';
import { useCamera } from '../lib/use-camera';
import { FaceVideoStatusList } from './face-video-status-list';

export type FaceTrainingPhase = 'intro' | 'camera-setup' | 'recording' | 'processing' | 'completed';

const CLIP_MS = MEDIA_LIMITS.faceClipSeconds * 1000;

interface FaceTrainingGuideProps {
  person: Person;
  open: boolean;
  onComplete: () => void;
  onCancel: () => void;
}

export function FaceTrainingGuide({ person, open, onComplete, onCancel }: FaceTrainingGuideProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(next) => !next && !busy && onCancel()}>
      <DialogContent className="max-w-4xl gap-5 sm:p-8">
        <DialogHeader>
          <DialogTitle className="text-xl">Face Training for {person.name}</DialogTitle>
          <DialogDescription>
            Five short clips, {MEDIA_LIMITS.faceClipSeconds} seconds each, teach the AI how {person.name} looks from every
            side.
          </DialogDescription>
        </DialogHeader>
        {open && <FaceTrainingSession person={person} onComplete={onComplete} onBusyChange={setBusy} />}
      </DialogContent>
    </Dialog>
  );
}

interface Clip {
  blob: Blob;
  url: string;
}

function FaceTrainingSession({
  person,
  onComplete,
  onBusyChange,
}: {
  person: Person;
  onComplete: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<FaceTrainingPhase>('intro');
  const [index, setIndex] = useState(0);
  const [elapsedMs, setElapsedMs] = useState(0);
  const [clip, setClip] = useState<Clip | null>(null);
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);
  /** The face videos this session uploaded, followed on the completed screen while their faces are extracted. */
  const [uploadedIds, setUploadedIds] = useState<number[]>([]);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const tickRef = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const camera = useCamera();
  const consent = useConsentGate();

  const expression = FACE_EXPRESSIONS[index]!;
  const guide = EXPRESSION_GUIDE[expression];
  const uploading = uploadProgress !== null;

  useEffect(() => onBusyChange(phase === 'recording' || uploading), [phase, uploading, onBusyChange]);

  // Each step starts at the guide's top: on a phone the parent scrolled down to 'Set Up Camera', and the
  // next step opened there, with the guide's title and close button out of sight. The button pressed is
  // gone, so the focus goes to the step's first button (or its heading) rather than the dialog's frame.
  const stepRef = useRef<HTMLDivElement>(null);
  const shownStep = useRef(`${phase}:${index}`);
  useLayoutEffect(() => {
    const step = stepRef.current;
    if (!step || shownStep.current === `${phase}:${index}`) return;
    shownStep.current = `${phase}:${index}`;
    const dialog = step.closest<HTMLElement>('[role="dialog"]');
    dialog?.scrollTo({ top: 0 });
    const active = document.activeElement;
    if (active && active !== document.body && active !== dialog) return;
    const next = step.querySelector<HTMLElement>('[data-step-actions] button:enabled') ?? step.querySelector<HTMLElement>('[data-step-heading]');
    next?.focus({ preventScroll: true });
  }, [phase, index]);

  // Closing mid-clip stops the recorder and its timer; the camera hook releases the camera itself.
  useEffect(
    () => () => {
      clearInterval(tickRef.current);
      const recorder = recorderRef.current;
      if (recorder) {
        recorder.onstop = null;
        if (recorder.state !== 'inactive') recorder.stop();
      }
    },
    [],
  );

  useEffect(() => () => {
    if (clip) URL.revokeObjectURL(clip.url);
  }, [clip]);

  function beginSetup() {
    setPhase('camera-setup');
    void camera.start();
  }

  function startRecording() {
    const stream = camera.stream;
    if (!stream) return notifyError(MEDIA_MESSAGES.faceTrainingNotInitialized);
    const mimeType = recorderMimeType('video');
    let recorder: MediaRecorder;
    try {
      recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    } catch {
      return notifyError(MEDIA_MESSAGES.faceTrainingStartFailed);
    }
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      clearInterval(tickRef.current);
      recorderRef.current = null;
      const blob = new Blob(chunks, { type: (recorder.mimeType || mimeType || 'video/webm').split(';')[0] });
      if (blob.size === 0) {
        notifyError(MEDIA_MESSAGES.faceTrainingNoVideo);
        setPhase('camera-setup');
        return;
      }
      setClip({ blob, url: URL.createObjectURL(blob) });
      setPhase('processing');
    };
    try {
      recorder.start(MEDIA_LIMITS.faceTrainingTickMs);
    } catch {
      return notifyError(MEDIA_MESSAGES.faceTrainingStartFailed);
    }
    recorderRef.current = recorder;
    const startedAt = performance.now();
    setElapsedMs(0);
    setPhase('recording');
    tickRef.current = setInterval(() => {
      const elapsed = Math.min(CLIP_MS, performance.now() - startedAt);
      setElapsedMs(elapsed);
      if (elapsed >= CLIP_MS && recorder.state !== 'inactive') recorder.stop();
    }, MEDIA_LIMITS.faceTrainingTickMs);
  }

  function recordAgain() {
    setClip(null);
    setElapsedMs(0);
    setPhase('camera-setup');
  }

  async function looksGood() {
    if (!clip) return notifyError(MEDIA_MESSAGES.faceTrainingNoVideo);
    let file: File;
    try {
      file = new File([clip.blob], `${expression}.${extensionFor(clip.blob.type)}`, { type: clip.blob.type || 'video/webm' });
    } catch {
      return notifyError(MEDIA_MESSAGES.faceTrainingPrepareFailed);
    }
    setUploadProgress(0);
    try {
      let videoUrl: string;
      try {
        ({ videoUrl } = await uploadVideo({ file, personId: person.id, userId: person.userId }, setUploadProgress));
      } catch (error) {
        // Refused for want of a consent: the toast offers it, and the clip stays for 'Looks Good' again.
        if (consent.refused(error, person)) return;
        return notifyError(MEDIA_MESSAGES.faceTrainingUploadFailed);
      }
      try {
        const video = await createFaceVideo({
          userId: person.userId,
          personId: person.id,
          name: `${person.name} - ${guide.title}`,
          videoUrl,
          expressionType: expression,
        });
        setUploadedIds((ids) => [...ids, video.id]);
      } catch (error) {
        if (consent.refused(error, person)) return;
        return notifyError(MEDIA_MESSAGES.faceTrainingProcessFailed);
      }
    } finally {
      setUploadProgress(null);
    }

    notifySuccess('Expression Recorded', `${guide.title} saved (${index + 1} of ${FACE_EXPRESSIONS.length}).`);
    setClip(null);
    setElapsedMs(0);
    void queryClient.invalidateQueries({ queryKey: personFaceVideosQueryKey(person.id) });
    if (index < FACE_EXPRESSIONS.length - 1) {
      setIndex(index + 1);
      setPhase('camera-setup');
      return;
    }
    camera.stop();
    setPhase('completed');
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: peopleQueryKey(person.userId) }),
      queryClient.invalidateQueries({ queryKey: personFaceImagesQueryKey(person.id) }),
      queryClient.invalidateQueries({ queryKey: userFaceImagesQueryKey(person.userId) }),
    ]);
  }

  if (phase === 'intro') {
    return (
      <div ref={stepRef} className="grid gap-5">
        <p className="text-muted-foreground">
          Find a bright spot, face the light and keep your whole face in the frame. For each expression you&apos;ll see
          what to do, then the camera records for {MEDIA_LIMITS.faceClipSeconds} seconds. It takes about 5 minutes.
        </p>
        <ExpressionList current={-1} detailed />
        <div className="flex justify-end">
          <Button size="lg" onClick={beginSetup}>
            <Camera aria-hidden="true" /> Set Up Camera
          </Button>
        </div>
      </div>
    );
  }

  if (phase === 'completed') {
    return (
      <div ref={stepRef} className="grid justify-items-center gap-4 py-6 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-secondary text-primary">
          <CheckCircle2 className="size-9" aria-hidden="true" />
        </span>
        <h3 data-step-heading tabIndex={-1} className="text-xl font-semibold outline-none">
          Face training complete!
        </h3>
        <p className="max-w-md text-muted-foreground">
          All five expressions are uploaded. We&apos;re extracting {person.name}&apos;s best face images from them now;
          they will appear in the face collection shortly.
        </p>
        <SessionClips personId={person.id} ids={uploadedIds} />
        <Button size="lg" onClick={onComplete}>
          <Check aria-hidden="true" /> Finish
        </Button>
      </div>
    );
  }

  const reviewing = phase === 'processing';
  const remaining = Math.ceil((CLIP_MS - elapsedMs) / 1000);

  return (
    <div ref={stepRef} className="grid gap-5 md:grid-cols-[1fr_16rem]">
      <div className="grid content-start gap-4">
        <div className="relative aspect-video overflow-hidden rounded-2xl bg-foreground/90">
          <video
            ref={camera.videoRef}
            muted
            playsInline
            aria-label="Camera preview"
            className={cn('size-full -scale-x-100 object-cover', reviewing && 'hidden')}
          />
          {reviewing && clip && (
            <video src={clip.url} controls playsInline aria-label="Recorded clip" className="size-full bg-black object-contain" />
          )}
          {camera.state === 'starting' && (
            <div className="absolute inset-0 flex items-center justify-center">
              <Spinner className="size-8 text-primary-foreground" label="Starting camera" />
            </div>
          )}
          {camera.state === 'error' && (
            <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-4 text-center text-sm text-primary-foreground">
              <p role="alert">{MEDIA_MESSAGES.faceTrainingCamera}</p>
              <Button type="button" variant="secondary" size="sm" onClick={() => void camera.start()}>
                Try Again
              </Button>
            </div>
          )}
          {phase === 'recording' && (
            <span className="absolute top-3 left-3 inline-flex items-center gap-1.5 rounded-full bg-destructive px-3 py-1 text-xs font-bold text-destructive-foreground">
              <Circle className="size-2.5 animate-pulse fill-current" aria-hidden="true" /> REC {remaining}s
            </span>
          )}
          {phase === 'camera-setup' && camera.state === 'on' && (
            <div aria-hidden="true" className="pointer-events-none absolute inset-[10%_32%] rounded-[50%] border-2 border-dashed border-white/70" />
          )}
        </div>

        {phase === 'recording' && (
          <div className="grid gap-2">
            <div className="flex justify-between text-sm">
              <span className="font-medium">Recording {guide.title.toLowerCase()}…</span>
              <span className="tabular-nums">{Math.floor(elapsedMs / 1000)}s / {MEDIA_LIMITS.faceClipSeconds}s</span>
            </div>
            <Progress value={(elapsedMs / CLIP_MS) * 100} aria-label="Recording progress" />
          </div>
        )}
        {uploading && (
          <div className="grid gap-2">
            <div className="flex justify-between text-sm">
              <span className="font-medium">Uploading…</span>
              <span className="tabular-nums">{uploadProgress}%</span>
            </div>
            <Progress value={uploadProgress} aria-label="Upload progress" />
          </div>
        )}

        <div data-step-actions className="flex flex-wrap gap-3">
          {phase === 'camera-setup' && (
            <Button size="lg" onClick={startRecording} disabled={camera.state !== 'on'}>
              <Video aria-hidden="true" /> Start Recording
            </Button>
          )}
          {phase === 'recording' && (
            <Button size="lg" disabled>
              <Spinner className="size-4 text-primary-foreground" label="Recording" /> Recording…
            </Button>
          )}
          {reviewing && (
            <>
              <Button size="lg" onClick={() => void looksGood()} disabled={uploading}>
                <ThumbsUp aria-hidden="true" /> Looks Good
              </Button>
              <Button size="lg" variant="outline" onClick={recordAgain} disabled={uploading}>
                <RotateCcw aria-hidden="true" /> Record Again
              </Button>
            </>
          )}
        </div>
      </div>

      <aside className="grid content-start gap-4">
        <div className="rounded-2xl border border-[#f1d58a] bg-sunshine/15 p-4">
          <Badge variant="secondary">
            Expression {index + 1} of {FACE_EXPRESSIONS.length}
          </Badge>
          <h3 data-step-heading tabIndex={-1} className="mt-2 text-lg font-semibold outline-none">
            {guide.title}
          </h3>
          <p className="mt-1 text-sm">{reviewing ? 'Watch your clip. Is your face clear and well lit the whole time?' : guide.instructions}</p>
        </div>
        <ExpressionList current={index} />
      </aside>
      {consent.dialog}
    </div>
  );
}

/** Where face extraction stands for the clips of this session (the list polls while one is processing). */
function SessionClips({ personId, ids }: { personId: number; ids: number[] }) {
  const faceVideos = usePersonFaceVideos(personId);
  const videos = (faceVideos.data ?? []).filter((video) => ids.includes(video.id));
  if (videos.length === 0) return null;
  return <FaceVideoStatusList videos={videos} className="w-full max-w-md text-left" />;
}

function ExpressionList({ current, detailed = false }: { current: number; detailed?: boolean }) {
  return (
    <ol className={cn('grid gap-2', detailed && 'sm:grid-cols-2')} aria-label="Expressions">
      {FACE_EXPRESSIONS.map((type, i) => {
        const done = current > i;
        return (
          <li
            key={type}
            aria-current={i === current ? 'step' : undefined}
            className={cn(
              'flex gap-3 rounded-xl border px-3 py-2 text-sm',
              detailed ? 'items-start py-3' : 'items-center',
              i === current ? 'border-primary bg-secondary/60 font-semibold' : 'bg-card',
            )}
          >
            <span
              className={cn(
                'flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
                done ? 'bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground',
              )}
            >
              {done ? <Check className="size-3.5" aria-label="done" /> : i + 1}
            </span>
            {detailed ? (
              <span className="grid gap-0.5">
                <span className="font-semibold">{EXPRESSION_GUIDE[type].title}</span>
                <span className="text-muted-foreground">{EXPRESSION_GUIDE[type].instructions}</span>
              </span>
            ) : (
              EXPRESSION_GUIDE[type].title
            )}
          </li>
        );
      })}
    </ol>
  );
}
