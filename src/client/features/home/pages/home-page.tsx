import { ArrowRight, Film, LayoutDashboard, Plus, UserPlus, Video } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { isNewAccount } from '@client/features/auth/lib/session-hints';
import { FeaturedTemplatesGrid } from '@client/features/templates/components/featured-templates-grid';
import { useProcessedVideos } from '@client/features/videos/api/use-processed-videos';
import { ProcessedVideoCard, ProcessedVideoCardSkeleton } from '@client/features/videos/components/processed-video-card';
import { sortVideos } from '@client/features/videos/lib/saved-videos';
import { useDocumentTitle } from '@client/lib/use-document-title';

const RECENT = 4;
const RECENT_GRID = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-4';

/** Decisions page: the user's 4 most recent videos with their status, or a hint to make the first. */
function RecentVideos({ userId }: { userId: number | undefined }) {
  const { data: videos, error } = useProcessedVideos(userId);
  if (error) {
    return <p className="text-sm text-destructive">Could not load your videos: {error.message}</p>;
  }
  if (!videos) {
    return (
      <div className={RECENT_GRID} aria-busy="true" aria-label="Loading videos">
        {Array.from({ length: RECENT }, (_, index) => (
          <ProcessedVideoCardSkeleton key={index} />
        ))}
      </div>
    );
  }
  if (videos.length === 0) {
    return (
      <Card className="flex flex-col items-center gap-3 border-dashed px-6 py-12 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
          <Video className="size-6" aria-hidden="true" />
        </span>
        <p className="font-semibold">No videos yet</p>
        <p className="max-w-sm text-sm text-muted-foreground">
          Your personalised videos will appear here. Pick a template to create your first one.
        </p>
        <Button variant="outline" asChild className="mt-2">
          <Link href="/library">
            <Film aria-hidden="true" /> Browse Library
          </Link>
        </Button>
      </Card>
    );
  }
  return (
    <div className={RECENT_GRID} data-testid="recent-videos">
      {sortVideos(videos, 'newest')
        .slice(0, RECENT)
        .map((video) => (
          <ProcessedVideoCard key={video.id} video={video} />
        ))}
    </div>
  );
}

/** Told once, to the first account of an installation: it became the admin without asking (decisions page). */
function FirstAdminNote() {
  return (
    <div role="note" aria-labelledby="first-admin-title" className="mt-6 flex max-w-2xl flex-col gap-3 rounded-2xl border border-primary/25 bg-card/80 p-4 sm:flex-row sm:items-center">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
        <LayoutDashboard className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p id="first-admin-title" className="font-semibold">
          You are the admin of this FamilyStar
        </p>
        <p className="text-sm text-muted-foreground">
          As its first account, you manage its users and the template library. Later accounts are parents like any other.
        </p>
      </div>
      <Button variant="outline" asChild className="shrink-0">
        <Link href="/admin">Admin Dashboard</Link>
      </Button>
    </div>
  );
}

export default function HomePage() {
  useDocumentTitle('Home');
  const { user, isAdmin } = useCurrentUser();
  // A new account (made in this tab) is welcomed, not welcomed back; the first one is told it is the admin.
  const isNew = user !== null && isNewAccount(user.id);

  return (
    <div className="container-page grid gap-12 py-8 md:py-10">
      <section
        aria-labelledby="greeting"
        className="rounded-3xl border bg-linear-to-br from-secondary via-card to-sunshine/25 p-6 shadow-sm sm:p-10"
      >
        <div>
          <h1 id="greeting" className="text-3xl font-bold tracking-tight sm:text-4xl">
            {isNew ? `Welcome to FamilyStar, ${user.displayName}!` : `Welcome back, ${user?.displayName}!`}
          </h1>
          <p className="mt-2 max-w-xl text-lg text-muted-foreground">
            {isNew
              ? 'Start by adding someone special, a parent or a grandparent, then pick a video for them to star in.'
              : 'What will your little one learn today? Make a new video or add someone special to star in it.'}
          </p>
          {isNew && isAdmin && <FirstAdminNote />}
          <div className="mt-6 flex flex-wrap gap-3">
            <Button size="lg" asChild>
              <Link href="/process/new">
                <Plus aria-hidden="true" /> Create Video
              </Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link href="/people">
                <UserPlus aria-hidden="true" /> Add Person
              </Link>
            </Button>
          </div>
        </div>
      </section>

      <section aria-labelledby="recent-videos-title">
        <div className="mb-5 flex items-end justify-between gap-4">
          <h2 id="recent-videos-title" className="text-2xl font-bold tracking-tight">
            Recent Videos
          </h2>
          <Button variant="link" asChild className="px-0">
            <Link href="/saved">
              View all <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
        <RecentVideos userId={user?.id} />
      </section>

      <section aria-labelledby="featured-templates-title">
        <div className="mb-5 flex items-end justify-between gap-4">
          <h2 id="featured-templates-title" className="text-2xl font-bold tracking-tight">
            Featured Templates
          </h2>
          <Button variant="link" asChild className="px-0">
            <Link href="/library">
              View All <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
        <FeaturedTemplatesGrid />
      </section>
    </div>
  );
}
