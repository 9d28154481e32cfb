import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, type StartedServer } from '@portal/app-server/server';
import {
  type AccessClaims,
  createUser,
  type Database,
  DatabaseImage,
  hashPassword,
  openDatabase,
  type ServerConfig,
  type SqlClient,
  signAccessToken,
} from '@portal/server/kernel';
import pg from 'pg';

const DATABASE_NAME = /^t_[0-9a-f]{12}$/;

/** Waits (up to 2 s) until no session is connected to database `name`: pg's Pool.end() resolves before they close. */
export async function connectionsClosed(admin: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const left = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if ((left.rows[0]?.n ?? 0) === 0) return;
    await sleep(20);
  }
}

/**
 * A fresh database: in-memory PGlite (null), or a new database on the PostgreSQL server named by TEST_DATABASE_URL,
 * empty or (`template`) a copy of that database on the same server.
 */
export async function freshDatabaseUrl(opts: { template?: string | null } = {}): Promise<{ databaseUrl: string | null; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) return { databaseUrl: null, drop: async () => {} };
  if (opts.template && !DATABASE_NAME.test(opts.template)) throw new Error(`not a test database's name: ${opts.template}`);
  const name = `t_${randomBytes(6).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}${opts.template ? ` TEMPLATE ${opts.template}` : ''}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    databaseUrl: u.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      try {
        // FORCE would cut off connections still closing, and the closing client would raise the server's
        // "terminating connection" as an unhandled error: wait for them first.
        await connectionsClosed(d, name);
        await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await d.end();
      }
    },
  };
}

/**
 * The integration tests' servers start from a database already migrated, made once per run by
 * platform/testing/src/globalSetup.ts: an image of the in-memory PGlite (the file TEST_PGLITE_IMAGE names), or a
 * template database on the PostgreSQL server (TEST_DATABASE_TEMPLATE). Without them, each server migrates an empty one.
 */
let pgliteImage: Promise<DatabaseImage> | null = null;
function migratedImage(): Promise<DatabaseImage> | null {
  const file = process.env.TEST_PGLITE_IMAGE;
  if (!file) return null;
  pgliteImage ??= readFile(file).then((bytes) => new DatabaseImage(bytes));
  return pgliteImage;
}

/**
 * The same database on the streaming standby named by TEST_DATABASE_READ_URL, once the standby has replayed its
 * creation; null without a standby (or on PGlite). The creation copies the template through the log, which the standby
 * replays behind every other file's writes: on a busy machine that took more than the 5 s this once allowed.
 */
const REPLICA_CREATION_WAIT_MS = 30_000;
export async function replicaUrlFor(databaseUrl: string | null): Promise<string | null> {
  const standby = process.env.TEST_DATABASE_READ_URL;
  if (!standby || !databaseUrl) return null;
  const u = new URL(standby);
  u.pathname = new URL(databaseUrl).pathname;
  for (const end = Date.now() + REPLICA_CREATION_WAIT_MS; ; ) {
    const c = new pg.Client({ connectionString: u.toString() });
    try {
      await c.connect();
      return u.toString();
    } catch (e) {
      if (Date.now() >= end) throw e;
      await sleep(50);
    } finally {
      await c.end().catch(() => {});
    }
  }
}

/**
 * Stand-in brand sites: a temporary folder with a small index.html for each brand, so a test can check the page
 * answers (their headers and CSP) without building the web app. remove() deletes the folder.
 */
export function standInSites(brands: readonly string[]): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-sites-'));
  for (const b of brands) {
    mkdirSync(join(dir, b));
    writeFileSync(join(dir, b, 'index.html'), `<!doctype html><title>${b}</title>`);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestServerOptions {
  /** Searches may read the standby of TEST_DATABASE_READ_URL (scripts/test starts one). */
  readReplica?: boolean;
  /** Serve these brands' sites from stand-in pages (standInSites), removed again on close. */
  sites?: readonly string[];
  /** The server's logger (pino options, a level and a stream): none when not given. */
  logger?: object;
}

/**
 * A fresh server on a fresh database for one test file: in-memory PGlite, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (dropped on close).
 */
export async function startTestServer(
  overrides: Partial<ServerConfig> = {},
  opts: TestServerOptions = {},
): Promise<StartedServer & { dropDatabase(): Promise<void> }> {
  const { databaseUrl, drop } = await freshDatabaseUrl({ template: process.env.TEST_DATABASE_TEMPLATE });
  if (opts.readReplica) overrides = { databaseReadUrl: await replicaUrlFor(databaseUrl), ...overrides };
  const sites = opts.sites ? standInSites(opts.sites) : null;
  if (sites) overrides = { webDistDir: sites.dir, ...overrides };
  const config: Partial<ServerConfig> = { databaseUrl, dataDir: null, fileStore: { kind: 'memory' }, tokenSecret: 'test-secret', ...overrides };
  const inMemory = !config.databaseUrl && !config.dataDir;
  const cleanUp = async () => {
    sites?.remove();
    await drop();
  };
  // Tests work their jobs whatever JOBS says, so they can await server.jobs.drain().
  const server = await createServer(config, { logger: opts.logger ?? false, workJobs: true, databaseImage: inMemory ? await migratedImage() : null }).catch(
    async (err: unknown) => {
      await cleanUp();
      throw err;
    },
  );
  return {
    ...server,
    dropDatabase: drop,
    close: async () => {
      await server.close();
      await cleanUp();
    },
  };
}

/** A fresh database without a server (kernel-level tests), with the same choice of engine; close() also drops it. */
export async function openTestDatabase(): Promise<Database> {
  const { databaseUrl, drop } = await freshDatabaseUrl();
  const database = await openDatabase({ databaseUrl, dataDir: null, poolSize: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

export const TEST_PASSWORD = 'Test-pass-1';
let cachedHash: Promise<string> | null = null;

/** Creates a user (and a member record for member roles) with TEST_PASSWORD; returns ids. */
export async function makeUser(
  server: StartedServer,
  opts: { userName: string; roles: string[]; brand?: string; member?: boolean; isActive?: boolean },
): Promise<{ userId: string; memberId: number | null }> {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  const sql = server.database.sql;
  let memberId: number | null = null;
  if (opts.member) {
    const rows = await sql.query<{ member_id: number }>(
      `INSERT INTO members (member_number, brand, first_name, last_name, email) VALUES ($1, $2, $3, $4, $5) RETURNING member_id`,
      [`M${randomBytes(4).toString('hex')}`, opts.brand ?? 'finance', 'Test', opts.userName, `${opts.userName}@example.com`],
    );
    memberId = rows[0]?.member_id ?? null;
  }
  const userId = await createUser(sql, {
    userName: opts.userName,
    passwordHash: await cachedHash,
    firstName: 'Test',
    lastName: opts.userName,
    email: `${opts.userName}@example.com`,
    brand: opts.brand ?? 'finance',
    memberId,
    roles: opts.roles,
    isActive: opts.isActive ?? true,
  });
  return { userId, memberId };
}

export interface Session {
  access_token: string;
  refresh_token: string;
  form_token: string;
  expires_in: number;
  /** The brand site the session signed in on: its tokens work only there. */
  brand?: string;
  /**
   * Test convenience: the same session's access token for another brand's site, as if the user had signed in
   * there too (tokens are bound to a brand; tests that call several sites as one user need one per site).
   * Tests of the binding itself use access_token on another host instead.
   */
  tokenFor?: (brand: string) => string;
}

/** Signs in through POST /token on a brand's site (staff by default) and returns the tokens. */
export async function signIn(server: StartedServer, userName: string, password = TEST_PASSWORD, ip = '10.0.0.1', brand = 'staff'): Promise<Session> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: `${brand}.localhost` },
    remoteAddress: ip,
    payload: new URLSearchParams({ grant_type: 'password', UserName: userName, Password: password }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const tokens = res.json() as Session;
  const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString('utf8')) as AccessClaims;
  return { ...tokens, brand, tokenFor: (other) => signAccessToken({ ...claims, brd: other }, server.config.tokenSecret) };
}

/** Headers of a signed-in request from a brand's site (by default the one the session signed in on). */
export function authHeaders(s: Session, brand = s.brand ?? 'staff', extra: Record<string, string> = {}): Record<string, string> {
  const token = brand === (s.brand ?? 'staff') || !s.tokenFor ? s.access_token : s.tokenFor(brand);
  return { authorization: `Bearer ${token}`, 'x-form-token': s.form_token, host: `${brand}.localhost`, ...extra };
}

/**
 * A statement's plan (EXPLAIN's text) with sequential scans and sorts priced out, so a test can say whether an index
 * can serve the statement at all, on a test database of any size (a few rows would make any plan scan).
 */
export async function indexPlan(sql: SqlClient, statement: string, params: unknown[] = []): Promise<string> {
  return sql.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    await tx.query('SET LOCAL enable_sort = off');
    const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement}`, params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

/** A plan (indexPlan's text) that sorts rows itself, a Sort step (an Incremental Sort of a presorted key is not one). */
export const sortsRows = (plan: string): boolean => /^\s*(->\s*)?Sort\s+\(/m.test(plan);

/** Tables that change on any request by design: sessions and tokens (minted per request), audit, throttling, migrations. */
export const VOLATILE_TABLES: ReadonlySet<string> = new Set(['audit_log', 'throttle_events', 'sessions', 'refresh_tokens', 'schema_migrations']);

/**
 * A fingerprint of every business table (all but VOLATILE_TABLES): its row count and newest row version (xmin), so
 * a test can say a request changed no data at all, an insert, update or delete anywhere included.
 */
export async function dataFingerprint(sql: SqlClient): Promise<Record<string, string>> {
  const tables = await sql.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const out: Record<string, string> = {};
  for (const { table_name } of tables) {
    if (VOLATILE_TABLES.has(table_name)) continue;
    const r = await sql.query<{ n: number; v: string | null }>(`SELECT count(*)::int AS n, max(xmin::text::bigint)::text AS v FROM "${table_name}"`);
    out[table_name] = `${r[0]?.n}:${r[0]?.v}`;
  }
  return out;
}
