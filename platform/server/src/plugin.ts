import { defineServerPluginOf, type Access, type HttpMethod, type Migration, type ServerPlugin } from '@portal/core';
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

export type KernelServerPlugin = ServerPlugin<RouteContext, RouteSchemas> & { routes: readonly ServerRoute[] };

export function defineServerPlugin(def: { id: string; migrations?: readonly Migration[]; routes: readonly ServerRoute[] }): KernelServerPlugin {
  return defineServerPluginOf<RouteContext, RouteSchemas>(def) as KernelServerPlugin;
}
