import { openTestDatabase } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { kernelMigrations } from '../db/kernel-migrations';
import { migrate } from '../db/migrate';
import { createJobQueue } from './pg-boss-queue';
import type { JobQueue } from './queue';
import { defineThrottlePrune, THROTTLE_PRUNE_CRON, THROTTLE_PRUNE_JOB, THROTTLE_RETENTION_SECONDS } from './throttle-prune';

let database: Database;
let jobs: JobQueue;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.sql, [{ owner: 'kernel', migrations: kernelMigrations }]);
  jobs = createJobQueue(database, { work: true, pollingIntervalSeconds: 0.5 });
  await defineThrottlePrune(jobs, database.sql);
  await jobs.start({ logger: silent });
});
afterAll(async () => {
  await jobs.stop();
  await database.close();
});

describe('throttle.prune job', () => {
  it('deletes throttle events older than the longest window and keeps the recent ones', async () => {
    // The rows below sit a minute either side of the retention.
    expect(THROTTLE_RETENTION_SECONDS).toBe(60 * 60);
    await database.sql.query(
      `INSERT INTO throttle_events (kind, key, at) VALUES
         ('signin-fail', 'two hours ago', now() - interval '2 hours'),
         ('account-register-ip', 'just past the window', now() - interval '61 minutes'),
         ('account-register-ip', 'inside the window', now() - interval '59 minutes'),
         ('token-ip', 'just now', now())`,
    );
    await jobs.send(THROTTLE_PRUNE_JOB, {});
    await jobs.drain();
    const left = await database.sql.query<{ key: string }>('SELECT key FROM throttle_events ORDER BY at');
    expect(left.map((r) => r.key)).toEqual(['inside the window', 'just now']);
  });

  it('is scheduled to run every quarter of an hour', async () => {
    const rows = await database.sql.query<{ name: string; cron: string }>('SELECT name, cron FROM pgboss.schedule WHERE name = $1', [THROTTLE_PRUNE_JOB]);
    expect(rows).toEqual([{ name: THROTTLE_PRUNE_JOB, cron: THROTTLE_PRUNE_CRON }]);
  });
});
