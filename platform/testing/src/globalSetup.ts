import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@portal/app-server/server';
import pg from 'pg';
import { connectionsClosed, freshDatabaseUrl } from './server';

/**
 * The integration tests' global setup: one database migrated the way every test server's is (the kernel's and every
 * plugin's migrations, the job queue's schema), made once per run, which each `startTestServer` then starts from
 * instead of an empty one.
 * - PGlite: the in-memory database's image, in a file named by TEST_PGLITE_IMAGE. Starting from it saves initdb and
 *   the migrations, which took 3 to 6 s of each test file's time on two cores.
 * - PostgreSQL (TEST_DATABASE_URL): a database on that server, named by TEST_DATABASE_TEMPLATE, which each test
 *   database is created as a copy of (CREATE DATABASE ... TEMPLATE).
 * The migrations themselves still run in every run, here and in the tests that open an empty database.
 * Returns the teardown: the file or the template database goes.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const { databaseUrl, drop } = await freshDatabaseUrl();
  const server = await createServer(
    { databaseUrl, dataDir: null, fileStore: { kind: 'memory' }, tokenSecret: 'template-secret' },
    // No job is worked and no schedule is kept: a copy holds the queue's schema and no job.
    { logger: false, workJobs: false },
  );
  if (!databaseUrl) {
    const image = await server.database.image?.();
    await server.close();
    if (!image) throw new Error('the in-memory database gave no image');
    const dir = mkdtempSync(join(tmpdir(), 'portal-test-image-'));
    const file = join(dir, 'pgdata.tar');
    writeFileSync(file, new Uint8Array(await image.arrayBuffer()));
    process.env.TEST_PGLITE_IMAGE = file;
    return async () => {
      delete process.env.TEST_PGLITE_IMAGE;
      rmSync(dir, { recursive: true, force: true });
    };
  }
  await server.close();
  const name = new URL(databaseUrl).pathname.slice(1);
  // A database with a session connected cannot be copied: wait until the server's pool has gone.
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await connectionsClosed(admin, name);
  } finally {
    await admin.end();
  }
  process.env.TEST_DATABASE_TEMPLATE = name;
  return async () => {
    delete process.env.TEST_DATABASE_TEMPLATE;
    await drop();
  };
}
