import { type Access, decideAccess } from '@portal/core';
import { matchPath } from 'react-router-dom';
import type { KernelWebPlugin, WebRoute } from '../plugin';

export interface FlatRoute extends WebRoute {
  pluginId: string;
  namespace: string;
}

export function flattenRoutes(plugins: readonly KernelWebPlugin[]): FlatRoute[] {
  return plugins.flatMap((p) => p.routes.map((r) => ({ ...r, pluginId: p.id, namespace: p.i18n.namespace })));
}

/** Navigation entries the user may open, in order. */
export function navEntries(routes: readonly FlatRoute[], roles: readonly string[] | null) {
  return routes.filter((r) => r.nav && decideAccess(r.access, roles) === 'allow').sort((a, b) => (a.nav?.order ?? 0) - (b.nav?.order ?? 0));
}

export interface NavGroupDecl {
  id: string;
  label: string;
  order: number;
  namespace: string;
}
export type NavItem = { kind: 'link'; route: FlatRoute } | { kind: 'group'; group: NavGroupDecl; routes: FlatRoute[] };

/**
 * The navigation bar: top-level links and groups, ordered together. A group shows only when the user may
 * open at least two of its entries (one entry is shown as a plain link); an entry naming an unknown group
 * stays at the top level rather than disappearing.
 */
export function navTree(routes: readonly FlatRoute[], groups: readonly NavGroupDecl[], roles: readonly string[] | null): NavItem[] {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const items: { order: number; item: NavItem }[] = [];
  const grouped = new Map<string, FlatRoute[]>();
  for (const r of navEntries(routes, roles)) {
    const g = r.nav?.group ? byId.get(r.nav.group) : undefined;
    if (g) grouped.set(g.id, [...(grouped.get(g.id) ?? []), r]);
    else items.push({ order: r.nav?.order ?? 0, item: { kind: 'link', route: r } });
  }
  for (const [id, list] of grouped) {
    const group = byId.get(id) as NavGroupDecl;
    if (list.length === 1) items.push({ order: group.order, item: { kind: 'link', route: list[0] as FlatRoute } });
    else items.push({ order: group.order, item: { kind: 'group', group, routes: list } });
  }
  return items.sort((a, b) => a.order - b.order).map((i) => i.item);
}

/** Whether a nav item's route pattern matches the path or a path under it, ignoring case. */
export function isActive(pattern: string, pathname: string): boolean {
  return matchPath({ path: pattern, caseSensitive: false, end: false }, pathname) !== null;
}

/**
 * The one nav item to mark for a path (spec 01 section 2): the pattern matching the whole path, else the longest one
 * matching a path under it. '/transactions/activity' marks Activity, not also the ledger at '/transactions'; a bill at
 * '/claims/12' marks the bills at '/claims'. Null when no item matches.
 */
export function activeNavPath(patterns: readonly string[], pathname: string): string | null {
  const exact = patterns.find((p) => matchPath({ path: p, caseSensitive: false, end: true }, pathname) !== null);
  if (exact !== undefined) return exact;
  const under = patterns.filter((p) => isActive(p, pathname)).sort((a, b) => b.length - a.length);
  return under[0] ?? null;
}

/** Where '/' goes: the brand's home route when it exists and is allowed, else the first page the user may open. */
export function homePath(home: string, routes: readonly FlatRoute[], roles: readonly string[]): string | null {
  const allowed = (a: Access) => decideAccess(a, roles) === 'allow';
  const exact = routes.find((r) => r.path.toLowerCase() === home.toLowerCase());
  if (exact && allowed(exact.access)) return exact.path;
  return navEntries(routes, roles)[0]?.path ?? null;
}

/** The /invalid page's data value: base64 of UTF-8 text. */
export function encodeInvalidData(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}
export function decodeInvalidData(data: string | null): string | null {
  if (!data) return null;
  try {
    const bin = atob(data);
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** /transition?destination: only same-site paths, never another origin (no open redirect). */
export function safeDestination(destination: string | null): string | null {
  if (!destination?.startsWith('/') || destination.startsWith('//') || destination.includes('\\')) return null;
  return destination;
}
