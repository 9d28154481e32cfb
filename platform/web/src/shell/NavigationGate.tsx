import type { Identity } from '@portal/core';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { type Kernel, useKernel } from '../context';
import { Extensions, type NavigationGuard, type NavigationGuardContext } from '../plugin';
import { contributionsTo, loadContribution } from './extensions';

/**
 * The guards prepared for one signed-in identity. Keyed by the identity object the kernel caches until sign-out, so
 * a new sign-in prepares again, and every gate of the same identity (layout and page) decides at once, without a flash.
 */
const prepared = new WeakMap<Identity, Promise<NavigationGuard[]>>();
const ready = new WeakMap<Identity, NavigationGuard[]>();
/** Guards prepared when the app started with a stored session, for the first identity that asks. */
let early: Promise<NavigationGuard[]> | null = null;

function prepareGuards(kernel: Kernel): Promise<NavigationGuard[]> {
  const ctx = { api: kernel.api, session: kernel.session, brand: kernel.brand };
  return Promise.all(
    contributionsTo(kernel.plugins, Extensions.navigationGuards).map(async (c) => {
      const g = await loadContribution(c);
      // A guard whose preparation fails still decides, with what it has.
      await g.prepare?.(ctx).catch(() => {});
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
  early = prepareGuards(kernel);
}

/** Runs the navigation guards plugins contribute (Extensions.navigationGuards) for a signed-in route. */
export function NavigationGate({ identity, children }: { identity: Identity; children: ReactNode }) {
  const kernel = useKernel();
  const location = useLocation();
  const { t } = useTranslation();
  const contributions = contributionsTo(kernel.plugins, Extensions.navigationGuards);
  const [guards, setGuards] = useState<NavigationGuard[] | null>(() => ready.get(identity) ?? (contributions.length ? null : []));
  const ctx: NavigationGuardContext = { api: kernel.api, session: kernel.session, identity, brand: kernel.brand };

  useEffect(() => {
    const known = ready.get(identity);
    if (known) {
      setGuards(known);
      return;
    }
    let live = true;
    let loading = prepared.get(identity);
    if (!loading) {
      loading = early ?? prepareGuards(kernel);
      early = null;
      prepared.set(identity, loading);
      void loading.then((list) => ready.set(identity, list));
    }
    void loading.then((list) => live && setGuards(list));
    return () => {
      live = false;
    };
  }, [identity]);

  const current = ready.get(identity) ?? guards;
  if (!current) return <p aria-busy="true">{t('app.loading')}</p>;
  const here = `${location.pathname}${location.search}`;
  for (const g of current) {
    const to = g.redirect({ pathname: location.pathname, search: location.search }, ctx);
    if (to && to !== here && to !== location.pathname) return <Navigate to={to} replace />;
  }
  return <>{children}</>;
}
