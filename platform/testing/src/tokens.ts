import { randomUUID } from 'node:crypto';
import type { StartedServer } from '@portal/app-server/server';
import { formTokenFor, signAccessToken } from '@portal/server/kernel';

/** Mints a live session for a user on a brand's site without the cost of a password check (for wide matrices). */
export async function mintSession(server: StartedServer, user: { userId: string; name: string; roles: string[]; memberId: number | null }, brand = 'staff') {
  const sid = randomUUID();
  await server.database.sql.query(`INSERT INTO sessions (id, user_id, expires_at, brand) VALUES ($1, $2, now() + interval '1 hour', $3)`, [
    sid,
    user.userId,
    brand,
  ]);
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: user.userId, sid, name: user.name, roles: user.roles, mid: user.memberId, brd: brand, iat: now, exp: now + 600 };
  const secret = server.config.tokenSecret;
  return {
    access_token: signAccessToken(claims, secret),
    form_token: formTokenFor(sid, secret),
    refresh_token: '',
    expires_in: 600,
    brand,
    // As for signIn: the same session's token for another brand's site (see Session.tokenFor).
    tokenFor: (other: string) => signAccessToken({ ...claims, brd: other }, secret),
  };
}
