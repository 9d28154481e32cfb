import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabaseUrl } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..', '..', '..');

/** apps/server/src/main.ts with env; its exit code and what it wrote to stderr. */
function runApi(env: Record<string, string>, until?: (stdout: string) => boolean): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'apps/server/src/main.ts')], {
      cwd: REPO,
      env: { ...process.env, TOKEN_SECRET: 'port-test-secret', SANDBOX_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (until?.(stdout)) child.kill('SIGTERM');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

// Engine-independent (the start fails before any database is opened), so the PostgreSQL run skips it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('an API started on a port another process listens on', () => {
  let taken: Server;
  let port = 0;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'portal-port-'));
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  // A database nobody can reach: had the start opened it before finding the port taken, it would say so instead.
  const unreachable = 'postgres://portal@127.0.0.1:9/none';

  it('stops at once with one line naming the port, before it opens the database', async () => {
    const started = Date.now();
    const run = await runApi({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: unreachable });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`The API server could not start: Port ${port} is already in use (another API running? set PORT)\n`);
    expect(run.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('with WORKERS, says the same in the primary, before any worker starts', async () => {
    const run = await runApi({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: unreachable, WORKERS: '2' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`The API server could not start: Port ${port} is already in use (another API running? set PORT)\n`);
  });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe.skipIf(!process.env.TEST_DATABASE_URL)('an API with MIGRATION_DATABASE_URL', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let dataDir = '';
  beforeAll(async () => {
    db = await freshDatabaseUrl();
    dataDir = mkdtempSync(join(tmpdir(), 'portal-migration-url-'));
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates over it, and says so when it cannot reach it', async () => {
    const env = { DATABASE_URL: db.databaseUrl ?? '', DATA_DIR: dataDir, HOST: '127.0.0.1', JOBS: 'off', LOG_LEVEL: 'info' };
    const failed = await runApi({ ...env, PORT: String(await freePort()), MIGRATION_DATABASE_URL: 'postgres://portal@127.0.0.1:9/none' });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /^The API server could not start: Cannot reach the migration database \(MIGRATION_DATABASE_URL\) at postgres:\/\/portal@127\.0\.0\.1:9\/none: connect ECONNREFUSED/,
    );

    const started = await runApi({ ...env, PORT: String(await freePort()), MIGRATION_DATABASE_URL: db.databaseUrl ?? '' }, (out) =>
      out.includes('API and brand sites on'),
    );
    expect(started.stdout).toContain('"msg":"applied migration kernel/0001');
    expect(started.stdout).toContain('API and brand sites on');
    expect(started.code).toBe(0);
  });
});
