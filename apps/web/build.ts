import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { BrandManifest } from '@portal/core';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = join(here, '..', '..');
const VIRTUAL = 'virtual:portal-brand';

/**
 * The brand module: the manifest, the one theme, and static imports of the enabled plugins' web
 * sides only, so a disabled plugin contributes no byte to this brand's bundle.
 */
export function brandModule(brand: BrandManifest): string {
  const enabled = brand.plugins.filter((id) => existsSync(join(REPO, 'plugins', id, 'src', 'web', 'index.ts')));
  const path = (p: string) => JSON.stringify(join(REPO, p));
  return [
    `import ${path(`themes/src/${brand.theme}.css.ts`)};`,
    `export const brand = ${JSON.stringify(brand)};`,
    ...enabled.map((id, i) => `import p${i} from ${path(`plugins/${id}/src/web/index.ts`)};`),
    `export const plugins = [${enabled.map((_, i) => `p${i}`).join(', ')}];`,
  ].join('\n');
}

function brandPlugin(brand: BrandManifest): Plugin {
  return {
    name: 'portal-brand',
    resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : null),
    load: (id) => (id === `\0${VIRTUAL}` ? brandModule(brand) : null),
    transformIndexHtml: (html) => html.replaceAll('%BRAND_NAME%', brand.displayName.replace(/[<>&"]/g, '')),
  };
}

/** Gzip every text asset beside itself; the server sends the .gz to clients that accept it. */
function precompress(dir: string) {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) precompress(file);
    else if (/\.(js|css|html|svg|json)$/.test(name)) writeFileSync(`${file}.gz`, gzipSync(readFileSync(file), { level: 9 }));
  }
}

export async function buildBrand(brand: BrandManifest, outRoot = join(here, 'dist')): Promise<string> {
  const outDir = join(outRoot, brand.id);
  await build({
    configFile: false,
    root: here,
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    logLevel: 'warn',
    plugins: [brandPlugin(brand), react(), vanillaExtractPlugin()],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 1024,
    },
  });
  precompress(outDir);
  return outDir;
}
