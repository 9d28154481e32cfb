import { PRERENDERED_PAGES } from '@portal/core';
import { useSyncExternalStore } from 'react';
import type { DataRouter } from 'react-router-dom';

/**
 * Whether the browser may hydrate the markup in `root`: the build prerendered this path's page into the HTML
 * (root's data-prerendered names the markup's language) and the app starts in that language. Otherwise the app
 * renders afresh over whatever the HTML holds.
 */
export function canHydrate(root: HTMLElement, pathname: string, language: string): boolean {
  return root.dataset.prerendered === language && Object.hasOwn(PRERENDERED_PAGES, pathname) && root.firstElementChild !== null;
}

/** Resolves once the router has loaded the first location's route code, which hydration must render at once. */
export function routerReady(router: Pick<DataRouter, 'state' | 'subscribe'>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

const subscribeToNothing = () => () => {};

/**
 * False in the prerender and while React hydrates it (the server's snapshot), true from the next render on and
 * whenever a page renders afresh. What a prerendered control must not do before the app runs (send the sign-in
 * form, which would otherwise go to the server as a plain form) waits for it.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
