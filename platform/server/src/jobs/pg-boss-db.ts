import type PgBoss from 'pg-boss';
import type { SqlClient } from '../db/database';

/**
 * pg-boss sends its schema changes and maintenance as one text wrapped in BEGIN ... COMMIT. PGlite cannot take
 * several statements with parameters, and an error half-way would leave its only connection in a failed
 * transaction, so such a text runs through our transaction (rolled back on error) as plain statements.
 */
const LOCKED_BLOCK = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/;
/**
 * pg-boss's job commands (complete, fail, cancel, resume ...) answer how many jobs they changed, and pg-boss reads that
 * count without checking for a row (and completes a job without awaiting it): a job that ends after close() must get
 * "none changed", not an empty answer that throws an unhandled TypeError in the process.
 */
const COUNTED = /\bSELECT\s+COUNT\(\*\)\s+FROM\s+results\s*$/i;

/** pg-boss's database hook over our SqlClient, so the queue runs on the embedded PGlite and on a PostgreSQL pool alike. */
export interface QueueDb extends PgBoss.Db {
  /** Waits for the statements under way, then answers every later call with no rows instead of touching the database. */
  close(): Promise<void>;
}

/**
 * pg-boss's database hook inside one transaction of ours (the queue's install, under its lock): every statement runs
 * in it, and a text of pg-boss's own wrapped in BEGIN ... COMMIT runs as its plain statements, so the whole install
 * commits or rolls back with the transaction.
 */
export function transactionQueueDb(tx: SqlClient): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const block = values?.length ? null : LOCKED_BLOCK.exec(text);
      if (block?.[1] !== undefined) {
        await tx.exec(block[1]);
        return { rows: [] };
      }
      return { rows: await tx.query(text, values) };
    },
  };
}

export function queueDb(sql: SqlClient): QueueDb {
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;
  const run = async (text: string, values: unknown[] | undefined): Promise<{ rows: unknown[] }> => {
    const block = values?.length ? null : LOCKED_BLOCK.exec(text);
    if (block?.[1] !== undefined) {
      const body = block[1];
      await sql.transaction((tx) => tx.exec(body));
      return { rows: [] };
    }
    return { rows: await sql.query(text, values) };
  };
  return {
    async executeSql(text: string, values?: unknown[]) {
      // A worker loop may still poll once after stop(): it finds nothing rather than a closed database; a job that
      // ends after stop() changes nothing (it stays active, and pg-boss's expiry gives it back to a worker later).
      if (closed) return { rows: COUNTED.test(text) ? [{ count: '0' }] : [] };
      const p = run(text, values);
      inFlight.add(p);
      try {
        return await p;
      } finally {
        inFlight.delete(p);
      }
    },
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
    },
  };
}
