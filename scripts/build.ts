/**
 * Builds one bundle per brand into apps/web/dist/<brand> (`pnpm build [brand ...]` builds only those), and the
 * compiled API into apps/server/dist (apps/server/build.ts), which scripts/start and the end-to-end server run.
 */

import { resolve } from 'node:path';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';
import { BrandManifestError } from '@portal/core';
import { buildServer } from '../apps/server/build';
import { buildBrand } from '../apps/web/build';

async function main() {
  let brands: ReturnType<typeof loadBrands>;
  try {
    brands = loadBrands(installedPluginIds());
  } catch (e) {
    if (e instanceof BrandManifestError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const serverStarted = Date.now();
  const ids = installedPluginIds();
  const server = await buildServer(ids);
  console.log(`built the API (${ids.length} plugins) -> ${server} in ${((Date.now() - serverStarted) / 1000).toFixed(1)}s`);
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  for (const brand of brands.filter((b) => only.length === 0 || only.includes(b.id))) {
    const started = Date.now();
    // WEB_DIST_DIR (also read by the server) lets parallel work build into its own folder.
    const out = await buildBrand(brand, process.env.WEB_DIST_DIR ? resolve(process.env.WEB_DIST_DIR) : undefined, {
      // Source maps for profiling a build (docs/PERFORMANCE.md); scripts/start and the tests build without them.
      sourcemap: process.env.WEB_SOURCEMAP === '1',
    });
    console.log(`built ${brand.id} (${brand.plugins.length} plugins) -> ${out} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  }
}
await main();
