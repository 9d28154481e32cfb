import type { Migration } from '@portal/core';
import type { SqlClient } from './database';

export interface MigrationSet {
  /** 'kernel' or a plugin id. */
  owner: string;
  migrations: readonly Migration[];
}

/** The advisory lock that lets one migrator at a time apply migrations, across processes. */
export const MIGRATION_LOCK_KEY = 727_272;
/** How long a migrator waits before it tries the lock again. */
const LOCK_RETRY_MS = 100;

/** Where migrate's lines go: what it applied (info), and what needs a look (warn: waiting for a lock, unknown migrations). */
export type MigrationLog = (msg: string, level?: 'info' | 'warn') => void;

/** When a start waiting for a lock says so: first after `afterMs`, then every `everyMs`. */
export interface LockNotice {
  afterMs: number;
  everyMs: number;
}
export const LOCK_NOTICE: LockNotice = { afterMs: 5_000, everyMs: 30_000 };

export interface MigrateOptions {
  /** When the lines about waiting for the migration lock are written (LOCK_NOTICE). */
  lockNotice?: LockNotice;
}

type OutsideTransaction = Extract<Migration, { transaction: false }>;

/**
 * Applies pending migrations in order: kernel first, then each set's in id order. A migration with `sql` runs in its
 * own transaction together with its bookkeeping row, so a failure leaves the database exactly as it was before that
 * migration. One with `transaction: false` runs its index statements one at a time outside a transaction (see
 * `Migration` and applyOutsideTransaction). The statements of every pending migration of that kind are checked before
 * any migration is applied.
 *
 * A start with nothing to apply takes no lock: `schema_migrations` is read first, and when it exists and holds every
 * migration declared, migrate is done (an API process of the version serving starts while a newer one's long
 * migration holds the lock). Rows of the loaded owners that no migration declares (a database migrated by a newer
 * build: a rollback) are named in a warning.
 *
 * One migrator at a time across processes: each migration is applied under the advisory lock MIGRATION_LOCK_KEY, and
 * `schema_migrations` is checked again under it. The lock is tried, not waited for in SQL: a statement waiting for it
 * holds a snapshot, which a `CREATE INDEX CONCURRENTLY` of the migrator holding the lock waits for in turn, a deadlock
 * that PostgreSQL ends by failing one of them. A migrator kept waiting says so after 5 s and every 30 s, naming the
 * session that holds the lock (LOCK_NOTICE). Within a process, migrations on one client run one call after the other:
 * PGlite is one session, where the advisory lock does not keep out a second migrator of the same process.
 */
export function migrate(sql: SqlClient, sets: readonly MigrationSet[], log: MigrationLog = () => {}, opts: MigrateOptions = {}): Promise<string[]> {
  const before = running.get(sql) ?? Promise.resolve();
  const mine = before.then(
    () => migrateNow(sql, sets, log, opts),
    () => migrateNow(sql, sets, log, opts),
  );
  running.set(sql, mine);
  return mine;
}
const running = new WeakMap<SqlClient, Promise<unknown>>();

async function migrateNow(sql: SqlClient, sets: readonly MigrationSet[], log: MigrationLog, opts: MigrateOptions): Promise<string[]> {
  const lock: LockWait = { name: 'the migration lock', key: MIGRATION_LOCK_KEY, log, notice: opts.lockNotice };
  let done = await appliedMigrations(sql);
  if (!done) {
    // Under the lock: of two CREATE TABLE IF NOT EXISTS at once, the second fails on the catalog's unique key.
    await underAdvisoryLock(sql, lock, (tx) =>
      tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    owner text NOT NULL, id text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (owner, id))`),
    );
    done = (await appliedMigrations(sql)) ?? new Map<string, Date>();
  }
  const unknown = unknownMigrations(done, sets);
  if (unknown.length > 0)
    log(
      `the database has migrations this build does not know: ${unknown.join(', ')}. A newer build migrated it (a rollback?): ` +
        'this one starts, but what those migrations changed may fail its requests',
      'warn',
    );
  const applied: string[] = [];
  const pending = sets.flatMap((set) =>
    [...set.migrations]
      .sort((a, b) => a.id.localeCompare(b.id))
      .filter((m) => !done.has(`${set.owner}/${m.id}`))
      .map((m) => ({ owner: set.owner, m })),
  );
  if (pending.length === 0) return applied;
  const plans = new Map<Migration, IndexStatement[]>();
  for (const { owner, m } of pending) if (m.transaction === false) plans.set(m, planOutsideTransaction(`${owner}/${m.id}`, m, sql));
  for (const { owner, m } of pending) {
    const key = `${owner}/${m.id}`;
    const outside = m.transaction === false;
    const ran = outside ? await applyOutsideTransaction(sql, owner, m.id, plans.get(m) ?? [], lock) : await applyInTransaction(sql, owner, m.id, m.sql, lock);
    if (ran) {
      log(`applied migration ${key}${outside ? ' (outside a transaction)' : ''}`);
      applied.push(key);
    }
  }
  return applied;
}

/** The migrations recorded (owner/id → when applied), read without a lock; null while `schema_migrations` does not exist. */
async function appliedMigrations(sql: SqlClient): Promise<Map<string, Date> | null> {
  const [table] = await sql.query<{ exists: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS exists");
  if (!table?.exists) return null;
  const rows = await sql.query<{ owner: string; id: string; applied_at: Date | string }>('SELECT owner, id, applied_at FROM schema_migrations');
  return new Map(rows.map((r) => [`${r.owner}/${r.id}`, new Date(r.applied_at)]));
}

/** "owner/id (applied <when>)" for each recorded migration of an owner in sets that the owner does not declare. */
function unknownMigrations(done: ReadonlyMap<string, Date>, sets: readonly MigrationSet[]): string[] {
  const owners = new Set(sets.map((s) => s.owner));
  const declared = new Set(sets.flatMap((s) => s.migrations.map((m) => `${s.owner}/${m.id}`)));
  return [...done]
    .filter(([key]) => owners.has(key.slice(0, key.indexOf('/'))) && !declared.has(key))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, at]) => `${key} (applied ${Number.isNaN(at.getTime()) ? 'at an unknown time' : at.toISOString()})`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const recorded = async (sql: SqlClient, owner: string, id: string) =>
  (await sql.query('SELECT 1 FROM schema_migrations WHERE owner = $1 AND id = $2', [owner, id])).length > 0;

/** An advisory lock a start may have to wait for, and where it says so. */
export interface LockWait {
  /** For the waiting lines: "the migration lock". */
  name: string;
  /** The advisory lock's key: one bigint below 2^32 (pg_locks.objid). */
  key: number;
  log: MigrationLog;
  notice?: LockNotice;
}

/**
 * Calls `attempt` (which tries the lock) until it answers true, LOCK_RETRY_MS apart. While it waits, a line says so
 * after notice.afterMs and every notice.everyMs after that, naming the session holding the lock.
 */
async function untilLocked(sql: SqlClient, wait: LockWait, attempt: () => Promise<boolean>): Promise<void> {
  const notice = wait.notice ?? LOCK_NOTICE;
  const began = Date.now();
  let next = began + notice.afterMs;
  for (;;) {
    if (await attempt()) return;
    if (Date.now() >= next) {
      const waited = Math.round((Date.now() - began) / 1000);
      wait.log(`waiting ${waited} s for ${wait.name} (advisory lock ${wait.key}), ${await lockHolder(sql, wait.key)}`, 'warn');
      next = Date.now() + notice.everyMs;
    }
    await sleep(LOCK_RETRY_MS);
  }
}

/** Who holds the advisory lock `key` in this database, as a waiting line tells it: its pid, where from, its statement and for how long. */
export async function lockHolder(sql: SqlClient, key: number): Promise<string> {
  try {
    const rows = await sql.query<{
      pid: number;
      state: string | null;
      client: string | null;
      app: string | null;
      seconds: number | null;
      query: string | null;
    }>(
      `SELECT l.pid, a.state, host(a.client_addr) AS client, a.application_name AS app,
              floor(extract(epoch FROM now() - CASE WHEN a.state = 'active' THEN a.query_start ELSE a.state_change END))::int AS seconds,
              left(regexp_replace(a.query, '\\s+', ' ', 'g'), 200) AS query
         FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid::bigint = $1::bigint AND l.objsubid = 1
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [key],
    );
    if (rows.length === 0) return 'held by a session this one cannot see (or let go just now)';
    return rows
      .map((r) => {
        const from = [r.client && `from ${r.client}`, r.app && `"${r.app}"`].filter(Boolean).join(' ');
        const what =
          r.state === 'active' ? `running for ${r.seconds ?? '?'} s: ${r.query}` : `${r.state ?? 'state unknown'} for ${r.seconds ?? '?'} s after: ${r.query}`;
        return `held by pid ${r.pid}${from ? ` (${from})` : ''}, ${what}`;
      })
      .join('; ');
  } catch (e) {
    return `whose holder could not be read: ${(e as Error).message}`;
  }
}

/**
 * fn in a transaction that holds the transaction-scoped advisory lock wait.key, tried until it is free (see migrate):
 * held by the transaction, it goes with it, also through a pooler in transaction mode. Exported for the job queue's
 * install (jobs/pg-boss-queue.ts).
 */
export async function underAdvisoryLock<T>(sql: SqlClient, wait: LockWait, fn: (tx: SqlClient) => Promise<T>): Promise<T> {
  let result: { value: T } | null = null;
  await untilLocked(sql, wait, async () => {
    result = await sql.transaction(async (tx) => {
      // Another holds the lock: end this transaction and try again shortly.
      const [lock] = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [wait.key]);
      return lock?.ok ? { value: await fn(tx) } : null;
    });
    return result !== null;
  });
  return (result as { value: T } | null)?.value as T;
}

/** The migration and its bookkeeping row in one transaction under the transaction-scoped lock; false when another migrator applied it. */
async function applyInTransaction(sql: SqlClient, owner: string, id: string, text: string, lock: LockWait): Promise<boolean> {
  try {
    return await underAdvisoryLock(sql, lock, async (tx) => {
      if (await recorded(tx, owner, id)) return false;
      await tx.exec(text);
      await tx.query('INSERT INTO schema_migrations (owner, id) VALUES ($1, $2)', [owner, id]);
      return true;
    });
  } catch (e) {
    throw new Error(`Migration ${owner}/${id} failed and was rolled back: ${(e as Error).message}`);
  }
}

/** An identifier as a statement may spell it: plain, or double-quoted. */
const IDENT = '(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)';
const CREATE_INDEX = new RegExp(
  String.raw`^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(CONCURRENTLY\s+)?(IF\s+NOT\s+EXISTS\s+)?(?:(${IDENT})\s+)?ON\s+(?:ONLY\s+)?(?:(${IDENT})\s*\.\s*)?${IDENT}[\s(]`,
  'i',
);
const DROP_INDEX = /^DROP\s+INDEX\s+(?:CONCURRENTLY\s+)?(IF\s+EXISTS\s+)?\S/i;

/** A statement of a migration that runs outside a transaction, checked. */
export interface IndexStatement {
  text: string;
  /**
   * For CREATE INDEX: the index as a qualified name would spell it (the table's schema, when the statement names
   * one), to find an invalid index of that name that an earlier failed run left behind. Null for DROP INDEX.
   */
  index: string | null;
  concurrently: boolean;
}

/**
 * The statement checked for a migration that runs outside a transaction, or why it cannot run there: one
 * `CREATE [UNIQUE] INDEX [CONCURRENTLY] IF NOT EXISTS name ON table ...` or `DROP INDEX [CONCURRENTLY] IF EXISTS ...`.
 */
export function indexStatement(statement: string): IndexStatement | { refused: string } {
  const text = statement.trim().replace(/;\s*$/, '');
  if (text.includes(';')) return { refused: "holds more than one statement (a ';' before its end): give each its own entry" };
  const create = CREATE_INDEX.exec(text);
  if (create) {
    const [, concurrently, ifNotExists, name, schema] = create;
    if (!ifNotExists || !name)
      return { refused: 'must read CREATE INDEX ... IF NOT EXISTS name, so that running the migration again skips an index it already built' };
    return { text, index: schema ? `${schema}.${name}` : name, concurrently: !!concurrently };
  }
  const drop = DROP_INDEX.exec(text);
  if (drop) {
    if (!drop[1]) return { refused: 'must read DROP INDEX ... IF EXISTS, so that running the migration again skips an index it already dropped' };
    return { text, index: null, concurrently: /^DROP\s+INDEX\s+CONCURRENTLY\s/i.test(text) };
  }
  return { refused: 'is not CREATE INDEX or DROP INDEX: any other change to the schema goes in a migration that runs in a transaction (sql)' };
}

/** Checks a migration that runs outside a transaction before anything is applied; throws why it cannot run. */
function planOutsideTransaction(key: string, m: OutsideTransaction, sql: SqlClient): IndexStatement[] {
  const refuse = (why: string) => new Error(`Migration ${key} cannot run outside a transaction (transaction: false): ${why}. Nothing was applied.`);
  if (!Array.isArray(m.statements) || m.statements.length === 0) throw refuse('it has no statements (statements: [...])');
  if (!sql.withConnection) throw refuse('this database client cannot hold one connection (SqlClient.withConnection)');
  return m.statements.map((s, i) => {
    const checked = typeof s === 'string' ? indexStatement(s) : { refused: 'is not a string' };
    if ('refused' in checked) throw refuse(`statement ${i + 1} ${checked.refused}: ${String(s).trim()}`);
    return checked;
  });
}

/**
 * Runs the statements one at a time, outside a transaction, on one connection that holds the session-level advisory
 * lock (the transactional path's key); false when another migrator applied the migration meanwhile. What a
 * transaction gives for free is kept by hand:
 * - Running again after a failure or a crash finishes the job: each statement is `IF [NOT] EXISTS`, and before a
 *   CREATE INDEX an invalid index of its name (what a failed concurrent build leaves: pg_index.indisvalid false) is
 *   dropped, so the build starts over instead of being skipped.
 * - The bookkeeping row is written only after every statement succeeded.
 */
async function applyOutsideTransaction(sql: SqlClient, owner: string, id: string, statements: readonly IndexStatement[], lock: LockWait): Promise<boolean> {
  const key = `${owner}/${id}`;
  const withConnection = sql.withConnection?.bind(sql);
  if (!withConnection) throw new Error(`Migration ${key} cannot run outside a transaction: no SqlClient.withConnection`);
  const { log } = lock;
  return withConnection(async (conn) => {
    await untilLocked(conn, lock, async () => (await conn.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [lock.key]))[0]?.ok === true);
    try {
      if (await recorded(conn, owner, id)) return false;
      for (const [i, s] of statements.entries()) {
        try {
          if (s.index) {
            const [found] = await conn.query<{ valid: boolean }>('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)', [s.index]);
            if (found && !found.valid) {
              log(`migration ${key}: dropping the invalid index ${s.index} an earlier failed run left behind`);
              await conn.exec(`DROP INDEX ${s.concurrently ? 'CONCURRENTLY ' : ''}IF EXISTS ${s.index}`);
            }
          }
          await conn.exec(s.text);
        } catch (e) {
          throw new Error(
            `Migration ${key} failed at statement ${i + 1} of ${statements.length} and was NOT rolled back: it runs outside a transaction, ` +
              `so the statements before it stay applied. It is safe to run again (restart once the cause is fixed): ${(e as Error).message}`,
            { cause: e },
          );
        }
      }
      await conn.query('INSERT INTO schema_migrations (owner, id) VALUES ($1, $2)', [owner, id]);
      return true;
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [lock.key]);
    }
  });
}
