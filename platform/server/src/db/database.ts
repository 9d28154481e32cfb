import fs from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { ConfigError, hidePassword } from '../config';
import { CUSTOM_PLANS, PreparedNames } from './prepared';
import { ReplicaRouter } from './replica';

/** The typed query layer both engines share. */
export type Db = PgDatabase<PgQueryResultHKT>;

/** Raw SQL access for migrations and hot paths: parameterized, returns rows. */
export interface SqlClient {
  query<R = Record<string, unknown>>(text: string, params?: unknown[], opts?: QueryOptions): Promise<R[]>;
  /** Runs fn inside one transaction on one connection; rolls back when fn throws. */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  exec(text: string): Promise<void>;
  /**
   * Runs fn on one connection, outside a transaction (each statement commits on its own): session state such as an
   * advisory lock stays with fn's statements (the migrations that run outside a transaction, db/migrate.ts). On
   * PostgreSQL a connection whose fn threw is closed rather than handed to the next query, so whatever session state
   * it still holds goes with it; PGlite is one connection. Absent inside a transaction and on routed clients.
   */
  withConnection?<T>(fn: (conn: SqlClient) => Promise<T>): Promise<T>;
}

export interface QueryOptions {
  /**
   * A hot statement run again and again with other values (the bills search): on PostgreSQL it is prepared on each
   * connection once it has been seen twice, so the server parses it once per connection (db/prepared.ts). PGlite runs
   * it as any other.
   */
  prepare?: boolean;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlClient;
  close(): Promise<void>;
  /**
   * The read replica for searches (DATABASE_READ_URL), or null: route handlers read through `ctx.searchSql`, which
   * goes to it when it has the caller's own changes and is not lagging, and to the primary otherwise.
   */
  replica: ReplicaRouter | null;
  /**
   * Where the errors of PostgreSQL connections the server ends go (a restart, a failover, an idle-connection reaper):
   * the pool drops such a connection and opens a new one for the next query, and the process carries on (without a
   * listener, Node would end it on the first such error). Standard error until set; PGlite has no connections.
   */
  onConnectionError(listener: (err: Error) => void): void;
  /**
   * The embedded database in memory: its data directory as a tar image (PGlite's dumpDataDir), which `openDatabase`'s
   * `image` starts another one from, without initdb and with the migrations applied (the integration tests' servers).
   * Absent on PostgreSQL and on a database on disk.
   */
  image?(): Promise<Blob>;
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
    async withConnection(fn) {
      if (!('transaction' in client)) throw new Error('a transaction has no other connection to give');
      return fn(pgliteClient(client));
    },
  };
}

/**
 * The database cannot take the query now, though it is not broken, so the API answers 503 with Retry-After (not a
 * 500) and callers try again shortly:
 * - `saturated`: every connection of the pool stayed busy for the whole connect timeout, or the server refused one
 *   more connection (too many clients: processes × DATABASE_POOL_SIZE above its max_connections);
 * - `unavailable`: the server ended the connection under the query, or refused a new one (a restart, a failover);
 *   the pool opens a new connection for the next query.
 */
export class DatabaseBusyError extends Error {
  constructor(
    cause: unknown,
    readonly reason: 'saturated' | 'unavailable' = 'saturated',
  ) {
    super(reason === 'saturated' ? 'every database connection is busy' : 'the database connection was lost', { cause });
    this.name = 'DatabaseBusyError';
  }
}

/** The API's answer (503) to a DatabaseBusyError. */
export const BUSY_MESSAGE = 'The service is busy right now. Please try again in a moment.';

/** pg-pool's error when no connection became free within connectionTimeoutMillis. */
const POOL_TIMEOUT = 'timeout exceeded when trying to connect';
/**
 * A session the server ended or cannot start yet (SQLSTATE admin_shutdown, crash_shutdown, cannot_connect_now), a
 * refused or reset socket, or node-postgres's "Connection terminated" when the socket closed under a query.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET']);
/** The server refused another connection: too_many_connections (its max_connections, or the database's or role's limit). */
const TOO_MANY_CONNECTIONS = '53300';
const busyOr = (e: unknown) => {
  if (!(e instanceof Error)) return e;
  const code = String((e as { code?: unknown }).code);
  if (e.message === POOL_TIMEOUT || code === TOO_MANY_CONNECTIONS) return new DatabaseBusyError(e);
  if (UNAVAILABLE_CODES.has(code) || e.message.startsWith('Connection terminated')) return new DatabaseBusyError(e, 'unavailable');
  return e;
};

function pgClient(pool: pg.Pool | pg.PoolClient, names: PreparedNames | null): SqlClient {
  return {
    async query(text, params, opts) {
      const name = opts?.prepare ? names?.nameFor(text) : undefined;
      const values = params as unknown[] | undefined;
      try {
        const r = await (name === undefined ? pool.query(text, values) : pool.query({ name, text, values }));
        return r.rows;
      } catch (e) {
        // A named statement the session lost: run it unnamed, outside a transaction (inside one, the error has
        // already ended it). Nothing is named after that.
        if (name !== undefined && names?.lost(e) && 'totalCount' in pool) return (await pgClient(pool, null).query(text, params)) as never;
        throw busyOr(e);
      }
    },
    async exec(text) {
      await pool.query(text);
    },
    async transaction(fn) {
      if (!('connect' in pool) || !('totalCount' in pool)) throw new Error('nested transactions are not supported');
      const conn = await (pool as pg.Pool).connect().catch((e: unknown) => {
        throw busyOr(e);
      });
      // The server may end the connection while it is checked out (a restart, a failover): the statement in flight
      // fails with that error, and the connection emits it too, which must not end the process. The pool drops the
      // connection when it comes back broken.
      const ended = () => {};
      conn.on('error', ended);
      try {
        await conn.query('BEGIN');
        const result = await fn(pgClient(conn, names));
        await conn.query('COMMIT');
        return result;
      } catch (e) {
        await conn.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        conn.off('error', ended);
        conn.release();
      }
    },
    async withConnection(fn) {
      if (!('connect' in pool) || !('totalCount' in pool)) throw new Error('a transaction has no other connection to give');
      const conn = await (pool as pg.Pool).connect().catch((e: unknown) => {
        throw busyOr(e);
      });
      const ended = () => {};
      conn.on('error', ended);
      let failed: Error | undefined;
      try {
        return await fn(pgClient(conn, names));
      } catch (e) {
        failed = e instanceof Error ? e : new Error(String(e));
        throw e;
      } finally {
        conn.off('error', ended);
        // release(err) closes the connection instead of returning it to the pool.
        conn.release(failed);
      }
    },
  };
}

type EmscriptenOptions = Parameters<NodeFS['init']>[1];
interface NodefsStreamOps {
  fsync?: (stream: { nfd?: number }) => number;
}

/**
 * PGlite's Node filesystem as it ships never reaches the disk: Emscripten's NODEFS has no fsync (the call
 * returns without doing anything) and PGlite starts PostgreSQL with -F (fsync off). This one gives NODEFS an
 * fsync that syncs the real file; openPglite starts PostgreSQL with fsync on and wal_sync_method=fsync
 * (Emscripten's fdatasync is a no-op whatever the filesystem). A commit then returns once its WAL is on disk.
 */
class DurableNodeFS extends NodeFS {
  patched = false;
  override async init(pg: PGlite, opts: EmscriptenOptions) {
    const result = await super.init(pg, opts);
    const preRun = result.emscriptenOpts.preRun ?? [];
    result.emscriptenOpts.preRun = [
      ...preRun,
      (mod) => {
        const ops = (mod.NODEFS as unknown as { stream_ops?: NodefsStreamOps }).stream_ops;
        if (!ops) return;
        ops.fsync = (stream) => {
          if (stream.nfd !== undefined) fs.fsyncSync(stream.nfd);
          return 0;
        };
        this.patched = true;
      },
    ];
    return result;
  }
}

function fsyncPath(path: string): void {
  const fd = fs.openSync(path, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Syncs every file and directory under dir: the files a fresh PGlite database was created with were written without it. */
function fsyncTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) fsyncTree(path);
    else if (entry.isFile()) fsyncPath(path);
  }
  fsyncPath(dir);
}

/**
 * The extensions the embedded database loads, as a PostgreSQL server has them from its contrib package: pg_trgm, whose
 * trigram indexes serve the searches' `LIKE '%word%'` (kernel migration 0011, db/search.ts). Every PGlite the API opens
 * loads them, also one from an image or a data directory that already has them created.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * The options of an in-memory PGlite started from `image`, a copy of a migrated schema with a test's few rows (the
 * integration tests' databases, the sandbox's in tests): 16 MB of shared buffers instead of PGlite's 128 MB, whose
 * setting up took about half of each start (1.0 s -> 0.55 s, 1.4 s -> 0.8 s of CPU on two cores). Its data is in memory
 * anyway, so a page not in the buffers costs a copy, not a read. The databases that hold data (on disk, or the
 * benchmarks' in memory) keep 128 MB.
 */
export function imageCopyOptions(image: Blob): { loadDataDir: Blob; startParams: string[] } {
  return { loadDataDir: image, startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] };
}

/**
 * A database image to start many in-memory PGlites from: PGlite reads an image with `Blob.arrayBuffer()`, which in
 * Node copies a 69 MB blob in 64 KiB chunks (0.3-0.4 s of CPU per start); this one hands each start a copy of bytes it
 * already holds (one memcpy). The bytes are not the caller's afterwards: it must not change them.
 */
export class DatabaseImage extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([bytes]);
    this.#bytes = bytes;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer);
  }
  /** An image of this kind from any blob (read once). */
  static async of(image: Blob): Promise<DatabaseImage> {
    return image instanceof DatabaseImage ? image : new DatabaseImage(new Uint8Array(await image.arrayBuffer()));
  }
}

/**
 * The embedded database in dir, with durable commits (see DurableNodeFS). durable: false opens it as PGlite
 * ships (no sync at all), only for scripts/bench/pglite-commits.ts to measure what durability costs.
 */
export async function openPglite(dir: string, opts: { durable?: boolean } = {}): Promise<PGlite> {
  const release = lockDataDir(dir);
  try {
    const client = await openLocked(dir, opts);
    // Closing the database gives its directory up.
    const close = client.close.bind(client);
    client.close = async () => {
      try {
        await close();
      } finally {
        release();
      }
    };
    return client;
  } catch (e) {
    release();
    throw e;
  }
}

async function openLocked(dir: string, opts: { durable?: boolean }): Promise<PGlite> {
  if (opts.durable === false) {
    const stock = new PGlite(dir, { extensions: PGLITE_EXTENSIONS });
    await stock.waitReady;
    return stock;
  }
  const fresh = !fs.existsSync(join(dir, 'PG_VERSION'));
  const nodefs = new DurableNodeFS(dir);
  const startParams = [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'fsync=on', '-c', 'wal_sync_method=fsync'];
  const client = new PGlite({ fs: nodefs, startParams, extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  const fsyncSetting = (await client.query<{ fsync: string }>('SHOW fsync')).rows[0]?.fsync;
  if (!nodefs.patched || fsyncSetting !== 'on') {
    await client.close();
    // Refuse to run rather than acknowledge commits a power cut would lose (a PGlite upgrade changed its internals).
    throw new Error(`The embedded database cannot make commits durable with this PGlite version (fsync ${fsyncSetting}, file sync ${nodefs.patched})`);
  }
  if (fresh) {
    fsyncTree(dir);
    fsyncPath(dirname(dir));
  }
  return client;
}

/** Whether a process of that id runs (one of another user's answers EPERM: it runs). */
const processRuns = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes the embedded database's directory for this process: `<dir>.lock`, created exclusively, holds its pid, and a
 * second process opening the directory (a second scripts/start or scripts/seed beside a running API) is refused with
 * a ConfigError naming the holder. PGlite is PostgreSQL in single-user mode inside the process: nothing of
 * PostgreSQL's own (postmaster.pid) keeps two writers apart, and two lose committed rows and break unique keys. A lock
 * left by a process that died (a kill -9, a crash) is taken over. Gives back the release.
 */
export function lockDataDir(dir: string): () => void {
  const file = `${dir.replace(/[\\/]+$/, '')}.lock`;
  fs.mkdirSync(dirname(file), { recursive: true });
  const mine = String(process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8').trim() === mine) fs.unlinkSync(file);
        } catch {
          // Gone already.
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = Number.NaN;
    try {
      holder = Number(fs.readFileSync(file, 'utf8').trim());
    } catch {
      continue; // Released meanwhile: try again.
    }
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processRuns(holder))
      throw new ConfigError(
        // english-only: an operator's start-up error, in the log
        `The embedded database in ${dir} is in use by process ${holder} (an API, scripts/seed or scripts/start). Stop it first, or set DATABASE_URL to a PostgreSQL server.`,
      );
    // Left by a process that is gone (or by this one): taken over.
    fs.rmSync(file, { force: true });
  }
  // english-only: an operator's start-up error, in the log
  throw new ConfigError(`The embedded database in ${dir} could not be locked (${file}).`);
}

/**
 * A pool on url whose first connection has been made; a ConfigError naming `setting` when it cannot be. Its
 * connections start with plan_cache_mode=force_custom_plan; `names` is null (no statement is prepared) when that
 * did not take (an `options` parameter in the URL replaces the pool's, and a connection pooler may drop it).
 */
async function connectedPool(url: string, setting: string, opts: { poolSize?: number; connectTimeoutMs?: number }, onError: (err: Error) => void) {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? Number(process.env.DATABASE_POOL_SIZE ?? 20),
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
    options: `-c ${CUSTOM_PLANS}`,
  });
  pool.on('error', onError);
  let customPlans = false;
  try {
    const c = await pool.connect();
    try {
      customPlans = (await c.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows[0]?.plan_cache_mode === 'force_custom_plan';
    } finally {
      c.release();
    }
  } catch (e) {
    await pool.end().catch(() => {});
    throw new ConfigError(`Cannot reach the ${setting} at ${hidePassword(url)}: ${(e as Error).message}`);
  }
  return { pool, names: customPlans ? new PreparedNames() : null };
}

/** dataDir null opens an in-memory PGlite (tests). */
export async function openDatabase(opts: {
  databaseUrl: string | null;
  dataDir: string | null;
  poolSize?: number;
  /** How long a query waits for a free connection of the pool before it fails as busy (PostgreSQL; default 5 s). */
  connectTimeoutMs?: number;
  /** A streaming standby of databaseUrl's server for searches (DATABASE_READ_URL); not with PGlite. */
  readUrl?: string | null;
  /** The replica is not read from while it is further behind than this (default 5 s). */
  maxReplicaLagMs?: number;
  /** For the in-memory PGlite: start from this data directory image (Database.image) instead of an empty database. */
  image?: Blob | null;
}): Promise<Database> {
  if (opts.databaseUrl) {
    let report: (err: Error) => void = (err) => {
      process.stderr.write(`database connection lost: ${err.message}\n`);
    };
    const { pool, names } = await connectedPool(opts.databaseUrl, 'database', opts, (err) => report(err));
    const sql = pgClient(pool, names);
    let replicaPool: pg.Pool | null = null;
    let replicaNames: PreparedNames | null = null;
    let replica: ReplicaRouter | null = null;
    if (opts.readUrl) {
      try {
        ({ pool: replicaPool, names: replicaNames } = await connectedPool(opts.readUrl, 'read replica (DATABASE_READ_URL)', opts, (err) => report(err)));
        const standby = (await replicaPool.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby')).rows[0]?.standby;
        if (!standby)
          throw new ConfigError(
            `DATABASE_READ_URL (${hidePassword(opts.readUrl)}) is not a read replica: the server there is not a standby (pg_is_in_recovery() is false)`,
          );
      } catch (e) {
        await Promise.all([pool.end(), replicaPool?.end()]).catch(() => {});
        throw e;
      }
      replica = new ReplicaRouter(sql, pgClient(replicaPool, replicaNames), {
        maxLagMs: opts.maxReplicaLagMs ?? 5000,
        onError: (err) => report(new Error(`read replica: ${err instanceof Error ? err.message : String(err)}`, { cause: err })),
      });
    }
    return {
      kind: 'postgres',
      db: drizzlePg(pool) as unknown as Db,
      sql,
      replica,
      close: async () => {
        await Promise.all([pool.end(), replicaPool?.end()]);
      },
      onConnectionError: (listener) => {
        report = listener;
      },
    };
  }
  if (opts.readUrl) throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL: the embedded database has no replicas');
  if (opts.image && opts.dataDir) throw new Error('a database image is for the in-memory database (dataDir null)');
  const client = opts.dataDir
    ? await openPglite(join(opts.dataDir, 'pgdata'))
    : new PGlite({ extensions: PGLITE_EXTENSIONS, ...(opts.image ? imageCopyOptions(opts.image) : {}) });
  await client.waitReady;
  return {
    kind: 'pglite',
    db: drizzlePglite(client) as unknown as Db,
    sql: pgliteClient(client),
    replica: null,
    close: () => client.close(),
    onConnectionError: () => {},
    ...(opts.dataDir ? {} : { image: () => client.dumpDataDir('none') }),
  };
}
