import { Roles } from '@portal/core';
import { DatabaseBusyError, openDatabase } from '@portal/server/kernel';
import { authHeaders, freshDatabaseUrl, makeUser, signIn, startTestServer, TEST_PASSWORD } from '@portal/testing/server';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends every other session on the database, as a restart, a failover or an idle-connection reaper does. */
async function cutConnections(databaseUrl: string): Promise<number> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const r = await admin.query<{ cut: boolean }>(
      'SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return r.rows.filter((x) => x.cut).length;
  } finally {
    await admin.end();
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL connections cut under the API', () => {
  const uncaught: unknown[] = [];
  const record = (e: unknown) => uncaught.push(e);
  beforeEach(() => {
    uncaught.length = 0;
    process.on('uncaughtException', record);
  });
  afterEach(() => {
    process.off('uncaughtException', record);
  });

  it('an idle connection the server ends is reported and replaced: nothing is thrown out of the process, the next query works', async () => {
    const { databaseUrl, drop } = await freshDatabaseUrl();
    if (!databaseUrl) throw new Error('TEST_DATABASE_URL is set, so a database is expected');
    const lost: Error[] = [];
    const database = await openDatabase({ databaseUrl, dataDir: null, poolSize: 3 });
    database.onConnectionError((err) => lost.push(err));
    try {
      // Three connections, all idle in the pool afterwards.
      await Promise.all([1, 2, 3].map(() => database.sql.query('SELECT pg_sleep(0.05)')));
      expect(await cutConnections(databaseUrl)).toBe(3);
      for (let i = 0; i < 100 && lost.length < 3; i++) await sleep(20);
      expect(uncaught).toEqual([]);
      expect(lost).toHaveLength(3);
      expect(lost[0]?.message).toMatch(/terminat/i);
      expect(await database.sql.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
      expect(await database.sql.transaction((tx) => tx.query<{ n: number }>('SELECT 2 AS n'))).toEqual([{ n: 2 }]);
    } finally {
      await database.close();
      await drop();
    }
  });

  it('a transaction whose connection is ended fails as the database being unavailable, writes nothing, and the connection is not handed out again', async () => {
    const { databaseUrl, drop } = await freshDatabaseUrl();
    if (!databaseUrl) throw new Error('TEST_DATABASE_URL is set, so a database is expected');
    const database = await openDatabase({ databaseUrl, dataDir: null, poolSize: 1 });
    database.onConnectionError(() => {});
    try {
      await database.sql.exec('CREATE TABLE kept (n int)');
      const outcome = database.sql
        .transaction(async (tx) => {
          await tx.query('INSERT INTO kept VALUES (1)');
          await tx.query('SELECT pg_sleep(5)');
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      await sleep(150);
      expect(await cutConnections(databaseUrl)).toBe(1);
      // The API answers it 503 with Retry-After, as it does a saturated pool.
      const failed = await outcome;
      expect(failed).toBeInstanceOf(DatabaseBusyError);
      expect(failed).toMatchObject({ reason: 'unavailable', cause: { code: '57P01' } });
      // The pool's one connection was that one: the next query gets a new one, and the insert was never committed.
      expect(await database.sql.query('SELECT n FROM kept')).toEqual([]);
      expect(uncaught).toEqual([]);
    } finally {
      await database.close();
      await drop();
    }
  });

  it('the API keeps answering after every one of its connections was ended (its job queue’s too)', async () => {
    const server = await startTestServer();
    try {
      const databaseUrl = server.config.databaseUrl;
      if (!databaseUrl) throw new Error('the test server runs on PostgreSQL here');
      await makeUser(server, { userName: 'cut.member', roles: [Roles.CareGuard], member: true, brand: 'card' });
      const session = await signIn(server, 'cut.member', TEST_PASSWORD, '10.0.0.9', 'card');
      const identity = () => server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(session) });
      expect((await identity()).statusCode).toBe(200);
      expect(await cutConnections(databaseUrl)).toBeGreaterThan(0);
      await sleep(200);
      const again = await identity();
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ Data: { Name: 'cut.member' } });
      expect(uncaught).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
