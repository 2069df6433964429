// Video Library (spec 02 §2): tabs All Content, Free and Premium over every template.
import { useMemo, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { useEntitlements } from '@client/features/payments/api/use-entitlements';
import { useDemoLibraryPreparing } from '../api/use-demo-status';
import { useTemplates } from '../api/use-templates';
import { DemoPreparingNote } from '../components/demo-preparing-note';
import { LibraryTabPanel } from '../components/library-tab-panel';
import { NO_FILTERS, TAB_TEXT, ageRangesOf, categoriesOf, type LibraryFilters, type LibraryTab } from '../lib/library-filters';

const TABS: LibraryTab[] = ['all', 'free', 'premium'];

export default function LibraryPage() {
  useDocumentTitle('Video Library');
  const { data: templates, error } = useTemplates();
  // On a first start the demo videos are being made: the library says so and fills as they come.
  const preparing = useDemoLibraryPreparing(templates !== undefined);
  const { user } = useCurrentUser();
  const entitlements = useEntitlements(user?.id);
  const [tab, setTab] = useState<LibraryTab>('all');
  const [filters, setFilters] = useState<Record<LibraryTab, LibraryFilters>>({ all: NO_FILTERS, free: NO_FILTERS, premium: NO_FILTERS });
  const categories = useMemo(() => categoriesOf(templates ?? []), [templates]);
  const ageRanges = useMemo(() => ageRangesOf(templates ?? []), [templates]);

  return (
    <div className="container-page py-8 md:py-10">
      <h1 className="text-3xl font-bold tracking-tight">Video Library</h1>
      <p className="mt-1 text-muted-foreground">Pick an educational video and make it star someone your child loves.</p>

      {error ? (
        <Alert variant="destructive" className="mt-8">
          <AlertTitle>Could not load the library</AlertTitle>
          <AlertDescription>{error.message}</AlertDescription>
        </Alert>
      ) : preparing && templates?.length === 0 ? (
        <DemoPreparingNote className="mt-8" />
      ) : (
        <>
          {preparing && (
            <p role="status" className="mt-6 rounded-xl border border-dashed bg-card/60 px-4 py-3 text-sm text-muted-foreground">
              <span className="font-semibold text-foreground">The demo library is being prepared.</span> More demo videos
              appear here as soon as they are ready.
            </p>
          )}
          <Tabs value={tab} onValueChange={(value) => setTab(value as LibraryTab)} className="mt-8">
            <TabsList className="w-full sm:w-auto">
              {TABS.map((id) => (
                <TabsTrigger key={id} value={id} className="sm:px-6">
                  {TAB_TEXT[id].label}
                </TabsTrigger>
              ))}
            </TabsList>
            {TABS.map((id) => (
              <TabsContent key={id} value={id} className="mt-6">
                <LibraryTabPanel
                  tab={id}
                  templates={templates}
                  categories={categories}
                  ageRanges={ageRanges}
                  filters={filters[id]}
                  onFiltersChange={(next) => setFilters((current) => ({ ...current, [id]: next }))}
                  entitlements={entitlements.data}
                />
              </TabsContent>
            ))}
          </Tabs>
        </>
      )}
    </div>
  );
}
