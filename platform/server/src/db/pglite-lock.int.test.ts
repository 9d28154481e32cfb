import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config';
import { lockDataDir, openPglite } from './database';

const root = fs.mkdtempSync(join(tmpdir(), 'pglite-lock-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** The id of a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid as number;

// The embedded database whichever engine the run tests: the PostgreSQL run skips it rather than repeat it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('the embedded database is one process’s: a second opener is refused, never let in to lose rows', () => {
  it('refuses a directory another running process holds, naming it; opens it once that process is gone', async () => {
    const dir = join(root, 'held', 'pgdata');
    fs.mkdirSync(join(root, 'held'), { recursive: true });
    // Held by a running process (this one's parent: alive for as long as the test runs).
    fs.writeFileSync(`${dir}.lock`, String(process.ppid));
    await expect(openPglite(dir)).rejects.toThrow(ConfigError);
    await expect(openPglite(dir)).rejects.toThrow(`is in use by process ${process.ppid}`);
    expect(fs.existsSync(join(dir, 'PG_VERSION'))).toBe(false);
    // Left by a process that died (a kill -9): taken over.
    fs.writeFileSync(`${dir}.lock`, String(deadPid()));
    const db = await openPglite(dir);
    try {
      expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
      expect((await db.query<{ n: number }>('SELECT 1 AS n')).rows[0]?.n).toBe(1);
    } finally {
      await db.close();
    }
    // Closed: given back.
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });

  it('refuses a second process while the first has it open (a second scripts/seed beside a running API)', async () => {
    const dir = join(root, 'open', 'pgdata');
    const db = await openPglite(dir);
    try {
      const other = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `import('${join(import.meta.dirname, 'database.ts')}').then((m) => m.openPglite(${JSON.stringify(dir)})).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(3); })`,
        ],
        { encoding: 'utf8', cwd: process.cwd() },
      );
      expect(other.status, other.stderr).toBe(3);
      expect(other.stderr).toContain(`is in use by process ${process.pid}`);
    } finally {
      await db.close();
    }
  });

  it('gives the lock back when it cannot be taken for another reason, and a release only removes its own', () => {
    const dir = join(root, 'mine', 'pgdata');
    const release = lockDataDir(dir);
    fs.writeFileSync(`${dir}.lock`, '999999999');
    release();
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe('999999999');
  });
});
