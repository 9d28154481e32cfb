import type { Identity } from '@portal/core';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { type Kernel, useKernel } from '../context';
import { ensurePluginNamespace } from '../i18n';
import { Extensions, type NavigationGuard, type NavigationGuardContext, type NavigationGuardMeta } from '../plugin';
import { contributionsTo } from './extensions';

type Where = { pathname: string; search: string };

/**
 * One sign-in's navigation guards: their preparations (each contribution's `prepare`, from the manifest) and their code
 * (each chunk, with its plugin's strings). The preparation starts with the set, so a guard's call to the server does not
 * wait for its code; the code starts with `loadCode` (see loadGuardsEarly), at the latest when a gate first asks. Each
 * is noted when done, and the gates showing 'Loading' are told.
 */
class GuardSet {
  prepared: boolean;
  guards: NavigationGuard[] | null;
  /** Counts the changes: a gate that rendered an older one renders again. */
  version = 0;
  private readonly listeners = new Set<() => void>();
  /** This site's guard contributions, in their order. */
  private readonly contributions: ReturnType<typeof contributionsTo<NavigationGuard, NavigationGuardMeta>>;
  private codeStarted = false;

  constructor(kernel: Kernel) {
    const contributions = contributionsTo(kernel.plugins, Extensions.navigationGuards);
    this.contributions = contributions;
    this.prepared = contributions.every((c) => !c.prepare);
    this.guards = contributions.length ? null : [];
    if (!contributions.length) return;
    const ctx = { api: kernel.api, session: kernel.session, brand: kernel.brand };
    if (!this.prepared)
      // A guard whose preparation fails still decides, with what it has.
      void Promise.all(contributions.map((c) => c.prepare?.(ctx).catch(() => {}))).then(() => this.settle(() => (this.prepared = true)));
  }

  /** Starts loading the guards' code and their plugins' strings, once. */
  loadCode(): void {
    if (this.codeStarted || this.guards) return;
    this.codeStarted = true;
    void Promise.all(
      this.contributions.map(async (c) => {
        const load = c.load;
        if (!load) throw new Error(`navigation guard ${c.id} has nothing to load`);
        const [{ default: g }] = await Promise.all([load(), ensurePluginNamespace(c.pluginId)]);
        return g;
      }),
    ).then((list) => this.settle(() => (this.guards = list)));
  }

  private settle(change: () => void) {
    change();
    this.version++;
    for (const l of this.listeners) l();
  }

  /** Calls `listener` on each change until the returned function is called. */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Where the guards send `location`: a path elsewhere, null to let it through, or undefined while they cannot tell.
   * The first guard that names another path wins. Once prepared, guards that say they certainly pass it (`passes`)
   * need not have their code in.
   */
  decide(location: Where, ctx: NavigationGuardContext): string | null | undefined {
    if (!this.prepared) return undefined;
    if (this.guards) {
      const here = `${location.pathname}${location.search}`;
      for (const g of this.guards) {
        const to = g.redirect(location, ctx);
        if (to && to !== here && to !== location.pathname) return to;
      }
      return null;
    }
    return this.contributions.every((c) => c.passes?.(location, ctx) === true) ? null : undefined;
  }
}

/**
 * The guards of each signed-in identity. Keyed by the identity object the kernel caches until sign-out, so a new
 * sign-in prepares again, and every gate of the same identity (layout and page) decides at once, without a flash.
 */
const sets = new WeakMap<Identity, GuardSet>();
/**
 * The user the guards last served, and theirs. The identity is fetched again within a session (a member renamed on the
 * profile page sees the new name in the navigation bar): the new object is the same user's, and keeps the guards, so
 * the page is not replaced by 'Loading' and drawn anew. A new sign-in brings its own (`early`) first.
 */
let latest: { userId: string; set: GuardSet } | null = null;
/** Guards started when a session began (sign-in, or start-up with a stored one), for the first identity that asks. */
let early: GuardSet | null = null;

/**
 * Starts preparing the guards as soon as a session exists, beside the identity call rather than after it; the first
 * signed-in route uses them.
 */
export function prepareGuardsEarly(kernel: Kernel): void {
  if (contributionsTo(kernel.plugins, Extensions.navigationGuards).length === 0) return;
  early = new GuardSet(kernel);
}

/**
 * Starts loading the code of the guards prepareGuardsEarly prepares. Asked for after the first page's own code and
 * data: a prepared guard that passes the page (`passes`) does not hold it for its code.
 */
export function loadGuardsEarly(): void {
  early?.loadCode();
}

/** This identity's guards, if started: its own, or the early ones (which become its own); their code is loading. */
function startedFor(identity: Identity): GuardSet | undefined {
  if (!sets.has(identity)) {
    if (early) {
      sets.set(identity, early);
      early = null;
    } else if (identity.Id && latest?.userId === identity.Id) sets.set(identity, latest.set);
  }
  const set = sets.get(identity);
  if (set) {
    latest = { userId: identity.Id, set };
    set.loadCode();
  }
  return set;
}

/** Runs the navigation guards plugins contribute (Extensions.navigationGuards) for a signed-in route. */
export function NavigationGate({ identity, children }: { identity: Identity; children: ReactNode }) {
  const kernel = useKernel();
  const location = useLocation();
  const { t } = useTranslation();
  const [, rerender] = useState(0);
  const ctx: NavigationGuardContext = { api: kernel.api, session: kernel.session, identity, brand: kernel.brand };
  const none = contributionsTo(kernel.plugins, Extensions.navigationGuards).length === 0;

  const set = none ? undefined : startedFor(identity);
  const seen = set ? set.version : -1;

  useEffect(() => {
    if (none) return;
    let mine = startedFor(identity);
    if (!mine) {
      mine = new GuardSet(kernel);
      mine.loadCode();
      sets.set(identity, mine);
      latest = { userId: identity.Id, set: mine };
    }
    const stop = mine.watch(() => rerender((n) => n + 1));
    // What changed between the render and this effect.
    if (mine.version !== seen) rerender((n) => n + 1);
    return stop;
  }, [identity]);

  const to = none ? null : set?.decide({ pathname: location.pathname, search: location.search }, ctx);
  if (to === undefined) return <p aria-busy="true">{t('app.loading')}</p>;
  if (to) return <Navigate to={to} replace />;
  return <>{children}</>;
}
