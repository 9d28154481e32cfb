import { type BrandManifest, KernelApi, PLUGIN_API_VERSION } from '@portal/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { Provider as JotaiProvider } from 'jotai';
import { type ComponentType, StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, type DataRouter, type RouteObject, RouterProvider } from 'react-router-dom';
import { ApiClient } from '../api/client';
import { ApiCallError, retryQuery } from '../api/errors';
import { clientNotices } from '../api/notices';
import { type Kernel, KernelContext } from '../context';
import { createI18n, ensurePluginNamespace, initialLanguage, type LazyNamespace, loadNamespaces } from '../i18n';
import { LocaleProvider } from '../i18n/LocaleProvider';
import { endImpersonationFor, impersonationHeaderFor, initImpersonation, setImpersonation } from '../impersonation/store';
import { KitProvider } from '../kit/KitProvider';
import { Extensions, type KernelWebPlugin } from '../plugin';
import { SessionStore } from '../session/storage';
import { followUserInput } from '../session/userActivity';
import { impersonationAtom, kernelStore, loadingCountAtom, showMessageToast, showToast } from '../store';
import { LoadingBar } from '../toast/LoadingBar';
import { Toaster } from '../toast/Toaster';
import { type PrefetchContext, preloadContributions } from './extensions';
import { forgetMemberData, forgetSessionData } from './forget';
import { canHydrate, routerReady } from './prerendered';
import { RequireAccess } from './RequireAccess';
import { RouteError } from './RouteError';
import { flattenRoutes } from './routes';
import type { sessionFlow } from './sessionFlow';
import { hintedLanding, prefetchAfterPage, prefetchSignedIn, rolesHint } from './signedIn';
import { failsAsPage } from './staleBuild';

const kernelPages = () => import('../pages/KernelPages');

/**
 * The router's routes. `rolesHint` names the signed-in user's roles as the stored access token says (unverified), so
 * a page's `shows` contributions start loading with its code; null when nobody is signed in.
 */
export function buildRoutes(
  plugins: readonly KernelWebPlugin[],
  rolesHint: () => readonly string[] | null = () => null,
  prefetch?: PrefetchContext,
): RouteObject[] {
  const flat = flattenRoutes(plugins);
  const toRoute = (r: (typeof flat)[number]): RouteObject => ({
    ErrorBoundary: RouteError,
    path: r.path,
    handle: { title: r.title, namespace: r.namespace },
    lazy: failsAsPage(async () => {
      if (r.shows?.length) preloadContributions(plugins, r.shows, rolesHint(), prefetch);
      // The page's code and its plugin's strings (with the kit's) load in parallel.
      const [{ default: Page }] = await Promise.all([r.load(), ensurePluginNamespace(r.pluginId)]);
      return {
        Component: () => (
          <RequireAccess access={r.access} memberData={r.memberData}>
            <Page />
          </RequireAccess>
        ),
      };
    }),
  });
  // Navigation labels (entries and groups) come from the plugins' namespaces: load them with the signed-in layout,
  // never on the sign-in page.
  const navNamespaces = plugins
    .filter((p) => p.routes.some((r) => r.nav) || p.contributes?.some((c) => c.point.id === Extensions.navGroups.id))
    .map((p) => p.i18n.namespace);
  // Every route shows the kernel's RouteError when its code cannot be loaded or its page fails, never the router's own.
  const page = (route: { path?: string; index?: true }, load: () => Promise<ComponentType>): RouteObject =>
    ({ ...route, ErrorBoundary: RouteError, lazy: failsAsPage(async () => ({ Component: await load() })) }) as RouteObject;
  return [
    page({ path: '/login' }, async () => (await import('../pages/LoginPage')).default),
    page({ path: '/register' }, async () => {
      const Login = (await import('../pages/LoginPage')).default;
      return () => <Login openRegister />;
    }),
    page({ path: '/activated/:token' }, async () => (await kernelPages()).ActivatedTokenPage),
    page({ path: '/t/:token' }, async () => (await kernelPages()).PrintTokenPage),
    page({ path: '/invalid' }, async () => (await kernelPages()).InvalidPage),
    // Public, as the spec lists it: it hands over to a page of this site, which asks for a sign-in itself if it needs one.
    page({ path: '/transition' }, async () => (await kernelPages()).TransitionPage),
    ...flat.filter((r) => r.layout === 'bare').map(toRoute),
    {
      ErrorBoundary: RouteError,
      HydrateFallback: () => null,
      // The signed-in layout's code loads with its namespaces (in parallel, one step): the sign-in page needs neither.
      lazy: async () => {
        const [{ Layout }] = await Promise.all([loadLayout(), loadNamespaces(navNamespaces)]);
        return {
          element: (
            <RequireAccess access="authenticated">
              <Layout />
            </RequireAccess>
          ),
        };
      },
      children: [
        page({ index: true }, async () => (await kernelPages()).HomeRedirect),
        ...flat.filter((r) => r.layout !== 'bare').map(toRoute),
        // Its title is the layout's heading (one h1 a page), as every page's is.
        { ...page({ path: '*' }, async () => (await kernelPages()).NotFoundPage), handle: { title: 'app.notFoundTitle' } },
      ],
    },
  ];
}

/** The signed-in layout's code, asked for once: by the route, and early when a session is stored (startApp). */
let layoutLoad: Promise<typeof import('./Layout')> | null = null;
const loadLayout = () => (layoutLoad ??= import('./Layout'));

/**
 * Starts the session expiry watch (session/watch) once a session is stored (a sign-in, or a returning signed-in tab),
 * loading its code then; it runs on from there, signed in or out. Input in the tab is noted from the start, so a user
 * at work is known as such when their session nears its end.
 */
function SessionWatch({ kernel, i18n }: { kernel: Kernel; i18n: i18n }) {
  useEffect(() => {
    followUserInput();
    let stop: (() => void) | undefined;
    let gone = false;
    const wait = setInterval(() => {
      if (!kernel.session.tokens()) return;
      clearInterval(wait);
      void import('../session/watch').then((m) => {
        if (!gone) stop = m.watchSession(kernel, i18n);
      });
    }, 1000);
    return () => {
      gone = true;
      clearInterval(wait);
      stop?.();
    };
  }, [kernel, i18n]);
  return null;
}

export interface AppTreeProps {
  i18n: i18n;
  queryClient: QueryClient;
  kernel: Kernel;
  router: DataRouter;
}

/**
 * The app's element tree around the router: one definition for the browser's render, its hydration of a prerendered
 * page and the build's prerender (./prerender.tsx), so the markup the build writes is the markup the browser makes.
 */
export function AppTree({ i18n, queryClient, kernel, router }: AppTreeProps) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <JotaiProvider store={kernelStore}>
          <QueryClientProvider client={queryClient}>
            <KernelContext.Provider value={kernel}>
              <LoadingBar />
              <Toaster />
              <SessionWatch kernel={kernel} i18n={i18n} />
              <KitProvider notify={showMessageToast}>
                <LocaleProvider>
                  <RouterProvider router={router} />
                </LocaleProvider>
              </KitProvider>
            </KernelContext.Provider>
          </QueryClientProvider>
        </JotaiProvider>
      </I18nextProvider>
    </StrictMode>
  );
}

/**
 * The query client of the app (and of the prerender, whose markup must match). Calls go out whatever the browser says
 * of its network (networkMode 'always'): offline, a save or a load fails at once with the API client's words, instead
 * of waiting unseen and going out whenever the network comes back (a subscription charged minutes later, from a page
 * the member has left). Loads still refetch on reconnect.
 */
export const newQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      // In this mode react-query would not refetch on reconnect by itself: asked for, as before.
      queries: { retry: retryQuery, refetchOnWindowFocus: false, staleTime: 30_000, networkMode: 'always', refetchOnReconnect: true },
      mutations: { networkMode: 'always' },
    },
  });

export interface StartOptions {
  brand: BrandManifest;
  plugins: readonly KernelWebPlugin[];
  /** i18n namespaces beyond the kernel's and the plugins', loaded with every plugin page and contribution (the kit). */
  extraNamespaces?: LazyNamespace[];
  root: HTMLElement;
}

/** Assembles and renders the app for one brand from its enabled plugins. */
export function startApp({ brand, plugins, extraNamespaces = [], root }: StartOptions) {
  for (const p of plugins) if (p.apiVersion !== PLUGIN_API_VERSION) throw new Error(`plugin ${p.id} speaks plugin API ${p.apiVersion}`);
  const { i18n, ready: i18nReady } = createI18n({ plugins, shared: extraNamespaces, brand, language: initialLanguage() });
  const session = new SessionStore();
  const queryClient = newQueryClient();
  // A returning signed-in user opening '/': go straight to their landing page (the home redirect stays for users
  // without a token naming roles).
  const landing = window.location.pathname === '/' ? hintedLanding(brand, plugins, session) : null;
  if (landing && landing !== '/') window.history.replaceState(window.history.state, '', `${landing}${window.location.search}${window.location.hash}`);
  const api = new ApiClient(session, {
    // One announcement a failure: error toasts keyed by their words, a read's held back while a query asks again.
    notify: clientNotices(showToast),
    // Says why, then back to this page after the same user's sign-in (sessionFlow).
    sessionEnded: () => void flow().then((f) => f.sessionEnded()),
    loading: (d) => kernelStore.set(loadingCountAtom, (n) => Math.max(0, n + d)),
    impersonatedMemberId: () => impersonationHeaderFor(kernelStore.get(impersonationAtom), rolesHint(session)),
    failed: (status, dataCall) => (dataCall ? i18n.t('api.dataFailed') : status ? i18n.t('api.failed', { status }) : i18n.t('api.unreachable')),
  });
  // Another member acted for (here or in another tab): nothing of the previous member's stays on screen or in the cache.
  const refreshData = () => forgetMemberData(queryClient);
  // The stored impersonation, read before the first call: staff acting for a member ask for that member's data from
  // the first call on (the identity, the landing page's widgets), and the first render shows it.
  initImpersonation(refreshData);
  // How a session ends (sessionFlow): loaded once after the first page (prefetched below), not on the sign-in path.
  let flowLoad: Promise<ReturnType<typeof sessionFlow>> | null = null;
  const flow = () =>
    (flowLoad ??= import('./sessionFlow').then(({ sessionFlow }) =>
      sessionFlow({
        router: {
          get state() {
            return router.state;
          },
          navigate: (to, opts) => router.navigate(to, opts),
        },
        queryClient,
        session,
        api,
        endImpersonation: () => endImpersonationFor(null, () => {}),
        toastEnded: () => showToast({ kind: 'info', message: i18n.t('session.ended'), key: 'session-ended' }),
      }),
    ));
  const kernel: Kernel = {
    api,
    session,
    brand,
    plugins,
    // A session that ran out (silent, not one the user ended) comes back to this page after the same user's next
    // sign-in (spec 01 section 2), as one the API found ended does.
    signOut: (opts) => flow().then((f) => f.signOut(opts)),
    handOver: async (accessToken) => {
      if (session.tokens()) await api.call(KernelApi.signout, undefined, { notify: false }).catch(() => {});
      session.clear();
      queryClient.clear();
      endImpersonationFor(null, () => {});
      try {
        // Exchanged for this tab's own session (refresh and anti-forgery tokens with it): the handed token alone could
        // read but not change anything, and it is spent by the exchange.
        await api.exchange(accessToken);
      } catch (e) {
        // A token the server refuses (its session ended, already handed over, another site's): no session; the page
        // goes on to the sign-in, where the client's toast says why. Anything else (no answer) is the page's failure.
        if (e instanceof ApiCallError && e.status === 400) return;
        throw e;
      }
    },
    refreshSession: async (quiet) => {
      try {
        await api.refresh();
        if (!quiet) showToast({ kind: 'success', message: i18n.t('session.refreshed'), key: 'session-expiry' });
      } catch {
        await kernel.signOut({ silent: true });
      }
    },
    sessionStarted: () => {
      // A user who may not act for a member (a member on a browser a staff user acted from) starts acting for nobody.
      endImpersonationFor(rolesHint(session), () => {}, session.user());
      // Nothing cached for an earlier session is the new user's: only the site's configuration and lookups stay.
      forgetSessionData(queryClient);
      void loadLayout();
      prefetchSignedIn(kernel, queryClient);
      // After the caller's navigation to the landing page has asked for that page's code and data.
      setTimeout(() => {
        prefetchAfterPage(kernel, queryClient);
        void flow();
      }, 0);
      return hintedLanding(brand, plugins, session);
    },
    setImpersonation: (memberId) => setImpersonation(memberId, refreshData, session.user()),
  };
  // A returning signed-in user: the calls that decide whether the landing page may open go first, then the router
  // starts that page's code, strings and widgets' data, then what the page does not wait for (see signedIn.ts).
  const signedIn = session.tokens() !== null;
  if (signedIn) prefetchSignedIn(kernel, queryClient);
  const router = createBrowserRouter(buildRoutes(plugins, () => rolesHint(session), { api, queryClient, plugins }));
  if (signedIn) {
    void loadLayout();
    prefetchAfterPage(kernel, queryClient);
    void flow();
  }

  const tree = <AppTree i18n={i18n} queryClient={queryClient} kernel={kernel} router={router} />;
  // The sign-in page comes prerendered in the brand's HTML (apps/web/build.ts): React takes over that markup once the
  // route's code and the strings are in, instead of painting the page again. Any other page, or a prerender in
  // another language than this browser's, renders afresh (React replaces the prerendered markup).
  const hydrate = canHydrate(root, window.location.pathname, i18n.language);
  const render = () => {
    if (!hydrate) {
      createRoot(root).render(tree);
      return;
    }
    void routerReady(router).then(() => {
      hydrateRoot(root, tree, {
        // A mismatch is recovered by rendering afresh; say so, so the end-to-end journeys catch it.
        onRecoverableError: (error) => console.error('The prerendered page did not match:', error),
      });
      root.dataset.hydrated = 'true';
    });
  };
  // English renders at once (its kernel strings are in the bundle); Spanish waits for its kernel strings, while
  // the router already loads the route's code.
  if (i18n.isInitialized) render();
  else void i18nReady.then(render);
  return kernel;
}
