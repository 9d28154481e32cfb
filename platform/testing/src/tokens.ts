import { randomUUID } from 'node:crypto';
import type { StartedServer } from '@portal/app-server/server';
import { formTokenFor, signAccessToken } from '@portal/server/kernel';

/** Mints a live session for a user without the cost of a password check (for wide matrices). */
export async function mintSession(server: StartedServer, user: { userId: string; name: string; roles: string[]; memberId: number | null }) {
  const sid = randomUUID();
  await server.database.sql.query(`INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`, [sid, user.userId]);
  const now = Math.floor(Date.now() / 1000);
  const access_token = signAccessToken(
    { sub: user.userId, sid, name: user.name, roles: user.roles, mid: user.memberId, iat: now, exp: now + 600 },
    server.config.tokenSecret,
  );
  return { access_token, form_token: formTokenFor(sid, server.config.tokenSecret), refresh_token: '', expires_in: 600 };
}
