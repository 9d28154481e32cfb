import { pruneEvents } from '../auth/throttle';
import type { SqlClient } from '../db/database';
import type { JobQueue } from './queue';

export const THROTTLE_PRUNE_JOB = 'throttle.prune';

/** Every quarter of an hour: the table holds at most the last window's events plus 15 minutes. */
export const THROTTLE_PRUNE_CRON = '*/15 * * * *';

/**
 * How long throttle events are kept: the longest window any rule counts over, so no count ever misses an
 * event. Today one hour (the account plugin's registration and reset-mail limits); the kernel's own are
 * 15 minutes and one minute. tests/throttle-retention.test.ts fails when a rule with a longer window appears.
 */
export const THROTTLE_RETENTION_SECONDS = 60 * 60;

/** Defines the job that deletes throttle events past every window, and schedules it. */
export async function defineThrottlePrune(jobs: JobQueue, sql: SqlClient, retentionSeconds = THROTTLE_RETENTION_SECONDS): Promise<void> {
  // No retries: the next scheduled run does the same work.
  await jobs.define(
    THROTTLE_PRUNE_JOB,
    async () => {
      await pruneEvents(sql, retentionSeconds);
    },
    { retryLimit: 0 },
  );
  await jobs.schedule(THROTTLE_PRUNE_JOB, THROTTLE_PRUNE_CRON);
}
