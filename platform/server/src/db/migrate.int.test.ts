import type { Migration } from '@portal/core';
import { freshDatabaseUrl } from '@portal/testing/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase, type SqlClient } from './database';
import { MIGRATION_LOCK_KEY, migrate } from './migrate';

/**
 * Migrations that build indexes outside a transaction (`transaction: false`), on the run's engine: in-memory PGlite,
 * or a database of its own on the PostgreSQL server of TEST_DATABASE_URL.
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
let databaseUrl: string | null;
let drop: () => Promise<void>;
let database: Database;

beforeAll(async () => {
  ({ databaseUrl, drop } = await freshDatabaseUrl());
  database = await openDatabase({ databaseUrl, dataDir: null, poolSize: 5 });
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

const indexed = (id: string, statements: string[]): Migration => ({ id, transaction: false, statements });
/** true or false (pg_index.indisvalid), or null when there is no such index. */
const indexValid = async (name: string) =>
  (await database.sql.query<{ valid: boolean }>('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)', [name]))[0]?.valid ?? null;
const records = async (owner: string) => {
  const [table] = await database.sql.query<{ exists: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS exists");
  if (!table?.exists) return [];
  return (await database.sql.query<{ id: string }>('SELECT id FROM schema_migrations WHERE owner = $1 ORDER BY id', [owner])).map((r) => r.id);
};
const table = async (name: string, rows: number) => {
  await database.sql.exec(`CREATE TABLE ${name} (id serial PRIMARY KEY, member_id int NOT NULL, number text NOT NULL)`);
  await database.sql.query(`INSERT INTO ${name} (member_id, number) SELECT g % 97, 'C-' || g FROM generate_series(1, $1::int) g`, [rows]);
};

describe('a migration that runs outside a transaction (transaction: false)', () => {
  it('builds its index concurrently, valid, and is recorded once', async () => {
    await table('claims_a', 2000);
    const sets = [
      { owner: 'idx-a', migrations: [indexed('0001_member', ['CREATE INDEX CONCURRENTLY IF NOT EXISTS claims_a_member_idx ON claims_a (member_id);'])] },
    ];
    const logged: string[] = [];
    expect(await migrate(database.sql, sets, (m) => logged.push(m))).toEqual(['idx-a/0001_member']);
    expect(logged).toEqual(['applied migration idx-a/0001_member (outside a transaction)']);
    expect(await indexValid('claims_a_member_idx')).toBe(true);
    expect(await records('idx-a')).toEqual(['0001_member']);
    expect(await migrate(database.sql, sets)).toEqual([]);
    expect(await records('idx-a')).toEqual(['0001_member']);
  });

  it('is needed for CONCURRENTLY: the same statement in a transactional migration fails', async () => {
    await table('claims_b', 10);
    await expect(
      migrate(database.sql, [
        { owner: 'idx-b', migrations: [{ id: '0001_member', sql: 'CREATE INDEX CONCURRENTLY claims_b_member_idx ON claims_b (member_id)' }] },
      ]),
    ).rejects.toThrow(/Migration idx-b\/0001_member failed and was rolled back: CREATE INDEX CONCURRENTLY cannot run inside a transaction block/);
    expect(await records('idx-b')).toEqual([]);
  });

  it('drops an index concurrently', async () => {
    await table('claims_c', 10);
    await database.sql.exec('CREATE INDEX claims_c_member_idx ON claims_c (member_id)');
    const sets = [{ owner: 'idx-c', migrations: [indexed('0001_drop', ['DROP INDEX CONCURRENTLY IF EXISTS claims_c_member_idx'])] }];
    expect(await migrate(database.sql, sets)).toEqual(['idx-c/0001_drop']);
    expect(await indexValid('claims_c_member_idx')).toBeNull();
  });

  it('is applied once when two migrators start at once, each waiting its turn for the lock', async () => {
    const sets = [
      {
        owner: 'idx-d',
        migrations: [
          { id: '0001_table', sql: 'CREATE TABLE claims_d (member_id int NOT NULL); INSERT INTO claims_d SELECT g % 97 FROM generate_series(1, 2000) g;' },
          indexed('0002_member', ['CREATE INDEX CONCURRENTLY IF NOT EXISTS claims_d_member_idx ON claims_d (member_id)']),
          { id: '0003_more', sql: 'INSERT INTO claims_d VALUES (1)' },
        ],
      },
    ];
    if (!onPostgres) {
      // PGlite is one session: the migrations of one process run one call after the other.
      const [first, second] = await Promise.all([migrate(database.sql, sets), migrate(database.sql, sets)]);
      expect([...first, ...second].sort()).toEqual(['idx-d/0001_table', 'idx-d/0002_member', 'idx-d/0003_more']);
    } else {
      // Another process's pool, and a third session holding the lock until both migrators wait for it: the one that
      // gets it builds the index concurrently while the other keeps trying (waiting for the lock inside a statement
      // would hold a snapshot the concurrent build waits for: a deadlock PostgreSQL ends by failing a migrator).
      const other = await openDatabase({ databaseUrl, dataDir: null, poolSize: 3 });
      const holder = new pg.Client({ connectionString: databaseUrl ?? '' });
      await holder.connect();
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        const both = Promise.allSettled([migrate(database.sql, sets), migrate(other.sql, sets)]);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await records('idx-d')).toEqual([]);
        await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        const [first, second] = await both;
        expect([first.status, second.status, first.status === 'rejected' ? first.reason : second.status === 'rejected' ? second.reason : null]).toEqual([
          'fulfilled',
          'fulfilled',
          null,
        ]);
        const applied = [first, second].flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
        expect(applied.sort()).toEqual(['idx-d/0001_table', 'idx-d/0002_member', 'idx-d/0003_more']);
      } finally {
        await holder.end();
        await other.close();
      }
    }
    expect(await records('idx-d')).toEqual(['0001_table', '0002_member', '0003_more']);
    expect(await indexValid('claims_d_member_idx')).toBe(true);
    expect((await database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims_d'))[0]?.n).toBe(2001);
  });

  it('that fails is not recorded and keeps what it did; run again once the cause is fixed, it replaces the invalid index and finishes', async () => {
    await table('claims_e', 500);
    await database.sql.exec("INSERT INTO claims_e (member_id, number) VALUES (1, 'C-7')"); // a duplicate number
    const sets = [
      {
        owner: 'idx-e',
        migrations: [
          indexed('0001_number', [
            'CREATE INDEX CONCURRENTLY IF NOT EXISTS claims_e_member_idx ON claims_e (member_id)',
            'CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS claims_e_number_key ON claims_e (number)',
          ]),
        ],
      },
    ];
    await expect(migrate(database.sql, sets)).rejects.toThrow(
      /^Migration idx-e\/0001_number failed at statement 2 of 2 and was NOT rolled back: it runs outside a transaction, so the statements before it stay applied\. It is safe to run again \(restart once the cause is fixed\): could not create unique index "claims_e_number_key"/,
    );
    expect(await records('idx-e')).toEqual([]);
    expect(await indexValid('claims_e_member_idx')).toBe(true); // statement 1 stays
    expect(await indexValid('claims_e_number_key')).toBe(false); // what the failed concurrent build leaves behind

    await database.sql.exec("DELETE FROM claims_e WHERE number = 'C-7' AND member_id = 1 AND id > 500");
    const logged: string[] = [];
    expect(await migrate(database.sql, sets, (m) => logged.push(m))).toEqual(['idx-e/0001_number']);
    expect(logged).toEqual([
      'migration idx-e/0001_number: dropping the invalid index claims_e_number_key an earlier failed run left behind',
      'applied migration idx-e/0001_number (outside a transaction)',
    ]);
    expect(await indexValid('claims_e_number_key')).toBe(true);
    expect(await records('idx-e')).toEqual(['0001_number']);
    // The index is whole and enforced.
    await expect(database.sql.exec("INSERT INTO claims_e (member_id, number) VALUES (2, 'C-7')")).rejects.toThrow(/duplicate key/);
  });

  it('is refused, before any migration is applied, when a statement is not CREATE or DROP INDEX', async () => {
    const sets = [
      {
        owner: 'idx-f',
        migrations: [
          { id: '0001_table', sql: 'CREATE TABLE claims_f (member_id int)' },
          indexed('0002_member', [
            'CREATE INDEX CONCURRENTLY IF NOT EXISTS claims_f_member_idx ON claims_f (member_id)',
            'ALTER TABLE claims_f ADD COLUMN note text',
          ]),
        ],
      },
    ];
    await expect(migrate(database.sql, sets)).rejects.toThrow(
      'Migration idx-f/0002_member cannot run outside a transaction (transaction: false): statement 2 is not CREATE INDEX or DROP INDEX: any other change to the schema goes in a migration that runs in a transaction (sql): ALTER TABLE claims_f ADD COLUMN note text. Nothing was applied.',
    );
    expect(await records('idx-f')).toEqual([]);
    expect((await database.sql.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'claims_f'")).length).toBe(0);
  });

  it('is refused when an index statement could not be run again (no IF NOT EXISTS)', async () => {
    const sets = [{ owner: 'idx-g', migrations: [indexed('0001_member', ['CREATE INDEX CONCURRENTLY claims_g_member_idx ON claims_a (member_id)'])] }];
    await expect(migrate(database.sql, sets)).rejects.toThrow(
      /^Migration idx-g\/0001_member cannot run outside a transaction \(transaction: false\): statement 1 must read CREATE INDEX \.\.\. IF NOT EXISTS name/,
    );
    expect(await indexValid('claims_g_member_idx')).toBeNull();
  });
});

/** sql, recording every statement sent through it (on any connection or transaction it gives). */
function recording(sql: SqlClient, seen: string[]): SqlClient {
  return {
    query: (text, params, opts) => {
      seen.push(text);
      return sql.query(text, params, opts);
    },
    exec: (text) => {
      seen.push(text);
      return sql.exec(text);
    },
    transaction: (fn) => sql.transaction((tx) => fn(recording(tx, seen))),
    withConnection: sql.withConnection && ((fn) => sql.withConnection?.((conn) => fn(recording(conn, seen))) as never),
  };
}
const session = async () => {
  const c = new pg.Client({ connectionString: databaseUrl ?? '' });
  await c.connect();
  return c;
};
/** A session of another process holding the migration lock, and its pid. */
const lockHolder = async () => {
  const holder = await session();
  const pid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
  await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  return { holder, pid };
};
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))]);

describe('a start and the migration lock', () => {
  const sets = [{ owner: 'quiet-a', migrations: [{ id: '0001_table', sql: 'CREATE TABLE quiet_a (n int)' }] }];

  it('with nothing to apply, takes no lock: it reads schema_migrations and is done', async () => {
    expect(await migrate(database.sql, sets)).toEqual(['quiet-a/0001_table']);
    const seen: string[] = [];
    expect(await migrate(recording(database.sql, seen), sets)).toEqual([]);
    expect(seen.filter((s) => /advisory|CREATE TABLE|INSERT/i.test(s))).toEqual([]);
    expect(seen.length).toBeLessThanOrEqual(2);
  });

  it.skipIf(!onPostgres)('with nothing to apply, finishes at once while another session holds the lock (a newer version migrating)', async () => {
    const { holder } = await lockHolder();
    try {
      expect(await within(migrate(database.sql, sets), 3_000)).toEqual([]);
    } finally {
      await holder.end();
    }
  });

  it.skipIf(!onPostgres)('with a migration to apply, waits for the lock and says who holds it, at first after a while and then every so often', async () => {
    const { holder, pid } = await lockHolder();
    const lines: { msg: string; level?: string }[] = [];
    const log = (msg: string, level?: 'info' | 'warn') => void lines.push({ msg, level });
    const waiting = () => lines.filter((l) => l.msg.startsWith('waiting'));
    const notice = { lockNotice: { afterMs: 300, everyMs: 400 } };
    const expected = new RegExp(
      `^waiting \\d+ s for the migration lock \\(advisory lock ${MIGRATION_LOCK_KEY}\\), held by pid ${pid} \\(from 127\\.0\\.0\\.1\\), idle for \\d+ s after: SELECT pg_advisory_lock\\(\\$1\\)$`,
    );
    let migrating: Promise<string[]> | null = null;
    try {
      migrating = migrate(database.sql, [{ owner: 'quiet-b', migrations: [{ id: '0001_table', sql: 'CREATE TABLE quiet_b (n int)' }] }], log, notice);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(waiting()).toEqual([]); // not before afterMs
      await vi.waitFor(() => expect(waiting().length).toBeGreaterThanOrEqual(2), { timeout: 5_000, interval: 50 });
      for (const line of waiting()) expect(line).toEqual({ level: 'warn', msg: expect.stringMatching(expected) });
      expect(await records('quiet-b')).toEqual([]);
    } finally {
      await holder.end();
    }
    expect(await migrating).toEqual(['quiet-b/0001_table']);

    // The same for a migration that runs outside a transaction (its session-level lock).
    const again = await lockHolder();
    lines.length = 0;
    try {
      migrating = migrate(
        database.sql,
        [{ owner: 'quiet-b', migrations: [indexed('0002_index', ['CREATE INDEX CONCURRENTLY IF NOT EXISTS quiet_b_n_idx ON quiet_b (n)'])] }],
        log,
        notice,
      );
      await vi.waitFor(() => expect(waiting().length).toBeGreaterThanOrEqual(1), { timeout: 5_000, interval: 50 });
      expect(waiting()[0]).toEqual({ level: 'warn', msg: expect.stringMatching(new RegExp(expected.source.replace(String(pid), String(again.pid)))) });
    } finally {
      await again.holder.end();
    }
    expect(await migrating).toEqual(['quiet-b/0002_index']);
  });
});

describe('an older build on a newer schema (a rollback)', () => {
  it("names, in a warning, its owners' migrations it does not know, and applies nothing", async () => {
    const first = { id: '0001_table', sql: 'CREATE TABLE older_a (n int)' };
    await migrate(database.sql, [
      { owner: 'older-a', migrations: [first, { id: '0002_column', sql: 'ALTER TABLE older_a ADD COLUMN m int' }] },
      { owner: 'older-unloaded', migrations: [{ id: '0001_table', sql: 'CREATE TABLE older_unloaded (n int)' }] },
    ]);
    const lines: { msg: string; level?: string }[] = [];
    expect(await migrate(database.sql, [{ owner: 'older-a', migrations: [first] }], (msg, level) => lines.push({ msg, level }))).toEqual([]);
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: expect.stringMatching(
          /^the database has migrations this build does not know: older-a\/0002_column \(applied \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\)\. A newer build migrated it \(a rollback\?\): this one starts, but what those migrations changed may fail its requests$/,
        ),
      },
    ]);
  });
});

/**
 * What the concurrent build is for: writes to the table go on while it builds. A transaction left open on the table
 * (a write in flight) makes either build wait for it; meanwhile a third session's insert goes through beside
 * CREATE INDEX CONCURRENTLY, and waits behind a plain CREATE INDEX (the lock timeout ends it). PostgreSQL only: PGlite
 * is one session.
 */
describe.skipIf(!onPostgres)('on PostgreSQL, while the index builds', () => {
  /** Until the session running `statement` waits for a lock (the open transaction). */
  const waitingOn = async (statement: string) => {
    for (let i = 0; i < 200; i++) {
      const rows = await database.sql.query("SELECT 1 FROM pg_stat_activity WHERE query = $1 AND wait_event_type = 'Lock'", [statement]);
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`never saw "${statement}" wait for a lock`);
  };
  const insertWithin = async (name: string, ms: number) => {
    const writer = await session();
    try {
      await writer.query(`SET lock_timeout = ${ms}`);
      await writer.query(`INSERT INTO ${name} (member_id, number) VALUES (5, 'written during the build')`);
    } finally {
      await writer.end();
    }
  };

  it('a member write goes through beside CREATE INDEX CONCURRENTLY', async () => {
    await table('claims_h', 2000);
    const open = await session();
    try {
      await open.query('BEGIN');
      await open.query("INSERT INTO claims_h (member_id, number) VALUES (4, 'in flight')");
      const statement = 'CREATE INDEX CONCURRENTLY IF NOT EXISTS claims_h_member_idx ON claims_h (member_id)';
      let finished = false;
      const migrating = migrate(database.sql, [{ owner: 'idx-h', migrations: [indexed('0001_member', [statement])] }]).finally(() => {
        finished = true;
      });
      await waitingOn(statement);
      await insertWithin('claims_h', 3000);
      expect(finished).toBe(false); // the build is still waiting for the open transaction
      await open.query('COMMIT');
      expect(await migrating).toEqual(['idx-h/0001_member']);
    } finally {
      await open.end();
    }
    expect(await indexValid('claims_h_member_idx')).toBe(true);
    expect((await database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims_h'))[0]?.n).toBe(2002);
  });

  it('whereas a plain CREATE INDEX in a transactional migration holds the same write up', async () => {
    await table('claims_i', 2000);
    const open = await session();
    try {
      await open.query('BEGIN');
      await open.query("INSERT INTO claims_i (member_id, number) VALUES (4, 'in flight')");
      const statement = 'CREATE INDEX claims_i_member_idx ON claims_i (member_id)';
      const migrating = migrate(database.sql, [{ owner: 'idx-i', migrations: [{ id: '0001_member', sql: statement }] }]);
      await waitingOn(statement);
      await expect(insertWithin('claims_i', 1000)).rejects.toThrow(/lock timeout/);
      await open.query('COMMIT');
      expect(await migrating).toEqual(['idx-i/0001_member']);
    } finally {
      await open.end();
    }
  });
});
