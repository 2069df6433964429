// The processed-video card (spec 02 §2 Video cards): 'Your {template title}', the output's thumbnail once
// completed (the template's before), who stars in it, 'Created {date}', the status, and Watch Video only
// when completed. A failed video shows its whole reason and the ways to try again.
import { CircleAlert, Clock, LoaderCircle, Play, Trash2, UserRound } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { ProcessedVideo, VideoTemplate } from '@shared/api-types';
import { VIDEO_MESSAGES } from '@shared/video-rules';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Progress } from '@client/components/ui/progress';
import { Skeleton } from '@client/components/ui/skeleton';
import { usePeople } from '@client/features/people/api/use-people';
import { useTemplate } from '@client/features/templates/api/use-template';
import { TemplateDurationChip } from '@client/features/templates/components/template-card-parts';
import { TemplateThumbnail } from '@client/features/templates/components/template-thumbnail';
import { capitalise } from '@client/features/templates/lib/library-filters';
import { cn } from '@client/lib/utils';
import { isInProgress } from '../api/use-processed-videos';
import { overallPercent } from './processed-video-progress';
import { ProcessedVideoStatusBadge } from './processed-video-status-badge';
import { RetryActions } from './retry-actions';

/** What the card shows about the video's template, or the spec's stand-in while it loads. */
export interface VideoSummary {
  title: string;
  description: string;
  /** Seconds; null when unknown (a video from the user's own upload). */
  duration: number | null;
  category: string;
  ageRange: string;
  /** null shows a film icon; while the template loads, an unfinished video shows the 'Processing your video...' placeholder. */
  thumbnailUrl: string | null;
  loading: boolean;
}

/** Spec 02 §2: while the template loads, 'Loading...', 'Loading video information...', 0, 'Custom', 'All'. */
export function summariseVideo(video: ProcessedVideo, template: VideoTemplate | undefined, templateLoading: boolean): VideoSummary {
  const output = video.status === 'completed' ? video.thumbnailUrl : null;
  if (templateLoading) {
    // A finished video already has its own thumbnail; only without one does the placeholder show.
    return { title: 'Loading...', description: 'Loading video information...', duration: 0, category: 'Custom', ageRange: 'All', thumbnailUrl: output, loading: true };
  }
  if (!template) {
    // A voice-only video made from the user's own upload (or one whose template was removed).
    return { title: video.title, description: video.description ?? '', duration: null, category: 'Custom', ageRange: 'All', thumbnailUrl: output, loading: false };
  }
  return {
    title: `Your ${template.title}`,
    description: video.title,
    duration: template.duration,
    category: template.category,
    ageRange: template.ageRange,
    thumbnailUrl: output ?? template.thumbnailUrl,
    loading: false,
  };
}

export function ageLabel(ageRange: string): string {
  return ageRange === 'All' ? 'All ages' : `${ageRange} years`;
}

export function formatCreated(createdAt: string): string {
  return `Created ${new Date(createdAt).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })}`;
}

/** What tells one video from another of the same template: its title, who stars in it, and when it was made. */
export interface VideoIdentity {
  title: string;
  /** undefined while the people load, or when the person was removed. */
  personName: string | undefined;
  created: string;
}

export function processedVideoTitleId(videoId: number): string {
  return `processed-video-${videoId}-title`;
}

/** Moves the focus to a card's title: its link when the video can be watched, else the heading itself. */
export function focusProcessedVideoCard(videoId: number): boolean {
  const heading = document.getElementById(processedVideoTitleId(videoId));
  const target = heading?.querySelector<HTMLElement>('a') ?? heading;
  target?.focus();
  return Boolean(target);
}

function ProcessingPlaceholder() {
  return (
    <span className="flex size-full flex-col items-center justify-center gap-2 bg-linear-to-br from-secondary to-accent text-sm font-medium text-secondary-foreground">
      <LoaderCircle className="size-6 animate-spin text-primary" aria-hidden="true" />
      Processing your video...
    </span>
  );
}

function CardAction({ video, onRetried }: { video: ProcessedVideo; onRetried: () => void }): ReactNode {
  if (video.status === 'completed') {
    return (
      <Button asChild size="sm" className="w-full">
        <Link href={`/player/${video.id}`}>
          <Play aria-hidden="true" />
          Watch Video
        </Link>
      </Button>
    );
  }
  if (video.status === 'failed') {
    return (
      <div className="grid gap-3">
        {/* The whole reason, wrapped: it is what tells the parent what to change. */}
        <div className="grid gap-1 rounded-lg border border-destructive/30 bg-destructive/5 px-3 py-2 text-destructive">
          <p className="flex items-center gap-1.5 text-sm font-semibold">
            <CircleAlert className="size-4 shrink-0" aria-hidden="true" />
            Processing Failed
          </p>
          <p className="text-xs break-words" data-testid="video-error">
            {video.error || VIDEO_MESSAGES.renderFailed}
          </p>
        </div>
        <RetryActions video={video} onRetried={onRetried} />
      </div>
    );
  }
  const percent = overallPercent(video);
  return (
    <div className="grid gap-2">
      <Progress value={percent} className="h-1.5" aria-label="Video progress" />
      <Button size="sm" variant="secondary" disabled className="w-full">
        <LoaderCircle aria-hidden="true" className="animate-spin" />
        Processing...
      </Button>
    </div>
  );
}

export function ProcessedVideoCard({
  video,
  onDelete,
}: {
  video: ProcessedVideo;
  onDelete?: (video: ProcessedVideo, identity: VideoIdentity) => void;
}) {
  const templateQuery = useTemplate(video.templateId ?? undefined);
  const summary = summariseVideo(video, templateQuery.data, video.templateId !== null && templateQuery.isLoading);
  const people = usePeople(video.personId === null ? undefined : video.userId);
  const personName = people.data?.find((person) => person.id === video.personId)?.name;
  const titleId = processedVideoTitleId(video.id);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const completed = video.status === 'completed';
  const identity: VideoIdentity = { title: summary.title, personName, created: formatCreated(video.createdAt) };

  const thumbnail = (
    <>
      {summary.loading && !summary.thumbnailUrl && video.status !== 'failed' ? (
        <ProcessingPlaceholder />
      ) : (
        <TemplateThumbnail src={summary.thumbnailUrl} className={cn(completed && 'transition-transform duration-300 group-hover:scale-105')} />
      )}
      {summary.duration !== null && <TemplateDurationChip seconds={summary.duration} />}
      <ProcessedVideoStatusBadge status={video.status} className="absolute top-2 left-2 shadow-sm" />
    </>
  );

  return (
    <article
      aria-labelledby={titleId}
      aria-busy={isInProgress(video) || undefined}
      data-testid="processed-video-card"
      data-status={video.status}
      className="group relative flex flex-col overflow-hidden rounded-2xl border bg-card shadow-sm transition-shadow hover:shadow-md"
    >
      {completed ? (
        <Link href={`/player/${video.id}`} tabIndex={-1} aria-hidden="true" className="relative block aspect-video overflow-hidden bg-muted">
          {thumbnail}
        </Link>
      ) : (
        <div className="relative aspect-video overflow-hidden bg-muted">{thumbnail}</div>
      )}
      {onDelete && (
        <Button
          type="button"
          size="icon"
          variant="outline"
          aria-label="Delete video"
          onClick={() => onDelete(video, identity)}
          className={cn(
            'absolute top-2 right-2 size-9 rounded-full border-transparent bg-card/95 text-destructive shadow-sm transition-opacity hover:bg-destructive hover:text-destructive-foreground',
            // Shown on hover or keyboard focus where there is a mouse; always shown on touch screens.
            'pointer-fine:opacity-0 pointer-fine:group-hover:opacity-100 pointer-fine:group-focus-within:opacity-100',
          )}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      )}
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <Badge variant="secondary">{capitalise(summary.category)}</Badge>
          <span>{ageLabel(summary.ageRange)}</span>
        </div>
        {/* Without a link the heading itself takes the focus after a retry or a delete nearby. */}
        <h3
          id={titleId}
          ref={headingRef}
          tabIndex={completed ? undefined : -1}
          className="rounded-sm leading-snug font-semibold break-words outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          {completed ? (
            <Link href={`/player/${video.id}`} className="outline-none hover:underline focus-visible:underline">
              {summary.title}
            </Link>
          ) : (
            summary.title
          )}
        </h3>
        {summary.description && <p className="line-clamp-2 text-sm text-muted-foreground">{summary.description}</p>}
        <div className="grid gap-1 text-xs text-muted-foreground">
          {personName && (
            <p className="flex items-center gap-1.5" data-testid="video-person">
              <UserRound className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="min-w-0 break-words">Starring {personName}</span>
            </p>
          )}
          <p className="flex items-center gap-1.5">
            <Clock className="size-3.5 shrink-0" aria-hidden="true" />
            {identity.created}
          </p>
        </div>
        <div className="mt-auto pt-2">
          <CardAction video={video} onRetried={() => headingRef.current?.focus()} />
        </div>
      </div>
    </article>
  );
}

/** The card's loading placeholder (the Saved page shows 4, the home page as many as it expects). */
export function ProcessedVideoCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border bg-card" data-testid="processed-video-card-skeleton">
      <Skeleton className="aspect-video rounded-none" />
      <div className="grid gap-2 p-4">
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-3 w-1/2" />
        <Skeleton className="mt-2 h-8 w-full" />
      </div>
    </div>
  );
}
