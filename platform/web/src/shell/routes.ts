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

/** The nav item whose route pattern matches the path, ignoring case. */
export function isActive(pattern: string, pathname: string): boolean {
  return matchPath({ path: pattern, caseSensitive: false, end: false }, pathname) !== null;
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
