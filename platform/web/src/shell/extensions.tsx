import { decideAccess } from '@portal/core';
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { useKernel, useRoles } from '../context';
import { withPluginNamespace } from '../i18n';
import type { Contribution, ExtensionPoint, GatedMeta, KernelWebPlugin, PrefetchContext } from '../plugin';

export type { PrefetchContext };

type Of<T, M> = Contribution<T, M> & { pluginId: string };

/** Every contribution of the enabled plugins to one point, ordered (by `order` when the point has one, else by plugin). */
export function contributionsTo<T, M>(plugins: readonly KernelWebPlugin[], point: ExtensionPoint<T, M>): Of<T, M>[] {
  const found = plugins.flatMap((p) => (p.contributes ?? []).filter((c) => c.point.id === point.id)) as unknown as Of<T, M>[];
  const order = (c: Of<T, M>) => (c as unknown as Partial<GatedMeta>).order ?? 0;
  return found.sort((a, b) => order(a) - order(b) || a.id.localeCompare(b.id));
}

/** The contributions this user may see: role-gated ones by their access (like routes), the rest always. */
export function visibleContributions<T, M>(items: readonly Of<T, M>[], roles: readonly string[] | null): Of<T, M>[] {
  return items.filter((c) => {
    const access = (c as unknown as Partial<GatedMeta>).access;
    return access === undefined || decideAccess(access, roles) === 'allow';
  });
}

export function useContributions<T, M>(point: ExtensionPoint<T, M>): Of<T, M>[] {
  const { plugins } = useKernel();
  const roles = useRoles();
  return visibleContributions(contributionsTo(plugins, point), roles);
}

// biome-ignore lint/suspicious/noExplicitAny: one cache for components of every props type
const componentCache = new Map<string, ComponentType<any> | LazyExoticComponent<ComponentType<any>>>();
const loading = new Map<string, Promise<{ default: unknown }>>();
const modules = new Map<string, Promise<{ default: unknown }>>();
/** Contributions whose code and strings have arrived, by key: what a render may use at once. */
const loaded = new Map<string, { default: unknown }>();
const keyOf = (c: { point: { id: string }; id: string }) => `${c.point.id}/${c.id}`;

/** Fetches once per key; a failed fetch may be tried again on the next call. */
function once<V>(cache: Map<string, Promise<V>>, key: string, start: () => Promise<V>): Promise<V> {
  let p = cache.get(key);
  if (!p) {
    p = start();
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}

/** A contribution's code alone, fetched once. */
function moduleOnce<T>(c: Of<T, unknown>): Promise<{ default: T }> {
  const key = keyOf(c);
  const load = c.load;
  if (!load) throw new Error(`contribution ${key} has nothing to load`);
  return once(modules, key, load as () => Promise<{ default: unknown }>) as Promise<{ default: T }>;
}

/** A contribution's code and its plugin's strings, fetched once: a preload and the later render share the request. */
function loadOnce<T>(c: Of<T, unknown>): Promise<{ default: T }> {
  const key = keyOf(c);
  const load = withPluginNamespace(c.pluginId, () => moduleOnce(c));
  return once(loading, key, async () => {
    const m = await load();
    loaded.set(key, m);
    return m;
  }) as Promise<{ default: T }>;
}

/**
 * One component per contribution, cached so re-renders keep its state. When its code and its plugin's strings have
 * already arrived (a page's `shows`, preloaded with the page's code), it is the contribution's own component and
 * renders in the page's first commit. Otherwise it is a lazy component that loads both and suspends meanwhile. A lazy
 * component is never read at once the first time: in a synchronous render (such as the one the identity's arrival
 * makes, an external store's update) React shows the part's fallback even for a settled promise, and the content in a
 * later commit (on the cold landing page at CPU/4 that was one more render and paint, 70–100 ms later).
 */
export function lazyContribution<P>(c: Of<ComponentType<P>, unknown>): ComponentType<P> {
  const key = keyOf(c);
  let component = componentCache.get(key);
  if (!component) {
    if (!c.load) throw new Error(`contribution ${key} has nothing to load`);
    const ready = loaded.get(key);
    component = ready ? (ready.default as ComponentType<P>) : lazy(() => loadOnce(c));
    componentCache.set(key, component);
  }
  return component as ComponentType<P>;
}

/**
 * Starts loading the contributions to the given points that these roles may see (a route's `shows`), without
 * waiting for them; lazyContribution later picks up the same requests. A contribution's `prefetch` (in its plugin's
 * manifest) is called at once, so its data is on the way beside the component's code rather than after it. Failures
 * surface where they render.
 */
export function preloadContributions(
  plugins: readonly KernelWebPlugin[],
  points: readonly { id: string }[],
  roles: readonly string[] | null,
  ctx?: PrefetchContext,
): void {
  for (const point of points)
    for (const c of visibleContributions(contributionsTo(plugins, point as ExtensionPoint<unknown>), roles)) {
      if (ctx && c.prefetch) {
        try {
          Promise.resolve(c.prefetch(ctx)).catch(() => {});
        } catch {
          // Reported where the component renders.
        }
      }
      if (c.load) loadOnce(c).catch(() => {});
    }
}

/** Loads a provider-style contribution (not a component), with its plugin's strings. */
export async function loadContribution<T>(c: Of<T, unknown>): Promise<T> {
  if (!c.load) throw new Error(`contribution ${c.point.id}/${c.id} has nothing to load`);
  return (await withPluginNamespace(c.pluginId, c.load)()).default;
}

/** Renders every visible contribution of a component point, each lazily, with the same props. */
export function ExtensionSlot<P extends object, M>({
  point,
  props,
  fallback = null,
}: {
  point: ExtensionPoint<ComponentType<P>, M>;
  props: P;
  fallback?: React.ReactNode;
}) {
  const items = useContributions(point);
  return (
    <Suspense fallback={fallback}>
      {items.map((c) => {
        const Component = lazyContribution<P>(c as Of<ComponentType<P>, unknown>);
        return <Component key={c.id} {...props} />;
      })}
    </Suspense>
  );
}
