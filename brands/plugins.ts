import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Node-only: the ids of the installed plugins (folders of plugins/ with a package.json). */
export function installedPluginIds(root = join(dirname(fileURLToPath(import.meta.url)), '..', 'plugins')): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'package.json')))
    .map((d) => d.name)
    .sort();
}
