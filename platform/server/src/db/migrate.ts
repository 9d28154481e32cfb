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

type OutsideTransaction = Extract<Migration, { transaction: false }>;

/**
 * Applies pending migrations in order: kernel first, then each set's in id order. A migration with `sql` runs in its
 * own transaction together with its bookkeeping row, so a failure leaves the database exactly as it was before that
 * migration. One with `transaction: false` runs its index statements one at a time outside a transaction (see
 * `Migration` and applyOutsideTransaction). The statements of every pending migration of that kind are checked before
 * any migration is applied.
 *
 * One migrator at a time across processes: each migration is applied under the advisory lock MIGRATION_LOCK_KEY, and
 * `schema_migrations` is checked again under it. The lock is tried, not waited for in SQL: a statement waiting for it
 * holds a snapshot, which a `CREATE INDEX CONCURRENTLY` of the migrator holding the lock waits for in turn, a deadlock
 * that PostgreSQL ends by failing one of them. Within a process, migrations on one client run one call after
 * the other: PGlite is one session, where the advisory lock does not keep out a second migrator of the same process.
 */
export function migrate(sql: SqlClient, sets: readonly MigrationSet[], log: (msg: string) => void = () => {}): Promise<string[]> {
  const before = running.get(sql) ?? Promise.resolve();
  const mine = before.then(
    () => migrateNow(sql, sets, log),
    () => migrateNow(sql, sets, log),
  );
  running.set(sql, mine);
  return mine;
}
const running = new WeakMap<SqlClient, Promise<unknown>>();

async function migrateNow(sql: SqlClient, sets: readonly MigrationSet[], log: (msg: string) => void): Promise<string[]> {
  // Under the lock too: of two CREATE TABLE IF NOT EXISTS at once, the second fails on the catalog's unique key.
  await underLock(sql, (tx) =>
    tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    owner text NOT NULL, id text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (owner, id))`),
  );
  const applied: string[] = [];
  const done = new Set((await sql.query<{ owner: string; id: string }>('SELECT owner, id FROM schema_migrations')).map((r) => `${r.owner}/${r.id}`));
  const pending = sets.flatMap((set) =>
    [...set.migrations]
      .sort((a, b) => a.id.localeCompare(b.id))
      .filter((m) => !done.has(`${set.owner}/${m.id}`))
      .map((m) => ({ owner: set.owner, m })),
  );
  const plans = new Map<Migration, IndexStatement[]>();
  for (const { owner, m } of pending) if (m.transaction === false) plans.set(m, planOutsideTransaction(`${owner}/${m.id}`, m, sql));
  for (const { owner, m } of pending) {
    const key = `${owner}/${m.id}`;
    const outside = m.transaction === false;
    const ran = outside ? await applyOutsideTransaction(sql, owner, m.id, plans.get(m) ?? [], log) : await applyInTransaction(sql, owner, m.id, m.sql);
    if (ran) {
      log(`applied migration ${key}${outside ? ' (outside a transaction)' : ''}`);
      applied.push(key);
    }
  }
  return applied;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const recorded = async (sql: SqlClient, owner: string, id: string) =>
  (await sql.query('SELECT 1 FROM schema_migrations WHERE owner = $1 AND id = $2', [owner, id])).length > 0;

/** fn in a transaction that holds the transaction-scoped lock. */
async function underLock<T>(sql: SqlClient, fn: (tx: SqlClient) => Promise<T>): Promise<T> {
  const busy = Symbol('busy');
  for (;;) {
    const result = await sql.transaction(async (tx) => {
      // Another migrator holds the lock: end this transaction and try again shortly (see migrate).
      const [lock] = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [MIGRATION_LOCK_KEY]);
      return lock?.ok ? fn(tx) : busy;
    });
    if (result !== busy) return result as T;
    await sleep(LOCK_RETRY_MS);
  }
}

/** The migration and its bookkeeping row in one transaction under the transaction-scoped lock; false when another migrator applied it. */
async function applyInTransaction(sql: SqlClient, owner: string, id: string, text: string): Promise<boolean> {
  try {
    return await underLock(sql, async (tx) => {
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
async function applyOutsideTransaction(
  sql: SqlClient,
  owner: string,
  id: string,
  statements: readonly IndexStatement[],
  log: (msg: string) => void,
): Promise<boolean> {
  const key = `${owner}/${id}`;
  const withConnection = sql.withConnection?.bind(sql);
  if (!withConnection) throw new Error(`Migration ${key} cannot run outside a transaction: no SqlClient.withConnection`);
  return withConnection(async (conn) => {
    for (;;) {
      const [lock] = await conn.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [MIGRATION_LOCK_KEY]);
      if (lock?.ok) break;
      await sleep(LOCK_RETRY_MS);
    }
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
      await conn.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}
