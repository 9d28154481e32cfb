import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { identityService, reissueSessionTokens, verifyAccessToken } from '@portal/server/kernel';
import { makeUser, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The kernel pieces the profile plugin added: a fresh token pair for a live session, and the roles of a member's logins. */
let server: StartedServer;
let member: { userId: string; memberId: number | null };
beforeAll(async () => {
  server = await startTestServer();
  member = await makeUser(server, { userName: 'reissue-member', roles: [Roles.CareGuard], member: true, brand: 'card' });
});
afterAll(() => server?.close());

const sessionOf = (accessToken: string) => {
  const v = verifyAccessToken(accessToken, server.config.tokenSecret);
  if (!v.ok) throw new Error(v.reason);
  return v.claims;
};
const refresh = (token: string) =>
  server.app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
    remoteAddress: '10.2.0.1',
    payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
  });

describe('reissueSessionTokens', () => {
  it('issues a new pair for the same session and brand; the old refresh token is spent', async () => {
    const s = await signIn(server, 'reissue-member', undefined, '10.2.0.2', 'card');
    const claims = sessionOf(s.access_token);
    const fresh = await reissueSessionTokens(server.database.sql, server.config, member.userId, claims.sid);
    if (!fresh) throw new Error('no tokens for a live session');
    expect(fresh.refresh_token).not.toBe(s.refresh_token);
    expect(fresh.form_token).toBe(s.form_token);
    expect(sessionOf(fresh.access_token)).toMatchObject({ sid: claims.sid, sub: member.userId, roles: [Roles.CareGuard] });
    expect((await refresh(fresh.refresh_token)).statusCode).toBe(200);
  });

  it('answers null for an ended session or another user', async () => {
    const s = await signIn(server, 'reissue-member', undefined, '10.2.0.3', 'card');
    const { sid } = sessionOf(s.access_token);
    expect(await reissueSessionTokens(server.database.sql, server.config, '00000000-0000-4000-8000-000000000000', sid)).toBeNull();
    await server.database.sql.query("UPDATE sessions SET revoked_at = now(), revoke_reason = 'test' WHERE id = $1", [sid]);
    expect(await reissueSessionTokens(server.database.sql, server.config, member.userId, sid)).toBeNull();
  });
});

describe('identity.rolesOfMember', () => {
  it("lists the roles of a member's logins, and none for an unknown member", async () => {
    const identity = identityService(server.database.sql);
    expect(await identity.rolesOfMember(member.memberId ?? 0)).toEqual([Roles.CareGuard]);
    expect(await identity.rolesOfMember(2_000_000)).toEqual([]);
  });
});
