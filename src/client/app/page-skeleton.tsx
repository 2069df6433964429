import { Skeleton } from '@client/components/ui/skeleton';

/**
 * What the page area shows while a page's code or the signed-in user loads. It stays invisible for the
 * first 300 ms (most loads end sooner, and a flash of placeholder is worse than a pause), then fades in
 * as a calm outline of a page: a title, a line, a few cards. Never a spinner.
 */
export function PageSkeleton() {
  return (
    <div role="status" aria-label="Loading page" className="container-page grid animate-[fade-in_300ms_ease-out_300ms_both] gap-8 py-8 md:py-10">
      <div className="grid gap-3">
        <Skeleton className="h-9 w-64 max-w-full" />
        <Skeleton className="h-5 w-96 max-w-full" />
      </div>
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        <Skeleton className="h-48" />
        <Skeleton className="h-48" />
        <Skeleton className="hidden h-48 lg:block" />
      </div>
    </div>
  );
}
