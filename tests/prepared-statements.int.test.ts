import { type Database, openDatabase } from '@portal/server/kernel';
import { freshDatabaseUrl } from '@portal/testing/server';
import { describe, expect, it, vi } from 'vitest';

const TEXT = 'SELECT g AS n, $1::text AS label FROM generate_series(1, $2::int) g ORDER BY g DESC LIMIT 3';

/**
 * fn on a fresh database of its own with one connection, so every query meets the same server session; closed and
 * dropped afterwards. url may change the database's address (PostgreSQL's).
 */
async function withDatabase(fn: (database: Database) => Promise<void>, url: (databaseUrl: string) => string = (u) => u) {
  const { databaseUrl, drop } = await freshDatabaseUrl();
  const database = await openDatabase({ databaseUrl: databaseUrl && url(databaseUrl), dataDir: null, poolSize: 1 });
  try {
    await fn(database);
  } finally {
    await database.close();
    await drop();
  }
}

describe('a statement run with { prepare: true }', () => {
  it('answers as the same statement unnamed, on either engine, in and out of a transaction', async () => {
    await withDatabase(async (database) => {
      const plain = await database.sql.query(TEXT, ['a', 5]);
      expect(plain).toEqual([
        { n: 5, label: 'a' },
        { n: 4, label: 'a' },
        { n: 3, label: 'a' },
      ]);
      for (const [label, count] of [
        ['a', 5],
        ['b', 2],
        ['a', 5],
      ] as const) {
        expect(await database.sql.query(TEXT, [label, count], { prepare: true })).toEqual(await database.sql.query(TEXT, [label, count]));
      }
      expect(await database.sql.transaction((tx) => tx.query(TEXT, ['a', 5], { prepare: true }))).toEqual(plain);
    });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('prepared statements on PostgreSQL', () => {
  const prepared = (sql: { query<R>(t: string): Promise<R[]> }) =>
    sql.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements ORDER BY name');

  it('are prepared on the connection from their second run, once, and planned for each run’s values', async () => {
    await withDatabase(async (database) => {
      expect(await database.sql.query('SHOW plan_cache_mode')).toEqual([{ plan_cache_mode: 'force_custom_plan' }]);
      await database.sql.query(TEXT, ['a', 5], { prepare: true });
      expect(await prepared(database.sql)).toEqual([]);
      await database.sql.query(TEXT, ['b', 4], { prepare: true });
      const after = await prepared(database.sql);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ name: expect.stringMatching(/^portal_[0-9a-f]{40}$/), statement: TEXT });
      // Later runs reuse it; a text run without the option is never prepared.
      expect(await database.sql.query(TEXT, ['c', 3], { prepare: true })).toEqual([
        { n: 3, label: 'c' },
        { n: 2, label: 'c' },
        { n: 1, label: 'c' },
      ]);
      for (let i = 0; i < 3; i++) await database.sql.query('SELECT $1::int AS n', [i]);
      expect(await prepared(database.sql)).toEqual(after);
    });
  });

  it('are not prepared when the connection’s plan_cache_mode is not force_custom_plan (options in DATABASE_URL)', async () => {
    const withOptions = (databaseUrl: string) => {
      const url = new URL(databaseUrl);
      url.searchParams.set('options', '-c plan_cache_mode=auto');
      return url.toString();
    };
    await withDatabase(async (database) => {
      expect(await database.sql.query('SHOW plan_cache_mode')).toEqual([{ plan_cache_mode: 'auto' }]);
      for (let i = 0; i < 3; i++) expect(await database.sql.query(TEXT, ['a', 1], { prepare: true })).toEqual([{ n: 1, label: 'a' }]);
      expect(await prepared(database.sql)).toEqual([]);
    }, withOptions);
  });

  it('run unnamed from then on when the session lost one (DEALLOCATE, or a pooler that does not keep them)', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    await withDatabase(async (database) => {
      await database.sql.query(TEXT, ['a', 2], { prepare: true });
      await database.sql.query(TEXT, ['a', 2], { prepare: true });
      expect(await prepared(database.sql)).toHaveLength(1);
      await database.sql.exec('DEALLOCATE ALL');
      // node-postgres still takes the statement for prepared on this connection: the server answers 26000.
      expect(await database.sql.query(TEXT, ['d', 2], { prepare: true })).toEqual([
        { n: 2, label: 'd' },
        { n: 1, label: 'd' },
      ]);
      expect(warn).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 3; i++) await database.sql.query(TEXT, ['e', 1], { prepare: true });
      expect(await prepared(database.sql)).toEqual([]);
    }).finally(() => warn.mockRestore());
  });
});
