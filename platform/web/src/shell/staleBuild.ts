import type { ComponentType } from 'react';

/**
 * A page's code that can no longer be fetched: the site was deployed again while this tab was open, and the chunk
 * names the tab knows are gone. Browsers word it differently (Chromium, WebKit, Gecko); Vite's preload helper throws
 * "Unable to preload CSS for ..." when a chunk's style sheet is gone.
 */
export function isStaleBuildError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  );
}

const KEY = 'cq.staleReloadAt';
/** A reload for a stale build happens at most once in this many ms, so a chunk that stays missing cannot loop. */
export const STALE_RELOAD_WINDOW_MS = 30_000;

/**
 * Whether to reload the tab for a stale build now, and if so notes the time: the reload fetches the new index and
 * its chunk names. No when this tab already reloaded for it within the window, or the tab's storage cannot tell.
 */
export function claimStaleReload(storage: Pick<Storage, 'getItem' | 'setItem'>, now = Date.now()): boolean {
  try {
    const last = Number(storage.getItem(KEY));
    if (Number.isFinite(last) && last > 0 && now - last < STALE_RELOAD_WINDOW_MS) return false;
    storage.setItem(KEY, String(now));
    return true;
  } catch {
    return false;
  }
}

/**
 * A route's lazy function whose failure (its code could not be fetched) becomes that route's error. React Router 7
 * keeps a route whose lazy function rejected marked as still loading and renders nothing in its place (an empty page
 * area, no error); a component that throws the failure instead reaches the route's ErrorBoundary, as a page that fails
 * to render does.
 */
export function failsAsPage<T extends object>(lazy: () => Promise<T>): () => Promise<T | { Component: ComponentType }> {
  return async () => {
    try {
      return await lazy();
    } catch (error) {
      return {
        Component: () => {
          throw error;
        },
      };
    }
  };
}
