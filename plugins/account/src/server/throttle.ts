import { ApiError, clearEvents, type RouteContext, recordEvent, retryAfter, type SqlClient } from '@portal/server';

/** Limits on mail-sending and password calls, counted through the kernel's throttle helpers. */
export interface ThrottleRule {
  kind: string;
  max: number;
  windowSeconds: number;
}

export const ACCOUNT_THROTTLE = {
  registerPerAddress: { kind: 'account-register-ip', max: 10, windowSeconds: 60 * 60 },
  registerPerName: { kind: 'account-register-name', max: 5, windowSeconds: 60 * 60 },
  resetMailPerAddress: { kind: 'account-reset-ip', max: 10, windowSeconds: 60 * 60 },
  resetMailPerName: { kind: 'account-reset-name', max: 3, windowSeconds: 15 * 60 },
  passwordFailuresPerUser: { kind: 'account-password-fail', max: 10, windowSeconds: 15 * 60 },
} as const satisfies Record<string, ThrottleRule>;

export const secondsToWait = (sql: SqlClient, rule: ThrottleRule, key: string) => retryAfter(sql, rule.kind, key, rule.max, rule.windowSeconds);
export const recordThrottleEvent = (sql: SqlClient, rule: ThrottleRule, key: string) => recordEvent(sql, rule.kind, key);
export const clearThrottle = clearEvents;

/** Refuses with 429 (and Retry-After) when any of the limits is reached; otherwise counts one event for each. */
export async function enforce(ctx: RouteContext, checks: readonly [ThrottleRule, string][], message: (minutes: number) => string): Promise<void> {
  const { sql } = ctx.database;
  let wait = 0;
  for (const [rule, key] of checks) wait = Math.max(wait, await secondsToWait(sql, rule, key));
  if (wait > 0) {
    ctx.reply.header('retry-after', String(wait));
    throw new ApiError(429, message(Math.ceil(wait / 60)));
  }
  for (const [rule, key] of checks) await recordThrottleEvent(sql, rule, key);
}
