import type { Catalogues } from '@portal/core';
import { type Access, type Endpoint, type EndpointResult, type EndpointSpec, type Migration, PLUGIN_API_VERSION, type ServiceRef } from '@portal/core';
import type { ServerConfig } from './config';
import type { Database, SqlClient } from './db/database';
import type { RouteContext, Sent, WithMessage } from './http/context';
import type { IdentityService } from './kernel-services/identity';
import type { KernelServices } from './services';

/** What a handler may answer: the contract's response data, with a message for the user, or a reply it sent itself. */
export type HandlerResult<E extends EndpointSpec> = EndpointResult<E> | WithMessage<EndpointResult<E>> | Sent;

export interface RouteOptions<E extends EndpointSpec> {
  access: Access;
  /** Skips the anti-forgery check: only for routes that run before a session exists (sign-in, registration, reset). */
  noFormToken?: boolean;
  /**
   * The route changes nothing though its method is POST (a search with its filters in the body): with a read replica,
   * its answer does not carry the primary's position (`x-read-after`), which a change needs and a search does not.
   */
  readOnly?: boolean;
  /**
   * The route changes data though its method is GET (a call the spec names as a GET): like a POST it needs the
   * anti-forgery token, its impersonation record is written before it runs, and its answer names the primary's position.
   */
  writes?: boolean;
  handler: (ctx: RouteContext<E>) => HandlerResult<E> | Promise<HandlerResult<E>>;
}

export interface ServerRoute {
  endpoint: Endpoint;
  access: Access;
  noFormToken?: boolean;
  readOnly?: boolean;
  writes?: boolean;
  handler: (ctx: RouteContext<EndpointSpec>) => unknown;
}

/** Mounts one endpoint of a contract: the handler is typed from it, the kernel parses its input and checks its answer. */
export function route<E extends Endpoint>(endpoint: E, opts: RouteOptions<E>): ServerRoute {
  return {
    endpoint,
    access: opts.access,
    noFormToken: opts.noFormToken,
    readOnly: opts.readOnly,
    writes: opts.writes,
    handler: opts.handler as ServerRoute['handler'],
  };
}

/** A seeded member: the person record behind a member login, as the seed created it. */
export interface SeedMember {
  memberId: number;
  brand: string;
  roles: string[];
  userName: string | null;
}

export interface SeedContext {
  sql: SqlClient;
  /** 1 for demo data; larger values generate volume for benchmarks (e.g. claims = scale x 1000). */
  scale: number;
  members: readonly SeedMember[];
  /** Deterministic random numbers from a stream of the plugin's own (derived from its id): adding a plugin changes no other plugin's data. */
  random: () => number;
  log: (msg: string) => void;
  /** The kernel's users and roles (scripts/seed passes it; a test calling a seed directly may leave it out). */
  identity?: IdentityService;
  /**
   * The business's day ('YYYY-MM-DD' in BUSINESS_TIME_ZONE) that seeded dates count back from: scripts/seed passes it,
   * so a seed run on a US evening (already tomorrow in UTC) dates nothing after the business's today. Absent: the UTC day.
   */
  today?: string;
}

/** The day a seed counts back from: its context's `today`, else the UTC day. */
export const seedToday = (ctx: Pick<SeedContext, 'today'>): string => ctx.today ?? new Date().toISOString().slice(0, 10);

/** What a plugin's `init` and `provides.create` get: the kernel services, the configuration, and its dependencies' services. */
export interface PluginInit {
  services: KernelServices;
  config: ServerConfig;
  /** The application database: a plugin's service reads and writes the plugin's own tables through it. */
  database: Database;
  use<T>(ref: ServiceRef<T>): T;
}

export interface ServerPluginDef<S = unknown> {
  id: string;
  /** Plugins whose services this one uses; their migrations and seeds run first. */
  dependsOn?: readonly string[];
  /** The service this plugin offers plugins that depend on it. */
  provides?: { ref: ServiceRef<S>; create: (init: PluginInit) => S };
  /** Runs once at start-up after the services are wired: define background jobs here. */
  init?: (init: PluginInit) => void | Promise<void>;
  /**
   * A member's membership has ended (the member terminated it, or support did): end what the plugin keeps running
   * for them, such as a subscription the gateway would renew or linked banks. Runs in the kernel's `member.terminated`
   * job after the termination committed, and only while the member is still terminated; a run that throws is retried,
   * so it must be safe to run again.
   */
  onMemberTerminated?: (memberId: number, init: PluginInit) => Promise<void>;
  /**
   * A terminated membership was reactivated by the member: give back what the termination ended and the member is
   * still owed (the period already paid for). Runs in the kernel's `member.reactivated` job after the reactivation
   * committed, and only while the member is still not terminated; a run that throws is retried, so it must be safe to
   * run again.
   */
  onMemberReactivated?: (memberId: number, init: PluginInit) => Promise<void>;
  migrations?: readonly Migration[];
  /**
   * Pages of this plugin's web side that embed a provider's page in a frame (a hosted card form): the site's answer
   * for these paths (and the paths under them) allows exactly these origins in frame-src, on brands that enable it.
   */
  framePages?: { paths: readonly string[]; origins: (services: KernelServices) => readonly string[] };
  /** Creates the plugin's realistic demo data for the seeded members. */
  seed?: (ctx: SeedContext) => Promise<void>;
  routes: readonly ServerRoute[];
  /**
   * The translations of the messages the plugin's server sends (errors, `withMessage`, texts in its answers):
   * `{ es: <src/server/i18n/es.json> }`, English text to Spanish. tests/server-messages.test.ts requires one for
   * every message in the plugin's server sources.
   */
  messages?: Catalogues;
}

export interface KernelServerPlugin<S = unknown> extends ServerPluginDef<S> {
  apiVersion: typeof PLUGIN_API_VERSION;
}

export function defineServerPlugin<S = unknown>(def: ServerPluginDef<S>): KernelServerPlugin<S> {
  return { apiVersion: PLUGIN_API_VERSION, ...def };
}
