// How far a render has got (decisions page: real progress, separate Face Swapping and Voice Conversion
// bars), with the spec's status-card titles and messages (spec 02 §4).
import { CircleAlert, CircleCheck, LoaderCircle } from 'lucide-react';
import type { ProcessedVideo } from '@shared/api-types';
import { formatEstimate } from '@shared/video-rules';
import { Progress } from '@client/components/ui/progress';
import { cn } from '@client/lib/utils';

type RenderState = Pick<ProcessedVideo, 'status' | 'error' | 'faceImageId' | 'voiceRecordingId' | 'faceProgress' | 'voiceProgress'>;

/** The stages this video runs: a face stage when it has a face image, a voice stage when it has a recording. */
export function renderStages(video: RenderState): { label: 'Face Swapping' | 'Voice Conversion'; percent: number }[] {
  const stages: { label: 'Face Swapping' | 'Voice Conversion'; percent: number }[] = [];
  if (video.faceImageId !== null) stages.push({ label: 'Face Swapping', percent: video.faceProgress });
  if (video.voiceRecordingId !== null) stages.push({ label: 'Voice Conversion', percent: video.voiceProgress });
  return stages;
}

/** One number for a small bar: the mean of the stages (100 when completed). */
export function overallPercent(video: RenderState): number {
  if (video.status === 'completed') return 100;
  const stages = renderStages(video);
  if (stages.length === 0) return 0;
  return Math.round(stages.reduce((sum, stage) => sum + stage.percent, 0) / stages.length);
}

export function statusTitle(status: ProcessedVideo['status']): string {
  if (status === 'completed') return 'Success!';
  if (status === 'failed') return 'Error';
  return 'Processing Video';
}

/**
 * The spec's messages, except while processing: the sketch's 'this may take a few minutes' was wrong for
 * most renders (seconds), so it says how long is left when the server's estimate is known.
 */
export function statusMessage(video: Pick<ProcessedVideo, 'status' | 'error'>, secondsLeft?: number): string {
  switch (video.status) {
    case 'pending':
      return 'Preparing to process...';
    case 'processing':
      if (secondsLeft === undefined) return 'Processing your video...';
      return secondsLeft <= 0 ? 'Processing your video - almost done' : `Processing your video - about ${formatEstimate(secondsLeft)} left`;
    case 'completed':
      return 'Processing complete!';
    case 'failed':
      return `Processing failed: ${video.error || 'Unknown error'}`;
  }
}

/** The status card's body: title, message and a bar per stage. */
export function ProcessedVideoProgress({ video, secondsLeft, className }: { video: RenderState; secondsLeft?: number; className?: string }) {
  const Icon = video.status === 'failed' ? CircleAlert : video.status === 'completed' ? CircleCheck : LoaderCircle;
  return (
    <div className={cn('grid gap-4', className)} data-testid="render-progress">
      <div className="flex items-start gap-3">
        <Icon
          aria-hidden="true"
          className={cn(
            'mt-0.5 size-5 shrink-0',
            video.status === 'failed' ? 'text-destructive' : video.status === 'completed' ? 'text-green-600' : 'animate-spin text-primary',
          )}
        />
        <div className="grid gap-0.5">
          <p className="font-semibold">{statusTitle(video.status)}</p>
          <p role="status" className={cn('text-sm', video.status === 'failed' ? 'text-destructive' : 'text-muted-foreground')}>
            {statusMessage(video, secondsLeft)}
          </p>
        </div>
      </div>
      {video.status !== 'failed' &&
        renderStages(video).map((stage) => {
          const percent = video.status === 'completed' ? 100 : stage.percent;
          return (
            <div key={stage.label} className="grid gap-1.5">
              <div className="flex justify-between text-sm">
                <span className="font-medium">{stage.label}</span>
                <span className="text-muted-foreground tabular-nums">{Math.round(percent)}%</span>
              </div>
              <Progress value={percent} aria-label={stage.label} />
            </div>
          );
        })}
    </div>
  );
}
