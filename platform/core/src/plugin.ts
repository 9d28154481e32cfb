import type { Language } from './format/locale';
import type { Access } from './roles';

/**
 * The plugin contracts. Both sides are versioned once through PLUGIN_API_VERSION; a plugin
 * declaring another version is refused when the kernel assembles the app.
 */
export const PLUGIN_API_VERSION = 2 as const;

export interface NavEntry {
  /** i18n key ('namespace:key') of the menu label. */
  label: string;
  /** Order in the navigation bar (or within its group); lower first. */
  order: number;
  /** Id of a navigation group (contributed to the kernel's navGroups extension point); none: top level. */
  group?: string;
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
  /**
   * Extension points whose contributions the page draws as soon as it shows (a dashboard's widgets): the kernel
   * starts loading the ones this user may see together with the page's own code, rather than after it renders.
   */
  shows?: readonly { readonly id: string }[];
  /**
   * The page shows one member's own data (their ledger, contacts, messages ...), which the server gives a member for
   * themselves and a SuperUser or CareSupport user for the member they act for. Such a user acting for nobody sees
   * the kernel's prompt to choose a member instead of a page whose calls the server would refuse.
   */
  memberData?: boolean;
}

export interface WebPluginDef<TComponent, TContribution = unknown> {
  id: string;
  /**
   * i18next namespace and its lazy loader, one chunk per language: `load: (lng) => import(`./i18n/${lng}.json`)`.
   * The kernel loads it before the plugin's pages and contributions render.
   */
  i18n: { namespace: string; load: (lng: Language) => Promise<{ default: Record<string, unknown> }> };
  routes: readonly WebRouteDecl<TComponent>[];
  /** Contributions to extension points that the kernel or other plugins declare (dialogs, widgets, tabs, search, nav groups). */
  contributes?: readonly TContribution[];
}
export interface WebPlugin<TComponent, TContribution = unknown> extends WebPluginDef<TComponent, TContribution> {
  apiVersion: typeof PLUGIN_API_VERSION;
}

export function defineWebPluginOf<TComponent, TContribution>(def: WebPluginDef<TComponent, TContribution>): WebPlugin<TComponent, TContribution> {
  return { apiVersion: PLUGIN_API_VERSION, ...def };
}

/**
 * A change to the schema, applied once (recorded in `schema_migrations`) in id order (platform/server/src/db/migrate.ts).
 * - `{ id, sql }`: the SQL and its bookkeeping row run in one transaction, so a failure leaves nothing behind. Every
 *   change but an index on a table that already holds rows belongs here.
 * - `{ id, transaction: false, statements }`: each statement runs on its own, outside a transaction, for
 *   `CREATE INDEX CONCURRENTLY` / `DROP INDEX CONCURRENTLY`, which PostgreSQL refuses inside one. A plain `CREATE INDEX`
 *   blocks every write to its table while it builds (seconds to minutes on a million rows, during a deploy); the
 *   concurrent build lets them through. Each statement is one `CREATE [UNIQUE] INDEX [CONCURRENTLY] IF NOT EXISTS name
 *   ON table ...` or `DROP INDEX [CONCURRENTLY] IF EXISTS name` (no `;` but a last one, no SQL comment): anything else
 *   is refused before any migration is applied. A failure is NOT rolled back (the statements before it stay) but the
 *   migration is safe to run again: `IF [NOT] EXISTS` skips what was done, and the invalid index a failed concurrent
 *   build leaves behind is dropped before the statement runs again. Its bookkeeping row is written once every statement
 *   has succeeded. PGlite runs the statements as they are (it accepts CONCURRENTLY).
 */
export type Migration =
  | {
      /** Unique within the plugin and ordered by this id, e.g. '0001_init'. */
      id: string;
      sql: string;
      transaction?: true;
    }
  | {
      /** Unique within the plugin and ordered by this id, e.g. '0003_claims_member_idx'. */
      id: string;
      /** Run outside a transaction: only index statements, see above. */
      transaction: false;
      /** One SQL statement each, run one at a time in this order. */
      statements: readonly string[];
    };

/**
 * A typed handle on the service a server plugin offers other plugins. It lives in the providing plugin's
 * `src/service.ts` (types and this ref only, no server code), so a dependent imports it without reaching
 * into the provider's internals; the kernel hands out the implementation to plugins that declare
 * `dependsOn` the provider.
 */
export interface ServiceRef<T> {
  readonly pluginId: string;
  /** Phantom: carries the service type. */
  readonly type?: T;
}
export const serviceRef = <T>(pluginId: string): ServiceRef<T> => ({ pluginId });
