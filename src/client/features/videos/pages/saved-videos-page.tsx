// My Saved Videos (spec 02 §2, /saved): the signed-in user's own videos, searchable and sortable, each
// deletable after a confirmation.
import { Film, Search, SearchX, Video } from 'lucide-react';
import { useState } from 'react';
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
import { ProcessedVideoCard, ProcessedVideoCardSkeleton } from '../components/processed-video-card';
import { SORT_OPTIONS, visibleVideos, type SavedVideosSort } from '../lib/saved-videos';

const SKELETONS = 4;
const GRID = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';

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

function DeleteVideoDialog({ video, onClose, userId }: { video: ProcessedVideo | undefined; onClose(): void; userId: number | undefined }) {
  const remove = useDeleteProcessedVideo(userId);
  return (
    <Dialog open={video !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete Video</DialogTitle>
          <DialogDescription>Are you sure you want to delete this video? This action cannot be undone.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() => video && remove.mutate(video.id, { onSuccess: onClose })}
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
  const [deleting, setDeleting] = useState<ProcessedVideo>();
  const shown = videos && visibleVideos(videos, search, sort);

  return (
    <div className="container-page py-8 md:py-10">
      <h1 className="text-3xl font-bold tracking-tight">My Saved Videos</h1>
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
              <ProcessedVideoCard key={video.id} video={video} onDelete={setDeleting} />
            ))}
          </div>
        )}
      </div>

      <DeleteVideoDialog video={deleting} userId={user?.id} onClose={() => setDeleting(undefined)} />
    </div>
  );
}
