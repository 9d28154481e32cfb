import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@portal/server/kernel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// PGlite only, whichever engine the run tests: the PostgreSQL run skips it rather than repeat it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('the embedded database on disk', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-durable-'));
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('syncs each commit to disk before answering, and keeps the data across a reopen', async () => {
    const database = await openDatabase({ databaseUrl: null, dataDir: dir });
    try {
      expect((await database.sql.query<{ fsync: string }>('SHOW fsync'))[0]?.fsync).toBe('on');
      await database.sql.exec('CREATE TABLE kept (id serial PRIMARY KEY, v text NOT NULL)');
      const sync = vi.spyOn(fs, 'fsyncSync');
      for (let i = 0; i < 10; i++) await database.sql.query('INSERT INTO kept (v) VALUES ($1)', [`row ${i}`]);
      // At least one sync of the write-ahead log per commit.
      expect(sync.mock.calls.length).toBeGreaterThanOrEqual(10);
      sync.mockRestore();
    } finally {
      await database.close();
    }
    const again = await openDatabase({ databaseUrl: null, dataDir: dir });
    try {
      expect((await again.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM kept'))[0]?.n).toBe(10);
    } finally {
      await again.close();
    }
    // Creating a database cluster on disk takes tens of seconds on a busy 2-core machine.
  }, 180_000);
});
