import type { Message } from '@portal/core';
import type { FastifyReply } from 'fastify';
import { clearEvents, recordEvent, retryAfter, THROTTLE } from '../auth/throttle';
import type { SqlClient } from '../db/database';
import { ApiError } from '../http/errors';

/** A limit: at most `max` events of `kind` per key in `windowSeconds`. Plugins declare theirs as exported constants. */
export interface ThrottleRule {
  kind: string;
  max: number;
  windowSeconds: number;
}

/** The kernel's own kinds a plugin may name (clearing a user's sign-in failures after a password reset). */
export const KernelThrottle = {
  signInFailures: { kind: 'signin-fail', ...THROTTLE.accountFailures },
} as const satisfies Record<string, ThrottleRule>;

export interface ThrottleService {
  /** Seconds until the key is below its limit again; 0 when it is below now. */
  secondsToWait(rule: ThrottleRule, key: string): Promise<number>;
  hit(rule: ThrottleRule, key: string, tx?: SqlClient): Promise<void>;
  clear(rule: Pick<ThrottleRule, 'kind'>, key: string, tx?: SqlClient): Promise<void>;
  /**
   * Counts one event for each check, atomically: under a per-key lock the count is read and the event
   * written in one transaction, so concurrent requests cannot all slip under the limit. When any limit is
   * reached nothing is counted and the request is refused with 429 and Retry-After.
   */
  enforce(reply: FastifyReply, checks: readonly (readonly [ThrottleRule, string])[], message: (minutes: number) => Message): Promise<void>;
  /** Forgets a user name's failed sign-ins (its password was just reset). */
  clearSignInFailures(userName: string, tx?: SqlClient): Promise<void>;
}

export function throttleService(sql: SqlClient): ThrottleService {
  return {
    secondsToWait: (rule, key) => retryAfter(sql, rule.kind, key, rule.max, rule.windowSeconds),
    hit: (rule, key, tx) => recordEvent(tx ?? sql, rule.kind, key),
    clear: (rule, key, tx) => clearEvents(tx ?? sql, rule.kind, key),
    async enforce(reply, checks, message) {
      const wait = await sql.transaction(async (tx) => {
        // Locks in a fixed order so two requests over the same keys cannot deadlock.
        const ordered = [...checks].sort((a, b) => `${a[0].kind}|${a[1]}`.localeCompare(`${b[0].kind}|${b[1]}`));
        for (const [rule, key] of ordered) await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`throttle|${rule.kind}|${key}`]);
        let longest = 0;
        for (const [rule, key] of ordered) longest = Math.max(longest, await retryAfter(tx, rule.kind, key, rule.max, rule.windowSeconds));
        if (longest === 0) for (const [rule, key] of ordered) await recordEvent(tx, rule.kind, key);
        return longest;
      });
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new ApiError(429, message(Math.ceil(wait / 60)));
      }
    },
    async clearSignInFailures(userName, tx) {
      const name = userName.trim().toLowerCase();
      // Failures are counted by name, and by name and address: both forget this name.
      await (tx ?? sql).query(`DELETE FROM throttle_events WHERE kind LIKE 'signin-%' AND (key = $1 OR key LIKE $2)`, [
        name,
        `${name.replace(/[\\%_]/g, '\\$&')}|%`,
      ]);
    },
  };
}
