import type { ServerConfig } from '../config';
import type { SqlClient } from '../db/database';
import type { AuthUser } from '../http/context';
import { verifyAccessToken } from './tokens';

export type Authentication = { state: 'none' } | { state: 'invalid'; reason: string } | { state: 'ok'; user: AuthUser };

// Refresh last_seen_at at most once a minute per session: the idle timeout needs minutes, not milliseconds.
const TOUCH_EVERY_MS = 60_000;

/**
 * Sessions found live in the last few seconds, so a busy client costs one session read per window instead of one
 * per request. Sign-out and reuse revocation in this process forget the entry at once; another API process sees
 * a revocation within SESSION_CACHE_MS.
 */
export const SESSION_CACHE_MS = 5_000;
const liveSessions = new Map<string, { at: number; userId: string }>();
/** Call after revoking sessions so this process stops trusting them at once. */
export function forgetSessions(which: { sessionId?: string; userId?: string }): void {
  if (which.sessionId) liveSessions.delete(which.sessionId);
  if (which.userId) for (const [sid, e] of liveSessions) if (e.userId === which.userId) liveSessions.delete(sid);
}

/** Reads the bearer token and checks that its session is live (not revoked, not idle, not past its lifetime). */
export async function authenticate(authorization: string | undefined, sql: SqlClient, config: ServerConfig, brand: string | null): Promise<Authentication> {
  if (!authorization) return { state: 'none' };
  const m = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (!m?.[1]) return { state: 'invalid', reason: 'malformed authorization header' };
  const v = verifyAccessToken(m[1], config.tokenSecret);
  if (!v.ok) return { state: 'invalid', reason: `token ${v.reason}` };
  const c = v.claims;
  // A token signed in on one brand's site is refused on another's (security issue 11, item 9).
  if ((c.brd ?? null) !== brand) return { state: 'invalid', reason: 'token of another site' };
  const user = { id: c.sub, name: c.name, roles: c.roles, memberId: c.mid, sessionId: c.sid };
  const cached = liveSessions.get(c.sid);
  if (cached !== undefined && Date.now() - cached.at < SESSION_CACHE_MS) return { state: 'ok', user };
  const rows = await sql.query<{ revoked_at: Date | null; last_seen_at: Date; expires_at: Date }>(
    'SELECT revoked_at, last_seen_at, expires_at FROM sessions WHERE id = $1',
    [v.claims.sid],
  );
  const s = rows[0];
  if (!s || s.revoked_at) return { state: 'invalid', reason: 'session ended' };
  const now = Date.now();
  if (new Date(s.expires_at).getTime() <= now) return { state: 'invalid', reason: 'session lifetime over' };
  const lastSeen = new Date(s.last_seen_at).getTime();
  if (lastSeen + config.idleTimeoutSeconds * 1000 <= now) {
    await sql.query("UPDATE sessions SET revoked_at = now(), revoke_reason = 'idle' WHERE id = $1 AND revoked_at IS NULL", [v.claims.sid]);
    return { state: 'invalid', reason: 'session idle' };
  }
  if (now - lastSeen > TOUCH_EVERY_MS) await sql.query('UPDATE sessions SET last_seen_at = now() WHERE id = $1', [v.claims.sid]);
  if (liveSessions.size > 50_000) liveSessions.clear(); // bound the memory; entries are cheap to rebuild
  liveSessions.set(c.sid, { at: now, userId: c.sub });
  return { state: 'ok', user };
}
