import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { ConfigError } from '../config';

/** The typed query layer both engines share. */
export type Db = PgDatabase<PgQueryResultHKT>;

/** Raw SQL access for migrations and hot paths: parameterized, returns rows. */
export interface SqlClient {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Runs fn inside one transaction on one connection; rolls back when fn throws. */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  exec(text: string): Promise<void>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlClient;
  close(): Promise<void>;
}

function pgliteClient(client: PGlite | Parameters<Parameters<PGlite['transaction']>[0]>[0]): SqlClient {
  return {
    async query(text, params) {
      const r = await client.query(text, params as unknown[] | undefined);
      return r.rows as never;
    },
    async exec(text) {
      await client.exec(text);
    },
    async transaction(fn) {
      if (!('transaction' in client)) throw new Error('nested transactions are not supported');
      return (client as PGlite).transaction((tx) => fn(pgliteClient(tx)));
    },
  };
}

function pgClient(pool: pg.Pool | pg.PoolClient): SqlClient {
  return {
    async query(text, params) {
      const r = await pool.query(text, params as unknown[] | undefined);
      return r.rows;
    },
    async exec(text) {
      await pool.query(text);
    },
    async transaction(fn) {
      if (!('connect' in pool) || !('totalCount' in pool)) throw new Error('nested transactions are not supported');
      const conn = await (pool as pg.Pool).connect();
      try {
        await conn.query('BEGIN');
        const result = await fn(pgClient(conn));
        await conn.query('COMMIT');
        return result;
      } catch (e) {
        await conn.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        conn.release();
      }
    },
  };
}

/** dataDir null opens an in-memory PGlite (tests). */
export async function openDatabase(opts: { databaseUrl: string | null; dataDir: string | null; poolSize?: number }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? Number(process.env.DATABASE_POOL_SIZE ?? 20),
      connectionTimeoutMillis: 5000,
    });
    try {
      const c = await pool.connect();
      c.release();
    } catch (e) {
      await pool.end().catch(() => {});
      const safe = opts.databaseUrl.replace(/:[^:@/]*@/, ':***@');
      throw new ConfigError(`Cannot reach the database at ${safe}: ${(e as Error).message}`);
    }
    return { kind: 'postgres', db: drizzlePg(pool) as unknown as Db, sql: pgClient(pool), close: () => pool.end() };
  }
  const client = opts.dataDir ? new PGlite(join(opts.dataDir, 'pgdata')) : new PGlite();
  await client.waitReady;
  return { kind: 'pglite', db: drizzlePglite(client) as unknown as Db, sql: pgliteClient(client), close: () => client.close() };
}
