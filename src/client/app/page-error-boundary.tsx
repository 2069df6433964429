// What a parent sees when a page cannot be shown, instead of a blank screen: a page's code that fails to
// load (the connection dropped, or a new version was deployed while the tab was open and the old chunk is
// gone) or a page that throws while rendering. React unmounts the whole app on an uncaught render error,
// so without this one failed chunk left an empty white page with no way on.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { useDocumentTitle } from '@client/lib/use-document-title';

const PAGE_FAILED = {
  chunkTitle: 'This page could not be loaded',
  chunkText: 'The connection may have dropped, or FamilyStar was updated while this tab was open. Reload the page to carry on.',
  errorTitle: 'Something went wrong',
  errorText: 'This page ran into a problem. Reloading it usually helps. Your people and videos are safe.',
} as const;

/** The browsers' words for a module that could not be fetched (Chromium, Firefox, Safari). */
function isLoadFailure(error: Error): boolean {
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(error.message);
}

/** In the shell every first page loads (decision 005's 80 KB): no icons, the UI kit that is there already. */
function PageFailed({ error }: { error: Error }) {
  const loading = isLoadFailure(error);
  const title = loading ? PAGE_FAILED.chunkTitle : PAGE_FAILED.errorTitle;
  useDocumentTitle(title);
  return (
    <div className="container-page flex min-h-[60vh] items-center justify-center py-10">
      <Card className="w-full max-w-md" role="alert">
        <CardContent className="p-6">
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          <p className="mt-4 text-sm text-muted-foreground">{loading ? PAGE_FAILED.chunkText : PAGE_FAILED.errorText}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            {/* A full load: React keeps a failed page chunk failed for the life of the tab. */}
            <Button onClick={() => window.location.reload()}>Reload page</Button>
            <Button asChild variant="outline">
              <a href="/">Go Home</a>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

/**
 * Shows PageFailed instead of its children once they throw. A new `resetKey` (the location, for a page)
 * tries the children again, so going Back or following a link leaves the failure behind.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: Error | null; key: string }> {
  override state = { error: null as Error | null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { error: Error | null; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('A page failed:', error, info.componentStack);
  }

  override render() {
    return this.state.error ? <PageFailed error={this.state.error} /> : this.props.children;
  }
}
