import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { authHeaders, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A new bill for a terminated member: a service after the termination day is refused (409), whoever asks (the member,
 * a SuperUser acting for them, a SuperUser naming the member); a service up to and on that day may still be billed.
 */
let server: StartedServer;
type Who = { memberId: number | null; headers: Record<string, string> };
let fin: Who;
let su: Who;

async function login(userName: string, roles: string[], member: boolean): Promise<Who> {
  const u = await makeUser(server, { userName, roles, member });
  const s = await mintSession(server, { ...u, name: userName, roles });
  return { memberId: u.memberId, headers: authHeaders(s) };
}
const create = async (as: Who, fields: Record<string, unknown>, extra: Record<string, string> = {}) => {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/claims/create',
    headers: { ...as.headers, ...extra },
    payload: { PayeeID: 1, BillTypeID: 1, ClaimTypeID: 2, BilledAmount: 100, ...fields },
  });
  return { status: res.statusCode, body: res.json() as { MsgText: string | null } };
};
const bills = async (memberId: number) =>
  (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE member_id = $1', [memberId]))[0]?.n ?? 0;

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: 'America/Chicago' });
  fin = await login('ended-fin', [Roles.CareGuardFinance], true);
  su = await login('ended-su', [Roles.SuperUser], false);
  // Terminated at noon (Chicago) on 2026-02-03.
  await server.database.sql.query(`UPDATE members SET termination_date = '2026-02-03T18:00:00Z' WHERE member_id = $1`, [fin.memberId]);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('a new bill for a terminated member', () => {
  const refused = 'The membership ended on Feb 3, 2026: a bill for a service after that day cannot be added.';

  it('refuses a service after the termination day (409) for the member, staff acting for them and staff naming them', async () => {
    const memberId = fin.memberId as number;
    const before = await bills(memberId);
    for (const [as, fields, extra] of [
      [fin, { ServiceDateFrom: '2026-02-04' }, {}],
      [su, { ServiceDateFrom: '2026-02-10', ServiceDateTo: '2026-02-12' }, { 'x-member-id': String(memberId) }],
      [su, { ServiceDateFrom: '2026-02-04', MemberID: memberId }, {}],
    ] as const) {
      const r = await create(as, fields, extra);
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.MsgText).toBe(refused);
    }
    const es = await create(fin, { ServiceDateFrom: '2026-02-04' }, { cookie: 'cq.lang=es' });
    expect(es.status).toBe(409);
    expect(es.body.MsgText).toBe('La membresía terminó el 3 feb 2026: no se puede agregar una factura de un servicio posterior a ese día.');
    expect(await bills(memberId)).toBe(before);
  });

  it('adds a bill for a service before or on the termination day, also one that runs past it', async () => {
    const memberId = fin.memberId as number;
    const before = await bills(memberId);
    expect((await create(fin, { ServiceDateFrom: '2026-01-20' })).status).toBe(200);
    expect((await create(fin, { ServiceDateFrom: '2026-02-03', ServiceDateTo: '2026-02-05' })).status).toBe(200);
    expect((await create(su, { ServiceDateFrom: '2026-02-01', MemberID: memberId })).status).toBe(200);
    expect(await bills(memberId)).toBe(before + 3);
  });
});
