// The browser location as the app renders it: deferred, so that on a navigation React keeps the current
// page on screen while the next one (and its chunk) gets ready, instead of blanking the page. The address
// bar changes at once; the page follows when it can be shown whole.
import { useDeferredValue } from 'react';
import { useLocation, type BaseLocationHook } from 'wouter';
import { useBrowserLocation, usePathname, useSearch } from 'wouter/use-browser-location';

function useDeferredSearch(options?: { ssrSearch?: string }): string {
  return useDeferredValue(useSearch(options));
}

function useDeferredBrowserLocation(options?: { ssrPath?: string }): ReturnType<typeof useBrowserLocation> {
  const [location, navigate] = useBrowserLocation(options);
  return [useDeferredValue(location), navigate];
}

/** wouter's location hook (with its search hook) for <Router hook={…}>. */
export const useDeferredLocation: BaseLocationHook = Object.assign(useDeferredBrowserLocation, { searchHook: useDeferredSearch });

/**
 * True while the address bar is already at another page than the one shown: the next page is being
 * prepared. A guard must not redirect from the page on its way out (logging out sends the user to
 * /landing and empties the user in the same step).
 */
export function useNavigationPending(): boolean {
  const [shown] = useLocation();
  return usePathname() !== shown;
}
