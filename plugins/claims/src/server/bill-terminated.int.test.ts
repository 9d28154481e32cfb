import type { StartedServer } from '@portal/app-server/server';
import { ClaimStatus, Roles } from '@portal/core';
import type { PluginInit } from '@portal/server';
import { membersService } from '@portal/server/kernel';
import { lockRaces } from '@portal/testing/races';
import { authHeaders, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claim } from '../contract';
import plugin from './index';

/**
 * A bill for a terminated member: a service after the termination day is refused (409), whoever asks (the member, a
 * SuperUser acting for them, a SuperUser naming the member or the bill), on a new bill, on an edit that moves the
 * service day there and on a reimbursement request's bill; a service up to and on that day may still be billed, and a
 * bill already after it (entered before the termination was recorded) is still worked. The check runs in the write's
 * transaction, under the member's row read FOR SHARE: on PostgreSQL a termination racing a write waits for it or is
 * seen by it.
 */
let server: StartedServer;
type Who = { memberId: number | null; headers: Record<string, string> };
let fin: Who;
let su: Who;
const onPostgres = !!process.env.TEST_DATABASE_URL;
const refused = 'The membership ended on Feb 3, 2026: a bill for a service after that day cannot be added.';
const refusedEs = 'La membresía terminó el 3 feb 2026: no se puede agregar una factura de un servicio posterior a ese día.';
/** Noon in Chicago on 2026-02-03: the termination day is Feb 3 in the business's zone. */
const ENDED = '2026-02-03T18:00:00Z';

async function login(userName: string, roles: string[], member: boolean): Promise<Who> {
  const u = await makeUser(server, { userName, roles, member });
  const s = await mintSession(server, { ...u, name: userName, roles });
  return { memberId: u.memberId, headers: authHeaders(s) };
}
type Env<T> = { Data: T; MsgText: string | null };
const post = async <T = unknown>(as: Who, url: string, payload: unknown, extra: Record<string, string> = {}) => {
  const res = await server.app.inject({ method: 'POST', url, headers: { ...as.headers, ...extra }, payload: payload as object });
  return { status: res.statusCode, body: res.json() as Env<T> };
};
const create = (as: Who, fields: Record<string, unknown>, extra: Record<string, string> = {}) =>
  post<Claim>(as, '/api/claims/create', { PayeeID: 1, BillTypeID: 1, ClaimTypeID: 2, BilledAmount: 100, ...fields }, extra);
const update = (as: Who, bill: Claim, changes: Record<string, unknown>, extra: Record<string, string> = {}) =>
  post<Claim>(as, '/api/claims/update', { ...bill, ...changes }, extra);
const bills = async (memberId: number) =>
  (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE member_id = $1', [memberId]))[0]?.n ?? 0;
/** The bill as stored (every wire field, its Version too), read by a SuperUser across members. */
const stored = async (id: number) => {
  const res = await server.app.inject({ method: 'GET', url: `/api/claims/getById/${id}`, headers: su.headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Env<Claim>).Data;
};
const updateAudits = async (id: number) =>
  (await server.database.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'claim.update' AND entity_id = $1", [String(id)]))[0]
    ?.n ?? 0;
const terminate = (memberId: number, at: string = ENDED) =>
  server.database.sql.query('UPDATE members SET termination_date = $2 WHERE member_id = $1', [memberId, at]);
let fresh = 0;
/** A member of their own (not terminated) with a finance login. */
const newMember = (name: string) => login(`ended-${name}-${++fresh}`, [Roles.CareGuardFinance], true);
/** A bill made for the member by the SuperUser (naming MemberID) while the membership still runs. */
async function billFor(memberId: number, ServiceDateFrom: string): Promise<Claim> {
  const r = await create(su, { ServiceDateFrom, MemberID: memberId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.Data;
}

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: 'America/Chicago' });
  fin = await login('ended-fin', [Roles.CareGuardFinance], true);
  su = await login('ended-su', [Roles.SuperUser], false);
  await terminate(fin.memberId as number);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('a new bill for a terminated member', () => {
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
    expect(es.body.MsgText).toBe(refusedEs);
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

describe('a new bill repeated with its IdempotencyKey after the termination', () => {
  it('answers the bill the key made before the termination, adding nothing', async () => {
    const m = await newMember('replay');
    const memberId = m.memberId as number;
    const fields = { ServiceDateFrom: '2026-02-10', IdempotencyKey: 'ended-replay-0001' };
    const first = await create(m, fields);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await terminate(memberId);
    const again = await create(m, fields);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.Data.ClaimID).toBe(first.body.Data.ClaimID);
    expect(again.body.MsgText).toBe('The bill was added.');
    expect(await bills(memberId)).toBe(1);
    // A new bill (another key) for the same service is the termination's to refuse.
    const other = await create(m, { ...fields, IdempotencyKey: 'ended-replay-0002' });
    expect(other.status).toBe(409);
    expect(other.body.MsgText).toBe(refused);
  });
});

describe("an edit of a terminated member's bill", () => {
  let m: Who;
  let memberId: number;
  /** Serviced before the termination day. */
  let before: Claim;
  /** Serviced after it, entered before the termination was recorded. */
  let after: Claim;
  beforeAll(async () => {
    m = await newMember('edit');
    memberId = m.memberId as number;
    before = await billFor(memberId, '2026-01-20');
    after = await billFor(memberId, '2026-02-10');
    await terminate(memberId);
  });

  it('refuses moving the service day after the termination day (409) for the member, staff acting and staff naming the bill; nothing changes', async () => {
    const was = await stored(before.ClaimID);
    for (const [as, extra] of [
      [m, {}],
      [su, { 'x-member-id': String(memberId) }],
      [su, {}],
    ] as const) {
      const r = await update(as, was, { ServiceDateFrom: '2026-02-04', BilledAmount: 150 }, extra);
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.MsgText).toBe(refused);
    }
    const es = await update(m, was, { ServiceDateFrom: '2026-02-04' }, { cookie: 'cq.lang=es' });
    expect(es.status).toBe(409);
    expect(es.body.MsgText).toBe(refusedEs);
    expect(await stored(before.ClaimID)).toEqual(was);
    expect(await updateAudits(before.ClaimID)).toBe(0);
  });

  it('saves an edit of other fields, and one moving the service day up to the termination day', async () => {
    const amount = await update(m, await stored(before.ClaimID), { BilledAmount: 175.5 });
    expect(amount.status, JSON.stringify(amount.body)).toBe(200);
    expect(amount.body.Data).toMatchObject({ BilledAmount: 175.5, ServiceDateFrom: '2026-01-20' });
    const onTheDay = await update(m, amount.body.Data, { ServiceDateFrom: '2026-02-03' });
    expect(onTheDay.status, JSON.stringify(onTheDay.body)).toBe(200);
    expect(onTheDay.body.Data.ServiceDateFrom).toBe('2026-02-03');
    expect(await updateAudits(before.ClaimID)).toBe(2);
  });

  it('lets a bill already after the termination day be worked (fields, payment, status) as long as its service day stays', async () => {
    const member = await update(m, await stored(after.ClaimID), { BilledAmount: 120 });
    expect(member.status, JSON.stringify(member.body)).toBe(200);
    const paid = await update(su, member.body.Data, { PaidDate: '2026-03-01', PaidAmount: 120, CheckNumber: 'CHK-END-1' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.Data).toMatchObject({ ServiceDateFrom: '2026-02-10', PaidDate: '2026-03-01', PaidAmount: 120, CheckNumber: 'CHK-END-1' });
    const status = await post<{ Items: Claim[] }>(su, '/api/claims/changeStatusAM', {
      Ids: [{ ID: after.ClaimID, Version: paid.body.Data.Version }],
      NewClaimStatusID: ClaimStatus.InReview,
    });
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    // Moving it to another day after the termination day is refused; back to a day of the membership, saved.
    const now = await stored(after.ClaimID);
    const later = await update(su, now, { ServiceDateFrom: '2026-02-11' });
    expect(later.status).toBe(409);
    expect(later.body.MsgText).toBe(refused);
    expect(await stored(after.ClaimID)).toEqual(now);
    const back = await update(su, now, { ServiceDateFrom: '2026-02-02' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.Data).toMatchObject({ ServiceDateFrom: '2026-02-02', Version: now.Version + 1 });
  });
});

describe("a reimbursement request's bill through the claims service", () => {
  it('is refused after the termination day (409, in the language given) and made up to and on it', async () => {
    const services = { members: membersService(server.database.sql, server.jobs) };
    const svc = plugin.provides?.create({ database: server.database, config: server.config, services } as PluginInit);
    if (!svc) throw new Error('the claims plugin provides its service');
    const memberId = fin.memberId as number;
    const record = (serviceDate: string, language?: 'en' | 'es') =>
      server.database.sql.transaction((tx) =>
        svc.recordReimbursement({ memberId, billedCents: 4250, serviceDate, createdByUserId: null, createdByName: 'member', language }, tx),
      );
    const count = await bills(memberId);
    await expect(record('2026-02-04')).rejects.toMatchObject({ status: 409, message: refused });
    // The day in the language given (the route translates the template on its way out).
    await expect(record('2026-02-04', 'es')).rejects.toMatchObject({ status: 409, text: { params: { date: '3 feb 2026' } } });
    expect(await bills(memberId)).toBe(count);
    await record('2026-02-03');
    expect(await bills(memberId)).toBe(count + 1);
  });
});

/**
 * The race between a write and a termination, made deterministic on PostgreSQL with locks the test holds: the write's
 * check reads the member's row FOR SHARE in the write's transaction, so a termination that updated the row first makes
 * the check wait for it and see it, and a write that checked first makes the termination wait until the bill is in.
 * (PGlite is one connection: a transaction runs alone and there is no race to test.)
 */
describe.skipIf(!onPostgres)('a termination racing a bill (PostgreSQL)', () => {
  const sql = () => server.database.sql;
  const { waiting, until, holding, whileHeld } = lockRaces(sql);
  const SHARE_READ = '%FROM members WHERE member_id = $1 FOR SHARE';

  it('a termination committed while the create runs is seen: the create waits for it and is refused, adding nothing', async () => {
    const memberId = (await newMember('race-create')).memberId as number;
    const { waited, answer: r } = await whileHeld(
      'UPDATE members SET termination_date = $2 WHERE member_id = $1',
      [memberId, ENDED],
      () => create(su, { ServiceDateFrom: '2026-02-10', MemberID: memberId }),
      SHARE_READ,
    );
    expect(waited).toBe(true);
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.MsgText).toBe(refused);
    expect(await bills(memberId)).toBe(0);
  });

  it('a termination while a create holds the member’s row waits until the bill is in', async () => {
    const memberId = (await newMember('race-hold')).memberId as number;
    // The bill's insert waits on this lock of the table, after its check took the member's row FOR SHARE.
    const table = holding('LOCK TABLE claims IN SHARE MODE', []);
    await table.ready;
    let added = false;
    const adding = create(su, { ServiceDateFrom: '2026-02-10', MemberID: memberId }).finally(() => {
      added = true;
    });
    let terminated = false;
    let terminating: Promise<unknown> = Promise.resolve();
    let held: boolean;
    try {
      expect(
        await until(
          () => waiting('%INSERT INTO claims%'),
          () => added,
        ),
      ).toBe(true);
      terminating = terminate(memberId, new Date().toISOString()).finally(() => {
        terminated = true;
      });
      held = await until(
        () => waiting('UPDATE members%'),
        () => terminated,
      );
    } finally {
      table.release();
      await table.done;
    }
    const r = await adding;
    await terminating;
    expect(held).toBe(true);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await bills(memberId)).toBe(1);
    expect((await server.database.sql.query('SELECT 1 FROM members WHERE member_id = $1 AND termination_date IS NOT NULL', [memberId])).length).toBe(1);
  });

  it('a termination committed while an edit moves the service day is seen: the edit is refused and changes nothing', async () => {
    const memberId = (await newMember('race-edit')).memberId as number;
    const bill = await billFor(memberId, '2026-01-20');
    const was = await stored(bill.ClaimID);
    const { waited, answer: r } = await whileHeld(
      'UPDATE members SET termination_date = $2 WHERE member_id = $1',
      [memberId, ENDED],
      () => update(su, was, { ServiceDateFrom: '2026-02-10' }),
      SHARE_READ,
    );
    expect(waited).toBe(true);
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.MsgText).toBe(refused);
    expect(await stored(bill.ClaimID)).toEqual(was);
    expect(await updateAudits(bill.ClaimID)).toBe(0);
  });
});
