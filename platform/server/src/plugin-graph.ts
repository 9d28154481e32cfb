import type { ServiceRef } from '@portal/core';
import type { ServerConfig } from './config';
import type { Database } from './db/database';
import { MEMBER_REACTIVATED_JOB, MEMBER_TERMINATED_JOB } from './kernel-services/members';
import type { KernelServerPlugin, PluginInit } from './plugin';
import type { KernelServices } from './services';

export class PluginGraphError extends Error {}

/**
 * Plugins in dependency order (a plugin after everything it depends on; otherwise by id, so the order is
 * stable). Refuses, naming the plugins, a dependency that is not installed and enabled, and a cycle.
 */
export function orderPlugins<P extends Pick<KernelServerPlugin, 'id' | 'dependsOn'>>(plugins: readonly P[]): P[] {
  const byId = new Map(plugins.map((p) => [p.id, p]));
  for (const p of plugins) {
    const missing = (p.dependsOn ?? []).filter((d) => !byId.has(d));
    if (missing.length) throw new PluginGraphError(`plugin ${p.id} depends on ${missing.join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not loaded`);
  }
  const ordered: P[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: P, trail: string[]) => {
    const s = state.get(p.id);
    if (s === 'done') return;
    if (s === 'visiting') throw new PluginGraphError(`plugin dependency cycle: ${[...trail.slice(trail.indexOf(p.id)), p.id].join(' -> ')}`);
    state.set(p.id, 'visiting');
    for (const d of [...(p.dependsOn ?? [])].sort()) visit(byId.get(d) as P, [...trail, p.id]);
    state.set(p.id, 'done');
    ordered.push(p);
  };
  for (const p of [...plugins].sort((a, b) => a.id.localeCompare(b.id))) visit(p, []);
  return ordered;
}

/** The ids a set of enabled plugins needs loaded: themselves and, transitively, what they depend on. */
export function withDependencies(enabled: readonly string[], dependsOn: (id: string) => readonly string[] | null): string[] {
  const out = new Set<string>();
  const add = (id: string) => {
    if (out.has(id)) return;
    out.add(id);
    for (const d of dependsOn(id) ?? []) add(d);
  };
  for (const id of enabled) add(id);
  return [...out].sort();
}

export interface WiredPlugins {
  ordered: KernelServerPlugin[];
  /** The `use` a plugin's handlers get: only services of plugins it declares in dependsOn. */
  useFor(pluginId: string): <T>(ref: ServiceRef<T>) => T;
  /** Runs each plugin's init hook, in dependency order. */
  init(): Promise<void>;
}

/** Creates the plugins' services in dependency order and hands each plugin only what it declared. */
export async function wirePlugins(
  plugins: readonly KernelServerPlugin[],
  services: KernelServices,
  config: ServerConfig,
  database: Database,
): Promise<WiredPlugins> {
  const ordered = orderPlugins(plugins);
  const provided = new Map<string, unknown>();
  const useFor =
    (pluginId: string) =>
    <T>(ref: ServiceRef<T>): T => {
      const plugin = ordered.find((p) => p.id === pluginId);
      if (pluginId !== ref.pluginId && !plugin?.dependsOn?.includes(ref.pluginId)) {
        throw new PluginGraphError(`plugin ${pluginId} uses the ${ref.pluginId} service without declaring dependsOn: ['${ref.pluginId}']`);
      }
      if (!provided.has(ref.pluginId)) throw new PluginGraphError(`plugin ${ref.pluginId} provides no service`);
      return provided.get(ref.pluginId) as T;
    };
  const initOf = (p: KernelServerPlugin): PluginInit => ({ services, config, database, use: useFor(p.id) });
  for (const p of ordered) {
    if (!p.provides) continue;
    if (p.provides.ref.pluginId !== p.id)
      throw new PluginGraphError(`plugin ${p.id} provides the service of ${p.provides.ref.pluginId}; a plugin provides only its own`);
    provided.set(p.id, p.provides.create(initOf(p)));
  }
  return {
    ordered,
    useFor,
    init: async () => {
      for (const p of ordered) await p.init?.(initOf(p));
      // A membership that ended: each plugin's onMemberTerminated, in dependency order, while it is still ended (a
      // reactivation before the job ran leaves everything as it is). A failing plugin fails the run, which is retried;
      // the hooks are safe to run again.
      await services.jobs.define<{ memberId: number }>(
        MEMBER_TERMINATED_JOB,
        async ({ memberId }) => {
          const member = await services.members.load(memberId);
          if (!member?.terminationDate) return;
          for (const p of ordered) await p.onMemberTerminated?.(memberId, initOf(p));
        },
        { retryLimit: 5, retryDelay: 30, retryBackoff: true },
      );
      // A membership reactivated: each plugin's onMemberReactivated, in dependency order, while it is still not ended
      // (a termination again before the job ran leaves everything to the termination's job).
      await services.jobs.define<{ memberId: number }>(
        MEMBER_REACTIVATED_JOB,
        async ({ memberId }) => {
          const member = await services.members.load(memberId);
          if (!member || member.terminationDate) return;
          for (const p of ordered) await p.onMemberReactivated?.(memberId, initOf(p));
        },
        { retryLimit: 5, retryDelay: 30, retryBackoff: true },
      );
    },
  };
}
