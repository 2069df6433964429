import { createElement, lazy, useState, type ComponentType } from 'react';

/** A page in its own chunk, with a way to start loading that chunk before the page is rendered. */
export type LazyPage<P extends object = Record<string, never>> = ComponentType<P> & {
  /** Starts loading the page's code (once); rendering the page later does not fetch it again. */
  preload(): Promise<unknown>;
};

export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = () => {
    // A failed fetch (a dropped connection) is tried again on the next call.
    loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const LazyComponent = lazy(preload);
  // A page whose code is already here renders at once. React.lazy would suspend even then, once: a
  // placeholder, which React then keeps on screen for at least 300 ms. Decided when the page is first
  // shown, so that it never changes under a page on screen.
  function Page(props: P) {
    const [LoadedPage] = useState(() => loaded);
    return createElement(LoadedPage ?? LazyComponent, props);
  }
  return Object.assign(Page, { preload });
}

type PageModule<P extends object> = { default: ComponentType<P> };

/**
 * A chunk's loader that brings the query library with the component and puts its client around it: for
 * the pages and menus that read server data. The pages a visitor opens first do without (decision 005).
 */
export function withQueries<P extends object>(load: () => Promise<PageModule<P>>): () => Promise<PageModule<P>> {
  return () =>
    Promise.all([load(), import('./query-provider')]).then(([module, { withQueryClient }]) => ({ default: withQueryClient(module.default) }));
}

/** Prefetching is a guess: a failure is ignored here and surfaces when the page is really shown. */
export function prefetch(page: { preload(): Promise<unknown> }): void {
  page.preload().catch(() => undefined);
}
