// Player / preview (spec 02 §2 Player): /player/{videoId} plays one of the user's processed videos,
// /preview/{templateId} a template's original. A processed video that is not finished yet shows its
// progress instead of a player.
import { ArrowLeft, Download, Film, Info, Library, Pause, Play, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link } from 'wouter';
import type { ProcessedVideo, VideoTemplate } from '@shared/api-types';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { PageSpinner } from '@client/components/ui/spinner';
import { useTemplate } from '@client/features/templates/api/use-template';
import { CastButton } from '@client/features/templates/components/cast-button';
import { TemplateThumbnail } from '@client/features/templates/components/template-thumbnail';
import { capitalise } from '@client/features/templates/lib/library-filters';
import { ApiError } from '@client/lib/api';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { formatDuration } from '@client/lib/utils';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { createMediaLink } from '../api/media-link';
import { useProcessedVideo } from '../api/use-processed-video';
import { isInProgress } from '../api/use-processed-videos';
import { ProcessedVideoProgress } from '../components/processed-video-progress';
import { ProcessedVideoStatusBadge } from '../components/processed-video-status-badge';
import { RetryActions } from '../components/retry-actions';
import { saveVideo } from '../lib/save-video';

type Source = 'processedVideo' | 'template';

const PLAYER_TITLE_ID = 'player-title';

function parseVideoId(raw: string): number | undefined {
  return /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : undefined;
}

/** What the page shows about the video, whichever source it came from. */
interface Shown {
  title: string;
  description: string;
  src: string | null;
  poster: string | null;
  ageRange: string;
  category: string;
  /** Seconds; null to read it from the video once loaded. */
  duration: number | null;
}

function fromTemplate(template: VideoTemplate): Shown {
  return {
    title: template.title,
    description: template.description,
    src: template.videoUrl,
    poster: template.thumbnailUrl,
    ageRange: template.ageRange,
    category: template.category,
    duration: template.duration,
  };
}

function fromProcessedVideo(video: ProcessedVideo, template: VideoTemplate | undefined): Shown {
  return {
    title: video.title,
    description: video.description || template?.description || '',
    src: video.status === 'completed' ? (video.videoUrl ?? video.outputUrl) : null,
    poster: (video.status === 'completed' ? video.thumbnailUrl : null) ?? template?.thumbnailUrl ?? null,
    // A video from the user's own upload has no template: the card's 'Custom' and 'All'.
    ageRange: template?.ageRange ?? 'All',
    category: template?.category ?? 'Custom',
    duration: template?.duration ?? null,
  };
}

function BackButton({ source }: { source: Source }) {
  return (
    <Button asChild variant="ghost" className="-ml-3">
      <Link href={source === 'processedVideo' ? '/saved' : '/library'}>
        <ArrowLeft aria-hidden="true" />
        {source === 'processedVideo' ? 'Back to Saved Videos' : 'Back to Library'}
      </Link>
    </Button>
  );
}

/** What happened, in the parent's words, under the spec's titles. */
const PROBLEMS = {
  invalidId: {
    title: 'Invalid video ID',
    description: "This address doesn't lead to a video: it may have been copied only in part.",
  },
  notFound: {
    processedVideo: {
      title: 'Video not found',
      description: 'We could not find this video. It may have been deleted, or it was made on another account.',
    },
    template: {
      title: 'Video not found',
      description: 'We could not find this video. It may have been removed from the library.',
    },
  },
} as const;

const WAYS_ON = [
  { href: '/saved', label: 'My Saved Videos', icon: Film },
  { href: '/library', label: 'Go to Library', icon: Library },
] as const;

/** The spec's title, what happened, and the two places a parent goes next: their own videos and the library. */
function Problem({ source, title, description }: { source: Source; title: string; description: string }) {
  useDocumentTitle(title);
  // The way back to where the video came from first.
  const ways = source === 'processedVideo' ? WAYS_ON : [...WAYS_ON].reverse();
  return (
    <div className="container-page py-8 md:py-10">
      <BackButton source={source} />
      <Card className="mx-auto mt-8 flex max-w-lg flex-col items-center gap-3 px-6 py-12 text-center">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="text-muted-foreground">{description}</p>
        <div className="mt-2 flex flex-wrap justify-center gap-3">
          {ways.map((way, index) => (
            <Button key={way.href} asChild variant={index === 0 ? 'default' : 'outline'}>
              <Link href={way.href}>
                <way.icon aria-hidden="true" />
                {way.label}
              </Link>
            </Button>
          ))}
        </div>
      </Card>
    </div>
  );
}

/** Mirrors the element's playing and muted state, so the buttons read what the video is doing. */
function usePlaybackState(videoRef: RefObject<HTMLVideoElement | null>) {
  const [playing, setPlaying] = useState(false);
  const [muted, setMuted] = useState(false);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const sync = () => {
      setPlaying(!video.paused && !video.ended);
      setMuted(video.muted);
    };
    const events = ['play', 'pause', 'ended', 'volumechange', 'emptied'] as const;
    events.forEach((name) => video.addEventListener(name, sync));
    sync();
    return () => events.forEach((name) => video.removeEventListener(name, sync));
  }, [videoRef]);
  return { playing, muted };
}

function PlaybackButtons({
  videoRef,
  onDownload,
  prepareCast,
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  onDownload?: () => Promise<void>;
  prepareCast?: () => Promise<void>;
}) {
  const { playing, muted } = usePlaybackState(videoRef);
  const [downloading, setDownloading] = useState(false);

  function togglePlay() {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended) void video.play().catch(() => {});
    else video.pause();
  }

  function toggleMute() {
    const video = videoRef.current;
    if (video) video.muted = !video.muted;
  }

  async function download() {
    if (!onDownload) return;
    setDownloading(true);
    try {
      await onDownload();
    } finally {
      setDownloading(false);
    }
  }

  return (
    <div className="grid gap-3">
      <div className="grid grid-cols-2 gap-3">
        <Button variant="secondary" onClick={togglePlay}>
          {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
          {playing ? 'Pause' : 'Play'}
        </Button>
        <Button variant="secondary" onClick={toggleMute}>
          {muted ? <Volume2 aria-hidden="true" /> : <VolumeX aria-hidden="true" />}
          {muted ? 'Unmute' : 'Mute'}
        </Button>
      </div>
      {onDownload && (
        <Button onClick={() => void download()} disabled={downloading}>
          <Download aria-hidden="true" />
          Download
        </Button>
      )}
      <CastButton videoRef={videoRef} prepare={prepareCast} />
    </div>
  );
}

function Details({ shown, duration }: { shown: Shown; duration: number | null }) {
  const items: [string, string][] = [
    ['Age', shown.ageRange === 'All' ? 'All ages' : `${shown.ageRange} years`],
    ['Category', capitalise(shown.category)],
    ['Duration', duration === null ? '–' : formatDuration(duration)],
  ];
  return (
    <dl className="grid grid-cols-3 gap-2 rounded-xl border bg-card p-3 text-center">
      {items.map(([term, value]) => (
        <div key={term} className="grid gap-0.5">
          <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{term}</dt>
          <dd className="text-sm font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The screen itself: the video (or `notReady` in its place), then title, badge, details and buttons. */
function PlayerView({
  source,
  shown,
  badge,
  notReady,
  actions,
  onDownload,
  prepareCast,
  notices,
}: {
  source: Source;
  shown: Shown;
  badge?: ReactNode;
  /** What the parent should know about how the video was made (ProcessedVideo.notices). */
  notices?: ReactNode;
  /** Shown instead of the video while there is nothing to play. */
  notReady?: ReactNode;
  /** Shown instead of the playback buttons while there is nothing to play. */
  actions?: ReactNode;
  onDownload?: () => Promise<void>;
  prepareCast?: (video: HTMLVideoElement) => Promise<void>;
}) {
  useDocumentTitle(shown.title);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [loadedDuration, setLoadedDuration] = useState<number | null>(null);
  const playable = !notReady && shown.src !== null;

  return (
    <div className="container-page py-8 md:py-10">
      <BackButton source={source} />
      <div className="mt-4 grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(18rem,1fr)]">
        {playable ? (
          <video
            ref={videoRef}
            data-testid="video-player"
            controls
            controlsList="nodownload"
            playsInline
            preload="metadata"
            src={shown.src ?? undefined}
            poster={shown.poster ?? undefined}
            aria-label={shown.title}
            onLoadedMetadata={(event) => {
              const seconds = event.currentTarget.duration;
              if (Number.isFinite(seconds)) setLoadedDuration(seconds);
            }}
            className="aspect-video w-full rounded-2xl bg-black shadow"
          />
        ) : (
          <div className="relative aspect-video w-full overflow-hidden rounded-2xl bg-muted shadow">
            <TemplateThumbnail src={shown.poster} className="opacity-40 blur-[2px]" />
            <div className="absolute inset-0 flex items-center justify-center p-4">
              <Card className="w-full max-w-md p-5 shadow-lg">{notReady}</Card>
            </div>
          </div>
        )}
        <div className="grid content-start gap-4">
          <div className="grid gap-2">
            {badge}
            {/* Focusable so a retry, which takes its buttons away, can leave the focus here. */}
            <h1 id={PLAYER_TITLE_ID} tabIndex={-1} className="rounded-md text-2xl font-bold tracking-tight break-words outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
              {shown.title}
            </h1>
          </div>
          <Details shown={shown} duration={shown.duration ?? loadedDuration} />
          {shown.description && <p className="text-muted-foreground">{shown.description}</p>}
          {notices}
          {playable ? (
            <PlaybackButtons
              videoRef={videoRef}
              onDownload={onDownload}
              prepareCast={prepareCast && (() => (videoRef.current ? prepareCast(videoRef.current) : Promise.resolve()))}
            />
          ) : (
            actions
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * What the parent can put right on the person's page of People (RENDER_NOTICES): images of the person the
 * render left out and why (a sibling's photo, a blurred one), and the chosen photo's own warnings (turned,
 * blurred, eyes closed). A note, not an alert: the video itself is fine.
 */
function RenderNotices({ notices, personId }: { notices: string[]; personId: number | null }) {
  if (notices.length === 0) return null;
  return (
    <Alert variant="warning" role="note" aria-labelledby="render-notices-title">
      <Info aria-hidden="true" />
      <AlertTitle id="render-notices-title">About this video</AlertTitle>
      <AlertDescription>
        {notices.map((notice) => (
          <p key={notice}>{notice}</p>
        ))}
        <p>
          <Link href={personId ? `/people?person=${personId}` : '/people'} className="font-medium underline underline-offset-4">
            Manage face images on the People page
          </Link>
        </p>
      </AlertDescription>
    </Alert>
  );
}

/** Download: the browser saves the file on its own and the page never learns when it is done, so it says it has started. */
async function downloadVideo(video: ProcessedVideo) {
  const fileName = await saveVideo(video);
  if (fileName) notifySuccess('Download started', `Your browser is saving ${fileName} with your other downloads.`);
  else notifyError('Download failed: Unable to save the video');
}

/** A TV fetches without the cookie, so it gets a fresh signed link; playback carries on where it was. */
async function pointAtCastLink(videoId: number, element: HTMLVideoElement) {
  const { url } = await createMediaLink(videoId, 'cast');
  const absolute = new URL(url, window.location.href).href;
  const { currentTime, paused } = element;
  element.src = absolute;
  element.currentTime = currentTime;
  if (!paused) void element.play().catch(() => {});
}

function ProcessedVideoPlayer({ id }: { id: number }) {
  const { data: video, error, isLoading } = useProcessedVideo(id, { live: true });
  const { data: template, isLoading: templateLoading } = useTemplate(video?.templateId ?? undefined);

  if (isLoading || (video !== undefined && video.templateId !== null && templateLoading)) return <PageSpinner />;
  if (!video) {
    if (!error || (error instanceof ApiError && error.status === 404)) return <Problem source="processedVideo" {...PROBLEMS.notFound.processedVideo} />;
    return <Problem source="processedVideo" title="Could not load the video" description={error.message} />;
  }

  const completed = video.status === 'completed';
  return (
    <PlayerView
      source="processedVideo"
      shown={fromProcessedVideo(video, template)}
      badge={<ProcessedVideoStatusBadge status={video.status} secondary={!completed} />}
      notices={<RenderNotices notices={video.notices} personId={video.personId} />}
      notReady={completed ? undefined : <ProcessedVideoProgress video={video} />}
      actions={
        isInProgress(video) ? (
          <p className="text-sm text-muted-foreground">
            You can leave this page: the video waits for you in My Saved Videos once it is ready.
          </p>
        ) : video.status === 'failed' ? (
          <RetryActions video={video} onRetried={() => document.getElementById(PLAYER_TITLE_ID)?.focus()} />
        ) : undefined
      }
      onDownload={() => downloadVideo(video)}
      prepareCast={(element) => pointAtCastLink(video.id, element)}
    />
  );
}

function TemplatePlayer({ id }: { id: number }) {
  const { data: template, error, isLoading } = useTemplate(id);
  if (isLoading) return <PageSpinner />;
  if (!template) {
    if (!error || (error instanceof ApiError && error.status === 404)) return <Problem source="template" {...PROBLEMS.notFound.template} />;
    return <Problem source="template" title="Could not load the video" description={error.message} />;
  }
  return (
    <PlayerView
      source="template"
      shown={fromTemplate(template)}
      badge={template.isPremium ? <Badge className="w-fit">Premium</Badge> : undefined}
      notReady={template.videoUrl ? undefined : <p className="text-muted-foreground">This template has no video yet.</p>}
    />
  );
}

export default function PlayerPage({ source, id }: { source: Source; id: string }) {
  const videoId = parseVideoId(id);
  if (videoId === undefined) return <Problem source={source} {...PROBLEMS.invalidId} />;
  return source === 'processedVideo' ? <ProcessedVideoPlayer id={videoId} /> : <TemplatePlayer id={videoId} />;
}
