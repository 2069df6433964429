// My Saved Videos (spec 02 §2, /saved): the signed-in user's own videos, searchable and sortable, each
// deletable after a confirmation that names it. After a delete the focus moves to the next video (else the
// heading) instead of falling to the page's body.
import { Film, Search, SearchX, Video } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'wouter';
import type { ProcessedVideo } from '@shared/api-types';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { NativeSelect } from '@client/components/ui/native-select';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useDeleteProcessedVideo } from '../api/use-delete-processed-video';
import { useProcessedVideos } from '../api/use-processed-videos';
import {
  focusProcessedVideoCard,
  ProcessedVideoCard,
  ProcessedVideoCardSkeleton,
  type VideoIdentity,
} from '../components/processed-video-card';
import { nextFocus, SORT_OPTIONS, visibleVideos, type SavedVideosSort } from '../lib/saved-videos';

const SKELETONS = 4;
const GRID = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';
const HEADING_ID = 'saved-videos-heading';
const IDENTITY_ID = 'delete-video-identity';

interface Deleting {
  video: ProcessedVideo;
  identity: VideoIdentity;
  /** The card that takes the focus once this one is gone (none: the heading). */
  nextId: number | undefined;
  /** What had the focus when the dialog opened (the card's delete button): it gets it back on Cancel. */
  opener: HTMLElement | null;
}

function EmptyState({ searching }: { searching: boolean }) {
  const Icon = searching ? SearchX : Video;
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed bg-card/60 px-6 py-16 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <h2 className="text-lg font-semibold">No videos found</h2>
      <p className="max-w-md text-muted-foreground">
        {searching ? 'No videos match your search. Try different keywords or clear your search.' : "You haven't created any personalized videos yet."}
      </p>
      {!searching && (
        <Button asChild className="mt-2">
          <Link href="/library">
            <Film aria-hidden="true" />
            Browse Video Templates
          </Link>
        </Button>
      )}
    </div>
  );
}

function DeleteVideoDialog({
  deleting,
  open,
  onClose,
  onDeleted,
  userId,
}: {
  /** Kept after the dialog closes, so its close still knows where the focus goes. */
  deleting: Deleting | undefined;
  open: boolean;
  onClose(): void;
  /** Places the focus once the dialog has closed on a deleted video (its card and delete button are gone). */
  onDeleted(deleted: Deleting): void;
  userId: number | undefined;
}) {
  const remove = useDeleteProcessedVideo(userId);
  const deleted = useRef<Deleting>(undefined);
  const video = deleting?.video;
  const identity = deleting?.identity;
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent
        // Radix adds its description: the video's name is read first, then the question.
        aria-describedby={identity ? IDENTITY_ID : undefined}
        onCloseAutoFocus={(event) => {
          // Radix would go back to a trigger, and this dialog has none: cancelled, back to what opened it;
          // deleted, that is gone with its card.
          event.preventDefault();
          const gone = deleted.current;
          deleted.current = undefined;
          if (gone) onDeleted(gone);
          else if (deleting?.opener?.isConnected) deleting.opener.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Delete Video</DialogTitle>
          <DialogDescription>Are you sure you want to delete this video? This action cannot be undone.</DialogDescription>
        </DialogHeader>
        {identity && (
          <div id={IDENTITY_ID} className="grid gap-0.5 rounded-xl border bg-muted/50 px-3 py-2" data-testid="delete-video-identity">
            <p className="font-semibold break-words">{identity.title}</p>
            <p className="text-xs break-words text-muted-foreground">
              {identity.personName ? `Starring ${identity.personName} · ` : ''}
              {identity.created}
            </p>
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              video &&
              remove.mutate(video.id, {
                onSuccess: () => {
                  deleted.current = deleting;
                  onClose();
                },
              })
            }
          >
            Delete
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export default function SavedVideosPage() {
  useDocumentTitle('My Saved Videos');
  const { user } = useCurrentUser();
  const { data: videos, error } = useProcessedVideos(user?.id);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SavedVideosSort>('newest');
  const [deleting, setDeleting] = useState<Deleting>();
  const [confirming, setConfirming] = useState(false);
  const shown = videos && visibleVideos(videos, search, sort);

  function focusAfterDelete({ nextId }: Deleting) {
    if (nextId === undefined || !focusProcessedVideoCard(nextId)) document.getElementById(HEADING_ID)?.focus();
  }

  return (
    <div className="container-page py-8 md:py-10">
      <h1
        id={HEADING_ID}
        tabIndex={-1}
        className="rounded-md text-3xl font-bold tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        My Saved Videos
      </h1>
      <p className="mt-1 text-muted-foreground">Every personalised video you have made, ready to watch, download or cast.</p>

      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search your videos..."
            aria-label="Search your videos"
            className="pl-9"
          />
        </div>
        <NativeSelect aria-label="Sort videos" value={sort} onChange={(event) => setSort(event.target.value as SavedVideosSort)} className="sm:w-44">
          {SORT_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </div>

      <div className="mt-6">
        {error ? (
          <Alert variant="destructive">
            <AlertTitle>Could not load your videos</AlertTitle>
            <AlertDescription>{error.message}</AlertDescription>
          </Alert>
        ) : !shown ? (
          <div className={GRID} aria-busy="true" aria-label="Loading videos">
            {Array.from({ length: SKELETONS }, (_, index) => (
              <ProcessedVideoCardSkeleton key={index} />
            ))}
          </div>
        ) : shown.length === 0 ? (
          <EmptyState searching={search.trim() !== ''} />
        ) : (
          <div className={GRID} data-testid="saved-videos-grid">
            {shown.map((video) => (
              <ProcessedVideoCard
                key={video.id}
                video={video}
                onDelete={(_, identity) => {
                  setDeleting({ video, identity, nextId: nextFocus(shown, video.id), opener: document.activeElement as HTMLElement | null });
                  setConfirming(true);
                }}
              />
            ))}
          </div>
        )}
      </div>

      <DeleteVideoDialog
        deleting={deleting}
        open={confirming}
        userId={user?.id}
        onDeleted={focusAfterDelete}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
