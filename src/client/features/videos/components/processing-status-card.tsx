// The status card (spec 02 §2, §4 with the decisions page): the sketch's titles and messages, fed by the
// render's real progress per stage (Server-Sent Events, polling as the fallback).
import { CircleAlert, CircleCheck, Film, FolderOpen, Loader2, RotateCcw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import type { ProcessedVideo } from '@shared/api-types';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Progress } from '@client/components/ui/progress';
import { Skeleton } from '@client/components/ui/skeleton';
import { notifyError } from '@client/lib/notify';
import { useProcessedVideo } from '../api/use-processed-video';
import { isInProgress } from '../api/use-processed-videos';

const TITLES: Record<ProcessedVideo['status'], string> = {
  pending: 'Processing Video',
  processing: 'Processing Video',
  completed: 'Success!',
  failed: 'Error',
};

export function statusMessage(video: Pick<ProcessedVideo, 'status' | 'error'>): string {
  switch (video.status) {
    case 'pending':
      return 'Preparing to process...';
    case 'processing':
      return 'Processing your video - this may take a few minutes';
    case 'completed':
      return 'Processing complete!';
    case 'failed':
      return `Processing failed: ${video.error || 'Unknown error'}`;
  }
}

export function ProcessingStatusCard({ videoId, onStartOver }: { videoId: number; onStartOver: () => void }) {
  const query = useProcessedVideo(videoId, { live: true });
  const video = query.data;
  const wasRunning = useRef(false);

  // The toast belongs to the moment it fails, not to a later visit of a failed video.
  useEffect(() => {
    if (!video) return;
    if (isInProgress(video)) wasRunning.current = true;
    else if (video.status === 'failed' && wasRunning.current) {
      wasRunning.current = false;
      notifyError(video.error || 'An unknown error occurred', 'Processing failed');
    }
  }, [video]);

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
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          {running && <Loader2 aria-hidden="true" className="size-5 animate-spin text-primary" />}
          {video.status === 'completed' && <CircleCheck aria-hidden="true" className="size-5 text-emerald-600" />}
          {video.status === 'failed' && <CircleAlert aria-hidden="true" className="size-5 text-destructive" />}
          {TITLES[video.status]}
        </CardTitle>
        <CardDescription>{statusMessage(video)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {video.faceImageId !== null && <StageBar label="Face Swapping" value={video.faceProgress} status={video.status} />}
        {video.voiceRecordingId !== null && <StageBar label="Voice Conversion" value={video.voiceProgress} status={video.status} />}
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
          <div>
            <Button variant="outline" onClick={onStartOver}>
              <RotateCcw aria-hidden="true" /> Try again
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

/** One stage's bar: the worker's percent while it runs, full when done, empty when it failed (spec 02 §4). */
function StageBar({ label, value, status }: { label: string; value: number; status: ProcessedVideo['status'] }) {
  const percent = status === 'completed' ? 100 : status === 'failed' ? 0 : value;
  return (
    <div className="grid gap-1.5">
      <div className="flex justify-between text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular-nums text-muted-foreground">{percent}%</span>
      </div>
      <Progress value={percent} aria-label={label} />
    </div>
  );
}
