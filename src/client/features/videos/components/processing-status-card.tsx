// The status card (spec 02 §2, §4 with the decisions page): the sketch's titles and messages, fed by the
// render's real progress per stage (Server-Sent Events, polling as the fallback).
import { Film, FolderOpen, RotateCcw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { notifyError } from '@client/lib/notify';
import { useProcessedVideo } from '../api/use-processed-video';
import { isInProgress } from '../api/use-processed-videos';
import { ProcessedVideoProgress } from './processed-video-progress';

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
      <CardContent className="grid gap-5 p-5">
        <ProcessedVideoProgress video={video} />
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
