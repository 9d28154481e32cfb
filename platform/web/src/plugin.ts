import { type Access, type BrandManifest, defineWebPluginOf, type Identity, type WebPlugin, type WebPluginDef, type WebRouteDecl } from '@portal/core';
import type { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { ComponentType } from 'react';
import type { ApiClient } from './api/client';
import type { SessionStore } from './session/storage';

// biome-ignore lint/suspicious/noExplicitAny: page components take any props the router gives them
export type PageComponent = ComponentType<any>;
export type WebRoute = WebRouteDecl<PageComponent>;

/**
 * An extension point: a typed place that the kernel or a plugin declares and other plugins contribute to.
 * `T` is what a contribution's `load()` resolves to (a component, or a provider object); `M` is the data a
 * contribution carries without loading anything (order, roles, labels). Contributions are part of each
 * plugin's web declaration, so a brand that does not enable a plugin ships none of its contributions.
 */
export interface ExtensionPoint<T, M = object> {
  readonly id: string;
  /** Phantom fields: carry the types. */
  readonly loads?: T;
  readonly meta?: M;
}
export const defineExtensionPoint = <T, M = object>(id: string): ExtensionPoint<T, M> => ({ id });

/** Data every ordered, role-gated contribution carries. */
export interface GatedMeta {
  /** Roles that see it (matched like routes); default: every signed-in user. */
  access?: Access;
  /** Lower first. */
  order: number;
}

export type Contribution<T = unknown, M = object> = M & {
  point: ExtensionPoint<T, M>;
  /** Unique across plugins, e.g. 'claims.recent'. */
  id: string;
  /** Filled in by defineWebPlugin: whose namespace to load before rendering. */
  pluginId?: string;
  /** Lazy: each contribution is its own chunk. Data-only points (navigation groups) leave it out. */
  load?: () => Promise<{ default: T }>;
  /**
   * Asks for the data the contribution's component will show, without its code: the kernel calls it when a route that
   * `shows` the point starts loading (for the roles the stored token names), beside the identity call, while the
   * component's code is still on its way. It sits in the plugin's manifest, so in the entry chunk: keep it to query
   * options the component shares, with endpoints named by their types (endpointRef). Failures surface where it renders.
   */
  prefetch?: (ctx: PrefetchContext) => unknown;
};

/** What a contribution's `prefetch` gets. */
export interface PrefetchContext {
  api: ApiClient;
  queryClient: QueryClient;
  /** The plugins this site enables: a widget asks for nothing the site does not offer. */
  plugins: readonly KernelWebPlugin[];
}

/** Declares a contribution to a point; the point's types check the loaded value and the data. */
export function contribute<T, M>(point: ExtensionPoint<T, M>, c: Omit<Contribution<T, M>, 'point' | 'pluginId'>): Contribution {
  return { ...c, point } as unknown as Contribution;
}

export interface DialogProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}

/** One result of a global search provider. */
export interface SearchResult {
  id: string;
  /** Already translated text. */
  title: string;
  detail?: string;
  /** Where choosing it goes. */
  href: string;
}
export interface SearchProvider {
  /** i18n key of the group heading for this provider's results. */
  label: string;
  /**
   * Called debounced with at least 2 characters; call the API with `{ signal, skipLoadingBar: true, notify: false }`.
   * `t` translates in the page's language, in the plugin's namespace (for words the results show that are not data).
   */
  search(api: ApiClient, text: string, signal: AbortSignal, t: TFunction): Promise<SearchResult[]>;
}

/** What a navigation guard decides with. */
export interface NavigationGuardContext {
  api: ApiClient;
  session: SessionStore;
  identity: Identity;
  brand: BrandManifest;
}

/** What a guard's preparation works with: the signed-in session, before its identity is known. */
export type NavigationGuardPreparation = Omit<NavigationGuardContext, 'identity'>;

/**
 * A rule that may send any signed-in navigation elsewhere (the registration wizard's step guard), loaded lazily (its
 * own chunk). `redirect` runs on every render of a signed-in route and must be synchronous and cheap.
 */
export interface NavigationGuard {
  /** The path to go to instead of `location` (a path of this site, optionally with a query), or null to let it through. */
  redirect(location: { pathname: string; search: string }, ctx: NavigationGuardContext): string | null;
}

/**
 * A navigation guard's contribution data. It sits in the plugin's manifest, so in the entry chunk: keep both functions
 * small and free of zod.
 */
export interface NavigationGuardMeta {
  order: number;
  /**
   * Reads what the guard decides with (e.g. a call to the server), once per sign-in, before the first decision. The
   * kernel starts it at once (at sign-in, or at start-up with a stored session), beside the identity call and the
   * guard's code rather than after that code has loaded; it gets no identity.
   */
  prepare?(ctx: NavigationGuardPreparation): Promise<void>;
  /**
   * Whether the prepared guard certainly lets this location through. When it says so, the gate opens without waiting
   * for the guard's code (a registered member's pages); when unsure it must say false, and the gate waits for
   * `redirect`. Asked once `prepare` has settled, never before.
   */
  passes?(location: { pathname: string; search: string }, ctx: NavigationGuardContext): boolean;
}

/**
 * The kernel's extension points. Plugins may declare their own the same way in their web code (for
 * example a support screen declaring member tabs) and export them from their contract-free web entry.
 */
export const Extensions = {
  /** Dialogs on the login screen, opened by name: 'register' (also /register) and 'forgotPassword'. */
  loginDialogs: defineExtensionPoint<ComponentType<DialogProps>, { name: 'register' | 'forgotPassword' }>('kernel.loginDialogs'),
  /** Help dialogs offered beside the route title. */
  helpDialogs: defineExtensionPoint<ComponentType, GatedMeta>('kernel.helpDialogs'),
  /**
   * Widgets of the dashboard, role-gated and ordered; the dashboard plugin renders them. `memberData`: the widget shows
   * one member's data (the user's own, or the member staff act for); for staff acting for nobody the dashboard leaves
   * it out and says once how to choose a member.
   */
  dashboardWidgets: defineExtensionPoint<ComponentType, GatedMeta & { title: string; size?: 'small' | 'wide'; memberData?: boolean }>(
    'kernel.dashboardWidgets',
  ),
  /**
   * Chart groups of the trends page (/trend), role-gated and ordered; each renders its own figures (the kit's
   * ChartFigure) from its own plugin's data. `height` reserves the group's space so the page does not shift as it loads.
   * `memberData`: the group shows one member's data (the user's own, or the member staff act for); for staff acting
   * for nobody the page leaves it out and says once how to choose a member.
   */
  trendCharts: defineExtensionPoint<ComponentType, GatedMeta & { title: string; height: number; memberData?: boolean }>('kernel.trendCharts'),
  /** Tabs of a member's detail on the support screens. */
  memberTabs: defineExtensionPoint<ComponentType<{ memberId: number }>, GatedMeta & { title: string }>('kernel.memberTabs'),
  /** Providers of the toolbar's global search (claims, notes ...). */
  searchProviders: defineExtensionPoint<SearchProvider, GatedMeta>('kernel.searchProviders'),
  /**
   * A small live marker beside a navigation entry (e.g. a count of unread messages): `path` names the route's
   * path; the component renders inside the entry's link, so it should be short text (or nothing).
   */
  navBadges: defineExtensionPoint<ComponentType, GatedMeta & { path: string }>('kernel.navBadges'),
  /** Groups of the navigation bar: routes name one in `nav.group`; a group shows as a menu of its entries. */
  navGroups: defineExtensionPoint<never, { label: string; order: number }>('kernel.navGroups'),
  /**
   * Guards consulted for every signed-in route (after the role gate), in order; the first that answers a path wins.
   * Each guard's code loads lazily (its own chunk) once a user is signed in; its data (NavigationGuardMeta: the
   * preparation and the quick pass) is in the manifest.
   */
  navigationGuards: defineExtensionPoint<NavigationGuard, NavigationGuardMeta>('kernel.navigationGuards'),
} as const;

export type KernelWebPlugin = WebPlugin<PageComponent, Contribution>;

/** Declares a web plugin: its routes (path, access, title, nav, lazy page), i18n namespace and contributions to extension points. */
export function defineWebPlugin(def: WebPluginDef<PageComponent, Contribution>): KernelWebPlugin {
  return defineWebPluginOf<PageComponent, Contribution>({ ...def, contributes: def.contributes?.map((c) => ({ ...c, pluginId: def.id })) });
}
