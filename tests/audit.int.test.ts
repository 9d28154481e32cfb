import type { StartedServer } from '@portal/app-server/server';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Security issue item 10: reads of member data and refused attempts are audited, off the request's path. */
let server: StartedServer;
let member: Session;
let memberId: number | null;
let support: Session;

beforeAll(async () => {
  server = await startTestServer();
  ({ memberId } = await makeUser(server, { userName: 'audit-member', roles: ['CareGuardFinance'], brand: 'finance', member: true }));
  await makeUser(server, { userName: 'audit-support', roles: ['CareSupport'] });
  member = await signIn(server, 'audit-member');
  support = await signIn(server, 'audit-support');
});
afterAll(() => server?.close());

const rows = async (action: string) => {
  await server.flushAudit();
  return server.database.sql.query<{ actor_name: string | null; member_id: number | null; outcome: string; entity_id: string | null; detail: unknown }>(
    'SELECT actor_name, member_id, outcome, entity_id, detail FROM audit_log WHERE action = $1 ORDER BY id',
    [action],
  );
};

describe('audit of reads and refusals', () => {
  it("records a member's search of their own bills, naming the member", async () => {
    const res = await server.app.inject({ method: 'POST', url: '/api/claims/search', headers: authHeaders(member, 'finance'), payload: {} });
    expect(res.statusCode).toBe(200);
    const found = await rows('claims.search');
    expect(found.at(-1)).toMatchObject({ actor_name: 'audit-member', member_id: memberId, outcome: 'success' });
  });

  it('records a refused call with the caller, the route and the reason', async () => {
    const res = await server.app.inject({ method: 'POST', url: '/api/claims/search', headers: authHeaders(support, 'finance'), payload: {} });
    expect(res.statusCode).toBe(403);
    const found = await rows('access.refused');
    expect(found.some((r) => r.actor_name === 'audit-support' && r.entity_id === 'POST /api/claims/search' && r.outcome === 'refused')).toBe(true);
  });

  it('records a refused impersonation attempt', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/account/user/termination',
      headers: authHeaders(member, 'finance', { 'x-member-id': String(memberId) }),
    });
    expect(res.statusCode).toBe(403);
    const found = await rows('impersonation.request');
    expect(found.some((r) => r.actor_name === 'audit-member' && r.outcome === 'refused')).toBe(true);
  });

  it('records an impersonated change before it answers, and an impersonated read with the batched reads', async () => {
    // Read without flushing the buffer: what is on the request's path.
    const written = async () =>
      (
        await server.database.sql.query<{ entity_id: string }>(
          "SELECT entity_id FROM audit_log WHERE action = 'impersonation.request' AND actor_name = 'audit-support' AND outcome = 'success' ORDER BY id",
        )
      ).map((r) => r.entity_id);
    await server.flushAudit();
    const before = (await written()).length;
    const onBehalf = authHeaders(support, 'staff', { 'x-member-id': String(memberId) });
    const change = await server.app.inject({
      method: 'POST',
      url: '/api/notes/create',
      headers: onBehalf,
      payload: { NoteText: 'Called the member about a bill.', NoteTypeID: 1, Attachments: [] },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect((await written()).slice(before)).toEqual(['POST /api/notes/create']);
    const read = await server.app.inject({ method: 'GET', url: '/api/account/user/termination', headers: onBehalf });
    expect(read.statusCode, read.body).toBe(200);
    await server.flushAudit();
    expect((await written()).slice(before)).toEqual(['POST /api/notes/create', 'GET /api/account/user/termination']);
    // The read itself is recorded under the member it was about, with the staff login as actor.
    expect((await rows('member.termination.read')).at(-1)).toMatchObject({ actor_name: 'audit-support', member_id: memberId, outcome: 'success' });
  });

  it('refuses impersonation ids that are not decimal integers', async () => {
    for (const bad of ['0x0d', '1e1', '13.0', '-1', 'true']) {
      const res = await server.app.inject({
        method: 'GET',
        url: '/api/account/user/termination',
        headers: authHeaders(support, 'finance', { 'x-member-id': bad }),
      });
      expect(res.statusCode, bad).toBe(403);
    }
  });

  it('refuses text with NUL or a lone surrogate with 400 on any route, before the handler', async () => {
    const nul = await server.app.inject({
      method: 'POST',
      url: '/api/claims/search',
      headers: authHeaders(member, 'finance'),
      payload: { MemberName: `a${String.fromCharCode(0)}b` },
    });
    expect(nul.statusCode).toBe(400);
    const surrogate = await server.app.inject({
      method: 'POST',
      url: '/api/account/reset/sendemail',
      headers: { host: 'finance.localhost', 'content-type': 'application/json' },
      payload: '{"UserName":"x\\ud800y@example.com"}',
    });
    expect(surrogate.statusCode).toBe(400);
  });
});
