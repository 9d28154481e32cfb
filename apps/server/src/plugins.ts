import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BrandManifest } from '@portal/core';
import type { KernelServerPlugin } from '@portal/server';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Loads the server side of every plugin some brand enables; a plugin may have no server side. */
export async function loadServerPlugins(brands: readonly BrandManifest[]): Promise<KernelServerPlugin[]> {
  const ids = [...new Set(brands.flatMap((b) => b.plugins))].sort();
  const out: KernelServerPlugin[] = [];
  for (const id of ids) {
    const entry = join(REPO_ROOT, 'plugins', id, 'src', 'server', 'index.ts');
    if (!existsSync(entry)) continue;
    const mod = (await import(pathToFileURL(entry).href)) as { default: KernelServerPlugin };
    if (mod.default?.id !== id) throw new Error(`plugins/${id}/src/server/index.ts must default-export defineServerPlugin({ id: '${id}', ... })`);
    out.push(mod.default);
  }
  return out;
}
