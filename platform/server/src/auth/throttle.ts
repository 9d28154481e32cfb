import type { SqlClient } from '../db/database';

export const THROTTLE = {
  /** Failed sign-ins per account (user name, whether or not it exists) in the window. */
  accountFailures: { max: 10, windowSeconds: 15 * 60 },
  /** /token requests per client address in the window (the count is ServerConfig.tokenRequestsPerMinute, 60 by default). */
  addressRequests: { windowSeconds: 60 },
} as const;

/** Seconds until the oldest event in the window leaves it, when the count has reached max; else 0. */
export async function retryAfter(sql: SqlClient, kind: string, key: string, max: number, windowSeconds: number): Promise<number> {
  const rows = await sql.query<{ n: number; oldest: Date | null }>(
    `SELECT count(*)::int AS n, min(at) AS oldest FROM (
       SELECT at FROM throttle_events WHERE kind = $1 AND key = $2 AND at > now() - make_interval(secs => $3)
       ORDER BY at DESC LIMIT $4) recent`,
    [kind, key, windowSeconds, max],
  );
  const r = rows[0];
  if (!r || r.n < max || !r.oldest) return 0;
  return Math.max(1, Math.ceil((new Date(r.oldest).getTime() + windowSeconds * 1000 - Date.now()) / 1000));
}

export async function recordEvent(sql: SqlClient, kind: string, key: string): Promise<void> {
  await sql.query('INSERT INTO throttle_events (kind, key) VALUES ($1, $2)', [kind, key]);
}

export async function clearEvents(sql: SqlClient, kind: string, key: string): Promise<void> {
  await sql.query('DELETE FROM throttle_events WHERE kind = $1 AND key = $2', [kind, key]);
}

/** Housekeeping: events older than a day are never consulted. */
export async function pruneEvents(sql: SqlClient): Promise<void> {
  await sql.query("DELETE FROM throttle_events WHERE at < now() - interval '1 day'");
}
