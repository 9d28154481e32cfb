import { randomBytes } from 'node:crypto';
import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { BUSY_MESSAGE, BUSY_RETRY_SECONDS, DatabaseBusyError, openDatabase, TokenMessages } from '@portal/server/kernel';
import { deferred } from '@portal/testing/deferred';
import { authHeaders, freshDatabaseUrl, makeUser, signIn, startTestServer, TEST_PASSWORD } from '@portal/testing/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.skipIf(!process.env.TEST_DATABASE_URL)('a saturated PostgreSQL pool', () => {
  it('fails a query that found no free connection within the connect timeout as DatabaseBusyError, and recovers', async () => {
    const { databaseUrl, drop } = await freshDatabaseUrl();
    // The timeout is also the first connection's, made as the database opens: a loaded machine may take a few hundred
    // milliseconds to start a server backend (150 ms failed the open itself in a fresh-clone run).
    const database = await openDatabase({ databaseUrl, dataDir: null, poolSize: 1, connectTimeoutMs: 1500 });
    try {
      const gate = deferred();
      const held = database.sql.transaction(async (tx) => {
        await tx.query('SELECT 1');
        await gate.promise;
      });
      await new Promise((r) => setTimeout(r, 50)); // the transaction holds the only connection
      await expect(database.sql.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseBusyError);
      await expect(database.sql.transaction((tx) => tx.query('SELECT 1'))).rejects.toBeInstanceOf(DatabaseBusyError);
      gate.release();
      await held;
      expect(await database.sql.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    } finally {
      await database.close();
      await drop();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a PostgreSQL server that refuses one more connection', () => {
  it('fails the query as DatabaseBusyError (503 with Retry-After), not as an unexpected error, and recovers', async () => {
    const { databaseUrl, drop } = await freshDatabaseUrl();
    if (!databaseUrl) throw new Error('TEST_DATABASE_URL is set, so a database is expected');
    // A role the server allows one connection: a pool larger than that is what processes × DATABASE_POOL_SIZE above
    // max_connections looks like (a superuser, as the tests' own role is, is not held to such limits).
    const role = `limited_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 1`);
    const url = new URL(databaseUrl);
    url.username = role;
    url.password = '';
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null, poolSize: 3 });
    const gate = deferred();
    try {
      const held = database.sql.transaction(async (tx) => {
        await tx.query('SELECT 1');
        await gate.promise;
      });
      await new Promise((r) => setTimeout(r, 50)); // the transaction holds the one connection the server allows
      const refused = await database.sql.query('SELECT 1').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DatabaseBusyError);
      expect(refused).toMatchObject({ reason: 'saturated', cause: { code: '53300' } });
      gate.release();
      await held;
      expect(await database.sql.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    } finally {
      gate.release();
      await database.close();
      await drop();
      await admin.query(`DROP ROLE ${role}`);
      await admin.end();
    }
  });
});

describe('the API when every database connection is busy', () => {
  let server: StartedServer;
  beforeAll(async () => {
    server = await startTestServer();
    await makeUser(server, { userName: 'busy.member', roles: [Roles.CareGuard], member: true, brand: 'card' });
  });
  afterAll(() => server?.close());

  /** Makes every query of the shared client fail as a saturated pool does while fn runs. */
  async function whileBusy<T>(fn: () => Promise<T>): Promise<T> {
    const sql = server.database.sql;
    const query = sql.query;
    const transaction = sql.transaction;
    sql.query = async () => {
      throw new DatabaseBusyError(new Error('timeout exceeded when trying to connect'));
    };
    sql.transaction = async () => {
      throw new DatabaseBusyError(new Error('timeout exceeded when trying to connect'));
    };
    try {
      return await fn();
    } finally {
      sql.query = query;
      sql.transaction = transaction;
    }
  }

  it('answers 503 with Retry-After and the busy message instead of a 500', async () => {
    const session = await signIn(server, 'busy.member', TEST_PASSWORD, '10.0.0.7', 'card');
    const res = await whileBusy(() => server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(session) }));
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe(String(BUSY_RETRY_SECONDS));
    expect(res.json()).toMatchObject({ HasError: true, MsgText: BUSY_MESSAGE });
  });

  it('answers sign-in in its OAuth shape: temporarily_unavailable', async () => {
    const res = await whileBusy(() =>
      server.app.inject({
        method: 'POST',
        url: '/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
        payload: new URLSearchParams({ grant_type: 'password', UserName: 'busy.member', Password: TEST_PASSWORD }).toString(),
      }),
    );
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe(String(BUSY_RETRY_SECONDS));
    expect(res.json()).toEqual({ error: 'temporarily_unavailable', error_description: TokenMessages.busy });
  });
});
