import type { BrandManifest, Language } from '@portal/core';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router-dom';
import { ApiClient } from '../api/client';
import type { Kernel } from '../context';
import { createI18n, type LazyNamespace } from '../i18n';
import type { KernelWebPlugin } from '../plugin';
import { SessionStore } from '../session/storage';
import { routerReady } from './prerendered';
import { AppTree, buildRoutes, newQueryClient } from './startApp';

export interface PrerenderOptions {
  brand: BrandManifest;
  plugins: readonly KernelWebPlugin[];
  extraNamespaces?: LazyNamespace[];
  language: Language;
  /** A path of PRERENDERED_PAGES. */
  path: string;
}

/**
 * The markup of a page as the browser's first render makes it for somebody not signed in: the same element tree
 * (AppTree) and routes, with a memory router at `path`, the language's strings loaded and no calls made. Run by
 * the build (apps/web/build.ts) in Node; the browser hydrates the result (startApp, ./prerendered.ts).
 */
export async function prerenderPage({ brand, plugins, extraNamespaces = [], language, path }: PrerenderOptions): Promise<string> {
  const { i18n, ready } = createI18n({ plugins, shared: extraNamespaces, brand, language });
  await ready;
  if (i18n.language !== language) throw new Error(`the ${language} strings did not load`);
  // In Node the session store is an empty in-memory one: nobody is signed in.
  const session = new SessionStore();
  const refuse = () => Promise.reject(new Error('no calls while prerendering'));
  const api = new ApiClient(session, { notify: () => {}, sessionEnded: () => {}, loading: () => {}, impersonatedMemberId: () => null }, refuse);
  const kernel: Kernel = {
    api,
    session,
    brand,
    plugins,
    signOut: refuse,
    handOver: refuse,
    refreshSession: refuse,
    sessionStarted: () => {
      throw new Error('no sign-in while prerendering');
    },
    setImpersonation: () => {},
  };
  const router = createMemoryRouter(buildRoutes(plugins), { initialEntries: [path] });
  await routerReady(router);
  if (router.state.errors) throw new Error(`prerendering ${path}: ${JSON.stringify(router.state.errors)}`);
  return renderToString(<AppTree i18n={i18n} queryClient={newQueryClient()} kernel={kernel} router={router} />);
}
