import type { Access } from './roles';

/**
 * The plugin contracts. Both sides are versioned once through PLUGIN_API_VERSION; a plugin
 * declaring another version is refused when the kernel assembles the app.
 */
export const PLUGIN_API_VERSION = 1 as const;

export interface NavEntry {
  /** i18n key ('namespace:key') of the menu label. */
  label: string;
  /** Order in the navigation bar; lower first. */
  order: number;
}

export interface WebRouteDecl<TComponent> {
  path: string;
  access: Access;
  /** i18n key of the page title shown in the route-title header. */
  title: string;
  nav?: NavEntry;
  /** Lazy loader: each page is its own chunk. */
  load: () => Promise<{ default: TComponent }>;
  /** Pages outside the signed-in layout (login, activation ...). */
  layout?: 'app' | 'bare';
}

export interface WebPluginDef<TComponent, TSlots = Record<string, unknown>> {
  id: string;
  /** i18next namespace, English resources bundled with the plugin. */
  i18n: { namespace: string; en: Record<string, unknown> };
  routes: readonly WebRouteDecl<TComponent>[];
  /** Named contributions to kernel slots (e.g. login dialogs). */
  slots?: Partial<TSlots>;
}
export interface WebPlugin<TComponent, TSlots = Record<string, unknown>> extends WebPluginDef<TComponent, TSlots> {
  apiVersion: typeof PLUGIN_API_VERSION;
}

export function defineWebPluginOf<TComponent, TSlots>(def: WebPluginDef<TComponent, TSlots>): WebPlugin<TComponent, TSlots> {
  return { apiVersion: PLUGIN_API_VERSION, ...def };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface ServerRouteDecl<TCtx, TSchemas = unknown> {
  method: HttpMethod;
  url: string;
  access: Access;
  schemas?: TSchemas;
  handler: (ctx: TCtx) => unknown;
}

export interface Migration {
  /** Unique within the plugin and ordered by this id, e.g. '0001_init'. */
  id: string;
  sql: string;
}

export interface ServerPluginDef<TCtx, TSchemas = unknown> {
  id: string;
  migrations?: readonly Migration[];
  routes: readonly ServerRouteDecl<TCtx, TSchemas>[];
}
export interface ServerPlugin<TCtx, TSchemas = unknown> extends ServerPluginDef<TCtx, TSchemas> {
  apiVersion: typeof PLUGIN_API_VERSION;
}

export function defineServerPluginOf<TCtx, TSchemas>(def: ServerPluginDef<TCtx, TSchemas>): ServerPlugin<TCtx, TSchemas> {
  return { apiVersion: PLUGIN_API_VERSION, ...def };
}
