import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@portal/app-server/plugins';
import { ConfigError, loadConfig, migrate, openDatabase } from '@portal/server/kernel';
import { afterAll, describe, expect, it } from 'vitest';

// A data directory of this run's own (start-up writes its token secret there), removed afterwards.
const dataDir = mkdtempSync(join(tmpdir(), 'portal-startup-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// Start-up checks and the embedded database's migrations, whichever engine the run tests: the PostgreSQL run skips them
// rather than repeat them.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('start-up', () => {
  it('refuses a malformed DATABASE_URL with a clear message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'not a url', DATA_DIR: dataDir })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://h/db', DATA_DIR: dataDir })).toThrow(/must start with postgres/);
  });

  it('refuses an unreachable database with a clear message', async () => {
    await expect(openDatabase({ databaseUrl: 'postgres://portal@127.0.0.1:1/none', dataDir: null })).rejects.toThrow(
      /Cannot reach the database at postgres:\/\/portal@127\.0\.0\.1:1/,
    );
  });

  it('stops the API process with exit code 1 and names the problem', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'apps/server/src/main.ts')], {
      env: { ...process.env, DATABASE_URL: 'postgres://portal:secret@127.0.0.1:1/none', DATA_DIR: dataDir, PORT: '18999' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('The API server could not start: Cannot reach the database');
    expect(r.stderr).not.toContain('secret'); // the password is masked
  });

  it('applies a migration whole or not at all', async () => {
    const db = await openDatabase({ databaseUrl: null, dataDir: null });
    try {
      await migrate(db.sql, [{ owner: 't', migrations: [{ id: '0001_ok', sql: 'CREATE TABLE a (x int);' }] }]);
      await expect(
        migrate(db.sql, [
          { owner: 't', migrations: [{ id: '0002_bad', sql: 'CREATE TABLE b (x int); INSERT INTO a VALUES (1); SELECT no_such_function();' }] },
        ]),
      ).rejects.toThrow(/Migration t\/0002_bad failed and was rolled back/);
      const tables = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'b'");
      expect(tables[0]?.n).toBe(0);
      expect((await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM a'))[0]?.n).toBe(0);
      const done = await db.sql.query<{ id: string }>("SELECT id FROM schema_migrations WHERE owner = 't'");
      expect(done.map((r) => r.id)).toEqual(['0001_ok']);
      // Running again applies nothing twice.
      expect(await migrate(db.sql, [{ owner: 't', migrations: [{ id: '0001_ok', sql: 'CREATE TABLE a (x int);' }] }])).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
