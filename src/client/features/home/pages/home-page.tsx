import { ArrowRight, Film, Plus, UserPlus, Video } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { FeaturedTemplatesGrid } from '@client/features/templates/components/featured-templates-grid';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function HomePage() {
  useDocumentTitle('Home');
  const { user } = useCurrentUser();

  return (
    <div className="container-page grid gap-12 py-8 md:py-10">
      <section
        aria-labelledby="greeting"
        className="rounded-3xl border bg-linear-to-br from-secondary via-card to-sunshine/25 p-6 shadow-sm sm:p-10"
      >
        <div>
          <h1 id="greeting" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Welcome back, {user?.displayName}!
          </h1>
          <p className="mt-2 max-w-xl text-lg text-muted-foreground">
            What will your little one learn today? Make a new video or add someone special to star in it.
          </p>
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
              See all videos <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
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
