import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A page in its own chunk, with a way to start loading that chunk before the page is rendered. */
export type LazyPage<P extends object = Record<string, never>> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts loading the page's code (once); rendering the page later does not fetch it again. */
  preload(): Promise<unknown>;
};

export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    // A failed fetch (a dropped connection) is tried again on the next call.
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return Object.assign(lazy(preload), { preload });
}

/** Prefetching is a guess: a failure is ignored here and surfaces when the page is really shown. */
export function prefetch(page: { preload(): Promise<unknown> }): void {
  page.preload().catch(() => undefined);
}
