import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToPluginsList, idProblem, pluginNames } from '../scripts/lib/scaffold';

/**
 * scripts/new-plugin generates a plugin that passes lint, the type check and its own integration test.
 *
 * It generates into a throw-away copy of the repository root (`--dir`), never into this working tree, so a
 * failed or interrupted run leaves nothing behind here and other work in the tree is not disturbed. The copy
 * holds real copies of what finds the repository by its own location (apps/server, brands, platform/testing:
 * the server loads plugins and manifests from the root it lives in), the other plugins' package.json only, and
 * links to everything else (the kernel packages, the installed dependencies). `pnpm install` is replaced by
 * linking what the generated package.json declares, so a missing dependency fails here as it would after an
 * install (unless the root package provides it, as in the working tree).
 */
const REPO = fileURLToPath(new URL('..', import.meta.url));
const ID = 'zz-scaffold-check';
const COPIED = { '@portal/app-server': 'apps/server', '@portal/brands': 'brands', '@portal/testing': 'platform/testing' } as const;
const WORKSPACE_GLOBS = ['platform', 'plugins', 'apps'];

let root: string;
/** The staff manifest as copied: the generator must leave it as it was when it refuses. */
let manifestAtCopy: string;

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}
const output = (r: SpawnSyncReturns<string>) => `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** Workspace package name -> its folder in the real tree. */
function workspacePackages(): Map<string, string> {
  const dirs = [
    ...WORKSPACE_GLOBS.flatMap((g) => readdirSync(join(REPO, g)).map((d) => join(REPO, g, d))),
    ...['brands', 'themes', 'tests', 'e2e'].map((d) => join(REPO, d)),
  ];
  const map = new Map<string, string>();
  for (const dir of dirs) if (existsSync(join(dir, 'package.json'))) map.set(readJson(join(dir, 'package.json')).name, dir);
  return map;
}

/** The copy's own packages by name: what finds the repository by its location, and the generated plugin. */
function copiedPackage(name: string): string | null {
  const copied = (COPIED as Record<string, string>)[name];
  if (copied) return join(root, copied);
  return name === `@portal/plugin-${ID}` ? join(root, 'plugins', ID) : null;
}

/** <overlay>/node_modules as pnpm installed <real>/node_modules, except that the copied packages point into the copy. */
function mirrorNodeModules(real: string, overlay: string) {
  const names = readdirSync(join(real, 'node_modules'))
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(real, 'node_modules', n)).map((m) => `${n}/${m}`) : [n]));
  for (const name of names) {
    const link = join(overlay, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(copiedPackage(name) ?? realpathSync(join(real, 'node_modules', name)), link, 'dir');
  }
}

/** What `pnpm install` links into the generated plugin's node_modules: each dependency its package.json declares. */
function linkDeclaredDependencies(dir: string) {
  const workspace = workspacePackages();
  const pkg = readJson(join(dir, 'package.json'));
  for (const [name, spec] of Object.entries<string>({ ...pkg.dependencies, ...pkg.devDependencies })) {
    let target = copiedPackage(name) ?? (spec.startsWith('workspace:') ? (workspace.get(name) ?? null) : null);
    if (!target) {
      const installed = [...workspace.values(), REPO].map((d) => join(d, 'node_modules', name)).find((c) => existsSync(c));
      if (!installed) throw new Error(`dependency ${name} (${spec}) is installed nowhere in the workspace`);
      target = realpathSync(installed);
    }
    const link = join(dir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(target, link, 'dir');
  }
}

function buildRepositoryCopy() {
  mirrorNodeModules(REPO, root);
  for (const dir of Object.values(COPIED)) {
    cpSync(join(REPO, dir), join(root, dir), { recursive: true, filter: (src) => !relative(join(REPO, dir), src).split(/[\\/]/).includes('node_modules') });
    mirrorNodeModules(join(REPO, dir), join(root, dir));
  }
  // The other plugins are installed (the manifests name them) but bring no code: the server skips a plugin
  // without src/server, so their work in progress cannot fail this test. Real folders: discovery skips links.
  for (const plugin of readdirSync(join(REPO, 'plugins'))) {
    if (!existsSync(join(REPO, 'plugins', plugin, 'package.json'))) continue;
    mkdirSync(join(root, 'plugins', plugin), { recursive: true });
    symlinkSync(join(REPO, 'plugins', plugin, 'package.json'), join(root, 'plugins', plugin, 'package.json'));
  }
  mkdirSync(join(root, 'e2e'));
  for (const entry of ['support.ts', 'test.ts', 'playwright.config.ts', 'node_modules']) symlinkSync(join(REPO, 'e2e', entry), join(root, 'e2e', entry));
  const { $schema: _schema, ...biome } = readJson(join(REPO, 'biome.json'));
  writeFileSync(join(root, 'biome.json'), JSON.stringify(biome, null, 2));
}

/**
 * The repository's type checks (tsconfig.web.json: DOM, no Node; tsconfig.server.json: Node, no DOM;
 * tsconfig.json: everything), each narrowed to the generated files it covers. Written next to the copy's root.
 */
function typeCheckConfigs(): string[] {
  const written: string[] = [];
  for (const name of ['tsconfig.web.json', 'tsconfig.server.json', 'tsconfig.json']) {
    if (!existsSync(join(REPO, name))) continue;
    const config = readJson(join(REPO, name));
    const include = (config.include as string[]).flatMap((p) =>
      p.startsWith('plugins/*/') ? [`plugins/${ID}/${p.slice('plugins/*/'.length)}`] : p === 'e2e' ? [`e2e/${ID}`] : [],
    );
    if (include.length === 0) continue;
    const options = config.compilerOptions ?? {};
    writeFileSync(
      join(root, name),
      JSON.stringify({
        ...config,
        extends: join(REPO, 'tsconfig.base.json'),
        compilerOptions: options,
        include,
      }),
    );
    written.push(name);
  }
  return written;
}

const generated = (path: string) => join(root, path);
const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);
const scaffold = (args: string[]) => run(join(REPO, 'scripts', 'new-plugin'), args, REPO);
const realTreeUntouched = () => {
  expect(existsSync(join(REPO, 'plugins', ID))).toBe(false);
  expect(existsSync(join(REPO, 'e2e', ID))).toBe(false);
  expect(readFileSync(join(REPO, 'brands', 'staff', 'manifest.ts'), 'utf8')).not.toContain(ID);
};

describe('plugin ids and names', () => {
  it('accepts lower-case letters, digits and single dashes, starting with a letter', () => {
    expect(idProblem('care-notes')).toBeNull();
    expect(idProblem('notes2')).toBeNull();
    for (const bad of ['Care', '2fa', 'care_notes', 'care--notes', 'care-', '-care', '', 'care notes'])
      expect(idProblem(bad), bad).toMatch(/is not a plugin id/);
    expect(idProblem('a'.repeat(41))).toMatch(/too long/);
  });
  it('refuses ids the kernel answers itself', () => {
    for (const taken of ['login', 'lookup', 'health', 'api', 'transition']) expect(idProblem(taken), taken).toMatch(/taken by the kernel/);
  });
  it('derives the code names and the table name', () => {
    expect(pluginNames('care-notes-2')).toEqual({
      id: 'care-notes-2',
      pascal: 'CareNotes2',
      camel: 'careNotes2',
      constant: 'CARE_NOTES_2',
      table: 'care_notes_2_items',
      title: 'Care Notes 2',
      path: '/care-notes-2',
    });
  });
});

describe('adding the id to a manifest', () => {
  it('keeps a one-line list on one line, sorted', () => {
    const src = "export default defineBrand({\n  id: 'staff',\n  plugins: ['account', 'help'],\n  copy: {},\n});\n";
    expect(addToPluginsList(src, 'care')).toBe("export default defineBrand({\n  id: 'staff',\n  plugins: ['account', 'care', 'help'],\n  copy: {},\n});\n");
  });
  it('adds a line to a list written one id per line', () => {
    const src = "  plugins: [\n    'account',\n    'help',\n  ],\n  copy: {},\n";
    expect(addToPluginsList(src, 'care')).toBe("  plugins: [\n    'account',\n    'care',\n    'help',\n  ],\n  copy: {},\n");
    const commented = "  plugins: [\n    'account',\n    // support screens\n    'help',\n  ],\n";
    expect(addToPluginsList(commented, 'care')).toBe("  plugins: [\n    'account',\n    // support screens\n    'help',\n    'care',\n  ],\n");
  });
  it('refuses an id the list has, and a manifest without a list', () => {
    expect(() => addToPluginsList("  plugins: ['care'],\n", 'care')).toThrow(/already lists "care"/);
    expect(() => addToPluginsList('export default {};\n', 'care')).toThrow(/no "plugins: \[...\]" list/);
  });
});

describe('scripts/new-plugin', () => {
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'portal-scaffold-')));
    buildRepositoryCopy();
    manifestAtCopy = readFileSync(join(root, 'brands', 'staff', 'manifest.ts'), 'utf8');
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('refuses a bad id and an existing plugin with a message and exit code 1, writing nothing', () => {
    const bad = scaffold(['Bad_Id', '--dir', root, '--no-install']);
    expect(bad.status, output(bad)).toBe(1);
    expect(bad.stderr).toMatch(/"Bad_Id" is not a plugin id/);
    const existing = scaffold(['help', '--dir', root, '--no-install']);
    expect(existing.status, output(existing)).toBe(1);
    expect(existing.stderr).toMatch(/plugins\/help already exists/);
    expect(readFileSync(join(root, 'brands', 'staff', 'manifest.ts'), 'utf8')).toBe(manifestAtCopy);
    expect(existsSync(join(root, 'plugins', 'Bad_Id'))).toBe(false);
  });

  it('removes what it wrote and restores the manifest when a step after writing fails', () => {
    // A root whose Biome configuration is broken: the files are written, then formatting them fails.
    const broken = join(root, 'broken-root');
    mkdirSync(join(broken, 'plugins'), { recursive: true });
    mkdirSync(join(broken, 'brands', 'staff'), { recursive: true });
    writeFileSync(join(broken, 'brands', 'staff', 'manifest.ts'), manifestAtCopy);
    writeFileSync(join(broken, 'biome.json'), '{ "formatter": ');
    const r = scaffold([ID, '--dir', broken, '--no-install']);
    expect(r.status, output(r)).toBe(1);
    expect(r.stderr).toMatch(/biome check --write failed/);
    expect(readdirSync(join(broken, 'plugins'))).toEqual([]);
    expect(existsSync(join(broken, 'e2e'))).toBe(false);
    expect(readFileSync(join(broken, 'brands', 'staff', 'manifest.ts'), 'utf8')).toBe(manifestAtCopy);
  });

  it('generates a plugin that passes lint, the type check and its own integration test', () => {
    try {
      const r = scaffold([ID, '--dir', root, '--no-install']);
      expect(r.status, output(r)).toBe(0);
      expect(r.stdout).toContain(`plugins/${ID}/src/server/${ID}.int.test.ts`);
      expect(r.stdout).toContain('Next steps');
      for (const f of [
        'package.json',
        'src/access.ts',
        'src/contract.ts',
        'src/server/index.ts',
        'src/server/handlers/items.ts',
        'src/server/i18n/es.json',
        'src/server/migrations.ts',
        'src/server/seed.ts',
        'src/web/index.ts',
        'src/web/pages/ZzScaffoldCheckPage.tsx',
      ])
        expect(existsSync(generated(`plugins/${ID}/${f}`)), f).toBe(true);
      expect(existsSync(generated(`e2e/${ID}/${ID}.spec.ts`))).toBe(true);
      expect(readFileSync(generated('brands/staff/manifest.ts'), 'utf8')).toMatch(new RegExp(`plugins: \\[[^\\]]*'${ID}'`));
      expect(readJson(generated(`plugins/${ID}/package.json`)).name).toBe(`@portal/plugin-${ID}`);
      const keys = (file: string) => Object.keys(readJson(generated(`plugins/${ID}/src/web/i18n/${file}`)));
      expect(keys('es.json')).toEqual(keys('en.json'));

      linkDeclaredDependencies(generated(`plugins/${ID}`));

      const lint = run(bin('biome'), ['check', `plugins/${ID}`, `e2e/${ID}`], root);
      expect(lint.status, output(lint)).toBe(0);

      // Each program takes in the kernel sources the plugin imports, which other work may be changing right
      // now: only errors in the generated files count, but each check must have run over some of them.
      const configs = typeCheckConfigs();
      expect(configs).toContain('tsconfig.json');
      const checked = new Set<string>();
      for (const config of configs) {
        const types = run(bin('tsc'), ['-p', config, '--noEmit', '--pretty', 'false', '--listFiles'], root);
        const lines = output(types).split('\n');
        const ours = (line: string) =>
          line.includes(`${root}/plugins/${ID}/`) || line.includes(`${root}/e2e/${ID}/`) || line.startsWith(`plugins/${ID}/`) || line.startsWith(`e2e/${ID}/`);
        const listed = lines.filter((line) => !/error TS\d+/.test(line) && ours(line));
        expect(listed.length, `${config} checked none of the generated files:\n${output(types)}`).toBeGreaterThan(0);
        for (const file of listed) checked.add(relative(root, file));
        const errors = lines.filter((line) => /error TS\d+/.test(line));
        expect(
          errors.filter((line) => line.startsWith('error') || ours(line)),
          config,
        ).toEqual([]);
        if (types.status !== 0) expect(errors.length, output(types)).toBeGreaterThan(0);
      }
      for (const file of [`plugins/${ID}/src/web/pages/ZzScaffoldCheckPage.tsx`, `plugins/${ID}/src/server/${ID}.int.test.ts`, `e2e/${ID}/${ID}.spec.ts`])
        expect(checked, file).toContain(file);

      // A child of its own, not a nested run of this one; plain output to read the count from.
      const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'FORCE_COLOR')), NO_COLOR: '1' };
      const test = run(
        bin('vitest'),
        ['run', '--root', root, '--testTimeout=60000', '--hookTimeout=120000', `plugins/${ID}/src/server/${ID}.int.test.ts`],
        root,
        env,
      );
      expect(test.status, output(test)).toBe(0);
      expect(output(test)).toMatch(/Tests\s+6 passed/);
    } finally {
      realTreeUntouched();
    }
  }, 300_000);
});
