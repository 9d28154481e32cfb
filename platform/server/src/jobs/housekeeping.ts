import type { SqlClient } from '../db/database';
import type { JobQueue } from './queue';

/** How long a create's key is kept: a retry is seconds or minutes after the first; a month is far past any. */
export const CREATE_KEY_RETENTION_DAYS = 30;

/**
 * A plugin's housekeeping job: `run` on `cron` (UTC), with no retries, since the next run does the same work (pruning
 * spent links, codes, old idempotency keys). Defined in the plugin's init.
 */
export async function scheduleHousekeeping(
  jobs: Pick<JobQueue, 'define' | 'schedule'>,
  name: string,
  cron: string,
  run: () => Promise<unknown>,
): Promise<void> {
  await jobs.define(
    name,
    async () => {
      await run();
    },
    { retryLimit: 0 },
  );
  await jobs.schedule(name, cron);
}

/**
 * Deletes the rows of an idempotency-key table (`table`, with a `created_at`) older than the kernel's window for its own
 * create keys (CREATE_KEY_RETENTION_DAYS: a retry comes seconds or minutes after the first send; a month is far past
 * any). For a plugin whose keys live beside its own rows (the ledger's, reimbursement's). Returns how many went.
 */
export async function pruneKeyTable(sql: SqlClient, table: string, retentionDays = CREATE_KEY_RETENTION_DAYS): Promise<number> {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`not a table name: ${table}`);
  const rows = await sql.query<{ n: number }>(
    `WITH gone AS (DELETE FROM ${table} WHERE created_at < now() - make_interval(days => $1) RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    [retentionDays],
  );
  return rows[0]?.n ?? 0;
}
