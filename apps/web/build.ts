import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import { type BrandManifest, LANGUAGES, type Language, PRERENDERED_LANGUAGES, PRERENDERED_PAGES, prerenderedFile, prerenderedPageNames } from '@portal/core';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { build, type InlineConfig, type Plugin } from 'vite';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
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

/** Where a brand's id goes in a plugin's `import.meta.glob` pattern (see brandScopedGlobs). */
export const BRAND_TOKEN = '%BRAND%';
const GLOB_PATTERN = /(import\.meta\.glob\s*(?:<[^>]*>)?\(\s*)(['"`])([^'"`]*)\2/g;

/**
 * A plugin's files made per brand (the help videos: `reset-password.card.en.webm`) reach only that brand's build: in
 * an `import.meta.glob` pattern, %BRAND% stands for the id of the brand being built, so the other brands' files are
 * not matched, emitted or shipped. Null when the module has no such pattern. (Outside a brand build, as in the unit
 * tests, the token stays and the pattern matches nothing.)
 */
export function brandScopedGlobs(code: string, brandId: string): string | null {
  if (!code.includes(BRAND_TOKEN)) return null;
  let changed = false;
  const out = code.replace(GLOB_PATTERN, (whole, call: string, quote: string, pattern: string) => {
    if (!pattern.includes(BRAND_TOKEN)) return whole;
    changed = true;
    return `${call}${quote}${pattern.replaceAll(BRAND_TOKEN, brandId)}${quote}`;
  });
  return changed ? out : null;
}

function brandPlugin(brand: BrandManifest): Plugin {
  return {
    name: 'portal-brand',
    // Before Vite's own glob plugin reads the patterns.
    enforce: 'pre',
    transform: (code, id) => (id.includes('/node_modules/') ? null : brandScopedGlobs(code, brand.id)),
    resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : null),
    load: (id) => (id === `\0${VIRTUAL}` ? brandModule(brand) : null),
    transformIndexHtml: (html) => withShellTexts(html.replaceAll('%BRAND_NAME%', brand.displayName.replace(/[<>&"]/g, '')), brand.displayName, 'en'),
  };
}

/**
 * The built files the document names (`/assets/...` in index.html: the entry, its modulepreloads, its style sheet):
 * what every first visit waits on before the sign-in page works, paths relative to the brand's folder.
 */
export function documentAssets(html: string): Set<string> {
  return new Set([...html.matchAll(/\b(?:src|href)="\/(assets\/[^"?#]+)"/g)].map((m) => m[1] as string));
}

/**
 * A gzip and a brotli copy of every text asset beside itself; the server sends the one the browser takes, brotli first
 * (sites.ts). gzip: the document's own files (documentAssets) with zopfli, the same format with 3-4% fewer
 * bytes than zlib's level 9 (card's entry 119,657 → 115,518 bytes) at about 30 times the time, so only where the first
 * visit waits on the bytes (on every file it would add over a minute to a build); zlib's level 9 for the rest. brotli:
 * quality 11, about 11% under that gzip (card's entry 103,173 bytes), kept only where it is smaller. Files in parallel:
 * zlib compresses on libuv's threads (issue 23, fifty-sixth pass).
 */
async function precompress(root: string, zopfli: Set<string>): Promise<void> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(js|css|html|svg|json)$/.test(name)) files.push(file);
    }
  };
  walk(root);
  await Promise.all(
    files.map(async (file) => {
      const bytes = readFileSync(file);
      const best = zopfli.has(relative(root, file).replaceAll('\\', '/'));
      const [gz, br] = await Promise.all([
        best ? gzipAsync(bytes, { numiterations: 15 }) : gzip(bytes, { level: 9 }),
        brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
      ]);
      writeFileSync(`${file}.gz`, gz);
      if (br.length < gz.length) writeFileSync(`${file}.br`, br);
    }),
  );
}

export interface BuildOptions {
  /**
   * Source maps beside the scripts, for profiling a build (`WEB_SOURCEMAP=1 pnpm build`); off by default: the sites
   * serve every file of the build, and a shipped build has no use for them.
   */
  sourcemap?: boolean;
}

export async function buildBrand(brand: BrandManifest, outRoot = join(here, 'dist'), options: BuildOptions = {}): Promise<string> {
  // Vite and React's JSX transform take "production" from NODE_ENV: a build started by a test runner (NODE_ENV=test)
  // must still be the production bundle, or the prerender would call React's development-only JSX functions.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await buildBrandIn(brand, join(outRoot, brand.id), options);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * React Router's production build, which its package never hands a bundler: every export condition of `react-router`
 * names `dist/development` (remix-run/react-router#12532, #14753). That is the same code with `ENABLE_DEV_WARNINGS =
 * true`, whose checks run in every route match and every render of a route; `dist/production` has it false, so the
 * minifier drops them. Resolved from the kernel's own react-router-dom, the package every plugin imports.
 */
export function reactRouterProduction(): { find: RegExp; replacement: string }[] {
  const fromDom = createRequire(createRequire(join(REPO, 'platform', 'web', 'package.json')).resolve('react-router-dom/package.json'));
  const dir = join(dirname(fromDom.resolve('react-router/package.json')), 'dist', 'production');
  const files = { 'react-router': 'index.mjs', 'react-router/dom': 'dom-export.mjs' };
  return Object.entries(files).map(([specifier, file]) => {
    const replacement = join(dir, file);
    if (!existsSync(replacement)) throw new Error(`react-router has no production build at ${replacement}: check reactRouterProduction`);
    return { find: new RegExp(`^${specifier}$`), replacement };
  });
}

/** What the browser build and the prerender's server-side build share: one brand's plugins, so class names match. */
const brandConfig = (brand: BrandManifest): InlineConfig => ({
  configFile: false,
  root: here,
  mode: 'production',
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  resolve: { alias: reactRouterProduction() },
  logLevel: 'warn',
  plugins: [brandPlugin(brand), react(), vanillaExtractPlugin()],
});

/**
 * How a brand's code is split into chunks, with these groups beside the strings'. The first build that finds the
 * landing page's chunks and the real build share it, so both split alike.
 */
const splitting = (groups: ChunkGroup[]) => ({
  target: 'es2022',
  reportCompressedSize: false,
  chunkSizeWarningLimit: 1024,
  rollupOptions: { output: { codeSplitting: { groups: [...stringsGroups(), ...groups] } } },
});

async function buildBrandIn(brand: BrandManifest, outDir: string, options: BuildOptions): Promise<string> {
  const config = brandConfig(brand);
  const { boot, landing } = await groupModulesOf(config);
  await build({
    ...config,
    plugins: [...(config.plugins ?? []), compileHints(), groupChunksCheck({ boot: boot.size > 0, landing: landing.size > 0 })],
    build: {
      ...splitting([...bootGroup(boot), ...landingGroup(landing)]),
      outDir,
      emptyOutDir: true,
      sourcemap: options.sourcemap ?? false,
      // Which chunks and style sheets each module needs: read below, then removed.
      manifest: true,
    },
  });
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  rmSync(join(outDir, '.vite'), { recursive: true, force: true });
  await prerender(brand, outDir, manifest);
  await precompress(outDir, documentAssets(readFileSync(join(outDir, 'index.html'), 'utf8')));
  return outDir;
}

/**
 * The language of a namespace's strings file (`<plugin>/src/web/i18n/es.json`, the kit's `i18n/en.json`), or null.
 * The kernel's own strings (platform/web/src/i18n) are not one: its English is in the entry chunk, for the sign-in
 * page, and its Spanish loads alone, before a Spanish first render.
 */
export function stringsLanguage(moduleId: string): Language | null {
  const path = moduleId.replaceAll('\\', '/');
  if (path.includes('/platform/web/src/i18n/')) return null;
  const language = path.match(/\/i18n\/([a-z]{2})\.json$/)?.[1];
  return LANGUAGES.find((l) => l === language) ?? null;
}

/**
 * One chunk per language for the plugins' and the kit's strings. Each namespace is its own dynamic import; split by
 * namespace, the landing page asked for 15 files of 1-4 KB (all of them: the layout's menus and the widgets name
 * every plugin's namespace), each a request and a module for the main thread. A brand's strings in one language are
 * 13-15 KB gzipped, and only the enabled plugins' are in its build.
 */
export function stringsGroups() {
  return LANGUAGES.map((language) => ({ name: `strings-${language}`, test: (id: string) => stringsLanguage(id) === language }));
}

/**
 * V8's explicit compile hint (Chrome 136 and later; other engines read a comment): compile every function of the file
 * at once, on a background thread while the file streams in, instead of one by one on the main thread when each is
 * first called. With the CPU slowed 4 times, the entry's evaluation spent most of its 450 ms compiling that way.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

interface BundleChunk {
  type: 'chunk' | 'asset';
  isEntry?: boolean;
  imports?: string[];
  code?: string;
  source?: string | Uint8Array;
}

/** A build's chunks by file name, as the bundle of a plugin's `generateBundle` holds them. */
const asBundle = (chunks: ChunkGraphNode[]): Record<string, ChunkGraphNode & BundleChunk> =>
  Object.fromEntries(chunks.map((c) => [c.fileName, { ...c, type: 'chunk' as const }]));

/**
 * The modules a chunk of the landing page starts from: the dashboard page (the signed-in home, `/dashboard` on every
 * brand) and the dashboard widgets, each plugin's `src/web/components/<Name>Widget.tsx` (the extension point's naming
 * rule; build.test.ts checks every contribution follows it).
 */
export const LANDING_FACADE = /\/plugins\/[^/]+\/src\/web\/(components\/\w+Widget|pages\/DashboardPage)\.tsx$/;

/** What the build tells of a chunk, as `landingModules` reads it. */
export interface ChunkGraphNode {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  moduleIds: string[];
}

/**
 * The modules of the chunks the landing page loads before it renders: the dashboard page's and the widgets' chunks and
 * every chunk they import statically, transitively, less the load-time chunks (the entry and its static imports, which
 * the sign-in page loads too) and the strings. Split by default, they are 20-35 small files (a widget, its style
 * module, `money`, `WidgetState` ...), each a request and a module the main thread takes in turn before the page can
 * render (docs/performance-log.md, twenty-first pass).
 *
 * The set is closed: whatever its modules import is in it or in the load-time chunks, which import nothing of it. So
 * one chunk of exactly these modules imports the load-time chunks alone and can form no cycle; pages that share one of
 * its modules (a ledger page and `money`) import it whole, 11-20 KB.
 */
export function landingModules(chunks: ChunkGraphNode[]): Set<string> {
  const bundle = asBundle(chunks);
  const loadTime = new Set(loadTimeChunks(bundle));
  const roots = chunks.filter((c) => c.facadeModuleId !== null && LANDING_FACADE.test(c.facadeModuleId.replaceAll('\\', '/'))).map((c) => c.fileName);
  const modules = new Set<string>();
  for (const name of staticClosure(bundle, roots)) {
    if (loadTime.has(name)) continue;
    for (const id of bundle[name]?.moduleIds ?? []) if (stringsLanguage(id) === null) modules.add(id);
  }
  return modules;
}

/**
 * The modules of the load-time chunks other than the entries' own: React, its JSX runtime, i18next with
 * react-i18next, the locale module and Vite's preload helper. Split by default they are five chunks of 0.6-50 KB,
 * apart from the entry because route chunks import them too, and the index preloads each: a request, a response task
 * and a module for the main thread before the app can start, on every page (docs/performance-log.md, twenty-third pass).
 *
 * The set is closed: whatever its modules import is in it (the chunks the entry imports statically import no entry,
 * or the default split would have a cycle). So one chunk of exactly these modules imports nothing but Rolldown's
 * runtime chunk, which no group takes, and can form no cycle with the entry.
 */
export function bootModules(chunks: ChunkGraphNode[]): Set<string> {
  const bundle = asBundle(chunks);
  const modules = new Set<string>();
  for (const name of loadTimeChunks(bundle)) if (!bundle[name]?.isEntry) for (const id of bundle[name]?.moduleIds ?? []) modules.add(id);
  return modules;
}

/**
 * The boot and landing groups' modules for this brand, from a first build of its chunks as they split by default (in
 * memory, not minified: minifying does not change the split).
 */
async function groupModulesOf(config: InlineConfig): Promise<Record<GroupName, Set<string>>> {
  const result = await build({ ...config, build: { ...splitting([]), write: false, emptyOutDir: false, minify: false } });
  const outputs = (Array.isArray(result) ? result : [result]) as { output?: (ChunkGraphNode & { type: string })[] }[];
  const chunks = outputs.flatMap((o) => o.output ?? []).filter((c) => c.type === 'chunk');
  return { boot: bootModules(chunks), landing: landingModules(chunks) };
}

/** The chunk groups this build makes beside the strings' (see bootModules and landingModules). */
type GroupName = 'boot' | 'landing';
interface ChunkGroup {
  name: string;
  test: (id: string) => boolean;
  includeDependenciesRecursively?: boolean;
}

/** One chunk of exactly the given modules, none when there are none. */
const exactGroup = (name: GroupName, modules: Set<string>): ChunkGroup[] =>
  modules.size === 0 ? [] : [{ name, test: (id: string) => modules.has(id), includeDependenciesRecursively: false }];

/** The `boot` chunk: exactly the modules of the load-time chunks other than the entry's. */
export const bootGroup = (modules: Set<string>) => exactGroup('boot', modules);

/** The `landing` chunk: exactly the landing page's modules (none when the brand has no dashboard). */
export const landingGroup = (modules: Set<string>) => exactGroup('landing', modules);

type NamedBundle = Record<string, BundleChunk & { name?: string }>;

/**
 * Why a finished bundle's chunk of a group is wrong, or null: it must exist when the group has modules, and import
 * nothing but the chunks it may. Anything else would mean the set of modules was not closed, and a cycle between
 * chunks could run a module before one it reads.
 */
function groupChunkProblem(bundle: NamedBundle, group: GroupName, expected: boolean, may: Set<string>, otherwise: string): string | null {
  const found = Object.entries(bundle).filter(([, c]) => c.type === 'chunk' && c.name === group);
  if (found.length !== (expected ? 1 : 0)) return `expected ${expected ? `one ${group} chunk` : `no ${group} chunk`}, found ${found.length}`;
  for (const [fileName, chunk] of found) {
    const outside = (chunk.imports ?? []).filter((i) => !may.has(i));
    if (outside.length > 0) return `${fileName} imports ${outside.join(', ')}, ${otherwise}`;
  }
  return null;
}

/** The landing chunk may import the load-time chunks: the entry has run before it loads. */
export function landingChunkProblem(bundle: NamedBundle, expected: boolean): string | null {
  return groupChunkProblem(bundle, 'landing', expected, new Set(loadTimeChunks(bundle)), 'which the entry does not load');
}

/**
 * The boot chunk runs before the entry, which imports it: it may import any chunk from which no static import leads
 * back to an entry (that would be a cycle).
 */
export function bootChunkProblem(bundle: NamedBundle, expected: boolean): string | null {
  const may = new Set(Object.keys(bundle).filter((name) => ![...staticClosure(bundle, [name])].some((c) => bundle[c]?.isEntry)));
  return groupChunkProblem(bundle, 'boot', expected, may, 'which is or imports an entry: a cycle');
}

/** Fails the build on a boot or landing chunk that `bootChunkProblem` or `landingChunkProblem` refuses. */
function groupChunksCheck(expected: Record<GroupName, boolean>): Plugin {
  return {
    name: 'portal-group-chunks-check',
    apply: 'build',
    generateBundle(_options, bundle) {
      const named = bundle as unknown as NamedBundle;
      const problems = [
        ['boot', 'bootModules', bootChunkProblem(named, expected.boot)],
        ['landing', 'landingModules', landingChunkProblem(named, expected.landing)],
      ] as const;
      for (const [group, made, problem] of problems) if (problem) throw new Error(`The ${group} chunk (${made} in apps/web/build.ts): ${problem}`);
    },
  };
}

/**
 * The code every page runs as it loads: the entry chunks and every chunk they import statically, transitively. The
 * chunks of routes and widgets (dynamic imports) are left out: only some of their functions run, and only on some pages.
 */
export function loadTimeChunks(bundle: Record<string, BundleChunk>): string[] {
  const entries = Object.keys(bundle).filter((name) => bundle[name]?.type === 'chunk' && bundle[name]?.isEntry);
  return [...staticClosure(bundle, entries)];
}

/** The named chunks and every chunk they import statically, transitively. */
function staticClosure(bundle: Record<string, BundleChunk>, roots: string[]): Set<string> {
  const found = new Set<string>();
  const walk = (name: string) => {
    const chunk = bundle[name];
    if (chunk?.type !== 'chunk' || found.has(name)) return;
    found.add(name);
    for (const i of chunk.imports ?? []) walk(i);
  };
  for (const r of roots) walk(r);
  return found;
}

/**
 * Puts COMPILE_HINT at the top of the load-time chunks of a finished bundle. The hint is one more line at the top, so
 * the chunk's source map, when the build writes one, has its lines moved down by one: the map is already an asset of
 * the bundle (`<chunk>.map`) by then, and that asset is what is written.
 */
export function addCompileHints(bundle: Record<string, BundleChunk>): void {
  for (const name of loadTimeChunks(bundle)) {
    const chunk = bundle[name];
    if (chunk?.type !== 'chunk') continue;
    chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
    const map = bundle[`${name}.map`];
    if (map?.type !== 'asset' || map.source === undefined) continue;
    const json = JSON.parse(typeof map.source === 'string' ? map.source : new TextDecoder().decode(map.source)) as { mappings: string };
    json.mappings = `;${json.mappings}`;
    map.source = JSON.stringify(json);
  }
}

/** COMPILE_HINT on the load-time chunks, after hashing: the hint is the same in every build. */
function compileHints(): Plugin {
  return {
    name: 'portal-compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle: { order: 'post', handler: (_options, bundle) => addCompileHints(bundle as unknown as Record<string, BundleChunk>) },
  };
}

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Holds a prerendered page's first paint until the parser has passed its root (HTML's `rel=expect`, Chromium 124
 * on; other browsers ignore it). Without it the browser may paint a root parsed halfway, once the style sheets
 * are in: a shorter page, centred lower, which the rest of the markup then pushes into place, a layout shift of up
 * to 0.07 with the CPU slowed 4 times (docs/performance-log.md, twenty-fourth pass). Chromium lets the paint go when the
 * element named is inserted, not when it is closed, so the mark is an empty, inert `<template>` right after the
 * root, not the root itself.
 */
const END_OF_PAGE = 'prerendered-end';
export const EXPECT_END = `<link rel="expect" href="#${END_OF_PAGE}" blocking="render">`;

/** The entry of prerendered pages (public/boot.js): it starts the app's entry chunk once the page has painted. */
const BOOT_SCRIPT = '/boot.js';

/** The source module of each prerendered page's route (the module the router's lazy route imports). */
export const PAGE_SOURCES: Readonly<Record<string, string>> = { 'sign-in': 'platform/web/src/pages/LoginPage.tsx' };

type Manifest = Record<string, { file: string; src?: string; css?: string[]; imports?: string[] }>;

/** A module's chunk and the chunks it imports statically, with their style sheets, from Vite's build manifest. */
export function pageAssets(manifest: Manifest, source: string): { scripts: string[]; styles: string[] } {
  // The manifest names modules relative to this folder (the build's root); `source` is relative to the repository.
  const key = Object.keys(manifest).find((k) => relative(REPO, resolve(here, k)).replaceAll('\\', '/') === source);
  if (!key) throw new Error(`the build has no chunk for ${source}`);
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const walk = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const i of chunk.imports ?? []) walk(i);
  };
  walk(key);
  return { scripts: [...scripts], styles: [...styles] };
}

/** The HTML with the given style sheets and scripts linked in its head, each once (scripts as module preloads). */
export function withLinks(html: string, assets: { scripts: string[]; styles: string[] }): string {
  if (!html.includes('</head>')) throw new Error('index.html lost its </head>');
  const absent = (f: string) => !html.includes(`/${f}"`);
  const links = [
    ...[...new Set(assets.styles)].filter(absent).map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
    ...[...new Set(assets.scripts)].filter(absent).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
  ];
  return links.length ? html.replace('</head>', () => `  ${links.join('\n    ')}\n  </head>`) : html;
}

/** The page's words outside the app (its description, the note without JavaScript) in a language: the kernel's catalogue. */
function shellTexts(language: Language): { metaDescription: string; noscript: string } {
  const catalogue = JSON.parse(readFileSync(join(here, '../../platform/web/src/i18n', `${language}.json`), 'utf8')) as {
    app: { metaDescription: string; noscript: string };
  };
  return catalogue.app;
}

/**
 * The brand's HTML with its description and its note for browsers without JavaScript in a language (index.html
 * writes them in English): a prerendered Spanish page says them in Spanish, as its markup does.
 */
export function withShellTexts(html: string, brandName: string, language: Language, texts = shellTexts(language)): string {
  const name = brandName.replace(/[<>&"]/g, '');
  const fill = (text: string) => text.replaceAll('{{brand}}', name);
  return html
    .replace(/<meta name="description" content="[^"]*" \/>/, () => `<meta name="description" content="${fill(texts.metaDescription)}" />`)
    .replace(/<noscript>[^<]*<\/noscript>/, () => `<noscript>${fill(texts.noscript)}</noscript>`);
}

/**
 * The brand's HTML with a prerendered page in its root, marked with the markup's language (see canHydrate): its
 * script is the boot entry (public/boot.js) in place of the app's entry chunk, which boot imports after the first
 * paint; without the app's module preloads (script arriving before that paint would hold it back); and with the
 * page's own style sheets, which the browser would otherwise only fetch with the page's code.
 */
export function withPrerenderedPage(template: string, markup: string, language: Language, page: { entry: string; styles: string[] }): string {
  const entryTag = `<script type="module" crossorigin src="/${page.entry}"></script>`;
  if (!template.includes(ROOT_ELEMENT) || !template.includes('<html lang="en">') || !template.includes(entryTag))
    throw new Error('index.html lost its <html lang="en">, its empty root or the app\'s entry script');
  const html = template
    .replace(entryTag, () => `<meta name="app-entry" content="/${page.entry}">\n    <script type="module" src="${BOOT_SCRIPT}"></script>`)
    .replace(/\n\s*<link rel="modulepreload"[^>]*>/g, '');
  return withLinks(html, { scripts: [], styles: page.styles })
    .replace('</head>', () => `  ${EXPECT_END}\n  </head>`)
    .replace('<html lang="en">', `<html lang="${language}">`)
    .replace(ROOT_ELEMENT, () => `<div id="root" data-prerendered="${language}">${markup}</div><template id="${END_OF_PAGE}"></template>`);
}

/**
 * Prerenders the brand's PRERENDERED_PAGES in every language beside its index.html: a server-side build of the
 * same app (src/prerender.tsx, with the same plugins, so vanilla-extract's class names match) renders each page
 * in Node, and each file is the index with that markup in its root. The sites server sends them for those paths.
 */
async function prerender(brand: BrandManifest, outDir: string, manifest: Manifest) {
  const ssrDir = join(outDir, '..', `.prerender-${brand.id}`);
  await build({
    ...brandConfig(brand),
    ssr: { noExternal: true, target: 'node' },
    build: {
      ssr: join(here, 'src', 'prerender.tsx'),
      outDir: ssrDir,
      emptyOutDir: true,
      target: 'node20',
      sourcemap: false,
      reportCompressedSize: false,
      rollupOptions: { output: { entryFileNames: 'prerender.mjs', chunkFileNames: '[name]-[hash].mjs', format: 'es' } },
    },
  });
  try {
    const { render } = (await import(pathToFileURL(join(ssrDir, 'prerender.mjs')).href)) as {
      render: (path: string, language: Language) => Promise<string>;
    };
    const template = readFileSync(join(outDir, 'index.html'), 'utf8');
    const entry = manifest['index.html']?.file;
    if (!entry) throw new Error("the build's manifest names no app entry");
    mkdirSync(join(outDir, 'prerendered'), { recursive: true });
    for (const page of prerenderedPageNames()) {
      const path = Object.keys(PRERENDERED_PAGES).find((p) => PRERENDERED_PAGES[p] === page) as string;
      const source = PAGE_SOURCES[page];
      if (!source) throw new Error(`PAGE_SOURCES names no module for the prerendered page ${page}`);
      const assets = { entry, styles: pageAssets(manifest, source).styles };
      for (const language of PRERENDERED_LANGUAGES) {
        const shell = withShellTexts(template, brand.displayName, language);
        writeFileSync(join(outDir, prerenderedFile(page, language)), withPrerenderedPage(shell, await render(path, language), language, assets));
      }
    }
  } finally {
    rmSync(ssrDir, { recursive: true, force: true });
  }
}
