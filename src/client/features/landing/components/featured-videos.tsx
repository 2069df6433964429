import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { useFeaturedTemplatesForVisitor } from '@client/features/templates/api/featured-for-visitors';
import { FeaturedTemplatesView } from '@client/features/templates/components/featured-templates-view';

export function FeaturedVideos() {
  const featured = useFeaturedTemplatesForVisitor();
  return (
    <section aria-labelledby="featured-videos-title" className="bg-card py-16 md:py-24">
      <div className="container-page">
        <div className="mb-10 flex flex-wrap items-end justify-between gap-4">
          <div>
            <p className="text-sm font-semibold tracking-wide text-primary uppercase">Start with a favourite</p>
            <h2 id="featured-videos-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
              Featured Videos
            </h2>
          </div>
          <Button variant="outline" asChild>
            <Link href="/library">
              View All <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
        <FeaturedTemplatesView {...featured} />
      </div>
    </section>
  );
}
