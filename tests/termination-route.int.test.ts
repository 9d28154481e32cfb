import type { StartedServer } from '@portal/app-server/server';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The kernel's user/termination (spec 01): its terminationDay (ours) is the business's calendar day of the termination. */
let server: StartedServer;
let member: Session;
let memberId: number;
let support: Session;

beforeAll(async () => {
  server = await startTestServer();
  memberId = (await makeUser(server, { userName: 'term-member', roles: ['CareGuard'], brand: 'card', member: true })).memberId as number;
  await makeUser(server, { userName: 'term-support', roles: ['CareSupport'] });
  member = await signIn(server, 'term-member', undefined, undefined, 'card');
  support = await signIn(server, 'term-support');
});
afterAll(() => server?.close());

const termination = async (headers: Record<string, string>) => {
  const res = await server.app.inject({ method: 'GET', url: '/api/account/user/termination', headers });
  expect(res.statusCode).toBe(200);
  return res.json().Data;
};

describe('user/termination', () => {
  it('names no day for a membership that has not ended', async () => {
    expect(await termination(authHeaders(member, 'card'))).toMatchObject({ isTerminated: false, terminationPeriod: 0, terminationDay: null });
  });

  it("gives the phone of the member's brand, also on another brand's site and to staff acting for them", async () => {
    // The card brand's phone (brands/card/manifest.ts), not the finance site's or the staff site's.
    const card = { supportPhone: '(800) 555-0170' };
    expect(await termination(authHeaders(member, 'card'))).toMatchObject(card);
    expect(await termination(authHeaders(await signIn(server, 'term-member', undefined, undefined, 'finance'), 'finance'))).toMatchObject(card);
    expect(await termination(authHeaders(support, 'staff', { 'x-member-id': String(memberId) }))).toMatchObject(card);
    // No member: no membership to call about.
    expect(await termination(authHeaders(support, 'staff'))).toMatchObject({ isTerminated: false, supportPhone: null });
  });

  it('names the business’s day (America/Chicago) a membership ended on, to the member and to staff acting for them', async () => {
    // 03:00 UTC on March 1 is still February 28 in Chicago.
    await server.database.sql.query(`UPDATE members SET termination_date = '2026-03-01T03:00:00Z' WHERE member_id = $1`, [memberId]);
    expect(await termination(authHeaders(member, 'card'))).toMatchObject({ isTerminated: true, terminationPeriod: 0, terminationDay: '2026-02-28' });
    expect(await termination(authHeaders(support, 'staff', { 'x-member-id': String(memberId) }))).toMatchObject({
      isTerminated: true,
      terminationDay: '2026-02-28',
    });
  });
});
