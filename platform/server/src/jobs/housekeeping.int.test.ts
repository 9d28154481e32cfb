import { randomUUID } from 'node:crypto';
import { openTestDatabase } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { kernelMigrations } from '../db/kernel-migrations';
import { migrate } from '../db/migrate';
import { createJobQueue } from './pg-boss-queue';
import type { JobQueue } from './queue';
import { defineSessionPrune, SESSION_PRUNE_CRON, SESSION_PRUNE_JOB, SESSION_RETENTION_DAYS } from './session-prune';
import { defineThrottlePrune, THROTTLE_PRUNE_CRON, THROTTLE_PRUNE_JOB, THROTTLE_RETENTION_SECONDS } from './throttle-prune';

let database: Database;
let jobs: JobQueue;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.sql, [{ owner: 'kernel', migrations: kernelMigrations }]);
  jobs = createJobQueue(database, { work: true, pollingIntervalSeconds: 0.5 });
  await defineThrottlePrune(jobs, database.sql);
  await defineSessionPrune(jobs, database.sql);
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

describe('sessions.prune job', () => {
  it('deletes sessions that ended more than the retention ago, with their refresh tokens, and keeps live and recent ones', async () => {
    expect(SESSION_RETENTION_DAYS).toBe(30);
    const [user] = await database.sql.query<{ id: string }>(
      `INSERT INTO users (id, user_name, password_hash, first_name, last_name, brand) VALUES ($1, $2, 'x', 'Pat', 'Prune', 'card') RETURNING id`,
      [randomUUID(), `prune-${randomUUID().slice(0, 8)}`],
    );
    const sessions: Record<string, string> = {};
    const add = async (name: string, expires: string, revoked: string | null) => {
      const id = randomUUID();
      sessions[name] = id;
      await database.sql.query(
        `INSERT INTO sessions (id, user_id, expires_at, revoked_at) VALUES ($1, $2, now() + $3::interval, CASE WHEN $4::text IS NULL THEN NULL ELSE now() + $4::interval END)`,
        [id, user?.id, expires, revoked],
      );
      await database.sql.query('INSERT INTO refresh_tokens (token_hash, session_id) VALUES ($1, $2)', [`hash-${id}`, id]);
    };
    await add('live', '12 hours', null);
    await add('signed out yesterday', '11 hours', '-1 day');
    await add('signed out 31 days ago', '-30 days', '-31 days');
    await add('ran out 31 days ago', '-31 days', null);
    await add('ran out 29 days ago', '-29 days', null);

    await jobs.send(SESSION_PRUNE_JOB, {});
    await jobs.drain();
    const left = await database.sql.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1', [user?.id]);
    const names = Object.entries(sessions)
      .filter(([, id]) => left.some((r) => r.id === id))
      .map(([name]) => name);
    expect(names.sort()).toEqual(['live', 'ran out 29 days ago', 'signed out yesterday']);
    const tokens = await database.sql.query<{ session_id: string }>('SELECT session_id FROM refresh_tokens WHERE session_id = ANY($1::uuid[])', [
      Object.values(sessions),
    ]);
    expect(tokens.map((t) => t.session_id).sort()).toEqual(left.map((r) => r.id).sort());
  });

  it('is scheduled once a day', async () => {
    const rows = await database.sql.query<{ name: string; cron: string }>('SELECT name, cron FROM pgboss.schedule WHERE name = $1', [SESSION_PRUNE_JOB]);
    expect(rows).toEqual([{ name: SESSION_PRUNE_JOB, cron: SESSION_PRUNE_CRON }]);
  });
});
