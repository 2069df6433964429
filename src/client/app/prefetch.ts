// Pages load on demand; these hooks make "on demand" usually mean "already here" without making a
// visitor on a phone pay for the signed-in app: a link's page is fetched when the pointer rests on it,
// it gets focus or a finger touches it; the signed-in navigation's pages once a signed-in page is idle;
// home as soon as a visitor starts filling the sign-in form.
import { useEffect } from 'react';
import { prefetch } from './lazy-page';
import { pageForPath } from './pages';

function prefetchPaths(paths: readonly string[]): void {
  for (const path of paths) {
    const page = pageForPath(path);
    if (page) prefetch(page);
  }
}

const INTENT_EVENTS = ['pointerover', 'focusin', 'touchstart'] as const;

export function usePrefetchOnIntent(): void {
  useEffect(() => {
    const onIntent = (event: Event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
      const page = pageForPath(link.pathname);
      if (page) prefetch(page);
    };
    const options = { capture: true, passive: true };
    for (const type of INTENT_EVENTS) document.addEventListener(type, onIntent, options);
    return () => {
      for (const type of INTENT_EVENTS) document.removeEventListener(type, onIntent, options);
    };
  }, []);
}

/** The browser or the user asked to spare data, or the connection is too slow to spend it on guesses. */
function sparingData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  return connection?.saveData === true || /2g$/.test(connection?.effectiveType ?? '');
}

/** Fetches the pages at these addresses once the page on screen has painted and the browser is idle. */
export function usePrefetchWhenIdle(paths: readonly string[]): void {
  const key = paths.join(' ');
  useEffect(() => {
    if (!key || sparingData()) return;
    const load = () => prefetchPaths(key.split(' '));
    // Safari before 18.4 has no requestIdleCallback.
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(load, { timeout: 3000 });
      return () => window.cancelIdleCallback(handle);
    }
    const handle = setTimeout(load, 1500);
    return () => clearTimeout(handle);
  }, [key]);
}

/** Fetches the pages at these addresses when the user first focuses something on the page (a form field). */
export function usePrefetchOnFirstFocus(paths: readonly string[]): void {
  const key = paths.join(' ');
  useEffect(() => {
    if (!key) return;
    const load = () => prefetchPaths(key.split(' '));
    document.addEventListener('focusin', load, { capture: true, once: true });
    return () => document.removeEventListener('focusin', load, { capture: true });
  }, [key]);
}
