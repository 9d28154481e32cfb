import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addCompileHints,
  bootChunkProblem,
  bootModules,
  brandScopedGlobs,
  buildBrand,
  type ChunkGraphNode,
  COMPILE_HINT,
  documentAssets,
  EXPECT_END,
  LANDING_FACADE,
  landingChunkProblem,
  landingModules,
  loadTimeChunks,
  pageAssets,
  reactRouterProduction,
  stringsLanguage,
  withLinks,
  withPrerenderedPage,
  withShellTexts,
} from './build';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/preload-helper-1.js">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', imports: ['_preload-helper.js'], dynamicImports: ['src/app.tsx'] },
  'src/app.tsx': { file: 'assets/app-1.js', src: 'src/app.tsx', css: ['assets/app-1.css'], imports: ['_react.js', '_shared.js'] },
  '_react.js': { file: 'assets/react-1.js' },
  '_shared.js': { file: 'assets/shared-1.js', css: ['assets/shared-1.css'], imports: ['_react.js'] },
  '_preload-helper.js': { file: 'assets/preload-helper-1.js' },
  '../../platform/web/src/pages/LoginPage.tsx': {
    file: 'assets/LoginPage-1.js',
    css: ['assets/LoginPage-1.css', 'assets/shared-1.css'],
    imports: ['_shared.js'],
  },
};

describe('pageAssets', () => {
  it("collects a module's chunk, its static imports and their style sheets, each once", () => {
    expect(pageAssets(MANIFEST, 'apps/web/src/app.tsx')).toEqual({
      scripts: ['assets/app-1.js', 'assets/react-1.js', 'assets/shared-1.js'],
      styles: ['assets/app-1.css', 'assets/shared-1.css'],
    });
    expect(pageAssets(MANIFEST, 'platform/web/src/pages/LoginPage.tsx').styles).toEqual(['assets/LoginPage-1.css', 'assets/shared-1.css']);
  });

  it('refuses a module the build does not have', () => {
    expect(() => pageAssets(MANIFEST, 'platform/web/src/pages/Nope.tsx')).toThrow(/no chunk for platform\/web\/src\/pages\/Nope\.tsx/);
  });
});

describe('stringsLanguage', () => {
  it("names the language of a plugin's or the kit's strings file, and of nothing else", () => {
    expect(stringsLanguage('/repo/plugins/ledger/src/web/i18n/es.json')).toBe('es');
    expect(stringsLanguage('C:\\repo\\plugins\\ledger\\src\\web\\i18n\\en.json')).toBe('en');
    expect(stringsLanguage('/repo/platform/web/src/kit/i18n/en.json')).toBe('en');
    // The kernel's own strings stay where they are: English in the entry, Spanish alone.
    expect(stringsLanguage('/repo/platform/web/src/i18n/en.json')).toBeNull();
    expect(stringsLanguage('/repo/platform/web/src/i18n/es.json')).toBeNull();
    expect(stringsLanguage('/repo/plugins/ledger/src/web/i18n/fr.json')).toBeNull();
    expect(stringsLanguage('/repo/plugins/ledger/src/web/pages/en.json')).toBeNull();
    expect(stringsLanguage('/repo/plugins/ledger/src/web/i18n/en.ts')).toBeNull();
  });
});

describe('loadTimeChunks', () => {
  it('names the entry chunks and what they import statically, transitively and once, but no dynamic import or asset', () => {
    const bundle = {
      'assets/index-1.js': { type: 'chunk' as const, isEntry: true, imports: ['assets/react-1.js', 'assets/i18n-1.js'] },
      'assets/i18n-1.js': { type: 'chunk' as const, imports: ['assets/react-1.js'] },
      'assets/react-1.js': { type: 'chunk' as const, imports: [] },
      'assets/DashboardPage-1.js': { type: 'chunk' as const, imports: ['assets/react-1.js', 'assets/Grid-1.js'] },
      'assets/Grid-1.js': { type: 'chunk' as const },
      'assets/index-1.css': { type: 'asset' as const },
    };
    expect(loadTimeChunks(bundle).sort()).toEqual(['assets/i18n-1.js', 'assets/index-1.js', 'assets/react-1.js']);
    expect(loadTimeChunks({ 'assets/a.js': { type: 'chunk', imports: [] } })).toEqual([]);
  });
});

/** A chunk of a build's graph, as `landingModules` and `bootModules` read it. */
const chunk = (fileName: string, modules: string[], more: Partial<ChunkGraphNode> = {}): ChunkGraphNode => ({
  fileName,
  isEntry: false,
  facadeModuleId: null,
  imports: [],
  moduleIds: modules,
  ...more,
});

describe('landingModules', () => {
  const plugin = (path: string) => `/repo/plugins/${path}.tsx`;
  const GRAPH = [
    chunk('index.js', ['/repo/platform/web/src/main.tsx'], { isEntry: true, imports: ['react.js'] }),
    chunk('react.js', ['/repo/node_modules/react/index.js']),
    chunk('DashboardPage.js', [plugin('trends/src/web/pages/DashboardPage')], {
      facadeModuleId: plugin('trends/src/web/pages/DashboardPage'),
      imports: ['index.js', 'PartBoundary.js'],
    }),
    chunk('PartBoundary.js', ['/repo/platform/web/src/shell/PartBoundary.tsx'], { imports: ['react.js'] }),
    chunk('BalanceWidget.js', [plugin('ledger/src/web/components/BalanceWidget'), plugin('ledger/src/web/components/ledger.css.ts')], {
      facadeModuleId: plugin('ledger/src/web/components/BalanceWidget'),
      imports: ['money.js', 'react.js'],
    }),
    chunk('money.js', ['/repo/platform/web/src/format/money.ts'], { imports: ['calendarDay.js'] }),
    chunk('calendarDay.js', ['/repo/platform/web/src/format/calendarDay.ts']),
    chunk('strings-en.js', ['/repo/plugins/ledger/src/web/i18n/en.json']),
    // A page of its own and what it alone imports; a widget's lazy chart (a dynamic import: not in `imports`).
    chunk('LedgerPage.js', [plugin('ledger/src/web/pages/LedgerPage'), '/repo/platform/web/src/kit/grid/DataGrid.tsx'], {
      facadeModuleId: plugin('ledger/src/web/pages/LedgerPage'),
      imports: ['money.js'],
    }),
    chunk('apexChart.js', ['/repo/platform/web/src/kit/chart/apexChart.ts'], { facadeModuleId: '/repo/platform/web/src/kit/chart/apexChart.ts' }),
  ];

  it("holds the dashboard page's and the widgets' modules and every module their chunks import, transitively", () => {
    expect([...landingModules(GRAPH)].sort()).toEqual(
      [
        plugin('ledger/src/web/components/BalanceWidget'),
        plugin('ledger/src/web/components/ledger.css.ts'),
        plugin('trends/src/web/pages/DashboardPage'),
        '/repo/platform/web/src/format/calendarDay.ts',
        '/repo/platform/web/src/format/money.ts',
        '/repo/platform/web/src/shell/PartBoundary.tsx',
      ].sort(),
    );
  });

  it('leaves out the load-time chunks, the strings, other pages and dynamic imports', () => {
    const modules = landingModules(GRAPH);
    for (const id of [
      '/repo/platform/web/src/main.tsx',
      '/repo/node_modules/react/index.js',
      '/repo/plugins/ledger/src/web/i18n/en.json',
      plugin('ledger/src/web/pages/LedgerPage'),
      '/repo/platform/web/src/kit/grid/DataGrid.tsx',
      '/repo/platform/web/src/kit/chart/apexChart.ts',
    ])
      expect(modules.has(id), id).toBe(false);
  });

  it('is empty for a build without a dashboard', () => {
    expect(landingModules(GRAPH.filter((c) => !c.facadeModuleId?.includes('Widget') && !c.facadeModuleId?.includes('DashboardPage')))).toEqual(new Set());
  });

  it('starts from every dashboard widget a plugin contributes and from the dashboard page (their modules follow the naming rule)', () => {
    let widgets = 0;
    for (const id of installedPluginIds()) {
      const file = join(REPO_ROOT, 'plugins', id, 'src', 'web', 'index.ts');
      if (!existsSync(file)) continue;
      const source = readFileSync(file, 'utf8');
      for (const [, body] of source.matchAll(/contribute\(Extensions\.dashboardWidgets, \{([\s\S]*?)\n {4}\}\)/g)) {
        const loaded = body?.match(/load: \(\) => import\('\.\/([^']+)'\)/)?.[1];
        expect(loaded, `${id}: a dashboard widget's load`).toBeDefined();
        expect(LANDING_FACADE.test(`/repo/plugins/${id}/src/web/${loaded}.tsx`), `${id}: ${loaded}`).toBe(true);
        widgets++;
      }
      for (const [, route] of source.matchAll(/\{\s*path: DASHBOARD_PATH,([\s\S]*?)\n {4}\}/g)) {
        const loaded = route?.match(/load: \(\) => import\('\.\/([^']+)'\)/)?.[1];
        expect(LANDING_FACADE.test(`/repo/plugins/${id}/src/web/${loaded}.tsx`), `${id}: the dashboard route's page ${loaded}`).toBe(true);
      }
    }
    expect(widgets).toBeGreaterThanOrEqual(9);
    expect(LANDING_FACADE.test('/repo/plugins/ledger/src/web/pages/LedgerPage.tsx')).toBe(false);
    expect(LANDING_FACADE.test('/repo/plugins/ledger/src/web/components/LedgerTrendCharts.tsx')).toBe(false);
  });
});

describe('bootModules', () => {
  const GRAPH = [
    chunk('index.js', ['/repo/platform/web/src/main.tsx', '/repo/platform/web/src/shell/Layout.tsx'], {
      isEntry: true,
      imports: ['i18n.js', 'react.js', 'preload-helper.js'],
    }),
    chunk('i18n.js', ['/repo/node_modules/i18next/dist/esm/i18next.js', '/repo/platform/web/src/i18n/index.ts'], { imports: ['react.js'] }),
    chunk('react.js', ['/repo/node_modules/react/index.js']),
    chunk('preload-helper.js', ['\0vite/preload-helper.js']),
    chunk('LoginPage.js', ['/repo/platform/web/src/pages/LoginPage.tsx'], { imports: ['react.js', 'i18n.js', 'Button.js'] }),
    chunk('Button.js', ['/repo/node_modules/react-aria-components/dist/Button.mjs'], { imports: ['react.js'] }),
  ];

  it("holds every module of the chunks the entry imports statically, transitively, and none of the entry's own", () => {
    expect([...bootModules(GRAPH)].sort()).toEqual(
      [
        '/repo/node_modules/i18next/dist/esm/i18next.js',
        '/repo/node_modules/react/index.js',
        '/repo/platform/web/src/i18n/index.ts',
        '\0vite/preload-helper.js',
      ].sort(),
    );
  });

  it("leaves out routes' chunks and what they alone import, and is empty when the entry imports no chunk", () => {
    const modules = bootModules(GRAPH);
    expect(modules.has('/repo/platform/web/src/pages/LoginPage.tsx')).toBe(false);
    expect(modules.has('/repo/node_modules/react-aria-components/dist/Button.mjs')).toBe(false);
    expect(bootModules([chunk('index.js', ['/repo/main.tsx'], { isEntry: true })])).toEqual(new Set());
  });
});

describe('bootChunkProblem', () => {
  const bundle = (bootImports: string[]) => ({
    'index.js': { type: 'chunk' as const, isEntry: true, imports: ['boot.js', 'rolldown-runtime.js'] },
    'boot.js': { type: 'chunk' as const, name: 'boot', imports: bootImports },
    'rolldown-runtime.js': { type: 'chunk' as const, name: 'rolldown-runtime' },
    'LoginPage.js': { type: 'chunk' as const, name: 'LoginPage', imports: ['boot.js', 'index.js'] },
  });

  it('accepts a boot chunk whose imports lead to no entry', () => {
    expect(bootChunkProblem(bundle(['rolldown-runtime.js']), true)).toBeNull();
    expect(bootChunkProblem(bundle([]), true)).toBeNull();
  });

  it('refuses a boot chunk that imports the entry or a chunk importing it (a cycle), a missing one, and one where none was asked for', () => {
    expect(bootChunkProblem(bundle(['index.js']), true)).toBe('boot.js imports index.js, which is or imports an entry: a cycle');
    expect(bootChunkProblem(bundle(['rolldown-runtime.js', 'LoginPage.js']), true)).toBe('boot.js imports LoginPage.js, which is or imports an entry: a cycle');
    const { 'boot.js': _, ...without } = bundle([]);
    expect(bootChunkProblem(without, true)).toBe('expected one boot chunk, found 0');
    expect(bootChunkProblem(bundle([]), false)).toBe('expected no boot chunk, found 1');
  });
});

describe('landingChunkProblem', () => {
  const bundle = (landingImports: string[]) => ({
    'index.js': { type: 'chunk' as const, isEntry: true, imports: ['react.js'] },
    'react.js': { type: 'chunk' as const },
    'landing.js': { type: 'chunk' as const, name: 'landing', imports: landingImports },
    'LedgerPage.js': { type: 'chunk' as const, name: 'LedgerPage', imports: ['landing.js'] },
  });

  it('accepts a landing chunk whose every import is a load-time chunk', () => {
    expect(landingChunkProblem(bundle(['index.js', 'react.js']), true)).toBeNull();
  });

  it('refuses a landing chunk that imports another chunk, a missing landing chunk, and one where none was asked for', () => {
    expect(landingChunkProblem(bundle(['index.js', 'LedgerPage.js']), true)).toBe('landing.js imports LedgerPage.js, which the entry does not load');
    const { 'landing.js': _, ...without } = bundle([]);
    expect(landingChunkProblem(without, true)).toBe('expected one landing chunk, found 0');
    expect(landingChunkProblem(bundle([]), false)).toBe('expected no landing chunk, found 1');
  });
});

describe('addCompileHints', () => {
  it("puts the hint on the load-time chunks only, and moves their source maps' lines down by one", () => {
    const map = (mappings: string) => JSON.stringify({ version: 3, sources: ['a.ts'], names: [], mappings });
    const bundle = {
      'assets/index-1.js': { type: 'chunk' as const, isEntry: true, imports: ['assets/react-1.js'], code: 'import "./react-1.js";\n' },
      'assets/index-1.js.map': { type: 'asset' as const, source: map('AAAA;AACA') },
      'assets/react-1.js': { type: 'chunk' as const, code: 'export const r = 1;\n' },
      'assets/react-1.js.map': { type: 'asset' as const, source: new TextEncoder().encode(map('AAAA')) },
      'assets/route-1.js': { type: 'chunk' as const, code: 'export default 1;\n' },
      'assets/route-1.js.map': { type: 'asset' as const, source: map('AAAA') },
    };
    addCompileHints(bundle);
    expect(bundle['assets/index-1.js'].code).toBe(`${COMPILE_HINT}\nimport "./react-1.js";\n`);
    expect(JSON.parse(bundle['assets/index-1.js.map'].source as string).mappings).toBe(';AAAA;AACA');
    expect(bundle['assets/react-1.js'].code.startsWith(`${COMPILE_HINT}\n`)).toBe(true);
    expect(JSON.parse(bundle['assets/react-1.js.map'].source as unknown as string).mappings).toBe(';AAAA');
    expect(bundle['assets/route-1.js'].code).toBe('export default 1;\n');
    expect(JSON.parse(bundle['assets/route-1.js.map'].source).mappings).toBe('AAAA');
  });
});

describe('reactRouterProduction', () => {
  it("sends react-router and react-router/dom, and nothing else, to the package's production build", () => {
    const aliases = reactRouterProduction();
    const target = (specifier: string) => aliases.find((a) => a.find.test(specifier))?.replacement.replaceAll('\\', '/');
    expect(target('react-router')).toMatch(/\/react-router\/dist\/production\/index\.mjs$/);
    expect(target('react-router/dom')).toMatch(/\/react-router\/dist\/production\/dom-export\.mjs$/);
    for (const other of ['react-router-dom', 'react-router/internal', '@remix/react-router']) expect(target(other), other).toBeUndefined();
    for (const a of aliases) expect(existsSync(a.replacement), a.replacement).toBe(true);
  });
});

describe('withShellTexts', () => {
  const index =
    '<head>\n    <meta name="description" content="Amethyst Card member portal" />\n  </head><body><noscript>Amethyst Card needs JavaScript to run.</noscript></body>';
  it("writes the page's description and its note without JavaScript in the page's language, from the kernel's catalogue", () => {
    const es = withShellTexts(index, 'Amethyst Card', 'es');
    expect(es).toContain('<meta name="description" content="Portal para miembros de Amethyst Card" />');
    expect(es).toContain('<noscript>Amethyst Card necesita JavaScript para funcionar.</noscript>');
    expect(withShellTexts(index, 'Amethyst Card', 'en')).toBe(index);
  });
  it('keeps markup out of the brand name', () => {
    expect(withShellTexts(index, 'A <b>"x"</b>', 'en', { metaDescription: '{{brand}}', noscript: '{{brand}}' })).toContain('content="A bx/b"');
  });
});

describe('withLinks and withPrerenderedPage', () => {
  it('links style sheets and module preloads in the head, skipping what the HTML already links', () => {
    const html = withLinks(TEMPLATE, { scripts: ['assets/preload-helper-1.js', 'assets/app-1.js'], styles: ['assets/app-1.css', 'assets/app-1.css'] });
    expect(html.match(/preload-helper-1\.js/g)).toHaveLength(1);
    expect(html.match(/app-1\.css/g)).toHaveLength(1);
    expect(html).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/app-1.css">\n    <link rel="modulepreload" crossorigin href="/assets/app-1.js">\n  </head>',
    );
    expect(withLinks(TEMPLATE, { scripts: [], styles: [] })).toBe(TEMPLATE);
  });

  it("puts the markup in the root with its language, sets the document's language and starts the app through boot.js", () => {
    const html = withPrerenderedPage(TEMPLATE, '<h1>Iniciar sesión $&</h1>', 'es', { entry: 'assets/index-1.js', styles: ['assets/LoginPage-1.css'] });
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<meta name="app-entry" content="/assets/index-1.js">\n    <script type="module" src="/boot.js"></script>');
    expect(html).not.toContain('src="/assets/index-1.js"');
    expect(html).not.toContain('modulepreload');
    // A '$&' in the markup is text, not a replacement pattern.
    expect(html).toContain('<div id="root" data-prerendered="es"><h1>Iniciar sesión $&</h1></div>');
    expect(html).toContain('href="/assets/LoginPage-1.css"');
  });

  it('holds the first paint until the parser is past the root: the head expects the mark that follows it', () => {
    const html = withPrerenderedPage(TEMPLATE, '<main><h1>Sign in</h1><form></form></main>', 'en', { entry: 'assets/index-1.js', styles: [] });
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(EXPECT_END);
    const id = EXPECT_END.match(/href="#([^"]+)"/)?.[1] as string;
    expect(EXPECT_END).toContain('rel="expect"');
    expect(EXPECT_END).toContain('blocking="render"');
    // The mark comes right after the root's end (Chromium unblocks the paint when the mark is inserted), and is inert.
    expect(html).toContain(`<form></form></main></div><template id="${id}"></template>`);
    expect(html.match(new RegExp(`id="${id}"`, 'g'))).toHaveLength(1);
  });

  it('refuses a template without its empty root', () => {
    expect(() => withPrerenderedPage(TEMPLATE.replace('<div id="root"></div>', ''), 'x', 'en', { entry: 'assets/index-1.js', styles: [] })).toThrow(
      /empty root/,
    );
    expect(() => withPrerenderedPage(TEMPLATE, 'x', 'en', { entry: 'assets/other.js', styles: [] })).toThrow(/entry script/);
  });
});

describe('a brand build', () => {
  const out = mkdtempSync(join(tmpdir(), 'portal-build-test-'));
  let dir = '';
  const brand = loadBrands(installedPluginIds()).find((b) => b.id === 'quote');
  beforeAll(async () => {
    if (!brand) throw new Error('no quote brand');
    dir = await buildBrand(brand, out);
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  const linked = (html: string, rel: string) =>
    [...html.matchAll(new RegExp(`<link rel="${rel}" crossorigin href="/([^"]+)">`, 'g'))].map((m) => m[1] as string);
  /** The chunks a built chunk imports statically, as paths under the brand's folder. */
  const staticImports = (code: string) => [...code.matchAll(/(?:^|[;}\n])import(?:[^;"']*?from)?\s*"\.\/([^"]+)"/g)].map((m) => `assets/${m[1]}`);
  /** The files every page loads at once: the index's entry chunk and the chunks it preloads. */
  const loadTimeFiles = () => {
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    const entry = index.match(/<script type="module" crossorigin src="\/(assets\/index-[^"]+\.js)">/)?.[1] as string;
    return [entry, ...linked(index, 'modulepreload')];
  };

  it("starts prerendered pages through boot.js with the index's own entry chunk, and leaves no build manifest behind", () => {
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    const entry = index.match(/<script type="module" crossorigin src="(\/assets\/index-[^"]+\.js)">/)?.[1];
    expect(entry).toBeDefined();
    for (const language of ['en', 'es']) {
      const html = readFileSync(join(dir, 'prerendered', `sign-in.${language}.html`), 'utf8');
      expect(html).toContain(`<meta name="app-entry" content="${entry}">`);
      expect(html).toContain('<script type="module" src="/boot.js"></script>');
    }
    expect(readFileSync(join(dir, 'boot.js'), 'utf8')).toContain('meta[name="app-entry"]');
    expect(existsSync(join(dir, '.vite'))).toBe(false);
  });

  it('prerenders the sign-in page in English and Spanish, styled by the style sheets it links, its submit held until the app runs', () => {
    for (const [language, title] of [
      ['en', 'Sign in'],
      ['es', 'Iniciar sesión'],
    ] as const) {
      const file = join(dir, 'prerendered', `sign-in.${language}.html`);
      const html = readFileSync(file, 'utf8');
      expect(existsSync(`${file}.gz`)).toBe(true);
      expect(html).toContain(`<html lang="${language}">`);
      expect(html).toContain(`<div id="root" data-prerendered="${language}">`);
      expect(html).toContain(`<h1 style="margin:0">${title}</h1>`);
      // Painted once the whole root is parsed, not halfway (withPrerenderedPage's rel=expect and its mark).
      expect(html.indexOf(EXPECT_END)).toBeGreaterThan(0);
      expect(html.indexOf(EXPECT_END)).toBeLessThan(html.indexOf('</head>'));
      expect(html).toMatch(/<\/div><template id="prerendered-end"><\/template>\s*<noscript>/);
      expect(html).toContain(brand?.displayName);
      expect(html).toMatch(/<button type="submit"[^>]* disabled=""/);
      // Every button waits for the app: a click before it runs would be lost.
      const buttons = html.match(/<button\b[^>]*>/g) ?? [];
      expect(buttons.length).toBeGreaterThanOrEqual(3);
      for (const b of buttons) expect(b).toContain(' disabled=""');
      expect(html).toMatch(/<input [^>]*name="UserName"/);
      // No script preloaded: the app's code would hold the first paint back.
      expect(linked(html, 'modulepreload')).toEqual([]);
      // Every class in the markup is defined by a style sheet the page links (no unstyled first paint).
      const css = linked(html, 'stylesheet')
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        .join('\n');
      const classes = new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((m) => (m[1] as string).split(/\s+/)));
      expect(classes.size).toBeGreaterThan(5);
      for (const c of classes) expect(css, c).toContain(`.${c}`);
    }
  });

  it("marks the entry chunk and the chunks the index preloads with V8's compile hint, and no route's chunk", () => {
    const loadTime = loadTimeFiles();
    expect(loadTime.length).toBeGreaterThan(2);
    for (const f of loadTime) expect(readFileSync(join(dir, f), 'utf8').startsWith(`${COMPILE_HINT}\n`), f).toBe(true);
    const routes = readdirSync(join(dir, 'assets')).filter((f) => f.endsWith('.js') && !loadTime.includes(`assets/${f}`));
    expect(routes.some((f) => f.startsWith('LoginPage-'))).toBe(true);
    for (const f of routes) expect(readFileSync(join(dir, 'assets', f), 'utf8').includes(COMPILE_HINT), f).toBe(false);
  });

  it("puts the plugins' and the kit's strings in one chunk per language, and the kernel's English in the entry", () => {
    const assets = readdirSync(join(dir, 'assets'));
    const chunk = (language: string) => {
      const files = assets.filter((f) => f.startsWith(`strings-${language}-`) && f.endsWith('.js'));
      expect(files, language).toHaveLength(1);
      return readFileSync(join(dir, 'assets', files[0] as string), 'utf8');
    };
    // A strings file of the repository, as JSON.
    const json = <T>(file: string) => JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as T;
    for (const language of ['en', 'es']) {
      const strings = chunk(language);
      const plugin = json<{ nav: string }>(`plugins/quote-rules/src/web/i18n/${language}.json`);
      expect(strings.includes(`\`${plugin.nav}\``), language).toBe(true);
      const kit = json<{ form: { requiredMark: string } }>(`platform/web/src/kit/i18n/${language}.json`);
      expect(strings.includes(kit.form.requiredMark), language).toBe(true);
    }
    // No chunk of a single namespace's strings is left but the kernel's Spanish, which loads alone.
    const single = assets.filter((f) => /^(en|es)-[\w-]+\.js$/.test(f));
    expect(single).toHaveLength(1);
    const kernelEs = json<{ session: { ended: string } }>('platform/web/src/i18n/es.json');
    expect(readFileSync(join(dir, 'assets', single[0] as string), 'utf8').includes(kernelEs.session.ended)).toBe(true);
    // The kernel's English comes with the entry (the sign-in page needs it at once), not with the plugins' strings.
    const loadTime = loadTimeFiles()
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    const kernel = json<{ session: { ended: string } }>('platform/web/src/i18n/en.json');
    expect(loadTime.includes(kernel.session.ended)).toBe(true);
    expect(chunk('en').includes(kernel.session.ended)).toBe(false);
  });

  it("carries React Router's production code: its invariants, but none of its development warnings", () => {
    const js = readdirSync(join(dir, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(dir, 'assets', f), 'utf8'))
      .join('\n');
    expect(js).toContain('may be used only in the context of a <Router> component');
    expect(js).not.toContain('You rendered descendant <Routes>');
  });

  it('puts the dashboard page and the widgets in one landing chunk that loads after the sign-in path and imports nothing but its chunks', () => {
    const assets = readdirSync(join(dir, 'assets')).filter((f) => f.endsWith('.js'));
    const landing = assets.filter((f) => /^landing-[\w-]+\.js$/.test(f));
    expect(landing).toHaveLength(1);
    // Split by default, each widget and the page were files of their own.
    expect(assets.filter((f) => /^(\w+Widget|DashboardPage)-/.test(f))).toEqual([]);
    const loadTime = loadTimeFiles();
    expect(loadTime).not.toContain(`assets/${landing[0]}`);
    const code = readFileSync(join(dir, 'assets', landing[0] as string), 'utf8');
    const imports = staticImports(code);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(loadTime, i).toContain(i);
  });

  it('loads React, i18next and the other modules the entry shares with routes in one boot chunk, which imports no entry', () => {
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    const preloaded = linked(index, 'modulepreload');
    const boot = preloaded.filter((f) => /^assets\/boot-[\w-]+\.js$/.test(f));
    expect(boot).toHaveLength(1);
    // Beside it, Rolldown's runtime alone, which no group takes (the default split preloaded six chunks).
    const others = preloaded.filter((f) => !boot.includes(f));
    expect(others).toHaveLength(1);
    expect(others[0]).toMatch(/^assets\/rolldown-runtime-[\w-]+\.js$/);
    const code = readFileSync(join(dir, boot[0] as string), 'utf8');
    expect(code).toContain('react.transitional.element');
    expect(code).toContain('languageChanged');
    const imports = staticImports(code);
    for (const i of imports) expect(preloaded, i).toContain(i);
  });

  it('writes a gzip copy beside every text asset, and a smaller brotli one wherever brotli is smaller, each the same bytes unpacked', () => {
    const assets = readdirSync(join(dir, 'assets')).filter((f) => /\.(js|css)$/.test(f));
    let withBrotli = 0;
    for (const f of assets) {
      const file = join(dir, 'assets', f);
      const gz = readFileSync(`${file}.gz`);
      expect(gunzipSync(gz).equals(readFileSync(file)), f).toBe(true);
      if (!existsSync(`${file}.br`)) continue;
      withBrotli++;
      const br = readFileSync(`${file}.br`);
      expect(brotliDecompressSync(br).equals(readFileSync(file)), f).toBe(true);
      expect(br.length, f).toBeLessThan(gz.length);
    }
    // Brotli beats gzip on every file of any size: the entry among them.
    expect(withBrotli).toBeGreaterThan(assets.length / 2);
    const entry = readFileSync(join(dir, 'index.html'), 'utf8').match(/src="\/(assets\/index-[\w-]+\.js)"/)?.[1] as string;
    expect(existsSync(join(dir, `${entry}.br`))).toBe(true);
  });

  it("gzips the document's own files with zopfli: fewer bytes than zlib's best, where every first visit waits on them", () => {
    const named = [...documentAssets(readFileSync(join(dir, 'index.html'), 'utf8'))].filter((f) => f.endsWith('.js'));
    expect(named.some((f) => /^assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
    for (const f of named) {
      const file = join(dir, f);
      expect(readFileSync(`${file}.gz`).length, f).toBeLessThan(gzipSync(readFileSync(file), { level: 9 }).length);
    }
  });
});

describe('documentAssets', () => {
  it('lists the built files a document names by src or href, without the leading slash, and nothing else', () => {
    const html = `<script type="module" crossorigin src="/assets/index-a1.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/boot-b2.js"><link rel="stylesheet" href="/assets/index-c3.css">
      <link rel="icon" href="data:,"><a href="/login">x</a><img src="https://cdn.example/assets/x.png">`;
    expect([...documentAssets(html)].sort()).toEqual(['assets/boot-b2.js', 'assets/index-a1.js', 'assets/index-c3.css']);
  });
});

describe('brandScopedGlobs', () => {
  it("puts the brand's id for %BRAND% in import.meta.glob patterns, typed or not, and leaves everything else as it is", () => {
    const code = [
      '// %BRAND% in a comment stays',
      "const a = import.meta.glob<string>('../videos/reset-password.%BRAND%.*.{webm,vtt}', { eager: true });",
      'const b = import.meta.glob("./%BRAND%/*.json");',
      "const c = import.meta.glob('./all/*.json');",
      "const d = '%BRAND%';",
    ].join('\n');
    expect(brandScopedGlobs(code, 'card')?.split('\n')).toEqual([
      '// %BRAND% in a comment stays',
      "const a = import.meta.glob<string>('../videos/reset-password.card.*.{webm,vtt}', { eager: true });",
      'const b = import.meta.glob("./card/*.json");',
      "const c = import.meta.glob('./all/*.json');",
      "const d = '%BRAND%';",
    ]);
  });

  it('leaves a module without a brand-scoped pattern alone (null: nothing to transform)', () => {
    expect(brandScopedGlobs("import.meta.glob('./*.ts')", 'card')).toBeNull();
    expect(brandScopedGlobs("const token = '%BRAND%';", 'card')).toBeNull();
  });
});
