// The demo page (decisions page: "Baby Shark demo", route /demo): plays the featured demo template,
// with a way back to the library and Cast to TV.
import { ArrowLeft } from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { PageSpinner } from '@client/components/ui/spinner';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useDemoLibraryPreparing } from '../api/use-demo-status';
import { useFeaturedTemplates } from '../api/use-featured-templates';
import { CastButton } from '../components/cast-button';
import { DemoPreparingNote } from '../components/demo-preparing-note';

export default function DemoPage() {
  useDocumentTitle('Demo');
  const { data: featured, isLoading } = useFeaturedTemplates();
  const preparing = useDemoLibraryPreparing(featured?.length === 0);
  const videoRef = useRef<HTMLVideoElement>(null);
  const demo = featured?.find((template) => template.videoUrl && !template.isPremium) ?? featured?.find((template) => template.videoUrl);

  return (
    <div className="container-page py-8 md:py-10">
      <Button asChild variant="ghost" className="-ml-3">
        <Link href="/library">
          <ArrowLeft aria-hidden="true" />
          Back to Library
        </Link>
      </Button>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">{demo ? demo.title : 'Demo'}</h1>
      {isLoading ? (
        <PageSpinner />
      ) : !demo && preparing ? (
        <DemoPreparingNote className="mt-6" />
      ) : !demo ? (
        <p className="mt-6 text-muted-foreground">No featured videos available.</p>
      ) : (
        <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(14rem,1fr)]">
          <video
            ref={videoRef}
            controls
            playsInline
            preload="metadata"
            src={demo.videoUrl ?? undefined}
            poster={demo.thumbnailUrl ?? undefined}
            aria-label={demo.title}
            className="aspect-video w-full rounded-2xl bg-black shadow"
          />
          <div className="grid content-start gap-4">
            <p className="text-muted-foreground">{demo.description}</p>
            <CastButton videoRef={videoRef} />
          </div>
        </div>
      )}
    </div>
  );
}
