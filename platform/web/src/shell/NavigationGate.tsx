import type { Identity } from '@portal/core';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { type Kernel, useKernel } from '../context';
import { ensurePluginNamespace } from '../i18n';
import { Extensions, type NavigationGuard, type NavigationGuardContext } from '../plugin';
import { contributionsTo } from './extensions';

/**
 * The guards prepared for one signed-in identity. Keyed by the identity object the kernel caches until sign-out, so
 * a new sign-in prepares again, and every gate of the same identity (layout and page) decides at once, without a flash.
 */
const prepared = new WeakMap<Identity, Promise<NavigationGuard[]>>();
const ready = new WeakMap<Identity, NavigationGuard[]>();
/** Guards prepared when the app started with a stored session, for the first identity that asks. */
let early: Promise<NavigationGuard[]> | null = null;
/** Those guards once prepared: the first gate then decides in its first render, without drawing 'Loading' first. */
let earlyReady: NavigationGuard[] | null = null;

function prepareGuards(kernel: Kernel): Promise<NavigationGuard[]> {
  const ctx = { api: kernel.api, session: kernel.session, brand: kernel.brand };
  return Promise.all(
    contributionsTo(kernel.plugins, Extensions.navigationGuards).map(async (c) => {
      const load = c.load;
      if (!load) throw new Error(`navigation guard ${c.id} has nothing to load`);
      // The guard's preparation (a call to the server) starts as soon as its code is in; its plugin's strings load beside it.
      const [g] = await Promise.all([
        load().then(async ({ default: g }) => {
          // A guard whose preparation fails still decides, with what it has.
          await g.prepare?.(ctx).catch(() => {});
          return g;
        }),
        ensurePluginNamespace(c.pluginId),
      ]);
      return g;
    }),
  );
}

/**
 * Starts loading and preparing the guards at start-up when a session is stored, beside the identity call rather than
 * after it; the first signed-in route uses them.
 */
export function prepareGuardsEarly(kernel: Kernel): void {
  if (contributionsTo(kernel.plugins, Extensions.navigationGuards).length === 0) return;
  const started = prepareGuards(kernel);
  early = started;
  void started.then((list) => {
    if (early === started) earlyReady = list;
  });
}

/** The guards ready for this identity: its own, or the early ones if they are prepared by now (they become its own). */
function readyFor(identity: Identity): NavigationGuard[] | undefined {
  const known = ready.get(identity);
  if (known || !early || !earlyReady) return known;
  prepared.set(identity, early);
  ready.set(identity, earlyReady);
  const list = earlyReady;
  early = null;
  earlyReady = null;
  return list;
}

/** Runs the navigation guards plugins contribute (Extensions.navigationGuards) for a signed-in route. */
export function NavigationGate({ identity, children }: { identity: Identity; children: ReactNode }) {
  const kernel = useKernel();
  const location = useLocation();
  const { t } = useTranslation();
  const contributions = contributionsTo(kernel.plugins, Extensions.navigationGuards);
  const [guards, setGuards] = useState<NavigationGuard[] | null>(() => readyFor(identity) ?? (contributions.length ? null : []));
  const ctx: NavigationGuardContext = { api: kernel.api, session: kernel.session, identity, brand: kernel.brand };

  useEffect(() => {
    const known = readyFor(identity);
    if (known) {
      setGuards(known);
      return;
    }
    let live = true;
    let loading = prepared.get(identity);
    if (!loading) {
      loading = early ?? prepareGuards(kernel);
      early = null;
      earlyReady = null;
      prepared.set(identity, loading);
      void loading.then((list) => ready.set(identity, list));
    }
    void loading.then((list) => live && setGuards(list));
    return () => {
      live = false;
    };
  }, [identity]);

  const current = readyFor(identity) ?? guards;
  if (!current) return <p aria-busy="true">{t('app.loading')}</p>;
  const here = `${location.pathname}${location.search}`;
  for (const g of current) {
    const to = g.redirect({ pathname: location.pathname, search: location.search }, ctx);
    if (to && to !== here && to !== location.pathname) return <Navigate to={to} replace />;
  }
  return <>{children}</>;
}
