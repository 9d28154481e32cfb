import type { SqlClient } from '../db/database';
import { pruneCreateKeys } from '../kernel-services/createKeys';
import type { JobQueue } from './queue';

export const SESSION_PRUNE_JOB = 'sessions.prune';

/** Once a day, at a quiet hour (UTC). */
export const SESSION_PRUNE_CRON = '17 3 * * *';

/**
 * How long a session that has ended (signed out, revoked, or past its end) is kept: long enough to answer "which
 * sessions did this user have last month" from the table; the audit log keeps each sign-in and sign-out for good.
 */
export const SESSION_RETENTION_DAYS = 30;

/**
 * Deletes sessions that ended more than `retentionDays` ago, with their refresh tokens (ON DELETE CASCADE). Every
 * sign-in and hand-over adds a session and every refresh a token, so without this both tables only grow. Live
 * sessions are never touched. Returns how many sessions went.
 */
export async function pruneSessions(sql: SqlClient, retentionDays = SESSION_RETENTION_DAYS): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM sessions
       WHERE least(coalesce(revoked_at, expires_at), expires_at) < now() - make_interval(days => $1)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [retentionDays],
  );
  return rows[0]?.n ?? 0;
}

/** Defines the job that deletes long-ended sessions and their refresh tokens, and schedules it. */
export async function defineSessionPrune(jobs: JobQueue, sql: SqlClient, retentionDays = SESSION_RETENTION_DAYS): Promise<void> {
  // No retries: the next day's run does the same work.
  await jobs.define(
    SESSION_PRUNE_JOB,
    async () => {
      await pruneSessions(sql, retentionDays);
      // The daily housekeeping also lets creates' idempotency keys go once no retry can come (services.createKeys).
      await pruneCreateKeys(sql);
    },
    { retryLimit: 0 },
  );
  await jobs.schedule(SESSION_PRUNE_JOB, SESSION_PRUNE_CRON);
}
