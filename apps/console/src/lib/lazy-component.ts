import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export type PreloadableComponent<P> = LazyExoticComponent<ComponentType<P>> & {
  /** Fetches the component's code now (e.g. once the page around it has painted), so opening it does not wait. */
  preload: () => Promise<unknown>;
};

/**
 * A component whose code is its own chunk, fetched on first render (or earlier through `preload`): for dialogs and
 * other parts a page shows only on demand, so the page's first load does not pay for them (issue 16). Render it
 * inside a `<Suspense>` and only when it is wanted (a closed dialog that is never opened costs nothing).
 */
export function lazyComponent<P>(load: () => Promise<ComponentType<P>>): PreloadableComponent<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const fetchOnce = () => {
    loading ??= load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        loading = undefined; // A failed fetch (offline) is tried again on the next render.
        throw error;
      },
    );
    return loading;
  };
  return Object.assign(lazy(fetchOnce), { preload: () => fetchOnce().catch(() => undefined) });
}

/** Runs `task` once the browser is idle (or soon, where `requestIdleCallback` is missing); returns a canceller. */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: 2000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 200);
  return () => window.clearTimeout(handle);
}
