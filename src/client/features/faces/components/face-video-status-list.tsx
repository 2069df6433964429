// Face videos and where their face extraction stands: extracting, N faces extracted (and whether the face
// was small in the clip), or why it failed.
// A processed clip can be played until the retention rule deletes its raw file; its faces stay.
import { CircleAlert, CircleCheck, Clock, Play, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import type { FaceVideo } from '@shared/api-types';
import { FACE_ANALYSIS_MESSAGES } from '@shared/face-analysis';
import { rawClipRetentionText } from '@shared/privacy';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';
import { usePrivacySettings } from '@client/features/users/api/use-privacy-settings';
import { useDeleteFaceVideo } from '../api/use-delete-face-video';
import { isProcessing } from '../api/use-person-face-videos';

interface FaceVideoStatusListProps {
  videos: FaceVideo[];
  /** Show at most this many (newest first) until the parent asks for all. */
  limit?: number;
  className?: string;
}

export function FaceVideoStatusList({ videos, limit = Infinity, className }: FaceVideoStatusListProps) {
  const [showAll, setShowAll] = useState(false);
  const [playing, setPlaying] = useState<number | null>(null);
  const remove = useDeleteFaceVideo();
  const privacy = usePrivacySettings();
  const newestFirst = [...videos].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  const shown = showAll ? newestFirst : newestFirst.slice(0, limit);

  return (
    <div className={cn('grid gap-2', className)}>
      <ul className="grid gap-2" aria-label="Face videos">
        {shown.map((video) => {
          const failed = video.processingStatus === 'failed';
          const playable = video.videoUrl !== null && video.processingStatus === 'completed';
          const open = playable && playing === video.id;
          return (
            <li
              key={video.id}
              className={cn('grid gap-2 rounded-xl border bg-card px-3 py-2 text-sm', failed && 'border-destructive/40 bg-destructive/5')}
            >
              <div className="flex items-center gap-3">
                <FaceVideoState video={video} />
                {playable && (
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8 shrink-0"
                    aria-label={open ? `Close ${video.name}` : `Play ${video.name}`}
                    title={open ? 'Close' : 'Play'}
                    aria-expanded={open}
                    onClick={() => setPlaying(open ? null : video.id)}
                  >
                    {open ? <X aria-hidden="true" /> : <Play aria-hidden="true" />}
                  </Button>
                )}
                {failed && (
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8 shrink-0 text-destructive hover:text-destructive"
                    aria-label={`Remove ${video.name}`}
                    title="Remove"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(video)}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                )}
              </div>
              {open && video.videoUrl && (
                <video controls autoPlay src={video.videoUrl} aria-label={video.name} className="max-h-64 w-full rounded-lg bg-black" />
              )}
            </li>
          );
        })}
      </ul>
      {newestFirst.length > shown.length && (
        <Button variant="link" size="sm" className="w-fit px-0" onClick={() => setShowAll(true)}>
          Show all {newestFirst.length} face videos
        </Button>
      )}
      {privacy.data && (
        <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
          <Clock className="size-3.5 shrink-0" aria-hidden="true" />
          {rawClipRetentionText(privacy.data.rawClipRetentionDays)}; the faces taken from them are kept.
        </p>
      )}
    </div>
  );
}

function FaceVideoState({ video }: { video: FaceVideo }) {
  if (isProcessing(video)) {
    return (
      <>
        <Spinner className="size-5 shrink-0" label="Extracting faces" />
        <span className="grid min-w-0 flex-1">
          <span className="truncate font-medium">{video.name}</span>
          <span className="text-muted-foreground">Extracting faces…</span>
        </span>
      </>
    );
  }
  if (video.processingStatus === 'failed') {
    return (
      <>
        <CircleAlert className="size-5 shrink-0 text-destructive" aria-hidden="true" />
        <span className="grid min-w-0 flex-1" role="alert">
          <span className="font-medium break-words text-destructive">{video.name} could not be processed</span>
          <span className="text-destructive">{video.errorMessage || FACE_ANALYSIS_MESSAGES.clipFailed}</span>
        </span>
      </>
    );
  }
  const count = video.extractedFacesCount;
  return (
    <>
      <CircleCheck className="size-5 shrink-0 text-primary" aria-hidden="true" />
      <span className="grid min-w-0 flex-1">
        <span className="truncate font-medium">{video.name}</span>
        <span className="text-muted-foreground">
          {count === 1 ? '1 face extracted' : `${count} faces extracted`}
        </span>
        {video.smallFace && <span className="text-xs text-amber-700 dark:text-amber-300">{FACE_ANALYSIS_MESSAGES.smallFaceInClip}</span>}
        {video.rawClipDeletedAt !== null && (
          <span className="text-xs text-muted-foreground">
            Raw clip deleted on {new Date(video.rawClipDeletedAt).toLocaleDateString(undefined, { dateStyle: 'long' })}; its faces
            are kept
          </span>
        )}
      </span>
    </>
  );
}
