import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const REPO = join(here, '..', '..');
/** Where the compiled API goes: main.js, plugins/<id>.js and the chunks they share. */
export const SERVER_DIST = join(here, 'dist');

/**
 * Our TypeScript (the app, the platform, the plugins: every @portal/* package and relative import) is compiled and
 * bundled; every other package stays outside the bundle and is imported at run time from the file its importer's
 * package resolves it to (pnpm gives each package only its own dependencies, so a bare name would not resolve from
 * dist/). Packages keep their own files beside them: PGlite's WebAssembly, pdfkit's fonts, native binaries.
 */
function externalPackages(): Plugin {
  return {
    name: 'portal-external-packages',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('node:') || isAbsolute(args.path)) return { path: args.path, external: true };
        if (args.path.startsWith('@portal/') || args.pluginData === 'resolving') return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
        if (found.errors.length > 0) return { errors: found.errors };
        // A Node built-in named without node: (e.g. 'fs') resolves to itself.
        return { path: found.external ? found.path : pathToFileURL(found.path).href, external: true };
      });
      // import.meta.url keeps meaning the source file, as under tsx: code finds files beside its source by it
      // (the plugins folder, a plugin's config/), wherever the bundle puts that code.
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
      });
    },
  };
}

/**
 * The API as production runs it: compiled JavaScript (no TypeScript compiler in the process, and no names kept on
 * every function, which tsx adds and /health paid for), the plugins' server sides as separate entries that share the
 * platform's chunks (one kernel, one registry), loaded by apps/server/src/plugins.ts from dist/plugins/<id>.js.
 * `extraEntries` (name → TypeScript file) are compiled beside main.js, sharing its chunks: a diagnostic that runs the
 * API as production does (scripts/bench/health-ladder.ts) builds into a folder of its own with one.
 */
export async function buildServer(pluginIds: readonly string[], out = SERVER_DIST, extraEntries: Record<string, string> = {}): Promise<string> {
  rmSync(out, { recursive: true, force: true });
  const entries: Record<string, string> = { main: join(here, 'src', 'main.ts'), ...extraEntries };
  for (const id of pluginIds) {
    const entry = join(REPO, 'plugins', id, 'src', 'server', 'index.ts');
    if (existsSync(entry)) entries[`plugins/${id}`] = entry;
  }
  await build({
    entryPoints: entries,
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    sourcemap: true,
    chunkNames: 'chunks/[name]-[hash]',
    // Read by apps/server/src/plugins.ts: load plugins from here, not from their TypeScript sources.
    define: { __PORTAL_SERVER_DIST__: JSON.stringify(out) },
    plugins: [externalPackages()],
    logLevel: 'warning',
  });
  return out;
}
