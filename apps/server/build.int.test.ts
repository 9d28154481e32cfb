import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installedPluginIds } from '@portal/brands/plugins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from './build';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Every file under dir, relative to it. */
const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));

// It starts the compiled API on its own PGlite directory (DATABASE_URL ''), whichever engine the run tests, so the
// PostgreSQL run skips it rather than repeat the same test.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('the compiled API (pnpm build → apps/server/dist)', () => {
  let tmp = '';
  let out = '';
  let child: ChildProcess | null = null;
  let url = '';
  let stderr = '';

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'portal-server-build-'));
    out = join(tmp, 'dist');
    await buildServer(installedPluginIds(), out);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--enable-source-maps', join(out, 'main.js')], {
      env: { ...process.env, DATA_DIR: join(tmp, 'data'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ok = await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the compiled API did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child?.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('writes one entry per plugin with a server side, beside the API entry', () => {
    const withServer = installedPluginIds().filter((id) => filesUnder(join(out, 'plugins')).includes(`${id}.js`));
    expect(withServer).toContain('account');
    expect(withServer).toContain('claims');
    expect(filesUnder(out)).toContain('main.js');
  });

  it('imports every package by a file URL or a node: name, so nothing depends on where dist/ sits in node_modules', () => {
    for (const f of filesUnder(out)) {
      const code = readFileSync(join(out, f), 'utf8');
      const specifiers = [...code.matchAll(/\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2] ?? '');
      for (const s of specifiers) expect(s, `${f} imports ${s}`).toMatch(/^(node:|file:\/\/|\.\.?\/)/);
    }
  });

  it('keeps no function names at run time (tsx wraps every named function in __name; the build does not)', () => {
    for (const f of filesUnder(out)) expect(readFileSync(join(out, f), 'utf8'), f).not.toMatch(/\b__name\(/);
  });

  it('answers /health and the plugins’ routes, loaded from the compiled entries', async () => {
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect((await health.json()).Data).toEqual({ status: 'ok', database: 'pglite' });
    // A plugin route exists (401 without a token), where an unknown path is 404.
    const identity = await fetch(`${url}/api/account/user/identity`, { headers: { host: 'card.localhost' } });
    expect(identity.status).toBe(401);
    const unknown = await fetch(`${url}/api/account/no-such-route`, { headers: { host: 'card.localhost' } });
    expect(unknown.status).toBe(404);
    expect(stderr).not.toMatch(/error/i);
  });
});
