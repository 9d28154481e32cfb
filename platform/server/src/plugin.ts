import { type Access, defineServerPluginOf, type HttpMethod, type Migration, type ServerPlugin } from '@portal/core';
import type { SqlClient } from './db/database';
import type { RouteContext, RouteSchemas } from './http/context';

export interface ServerRoute<S extends RouteSchemas = RouteSchemas> {
  method: HttpMethod;
  url: string;
  access: Access;
  schemas?: S;
  /** Skips the anti-forgery check: only for routes that run before a session exists. */
  noFormToken?: boolean;
  /** Accepts a request from a user without an active session row check (the token route itself). */
  handler: (ctx: RouteContext<S>) => unknown;
}

/** Declare one route; the schemas type the handler's body, query and params. */
export function route<S extends RouteSchemas>(r: ServerRoute<S>): ServerRoute<RouteSchemas> {
  return r as unknown as ServerRoute<RouteSchemas>;
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
  /** Deterministic random numbers so every seed run creates the same data. */
  random: () => number;
  log: (msg: string) => void;
}

export interface ServerPluginExtras {
  /** Creates the plugin's realistic demo data for the seeded members. */
  seed?: (ctx: SeedContext) => Promise<void>;
}

export type KernelServerPlugin = ServerPlugin<RouteContext, RouteSchemas> & { routes: readonly ServerRoute[] } & ServerPluginExtras;

export function defineServerPlugin(
  def: { id: string; migrations?: readonly Migration[]; routes: readonly ServerRoute[] } & ServerPluginExtras,
): KernelServerPlugin {
  return { ...defineServerPluginOf<RouteContext, RouteSchemas>(def), seed: def.seed } as KernelServerPlugin;
}
