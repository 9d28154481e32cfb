import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BrandManifest } from '@portal/core';
import { type KernelServerPlugin, orderPlugins, PluginGraphError } from '@portal/server/kernel';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PLUGINS_DIR = join(REPO_ROOT, 'plugins');

/** Defined by the production build (apps/server/build.ts) as the folder it wrote; absent under tsx and the tests. */
declare const __PORTAL_SERVER_DIST__: string | undefined;
const SERVER_DIST = typeof __PORTAL_SERVER_DIST__ === 'string' ? __PORTAL_SERVER_DIST__ : null;

/**
 * The plugin's server side; null when it has none; 'absent' when no such plugin is installed. The compiled API
 * loads the plugin's compiled entry (dist/plugins/<id>.js, sharing the API's chunks), so the plugin gets the same
 * kernel modules as the API; from source, its TypeScript entry.
 */
async function loadOne(id: string, pluginsDir: string): Promise<KernelServerPlugin | null | 'absent'> {
  const entry = join(pluginsDir, id, 'src', 'server', 'index.ts');
  if (!existsSync(join(pluginsDir, id, 'package.json'))) return 'absent';
  if (!existsSync(entry)) return null;
  const compiled = SERVER_DIST !== null && pluginsDir === PLUGINS_DIR ? join(SERVER_DIST, 'plugins', `${id}.js`) : null;
  if (compiled !== null && !existsSync(compiled)) throw new Error(`plugins/${id} is not in the compiled API (${SERVER_DIST}): run pnpm build`);
  const mod = (await import(pathToFileURL(compiled ?? entry).href)) as { default: KernelServerPlugin };
  if (mod.default?.id !== id) throw new Error(`plugins/${id}/src/server/index.ts must default-export defineServerPlugin({ id: '${id}', ... })`);
  return mod.default;
}

/**
 * Loads the server side of every plugin some brand enables, plus (transitively) the plugins they depend on,
 * in dependency order. A dependency is loaded for its service even where no brand enables it; its routes
 * still answer only on brands that enable it. A missing dependency or a cycle stops the start, naming them.
 */
export async function loadServerPlugins(brands: readonly BrandManifest[], pluginsDir = PLUGINS_DIR): Promise<KernelServerPlugin[]> {
  const loaded = new Map<string, KernelServerPlugin>();
  const queue = [...new Set(brands.flatMap((b) => b.plugins))].sort();
  const seen = new Set<string>();
  while (queue.length > 0) {
    const id = queue.shift() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const plugin = await loadOne(id, pluginsDir);
    // Not installed, or no server side: orderPlugins names a missing one for whoever depends on it.
    if (plugin === 'absent' || plugin === null) continue;
    loaded.set(id, plugin);
    for (const dep of plugin.dependsOn ?? []) if (!seen.has(dep)) queue.push(dep);
  }
  try {
    return orderPlugins([...loaded.values()]);
  } catch (e) {
    if (e instanceof PluginGraphError) throw new PluginGraphError(`Cannot start: ${e.message}.`);
    throw e;
  }
}
