/**
 * scripts/new-plugin <id> [--dir <repo root>] [--no-install]
 *
 * Generates a working plugin in the project's plugin shape from scripts/new-plugin-template/: access,
 * contract with one endpoint, server side (handler, migration, seed, integration test), web side (one page
 * with a navigation entry, English and Spanish), and an end-to-end spec; enables it on the staff brand and
 * runs `pnpm install` so the workspace links the new package. A failure while writing removes what it wrote.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { KernelApi } from '@portal/core';
import { DEMO_PASSWORD } from './demo';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEMPLATE_DIR = join(REPO_ROOT, 'scripts', 'new-plugin-template');
const STAFF_MANIFEST = join('brands', 'staff', 'manifest.ts');
/** biome.json's formatter.lineWidth. */
const MANIFEST_LINE_WIDTH = 160;

export class ScaffoldError extends Error {}

export const ID_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** Table and index names derive from the id and must stay under PostgreSQL's 63 characters. */
export const MAX_ID_LENGTH = 40;

/** First path segments the kernel answers itself (web pages and API), so a plugin of that id would collide. */
export function reservedIds(): Set<string> {
  const reserved = new Set(['api', 'assets', 'login', 'register', 'activated', 't', 'invalid', 'transition', 'dashboard']);
  for (const endpoint of Object.values(KernelApi)) {
    const [first, second] = endpoint.path.split('/').filter(Boolean);
    if (first === 'api' && second) reserved.add(second);
    else if (first) reserved.add(first);
  }
  return reserved;
}

/** Why the id cannot be a plugin id, or null when it can. */
export function idProblem(id: string): string | null {
  if (!ID_PATTERN.test(id))
    return `"${id}" is not a plugin id: use lower-case letters, digits and single dashes, starting with a letter and not ending with a dash (e.g. "care-notes")`;
  if (id.length > MAX_ID_LENGTH) return `"${id}" is too long: at most ${MAX_ID_LENGTH} characters`;
  if (reservedIds().has(id)) return `"${id}" is taken by the kernel (its page or API path): choose another id`;
  return null;
}

export interface PluginNames {
  /** care-notes */
  id: string;
  /** CareNotes */
  pascal: string;
  /** careNotes */
  camel: string;
  /** CARE_NOTES */
  constant: string;
  /** care_notes_items */
  table: string;
  /** Care Notes: the English (and Spanish) page title until someone writes a better one. */
  title: string;
  /** /care-notes */
  path: string;
}

export function pluginNames(id: string): PluginNames {
  const words = id.split('-');
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const pascal = words.map(cap).join('');
  return {
    id,
    pascal,
    camel: pascal.charAt(0).toLowerCase() + pascal.slice(1),
    constant: words.join('_').toUpperCase(),
    table: `${words.join('_')}_items`,
    title: words.map(cap).join(' '),
    path: `/${id}`,
  };
}

/** Replaces the template tokens; a token left over (a typo in a template) is an error, not output. */
export function fill(text: string, n: PluginNames): string {
  const out = text
    .replaceAll('__ID__', n.id)
    .replaceAll('__PASCAL__', n.pascal)
    .replaceAll('__CAMEL__', n.camel)
    .replaceAll('__CONST__', n.constant)
    .replaceAll('__TABLE__', n.table)
    .replaceAll('__TITLE__', n.title)
    .replaceAll('__PATH__', n.path);
  const left = /__[A-Z]+__/.exec(out);
  if (left) throw new ScaffoldError(`template token ${left[0]} has no value`);
  return out;
}

/** The files to write, relative to the repository root, with their contents. */
export function renderTemplates(n: PluginNames, templateDir = TEMPLATE_DIR): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.tmpl'))
        files.push({ path: fill(relative(templateDir, full).slice(0, -'.tmpl'.length), n), content: fill(readFileSync(full, 'utf8'), n) });
    }
  };
  walk(templateDir);
  return files;
}

/**
 * Adds the id to the manifest's `plugins: [...]`, keeping its layout: one line stays one line, a list written
 * one id per line gets one more line; ids stay sorted (a list holding comments gets the id at its end).
 */
export function addToPluginsList(source: string, id: string, file = STAFF_MANIFEST): string {
  const m = /^([ \t]*plugins:[ \t]*\[)([^\]]*)(\],?)/m.exec(source);
  if (!m) throw new ScaffoldError(`${file}: found no "plugins: [...]" list to add "${id}" to`);
  const [whole, open = '', inner = '', close = ''] = m;
  const ids = [...inner.matchAll(/'([^']*)'|"([^"]*)"/g)].map((x) => x[1] ?? x[2] ?? '');
  if (ids.includes(id)) throw new ScaffoldError(`${file} already lists "${id}"`);
  const quote = inner.includes('"') ? '"' : "'";
  let replaced: string;
  if (!inner.includes('\n')) {
    replaced = `${open}${[...ids, id]
      .sort()
      .map((x) => `${quote}${x}${quote}`)
      .join(', ')}${close}`;
  } else {
    const itemIndent = /\n([ \t]+)['"]/.exec(inner)?.[1] ?? '    ';
    const closeIndent = /\n([ \t]*)$/.exec(inner)?.[1] ?? '';
    if (/^(\s*(['"])[^'"]*\2\s*,?)*\s*$/.test(inner)) {
      // Only ids: one per line, sorted.
      const lines = [...ids, id].sort().map((x) => `\n${itemIndent}${quote}${x}${quote},`);
      replaced = `${open}${lines.join('')}\n${closeIndent}${close}`;
    } else {
      // Comments or other text in the list: keep it as it is and add the id at the end.
      const body = inner.replace(/\s+$/, '');
      const comma = body === '' || body.endsWith(',') ? '' : ',';
      replaced = `${open}${body}${comma}\n${itemIndent}${quote}${id}${quote},\n${closeIndent}${close}`;
    }
  }
  return source.slice(0, m.index) + replaced + source.slice(m.index + whole.length);
}

/**
 * Runs the project's formatter and import sorter over the generated files (line breaks depend on the id's
 * length), and the formatter over the manifest only when its plugins line grew past the line width.
 */
function formatWithBiome(root: string, paths: string[], manifestTooWide: boolean) {
  const biome = [join(root, 'node_modules', '.bin', 'biome'), join(REPO_ROOT, 'node_modules', '.bin', 'biome')].find((b) => existsSync(b));
  if (!biome) throw new ScaffoldError('biome is not installed: run pnpm install first');
  // A --dir root without a Biome configuration gets this repository's (2 spaces, single quotes, 160 columns).
  const config = existsSync(join(root, 'biome.json')) ? [] : ['--config-path', REPO_ROOT];
  const runs = [['check', '--write', ...config, ...paths]];
  if (manifestTooWide) runs.push(['format', '--write', ...config, STAFF_MANIFEST]);
  for (const args of runs) {
    const r = spawnSync(biome, args, { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new ScaffoldError(`biome ${args.slice(0, 2).join(' ')} failed on the generated files:\n${r.stdout}${r.stderr}${r.error ?? ''}`);
  }
}

export interface ScaffoldOptions {
  id: string;
  /** The repository root to generate into. */
  root: string;
  install: boolean;
  log?: (line: string) => void;
}

export interface ScaffoldResult {
  names: PluginNames;
  /** Paths relative to the root. */
  created: string[];
  manifest: string;
  installed: boolean;
}

/** Generates the plugin under `root`; on a failure while writing, removes what it wrote and restores the manifest. */
export function scaffoldPlugin({ id, root, install, log = console.log }: ScaffoldOptions): ScaffoldResult {
  const problem = idProblem(id);
  if (problem) throw new ScaffoldError(problem);
  const pluginsDir = join(root, 'plugins');
  const manifestPath = join(root, STAFF_MANIFEST);
  if (!existsSync(pluginsDir) || !existsSync(manifestPath))
    throw new ScaffoldError(`${root} is not the portal repository: it needs plugins/ and ${STAFF_MANIFEST}`);
  if (existsSync(join(pluginsDir, id))) throw new ScaffoldError(`plugins/${id} already exists: choose another id`);
  const names = pluginNames(id);
  const files = renderTemplates(names);
  for (const f of files) if (existsSync(join(root, f.path))) throw new ScaffoldError(`${f.path} already exists: choose another id`);
  const manifestBefore = readFileSync(manifestPath, 'utf8');
  const manifestAfter = addToPluginsList(manifestBefore, id);

  // The outermost folders this run creates (plugins/<id>, e2e/<id> unless it exists), to remove on failure.
  const createdDirs = new Set<string>();
  for (const f of files) {
    let top: string | null = null;
    for (let dir = dirname(join(root, f.path)); dir !== root && !existsSync(dir); dir = dirname(dir)) top = dir;
    if (top) createdDirs.add(top);
  }
  const written: string[] = [];
  try {
    for (const f of files) {
      const target = join(root, f.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.content, { flag: 'wx' });
      written.push(target);
    }
    writeFileSync(manifestPath, manifestAfter);
    const manifestTooWide = manifestAfter.split('\n').some((line) => line.length > MANIFEST_LINE_WIDTH);
    formatWithBiome(
      root,
      files.map((f) => f.path),
      manifestTooWide,
    );
  } catch (e) {
    for (const file of written) rmSync(file, { force: true });
    for (const dir of createdDirs) rmSync(dir, { recursive: true, force: true });
    writeFileSync(manifestPath, manifestBefore);
    throw e;
  }

  let installed = false;
  if (install) {
    log('\nRunning pnpm install to link the new package ...');
    const r = spawnSync('pnpm', ['install'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0)
      throw new ScaffoldError(
        `pnpm install failed (${r.error?.message ?? `exit ${r.status}`}): the plugin is written; run pnpm install again once the cause is fixed`,
      );
    installed = true;
  }
  return { names, created: files.map((f) => f.path), manifest: STAFF_MANIFEST, installed };
}

export function report(r: ScaffoldResult): string {
  const { id, pascal, title, path } = r.names;
  return [
    `Created plugin "${id}" (@portal/plugin-${id}):`,
    ...r.created.map((f) => `  ${f}`),
    `Enabled it on the staff brand: ${r.manifest}`,
    r.installed ? 'Linked it into the workspace (pnpm install).' : 'Skipped pnpm install (--no-install): run it before using the plugin.',
    '',
    'Next steps:',
    `  pnpm exec vitest run --project integration plugins/${id}     # its API test: 401, 403, 404 on other brands, 200 with rows`,
    "  pnpm exec vitest run --project integration tests/authorization-matrix.int.test.ts -u   # its routes' access in tests/route-access.txt: review and commit",
    `  pnpm build staff && pnpm exec playwright test -c e2e/playwright.config.ts e2e/${id}`,
    `  scripts/start, then open http://staff.localhost:8080${path} as staff.caresupport (password ${DEMO_PASSWORD})`,
    `  Rename the title "${title}" in plugins/${id}/src/web/i18n/en.json and es.json, and the roles in src/access.ts.`,
    `  Grow it: endpoints in src/contract.ts + src/server/handlers/, pages in src/web/pages/ (${pascal}Page.tsx is the first),`,
    `  tables in src/server/migrations.ts (add 0002_..., never edit a shipped one). See docs/ARCHITECTURE.md, "Add a plugin".`,
    `  Enable it on another brand: add '${id}' to plugins in brands/<brand>/manifest.ts.`,
  ].join('\n');
}

const USAGE = 'usage: scripts/new-plugin <id> [--dir <repository root>] [--no-install]';

export function parseArgs(argv: readonly string[], cwd: string): { id: string; root: string; install: boolean } {
  let id: string | undefined;
  let root = REPO_ROOT;
  let install = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--no-install') install = false;
    else if (a === '--dir') {
      const dir = argv[++i];
      if (!dir) throw new ScaffoldError(`--dir needs a path\n${USAGE}`);
      root = resolve(cwd, dir);
    } else if (a.startsWith('--dir=')) root = resolve(cwd, a.slice('--dir='.length));
    else if (a.startsWith('-')) throw new ScaffoldError(`unknown option ${a}\n${USAGE}`);
    else if (id === undefined) id = a;
    else throw new ScaffoldError(`one plugin id only, got "${id}" and "${a}"\n${USAGE}`);
  }
  if (id === undefined) throw new ScaffoldError(USAGE);
  return { id, root, install };
}

function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  try {
    // The wrapper changes to the repository root; --dir is relative to where it was called from.
    const options = parseArgs(argv, process.env.NEW_PLUGIN_CALLER_CWD ?? process.cwd());
    console.log(report(scaffoldPlugin(options)));
  } catch (e) {
    if (!(e instanceof ScaffoldError)) throw e;
    console.error(`new-plugin: ${e.message}`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
