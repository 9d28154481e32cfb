import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { authHeaders, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claim, ClaimSearchResult, Vendor } from '../contract';
import { buildSearch } from './query';

/** What users type into the payee searches and the identifier filters, and what they find (review "search", findings 1 and 8). */
let server: StartedServer;
type Who = { userId: string; memberId: number | null; headers: Record<string, string> };
const who: Record<'a' | 'b' | 'su' | 'admin', Who> = {} as never;

async function login(userName: string, roles: string[], member: boolean): Promise<Who> {
  const u = await makeUser(server, { userName, roles, member });
  const s = await mintSession(server, { ...u, name: userName, roles });
  return { ...u, headers: authHeaders(s) };
}
async function call<T>(as: Who, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await server.app.inject({ method, url, headers: as.headers, payload: payload as object | undefined });
  return { status: res.statusCode, body: res.json() as { Data: T; MsgText: string | null } };
}
const vendors = async (text: string, as: Who = who.admin) => {
  const r = await call<Vendor[]>(as, 'GET', `/api/claims/searchVendors/${encodeURIComponent(text)}`);
  expect(r.status, `${text}: ${r.body.MsgText}`).toBe(200);
  return r.body.Data.map((v) => v.PayeeName);
};
const toolbar = async (as: Who, q: string) => {
  const r = await call<Claim[]>(as, 'GET', `/api/search/searchClaims?q=${encodeURIComponent(q)}&s=5`);
  expect(r.status, `${q}: ${r.body.MsgText}`).toBe(200);
  return r.body.Data.map((c) => c.ClaimID);
};
const search = async (as: Who, filter: Record<string, unknown>) => {
  const r = await call<ClaimSearchResult>(as, 'POST', '/api/claims/search', { PageSize: 100, ...filter });
  expect(r.status, `${JSON.stringify(filter)}: ${r.body.MsgText}`).toBe(200);
  return r.body.Data;
};
const payeeId = async (name: string) =>
  (await server.database.sql.query<{ payee_id: number }>('SELECT payee_id FROM claim_payees WHERE name = $1', [name]))[0]?.payee_id;

async function addBill(as: Who, fields: Record<string, unknown>): Promise<Claim> {
  const r = await call<Claim>(as, 'POST', '/api/claims/create', { BillTypeID: 1, ClaimTypeID: 2, BilledAmount: 100, ServiceDateFrom: '2026-01-05', ...fields });
  expect(r.status, r.body.MsgText ?? '').toBe(200);
  return r.body.Data;
}

let walgreensBill: Claim;
let ownPayeeBill: Claim;
let checkBill: Claim;

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: 'America/Chicago' });
  who.a = await login('stext-a', [Roles.CareGuardFinance], true);
  who.b = await login('stext-b', [Roles.CareGuardFinance], true);
  who.su = await login('stext-su', [Roles.SuperUser], false);
  who.admin = await login('stext-admin', [Roles.CareGuardAdmin], false);
  // A member number as the kernel makes them: 'R' and nine digits.
  await server.database.sql.query('UPDATE members SET member_number = $2 WHERE member_id = $1', [who.a.memberId, 'R000111222']);
  walgreensBill = await addBill(who.admin, { MemberID: who.a.memberId, PayeeID: await payeeId('Walgreens Pharmacy #4127') });
  // A member's own payee name stays on the bill (no shared payee).
  ownPayeeBill = await addBill(who.a, { PayeeName: "Dr. O'Brien-Smith Family Clinic #12" });
  expect(ownPayeeBill.PayeeID).toBeNull();
  checkBill = await addBill(who.su, {
    MemberID: who.a.memberId,
    PayeeID: await payeeId('CVS Pharmacy #2281'),
    PaidAmount: 40,
    PaidDate: '2026-02-01',
    CheckNumber: 'CHK-002',
  });
  expect(checkBill.CheckNumber).toBe('CHK-002');
  // A shared payee staff added, whose name begins with a word others hold inside.
  await addBill(who.admin, { MemberID: who.b.memberId, PayeeName: 'Pharmacy Plus of Tulsa' });
});
afterAll(() => server?.close());

describe('payee (vendor) search', () => {
  it('finds a payee by every word typed, in any order, punctuation ignored on both sides', async () => {
    for (const text of ['walgreens 4127', 'Walgreens #4127', '4127 walgreens', 'WALGREENS PHARMACY #4127', 'walgreens-4127'])
      expect(await vendors(text), text).toEqual(['Walgreens Pharmacy #4127']);
    for (const text of ['St Mary', 'st. mary', 'St.Mary', 'stmary regional']) expect(await vendors(text), text).toEqual(['St. Mary Regional Medical Center']);
    for (const text of ['Rite-Aid', 'Rite Aid', 'riteaid', 'rite aid 0911']) expect(await vendors(text), text).toEqual(['Rite Aid Pharmacy #0911']);
    expect(await vendors('Dr Alan')).toEqual(['Dr. Alan Whitfield, MD']);
    expect(await vendors('whitfield md')).toEqual(['Dr. Alan Whitfield, MD']);
    expect(await vendors('mercy hospital')).toEqual(['Mercy General Hospital']);
    expect(await vendors('cvs 2281')).toEqual(['CVS Pharmacy #2281']);
    expect(await vendors('seating & mobility')).toEqual(['National Seating & Mobility']);
  });

  it('needs every word: a word no name holds finds none', async () => {
    expect(await vendors('walgreens 2281')).toEqual([]);
    expect(await vendors('mercy clinic')).toEqual([]);
  });

  it('lists the names that begin with the text first, then by name', async () => {
    const found = await vendors('pharmacy');
    expect(found[0]).toBe('Pharmacy Plus of Tulsa');
    const rest = found.slice(1);
    expect(rest.length).toBeGreaterThan(5);
    expect(rest).toEqual([...rest].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1)));
    expect((await vendors('rite aid ph'))[0]).toBe('Rite Aid Pharmacy #0911');
  });

  it('takes LIKE wildcards as plain text, and a text of punctuation finds none', async () => {
    for (const text of ['%%%', '___', '\\\\\\', '###', '- - -']) expect(await vendors(text), text).toEqual([]);
  });

  it('never offers a member’s own payee name', async () => {
    expect(await vendors('obrien smith')).toEqual([]);
  });
});

describe('the toolbar’s search of bills', () => {
  it('finds a bill by its shared payee’s words, punctuation ignored', async () => {
    for (const q of ['walgreens 4127', 'Walgreens #4127']) expect(await toolbar(who.a, q), q).toContain(walgreensBill.ClaimID);
    expect(await toolbar(who.a, 'walgreens 2281')).not.toContain(walgreensBill.ClaimID);
  });

  it("finds a member's own payee name the same way, for that member only", async () => {
    for (const q of ["o'brien-smith", 'obrien smith', 'OBrien Smith clinic', 'family clinic #12', 'dr obrien'])
      expect(await toolbar(who.a, q), q).toEqual([ownPayeeBill.ClaimID]);
    expect(await toolbar(who.a, 'obrien jones')).toEqual([]);
    expect(await toolbar(who.b, 'obrien smith')).toEqual([]);
  });

  it('finds a check number in any case, with spaces and dashes ignored', async () => {
    for (const q of ['CHK-002', 'chk-002', 'CHK002', 'chk 002']) expect(await toolbar(who.su, q), q).toEqual([checkBill.ClaimID]);
    expect(await toolbar(who.su, 'chk-0021')).toEqual([]);
  });
});

describe('identifiers in the bills filter', () => {
  it('finds a member number in any case, with spaces and dashes ignored', async () => {
    const own = await search(who.a, {});
    expect(own.ItemCount).toBeGreaterThan(1);
    for (const MemberNumber of ['R000111222', 'r000111222', 'R000-111-222', 'r000 111 222']) {
      const found = await search(who.su, { MemberNumber });
      expect(found.ItemCount, MemberNumber).toBe(own.ItemCount);
      expect(found.Items.every((c) => c.MemberNumber === 'R000111222')).toBe(true);
    }
    expect((await search(who.su, { MemberNumber: 'R000111223' })).ItemCount).toBe(0);
  });

  it('finds a check number in any case, with spaces and dashes ignored', async () => {
    for (const CheckNumber of ['CHK-002', 'chk-002', 'CHK002', 'chk 002', ' Chk - 002 '])
      expect(
        (await search(who.su, { CheckNumber })).Items.map((c) => c.ClaimID),
        CheckNumber,
      ).toEqual([checkBill.ClaimID]);
    expect((await search(who.su, { CheckNumber: 'CHK-0020' })).ItemCount).toBe(0);
  });

  it('compares check numbers on an index (claims_check_norm_idx), not by reading every bill', async () => {
    const built = buildSearch(
      { CheckNumber: 'chk 002', SortColumn: 'ClaimID', SortOrder: 'desc', PageIndex: 0, PageSize: 20 } as Parameters<typeof buildSearch>[0],
      { memberId: null },
    );
    const plan = await server.database.sql.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off');
      return tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${built.count.text}`, built.count.params);
    });
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('claims_check_norm_idx');
  });
});
