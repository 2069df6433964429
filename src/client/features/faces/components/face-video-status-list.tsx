// Face videos and where their face extraction stands: extracting, N faces extracted, or why it failed.
import { CircleAlert, CircleCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { FaceVideo } from '@shared/api-types';
import { FACE_ANALYSIS_MESSAGES } from '@shared/face-analysis';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';
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
  const remove = useDeleteFaceVideo();
  const newestFirst = [...videos].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  const shown = showAll ? newestFirst : newestFirst.slice(0, limit);

  return (
    <div className={cn('grid gap-2', className)}>
      <ul className="grid gap-2" aria-label="Face videos">
        {shown.map((video) => {
          const failed = video.processingStatus === 'failed';
          return (
            <li
              key={video.id}
              className={cn(
                'flex items-center gap-3 rounded-xl border bg-card px-3 py-2 text-sm',
                failed && 'border-destructive/40 bg-destructive/5',
              )}
            >
              <FaceVideoState video={video} />
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
            </li>
          );
        })}
      </ul>
      {newestFirst.length > shown.length && (
        <Button variant="link" size="sm" className="w-fit px-0" onClick={() => setShowAll(true)}>
          Show all {newestFirst.length} face videos
        </Button>
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
      </span>
    </>
  );
}
