import type { SqlClient } from '../db/database';

export const THROTTLE = {
  /** Failed sign-ins per user name (whether or not it exists) and client address in the window. */
  accountFailures: { max: 10, windowSeconds: 15 * 60 },
  /** Failed sign-ins per user name across all addresses: the ceiling against guessing from many addresses (ASVS: at most 100 an hour). */
  nameFailures: { max: 100, windowSeconds: 60 * 60 },
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

/**
 * The failure counters one sign-in attempt reserves before its password is checked: per user name and
 * address, and the name's ceiling across addresses. The first keeps one address's guesses from locking the
 * owner out elsewhere; the second bounds guessing spread over many addresses.
 */
export function signInChecks(userName: string, ip: string): ThrottleCheck[] {
  const name = userName.trim().toLowerCase();
  return [
    // An address holds no '|', so the key splits unambiguously at its last one.
    { kind: 'signin-fail', key: `${name}|${ip}`, ...THROTTLE.accountFailures },
    { kind: 'signin-fail-name', key: name, ...THROTTLE.nameFailures },
  ];
}

/** One limit to reserve an event under: at most `max` events of `kind` per `key` in `windowSeconds`. */
export interface ThrottleCheck {
  kind: string;
  key: string;
  max: number;
  windowSeconds: number;
}

/** An event written by reserve(), enough to delete exactly one such row again. */
export interface ReservedEvent {
  kind: string;
  key: string;
  /** The row's time as PostgreSQL prints it: a JavaScript Date would drop the microseconds that tell rows apart. */
  at: string;
}

/**
 * Counts one event under every check, atomically and before the work it guards: under a per-key advisory
 * lock (taken in a fixed order, so two requests over the same keys cannot deadlock) the counts are read and
 * the events written in one transaction, so concurrent requests cannot all slip under a limit. When any
 * limit is reached nothing is written and `wait` is the longest Retry-After in seconds.
 */
export async function reserve(sql: SqlClient, checks: readonly ThrottleCheck[]): Promise<{ wait: number; reserved: ReservedEvent[] }> {
  // The throttle service's enforce() orders its locks the same way.
  const ordered = [...checks].sort((a, b) => `${a.kind}|${a.key}`.localeCompare(`${b.kind}|${b.key}`));
  return sql.transaction(async (tx) => {
    // The same lock name as the throttle service's enforce(), so both serialize on one counter.
    for (const c of ordered) await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`throttle|${c.kind}|${c.key}`]);
    let wait = 0;
    for (const c of ordered) wait = Math.max(wait, await retryAfter(tx, c.kind, c.key, c.max, c.windowSeconds));
    if (wait > 0) return { wait, reserved: [] };
    const reserved: ReservedEvent[] = [];
    for (const c of ordered) {
      const rows = await tx.query<{ at: string }>('INSERT INTO throttle_events (kind, key) VALUES ($1, $2) RETURNING at::text AS at', [c.kind, c.key]);
      const at = rows[0]?.at;
      if (at) reserved.push({ kind: c.kind, key: c.key, at });
    }
    return { wait: 0, reserved };
  });
}

/** Takes back events reserve() wrote (the attempt turned out not to count): one row each, matched by kind, key and time. */
export async function release(sql: SqlClient, reserved: readonly ReservedEvent[]): Promise<void> {
  for (const e of reserved) {
    await sql.query(
      'DELETE FROM throttle_events WHERE ctid = (SELECT ctid FROM throttle_events WHERE kind = $1 AND key = $2 AND at = $3::timestamptz LIMIT 1)',
      [e.kind, e.key, e.at],
    );
  }
}

export async function recordEvent(sql: SqlClient, kind: string, key: string): Promise<void> {
  await sql.query('INSERT INTO throttle_events (kind, key) VALUES ($1, $2)', [kind, key]);
}

export async function clearEvents(sql: SqlClient, kind: string, key: string): Promise<void> {
  await sql.query('DELETE FROM throttle_events WHERE kind = $1 AND key = $2', [kind, key]);
}

/** Housekeeping (the throttle.prune job): deletes events older than the given age, past every window; returns how many. */
export async function pruneEvents(sql: SqlClient, olderThanSeconds: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    'WITH gone AS (DELETE FROM throttle_events WHERE at < now() - make_interval(secs => $1) RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [olderThanSeconds],
  );
  return rows[0]?.n ?? 0;
}
