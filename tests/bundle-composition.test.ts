import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBrand, LANDING_FACADE, REPO } from '@portal/app-web/build';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Builds every brand for real and checks what each bundle holds: a plugin a brand enables is in its
 * bundle, one it does not enable contributes no code, and each plugin page is its own lazy chunk.
 * `scripts/test` builds every brand before the unit tests and names that output in BUILT_WEB_DIR: this then reads the
 * bundles that ship (and that the end-to-end tests serve) instead of building them a second time. Run alone, it
 * builds its own.
 */
const plugins = installedPluginIds(join(REPO, 'plugins')).filter((id) => existsSync(join(REPO, 'plugins', id, 'src', 'web', 'index.ts')));
const brands = loadBrands(installedPluginIds(join(REPO, 'plugins')));
const built = process.env.BUILT_WEB_DIR ? resolve(REPO, process.env.BUILT_WEB_DIR) : null;
const out = built ?? mkdtempSync(join(tmpdir(), 'portal-bundles-'));
const js = new Map<string, string>();

/** The plugin's longest English string: text that only its own code carries. */
function fingerprint(id: string): string {
  return longestPlainString(join(REPO, 'plugins', id, 'src', 'web', 'i18n', 'en.json'), `plugin ${id}`);
}

function longestPlainString(file: string, owner: string): string {
  const en = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const strings: string[] = [];
  const walk = (v: unknown) => (typeof v === 'string' ? strings.push(v) : v && typeof v === 'object' && Object.values(v).forEach(walk));
  walk(en);
  // Plain text only, so the bundle's quoting and escaping cannot hide it.
  const longest = strings.filter((s) => /^[\w ,.]+$/.test(s)).sort((a, b) => b.length - a.length)[0];
  if (!longest) throw new Error(`${owner} has no plain English strings`);
  return longest.slice(0, 40);
}

beforeAll(async () => {
  for (const brand of brands) {
    const dir = built ? join(built, brand.id) : await buildBrand(brand, out);
    if (!existsSync(join(dir, 'index.html'))) throw new Error(`no build of ${brand.id} in ${dir}: run pnpm build, or unset BUILT_WEB_DIR`);
    const assets = join(dir, 'assets');
    js.set(
      brand.id,
      readdirSync(assets)
        .filter((f) => f.endsWith('.js'))
        .map((f) => readFileSync(join(assets, f), 'utf8'))
        .join('\n'),
    );
  }
}, 240_000);
afterAll(() => {
  if (!built) rmSync(out, { recursive: true, force: true });
});

describe('bundle composition', () => {
  it('the staff build enables every installed plugin', () => {
    const staff = brands.find((b) => b.id === 'staff');
    expect([...(staff?.plugins ?? [])].sort()).toEqual(installedPluginIds(join(REPO, 'plugins')));
  });

  it('some brand leaves a plugin out, so absence is really tested', () => {
    expect(brands.some((b) => plugins.some((p) => !b.plugins.includes(p)))).toBe(true);
  });

  for (const id of plugins) {
    it(`plugin ${id}: present exactly in the bundles of brands that enable it`, () => {
      const marker = fingerprint(id);
      for (const brand of brands) {
        const has = js.get(brand.id)?.includes(marker);
        expect(`${brand.id}: ${has ? 'present' : 'absent'}`).toBe(`${brand.id}: ${brand.plugins.includes(id) ? 'present' : 'absent'}`);
      }
    });
  }

  it("each plugin page is its own lazy chunk (the dashboard's is the landing chunk), not loaded by the entry chunk", () => {
    const staff = join(out, 'staff');
    const html = readFileSync(join(staff, 'index.html'), 'utf8');
    const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeTruthy();
    const files = readdirSync(join(staff, 'assets'));
    const entryCode = readFileSync(join(staff, 'assets', entry as string), 'utf8');
    const staticImports = [...entryCode.matchAll(/^import[^;]*?from"\.\/([^"]+)"/gm)].map((m) => m[1]);
    // The route pages: every lazy `import('./pages/X')` in a plugin's web entry.
    const pages = plugins.flatMap((id) => {
      const entry = readFileSync(join(REPO, 'plugins', id, 'src', 'web', 'index.ts'), 'utf8');
      return [...entry.matchAll(/import\('\.\/pages\/(\w+)'\)/g)].map((m) => ({ page: m[1] as string, file: `/plugins/${id}/src/web/pages/${m[1]}.tsx` }));
    });
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((p) => LANDING_FACADE.test(p.file)).map((p) => p.page)).toEqual(['DashboardPage']);
    for (const { page, file } of pages) {
      const name = LANDING_FACADE.test(file) ? 'landing' : page;
      const chunk = files.find((f) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(f));
      expect(chunk, `a chunk for page ${page}`).toBeTruthy();
      expect(staticImports).not.toContain(chunk);
    }
  });

  it("keeps the plugins' and the kit's strings off the entry chunk: each namespace loads lazily, per language", () => {
    const staff = join(out, 'staff');
    const html = readFileSync(join(staff, 'index.html'), 'utf8');
    const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1] as string;
    const entryCode = readFileSync(join(staff, 'assets', entry), 'utf8');
    const staticImports = [...entryCode.matchAll(/^import[^;]*?from"\.\/([^"]+)"/gm)].map((m) => m[1] as string);
    const upFront = [entryCode, ...staticImports.map((f) => readFileSync(join(staff, 'assets', f), 'utf8'))].join('\n');
    const all = js.get('staff') ?? '';
    const namespaces = [
      ...plugins.map((id) => ({ name: `plugin ${id}`, dir: join(REPO, 'plugins', id, 'src', 'web', 'i18n') })),
      { name: 'kit', dir: join(REPO, 'platform', 'web', 'src', 'kit', 'i18n') },
    ];
    for (const ns of namespaces) {
      for (const lng of ['en', 'es']) {
        const marker = longestPlainString(join(ns.dir, `${lng}.json`), `${ns.name} (${lng})`);
        expect(`${ns.name} ${lng}: ${all.includes(marker) ? 'in the bundle' : 'missing'}`).toBe(`${ns.name} ${lng}: in the bundle`);
        expect(`${ns.name} ${lng}: ${upFront.includes(marker) ? 'up front' : 'lazy'}`).toBe(`${ns.name} ${lng}: lazy`);
      }
    }
  });

  it('keeps zod off the sign-in path: the entry chunk and what it imports statically hold no schema library', () => {
    for (const brand of brands) {
      const dir = join(out, brand.id);
      const html = readFileSync(join(dir, 'index.html'), 'utf8');
      const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1] as string;
      const entryCode = readFileSync(join(dir, 'assets', entry), 'utf8');
      const staticImports = [...entryCode.matchAll(/^import[^;]*?from"\.\/([^"]+)"/gm)].map((m) => m[1] as string);
      const upFront = [entryCode, ...staticImports.map((f) => readFileSync(join(dir, 'assets', f), 'utf8'))].join('\n');
      // zod's error class names itself; the kernel's endpoints reach the browser as declarations only (kernel-api.ts).
      expect(`${brand.id}: ${upFront.includes('ZodError') ? 'zod up front' : 'no zod up front'}`).toBe(`${brand.id}: no zod up front`);
      expect(js.get(brand.id)).toContain('ZodError');
    }
  });

  it('keeps zod off the landing page: the landing chunk (the dashboard and its widgets) holds no schema library', () => {
    for (const brand of brands) {
      const assets = join(out, brand.id, 'assets');
      const landing = readdirSync(assets).filter((f) => /^landing-[\w-]+\.js$/.test(f));
      expect(landing, brand.id).toHaveLength(1);
      const code = readFileSync(join(assets, landing[0] as string), 'utf8');
      // Widgets name their endpoints with endpointRef and `import type` of the contract: building the schemas cost
      // 150–250 ms of a slowed CPU before the dashboard's first paint.
      expect(`${brand.id}: ${code.includes('ZodError') ? 'zod on the landing page' : 'no zod'}`).toBe(`${brand.id}: no zod`);
    }
  });

  it("keeps the shell's chunks to the entry's: the layout and the language menu import no page's module (a sign-in would ask for the landing chunk before the identity)", () => {
    // The chunks the entry loads, and the ones the shell's own make up: the menu's, the language names on staff, and
    // the leave guard's modules the layout shares with the pages (the kit Form's unsaved-changes registry, the member
    // tabs' keepPageState), checked below to import no more than the entry's chunks either.
    const allowed = /^(index|boot|rolldown-runtime|LanguageMenu|languageNames|unsaved|leavePage)-[\w-]+\.js$/;
    const shared = ['unsaved', 'leavePage'];
    for (const brand of brands) {
      const assets = join(out, brand.id, 'assets');
      for (const shell of ['Layout', 'LanguageMenu', ...shared]) {
        if (shared.includes(shell) && !readdirSync(assets).some((f) => new RegExp(`^${shell}-[\\w-]+\\.js$`).test(f))) continue;
        const file = readdirSync(assets).find((f) => new RegExp(`^${shell}-[\\w-]+\\.js$`).test(f));
        expect(file, `${brand.id}: the ${shell} chunk`).toBeDefined();
        const code = readFileSync(join(assets, file as string), 'utf8');
        const imports = [...code.matchAll(/from"\.\/([^"]+)"/g)].map((m) => m[1] as string);
        expect(imports.filter((i) => !allowed.test(i)).map((i) => `${brand.id} ${shell} imports ${i}`)).toEqual([]);
      }
    }
  });
});
