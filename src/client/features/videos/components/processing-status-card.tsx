// The status card (spec 02 §2, §4 with the decisions page): the sketch's titles and messages, fed by the
// render's real progress per stage (Server-Sent Events, polling as the fallback), how long is left from
// the server's measured estimate, and, when it failed, the way back: the same choices again, another
// recording or photo, or the form with every choice as it was.
import { Film, FolderOpen, Pencil, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { ProcessedVideo } from '@shared/api-types';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { notifyError } from '@client/lib/notify';
import { useProcessedVideo } from '../api/use-processed-video';
import { isInProgress } from '../api/use-processed-videos';
import { useProcessingEstimate } from '../api/use-processing-estimate';
import { ProcessedVideoProgress } from './processed-video-progress';
import { RetryActions } from './retry-actions';

interface ProcessingStatusCardProps {
  videoId: number;
  /** Back to the form with this video's choices (title, person, face, voice), to change one. */
  onChangeChoices: () => void;
  /** Back to an empty form. */
  onStartOver: () => void;
}

export function ProcessingStatusCard({ videoId, onChangeChoices, onStartOver }: ProcessingStatusCardProps) {
  const query = useProcessedVideo(videoId, { live: true });
  const video = query.data;
  const wasRunning = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const secondsLeft = useSecondsLeft(video);

  // The toast belongs to the moment it fails, not to a later visit of a failed video.
  useEffect(() => {
    if (!video) return;
    if (isInProgress(video)) wasRunning.current = true;
    else if (video.status === 'failed' && wasRunning.current) {
      wasRunning.current = false;
      notifyError(video.error || 'An unknown error occurred', 'Processing failed');
    }
  }, [video]);

  // Focus follows the parent from the form (or a retry) to the card that now holds their video.
  const loaded = Boolean(video);
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded, videoId]);

  if (query.isPending) return <Skeleton className="h-64 rounded-2xl" />;
  if (!video) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Video not found</CardTitle>
          <CardDescription>It may have been deleted.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button onClick={onStartOver}>
            <RotateCcw aria-hidden="true" /> Create another video
          </Button>
        </CardContent>
      </Card>
    );
  }

  const running = isInProgress(video);
  return (
    <Card aria-live="polite" data-testid="processing-status">
      <CardContent className="grid gap-5 p-5">
        <h2 ref={heading} tabIndex={-1} className="sr-only">
          {video.title}
        </h2>
        <ProcessedVideoProgress video={video} secondsLeft={secondsLeft} />
        {video.status === 'completed' && (
          <div className="grid gap-3 rounded-xl bg-emerald-50 p-4 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
            <p className="font-medium">Your video has been successfully processed!</p>
            <div className="flex flex-wrap gap-2">
              <Button asChild>
                <Link href={`/player/${video.id}`}>
                  <Film aria-hidden="true" /> Watch Video
                </Link>
              </Button>
              <Button asChild variant="outline">
                <Link href="/saved">
                  <FolderOpen aria-hidden="true" /> View Saved Videos
                </Link>
              </Button>
            </div>
          </div>
        )}
        {video.status === 'failed' && (
          <div className="grid gap-2 sm:max-w-xs">
            <RetryActions video={video} onRetried={() => heading.current?.focus()} />
            <Button size="sm" variant="ghost" onClick={onChangeChoices}>
              <Pencil aria-hidden="true" /> Change choices
            </Button>
          </div>
        )}
        {running && (
          <p className="text-sm text-muted-foreground">
            You can leave this page: the video keeps being made and appears in <Link href="/saved" className="underline">My Saved Videos</Link>.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Seconds left of a render in progress: the server's estimate for this template and these stages less the
 * time since it started, counted down each second; undefined before it starts or without an estimate.
 */
function useSecondsLeft(video: ProcessedVideo | undefined): number | undefined {
  const processing = video?.status === 'processing';
  const estimate = useProcessingEstimate(
    processing && video.templateId !== null ? video.templateId : undefined,
    video?.faceImageId != null,
    video?.voiceRecordingId != null,
  );
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [processing]);
  if (!processing || !video.startedAt || !estimate.data) return undefined;
  return Math.round(estimate.data.seconds - (now - Date.parse(video.startedAt)) / 1000);
}
