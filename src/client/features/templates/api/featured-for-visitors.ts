// The landing page's featured templates, and whether a first start is making the demo library, read
// without the query library, which a visitor's first page does not load (decision 005). The same answers
// as useFeaturedTemplates with useDemoLibraryPreparing: the list read once and kept for the next visit of
// the page (until someone signs in or out, as the query cache was emptied then); while it is empty, the
// demo library's status, again every few seconds while it is being made, then the list again.
import { useEffect, useState } from 'react';
import type { DemoLibraryStatus, VideoTemplate } from '@shared/api-types';
import { getJson } from '@client/lib/api';
import { signInsAndOuts } from '@client/features/auth/api/use-current-user';
import type { FeaturedTemplatesAnswer } from '../components/featured-templates-view';

export const FEATURED_TEMPLATES_PATH = '/api/videoTemplates/featured';
export const DEMO_STATUS_PATH = '/api/videoTemplates/demo-status';
/** How often a page looks again while the demo library is being made (it takes 20–30 s in all). */
export const DEMO_STATUS_POLL_MS = 3000;

interface Read {
  /** undefined when the list could not be read (and none was read before). */
  templates: VideoTemplate[] | undefined;
  failed: boolean;
  preparing: boolean;
  signIns: number;
}

let kept: Read | undefined;
const keptForThisVisitor = () => (kept?.signIns === signInsAndOuts() ? kept : undefined);

export function useFeaturedTemplatesForVisitor(): FeaturedTemplatesAnswer {
  const [read, setRead] = useState(keptForThisVisitor);

  useEffect(() => {
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = (changes: Partial<Read>) => {
      kept = { templates: undefined, failed: false, preparing: false, ...keptForThisVisitor(), ...changes, signIns: signInsAndOuts() };
      if (active) setRead(kept);
    };
    // A failed read keeps the list read before, as a failed query kept its data.
    const readList = () =>
      getJson<VideoTemplate[]>(FEATURED_TEMPLATES_PATH, { on401: 'throw' }).then(
        (templates) => ({ templates, failed: false }),
        () => ({ templates: keptForThisVisitor()?.templates, failed: true }),
      );
    const pause = () => new Promise((resolve) => (timer = setTimeout(resolve, DEMO_STATUS_POLL_MS)));

    async function watchDemoLibrary(wasPreparing: boolean) {
      while (active) {
        // An unanswered question changes nothing: the status known before still holds.
        const status = await getJson<DemoLibraryStatus>(DEMO_STATUS_PATH, { on401: 'throw' }).catch(() => undefined);
        if (!active) return;
        const preparing = status?.preparing ?? wasPreparing;
        if (!preparing) {
          // Made: the list is read again, and shown in place of the note.
          if (wasPreparing) show({ ...(await readList()), preparing: false });
          else show({ preparing: false });
          return;
        }
        show({ preparing: true });
        await pause();
        wasPreparing = true;
      }
    }

    void (async () => {
      let current = keptForThisVisitor();
      if (!current) {
        show(await readList());
        current = keptForThisVisitor();
      }
      if (active && current?.templates?.length === 0) await watchDemoLibrary(current.preparing);
    })();
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, []);

  return { templates: read?.templates, isLoading: read === undefined, isError: read?.failed ?? false, preparing: read?.preparing ?? false };
}
