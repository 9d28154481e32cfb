import { randomUUID } from 'node:crypto';
import { KernelRoutes, type Message, msg, TOKEN_EXCHANGE_GRANT } from '@portal/core';
import type { FastifyReply } from 'fastify';
import { safeParse } from 'zod/v4/core';
import { writeAudit } from '../audit';
import type { ServerConfig } from '../config';
import type { SqlClient } from '../db/database';
import { SENT, type Sent } from '../http/context';
import { route } from '../plugin';
import { burnPasswordCheck, enterPasswordCheck, hashPassword, needsRehash, PASSWORD_COST, verifyPassword } from './password';
import { authenticate, forgetSessions } from './session';
import { clearEvents, release, reserve, signInChecks, THROTTLE } from './throttle';
import { formTokenFor, randomToken, sha256, signAccessToken } from './tokens';
import { findUserById, findUserByName, rolesOf, type UserRow } from './users';

export const TokenMessages = {
  invalidCredentials: 'The user name or password is incorrect.',
  inactive: 'Your account has not been activated yet. Please use the link in your registration e-mail.',
  closed: 'This account has been closed. Please contact support if you think this is a mistake.',
  sessionEnded: 'Your session has ended. Please sign in again.',
  badRequest: 'The sign-in request is incomplete: UserName and Password are required.',
  tooManyFromAddress: (s: number) => msg('Too many sign-in requests from this address. Please try again in {{seconds}} seconds.', { seconds: s }),
  tooManyForAccount: (s: number) => msg('Too many failed sign-in attempts. Please try again in {{minutes}} minute(s).', { minutes: Math.ceil(s / 60) }),
  busy: 'Sign-in is busy right now. Please try again in a moment.',
};
/** Seconds a sign-in refused as busy is told to wait. */
export const BUSY_RETRY_SECONDS = 2;

/** An OAuth error answer; its description in the user's language. */
function tokenError(ctx: { reply: FastifyReply; t: (m: Message) => string }, status: number, error: string, description: Message): Sent {
  void ctx.reply
    .status(status)
    .header('cache-control', 'no-store')
    .send({ error, error_description: ctx.t(description) });
  return SENT;
}

/** A token pair for a session; the access token names the brand site the session signed in on and works only there. */
/** An access token of the user's session on a brand site, living `ttlSeconds`, naming the user's roles as they are now. */
async function accessToken(sql: SqlClient, config: ServerConfig, user: UserRow, sessionId: string, brand: string | null, ttlSeconds: number) {
  const roles = await rolesOf(sql, user.id);
  const now = Math.floor(Date.now() / 1000);
  return signAccessToken(
    { sub: user.id, sid: sessionId, name: user.user_name, roles, mid: user.member_id, brd: brand, iat: now, exp: now + ttlSeconds },
    config.tokenSecret,
  );
}

async function issueTokens(sql: SqlClient, config: ServerConfig, user: UserRow, sessionId: string, brand: string | null) {
  const refresh = randomToken();
  await sql.query('INSERT INTO refresh_tokens (token_hash, session_id) VALUES ($1, $2)', [sha256(refresh), sessionId]);
  const access = await accessToken(sql, config, user, sessionId, brand, config.accessTokenTtlSeconds);
  return {
    access_token: access,
    token_type: 'bearer',
    expires_in: config.accessTokenTtlSeconds,
    refresh_token: refresh,
    form_token: formTokenFor(sessionId, config.tokenSecret),
  };
}

/** How long a hand-over token may be exchanged: long enough to open its address, short for one found later. */
export const HANDOVER_SECONDS = 120;

/**
 * A token to hand over in an address (/t/<token>): an access token of a new session of the same user on the same site,
 * marked for hand-over, ending when the asking session ends. It opens the site for HANDOVER_SECONDS, and the
 * token-exchange grant takes it, once, for a session of the tab's own. Null when the asking session has ended.
 */
export async function issueHandoverToken(sql: SqlClient, config: ServerConfig, userId: string, askingSessionId: string, ip: string) {
  const user = await findUserById(sql, userId);
  if (!user?.is_active || user.closed_at) return null;
  const sessionId = randomUUID();
  const made = await sql.query<{ brand: string | null }>(
    `INSERT INTO sessions (id, user_id, expires_at, ip, brand, handover)
     SELECT $1, user_id, expires_at, $2, brand, true FROM sessions
     WHERE id = $3 AND user_id = $4 AND revoked_at IS NULL AND expires_at > now()
     RETURNING brand`,
    [sessionId, ip, askingSessionId, userId],
  );
  const session = made[0];
  if (!session) return null;
  const ttl = Math.min(HANDOVER_SECONDS, config.accessTokenTtlSeconds);
  const token = await accessToken(sql, config, user, sessionId, session.brand, ttl);
  return { sessionId, Token: token, ExpiresIn: ttl };
}

/**
 * A fresh token pair for a live session, for a change the client must see at once (terminate, reactivate):
 * the session's unspent refresh tokens are spent, so the new one is the chain's only live token, as after a
 * refresh. Null when the session has ended or is not the user's.
 */
export async function reissueSessionTokens(sql: SqlClient, config: ServerConfig, userId: string, sessionId: string) {
  const live = await sql.query<{ brand: string | null }>(
    'SELECT brand FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()',
    [sessionId, userId],
  );
  const session = live[0];
  const user = session ? await findUserById(sql, userId) : null;
  if (!user?.is_active || !session) return null;
  // One transaction: a failure after the spend leaves the old refresh token live (never a chain with no live token).
  return sql.transaction(async (tx) => {
    await tx.query('UPDATE refresh_tokens SET spent_at = now() WHERE session_id = $1 AND spent_at IS NULL', [sessionId]);
    return issueTokens(tx, config, user, sessionId, session.brand);
  });
}

/** POST /token: the password and refresh_token grants (form-encoded), answered OAuth-style. */
export const tokenRoute = route(KernelRoutes.token, {
  access: 'public',
  noFormToken: true,
  handler: async (ctx) => {
    const { req, reply, database, config, brand } = ctx;
    const brandId = brand?.id ?? null;
    const { sql } = database;
    const ip = req.ip;
    const byAddress = await reserve(sql, [
      { kind: 'token-ip', key: ip, max: config.tokenRequestsPerMinute, windowSeconds: THROTTLE.addressRequests.windowSeconds },
    ]);
    if (byAddress.wait > 0) {
      reply.header('retry-after', String(byAddress.wait));
      return tokenError(ctx, 429, 'too_many_requests', TokenMessages.tooManyFromAddress(byAddress.wait));
    }
    const parsed = safeParse(KernelRoutes.token.body, req.body ?? {});
    if (!parsed.success) return tokenError(ctx, 400, 'invalid_request', TokenMessages.badRequest);
    const audit = (action: string, outcome: 'success' | 'failure', user: UserRow | null, detail: Record<string, unknown> = {}) =>
      writeAudit(sql, {
        action,
        outcome,
        actorUserId: user?.id ?? null,
        actorName: user?.user_name ?? null,
        memberId: user?.member_id ?? null,
        ip,
        requestId: req.id,
        detail,
      });

    if (parsed.data.grant_type === 'password') {
      const { UserName, Password } = parsed.data;
      // Each attempt is counted as a failure before its password is checked, so concurrent guesses cannot
      // all be checked before the first failure is written; a right password takes its count back below.
      const checks = signInChecks(UserName, ip);
      const attempt = await reserve(sql, checks);
      if (attempt.wait > 0) {
        reply.header('retry-after', String(attempt.wait));
        await audit('signin', 'failure', null, { userName: UserName, reason: 'throttled' });
        return tokenError(ctx, 429, 'too_many_requests', TokenMessages.tooManyForAccount(attempt.wait));
      }
      const user = await findUserByName(sql, UserName.trim());
      // A caller that has hung up (it gave up waiting) is not worth a password check, nor a counted attempt. (The
      // request stream itself is destroyed once its body is read: the socket tells whether the caller is there.)
      const gone = req.raw.socket?.destroyed === true;
      const leave = gone ? null : enterPasswordCheck();
      if (!leave) {
        await release(sql, attempt.reserved);
        reply.header('retry-after', String(BUSY_RETRY_SECONDS));
        return tokenError(ctx, 503, 'temporarily_unavailable', TokenMessages.busy);
      }
      let valid = false;
      let upgraded: string | null = null;
      try {
        if (user) valid = await verifyPassword(Password, user.password_hash);
        else await burnPasswordCheck(Password);
        // A right password under an older hash (scrypt, or other Argon2id costs) is hashed again at today's cost.
        if (user && valid && needsRehash(user.password_hash)) upgraded = await hashPassword(Password, PASSWORD_COST, { admitted: true });
      } finally {
        leave();
      }
      if (!user || !valid) {
        await audit('signin', 'failure', user, { userName: UserName, reason: 'invalid credentials' });
        return tokenError(ctx, 400, 'invalid_grant', TokenMessages.invalidCredentials);
      }
      // The right password: this attempt was no failure, and this address's earlier failures for the name are
      // forgotten. The name's ceiling keeps other addresses' failures, so signing in does not reset a guesser.
      await release(sql, attempt.reserved);
      for (const c of checks) if (c.kind === 'signin-fail') await clearEvents(sql, c.kind, c.key);
      if (!user.is_active) {
        await audit('signin', 'failure', user, { reason: 'not activated' });
        return tokenError(ctx, 400, 'invalid_grant', TokenMessages.inactive);
      }
      if (user.closed_at) {
        await audit('signin', 'failure', user, { reason: 'closed' });
        return tokenError(ctx, 400, 'invalid_grant', TokenMessages.closed);
      }
      // Only if the password was not changed meanwhile; not a change of the user's data, so no new version.
      const rehashed =
        upgraded !== null &&
        (
          await sql.query<{ id: string }>('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2 RETURNING id', [
            user.id,
            user.password_hash,
            upgraded,
          ])
        ).length === 1;
      // The language signed in with is the one the user's e-mails are written in from now on.
      const language = ctx.language;
      if (user.language !== language) await sql.query('UPDATE users SET language = $2 WHERE id = $1', [user.id, language]);
      const sessionId = randomUUID();
      // The session belongs to the brand site it signed in on (security issue 11, item 9).
      await sql.query(`INSERT INTO sessions (id, user_id, expires_at, ip, brand) VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5)`, [
        sessionId,
        user.id,
        config.absoluteSessionSeconds,
        ip,
        brandId,
      ]);
      const tokens = await issueTokens(sql, config, user, sessionId, brandId);
      await audit('signin', 'success', user, rehashed ? { sessionId, passwordRehashed: true } : { sessionId });
      void reply.header('cache-control', 'no-store').send(tokens);
      return SENT;
    }

    if (parsed.data.grant_type === TOKEN_EXCHANGE_GRANT) {
      // A token handed over in an address (/activated/<token>, /t/<token>) is exchanged, once, for a session of the
      // tab's own with its refresh and anti-forgery tokens: a handed access token alone could read but change nothing.
      // The handed session ends with the exchange (the new one keeps its end), so the token left in the address, in the
      // history or a log, opens nothing afterwards and cannot be exchanged again. Only a session made for hand-over
      // (issueHandoverToken) is taken: a session's own access token, lifted from a log or a proxy, is refused, and that
      // session goes on.
      const handed = await authenticate(`Bearer ${parsed.data.subject_token}`, sql, config, brandId);
      if (handed.state !== 'ok') return tokenError(ctx, 400, 'invalid_grant', TokenMessages.sessionEnded);
      const handedSessionId = handed.user.sessionId;
      const user = await findUserById(sql, handed.user.id);
      const tokens = await sql.transaction(async (tx) => {
        const ended = await tx.query<{ expires_at: Date }>(
          `UPDATE sessions SET revoked_at = now(), revoke_reason = 'handed over' WHERE id = $1 AND revoked_at IS NULL AND handover RETURNING expires_at`,
          [handedSessionId],
        );
        const end = ended[0]?.expires_at;
        if (!end || !user?.is_active || user.closed_at) return null;
        const sessionId = randomUUID();
        await tx.query('INSERT INTO sessions (id, user_id, expires_at, ip, brand) VALUES ($1, $2, $3, $4, $5)', [sessionId, user.id, end, ip, brandId]);
        return { sessionId, tokens: await issueTokens(tx, config, user, sessionId, brandId) };
      });
      forgetSessions({ sessionId: handedSessionId });
      if (!tokens) {
        await audit('signin.handover', 'failure', user, { handedSessionId });
        return tokenError(ctx, 400, 'invalid_grant', TokenMessages.sessionEnded);
      }
      await audit('signin.handover', 'success', user, { sessionId: tokens.sessionId, handedSessionId });
      void reply.header('cache-control', 'no-store').send(tokens.tokens);
      return SENT;
    }

    const hash = sha256(parsed.data.refresh_token);
    const rows = await sql.query<{
      session_id: string;
      spent_at: Date | null;
      user_id: string;
      revoked_at: Date | null;
      expires_at: Date;
      last_seen_at: Date;
      brand: string | null;
    }>(
      `SELECT rt.session_id, rt.spent_at, s.user_id, s.revoked_at, s.expires_at, s.last_seen_at, s.brand
       FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id WHERE rt.token_hash = $1`,
      [hash],
    );
    const row = rows[0];
    if (!row) return tokenError(ctx, 400, 'invalid_grant', TokenMessages.sessionEnded);
    // A refresh token works only on the brand site its session signed in on; elsewhere it is refused and left unspent.
    if (row.brand !== brandId) return tokenError(ctx, 400, 'invalid_grant', TokenMessages.sessionEnded);
    // The spend, the checks and the new pair are one transaction: a failure anywhere after the spend (a busy database
    // answering 503 'try again') rolls the spend back, so trying again with the same token works and is not taken for
    // a reuse. Of two requests racing with one token, only one spends it; the other is a reuse.
    const outcome = await sql.transaction(async (tx) => {
      const revoke = (reason: string) =>
        tx.query('UPDATE sessions SET revoked_at = now(), revoke_reason = $2 WHERE id = $1 AND revoked_at IS NULL', [row.session_id, reason]);
      const spent = row.spent_at
        ? []
        : await tx.query('UPDATE refresh_tokens SET spent_at = now() WHERE token_hash = $1 AND spent_at IS NULL RETURNING 1', [hash]);
      const user = await findUserById(tx, row.user_id);
      if (spent.length === 0) {
        await revoke('refresh-token-reuse');
        return { kind: 'reuse' as const, user };
      }
      const now = Date.now();
      const idle = new Date(row.last_seen_at).getTime() + config.idleTimeoutSeconds * 1000 <= now;
      if (row.revoked_at || new Date(row.expires_at).getTime() <= now || idle || !user || !user.is_active || user.closed_at) {
        if (!row.revoked_at) await revoke(idle ? 'idle' : 'expired');
        return { kind: 'ended' as const };
      }
      await tx.query('UPDATE sessions SET last_seen_at = now() WHERE id = $1', [row.session_id]);
      return { kind: 'issued' as const, tokens: await issueTokens(tx, config, user, row.session_id, row.brand) };
    });
    if (outcome.kind !== 'issued') {
      forgetSessions({ sessionId: row.session_id });
      if (outcome.kind === 'reuse') await audit('refresh.reuse', 'failure', outcome.user, { sessionId: row.session_id });
      return tokenError(ctx, 400, 'invalid_grant', TokenMessages.sessionEnded);
    }
    const tokens = outcome.tokens;
    void reply.header('cache-control', 'no-store').send(tokens);
    return SENT;
  },
});
