import type { StartedServer } from '@portal/app-server/server';
import { ClaimStatus, Roles } from '@portal/core';
import { CREATE_KEY_REUSED, type PluginInit } from '@portal/server';
import { membersService } from '@portal/server/kernel';
import { authHeaders, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Claim, ClaimDetails, ClaimSearchResult } from '../contract';
import plugin from './index';
import { MEMBER_INDEX_COVERS } from './migrations';
import { makeClaimsService } from './series';

const S = ClaimStatus;
let server: StartedServer;
type Who = { userId: string; memberId: number | null; headers: Record<string, string> };
const who: Record<'a' | 'b' | 'card' | 'su' | 'support' | 'admin' | 'bulk' | 'noaudit', Who> = {} as never;

async function login(userName: string, roles: string[], member: boolean): Promise<Who> {
  const u = await makeUser(server, { userName, roles, member });
  const s = await mintSession(server, { ...u, name: userName, roles });
  return { ...u, headers: authHeaders(s) };
}

type Env<T> = { Data: T; MsgText: string | null; HasError: boolean };
async function call<T = unknown>(as: Who | null, method: 'GET' | 'POST', url: string, payload?: unknown, extra: Record<string, string> = {}) {
  const headers = { ...(as ? as.headers : { host: 'staff.localhost' }), ...extra };
  const res = await server.app.inject({ method, url, headers, payload: payload as object | undefined });
  return { status: res.statusCode, body: res.json() as Env<T> };
}
const search = (as: Who, filter: Record<string, unknown> = {}, extra: Record<string, string> = {}) =>
  call<ClaimSearchResult>(as, 'POST', '/api/claims/search', filter, extra);
const asMember = (memberId: number | null) => ({ 'x-member-id': String(memberId) });

async function row(id: number) {
  const r = await server.database.sql.query<{
    claim_status_id: number;
    version: number;
    billed_cents: string | number;
    member_id: number;
    paid_date: string | null;
  }>('SELECT claim_status_id, version, billed_cents, member_id, paid_date::text FROM claims WHERE claim_id = $1', [id]);
  return r[0];
}

/** Adds a bill through the API as the admin. */
async function addBill(memberId: number | null, fields: Record<string, unknown> = {}): Promise<Claim> {
  const r = await call<Claim>(who.admin, 'POST', '/api/claims/create', {
    MemberID: memberId,
    PayeeID: 1,
    BillTypeID: 1,
    ClaimTypeID: 2,
    BilledAmount: 100,
    ServiceDateFrom: '2026-01-05',
    ...fields,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.Data;
}

async function setStatus(id: number, status: number) {
  await server.database.sql.query('UPDATE claims SET claim_status_id = $2 WHERE claim_id = $1', [id, status]);
}

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: 'America/Chicago' });
  who.a = await login('claims-a', [Roles.CareGuardFinance], true);
  who.b = await login('claims-b', [Roles.CareGuardFinance], true);
  who.card = await login('claims-card', [Roles.CareGuard], true);
  who.su = await login('claims-su', [Roles.SuperUser], false);
  who.support = await login('claims-support', [Roles.CareSupport], false);
  who.admin = await login('claims-admin', [Roles.CareGuardAdmin], false);
  who.bulk = await login('claims-bulk', [Roles.CareGuardFinance], true);
  // A SuperUser whose audit rows a test makes the database refuse.
  who.noaudit = await login('claims-noaudit', [Roles.SuperUser], false);
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const members = [who.a, who.b, who.card].map((w, i) => ({ memberId: w.memberId as number, brand: 'finance', roles: [], userName: `m${i}` }));
  await plugin.seed?.({ sql: server.database.sql, scale: 1, members, random, log: () => {} });
});
afterAll(() => server?.close());

describe('seed', () => {
  it('gives each demo member 30-60 realistic bills, once', async () => {
    const counts = await server.database.sql.query<{ member_id: number; n: number; rx: number; statuses: number }>(
      `SELECT member_id, count(*)::int AS n, count(*) FILTER (WHERE bill_type_id = 21)::int AS rx, count(DISTINCT claim_status_id)::int AS statuses
       FROM claims GROUP BY member_id ORDER BY member_id`,
    );
    expect(counts).toHaveLength(3);
    for (const c of counts) {
      expect(c.n).toBeGreaterThanOrEqual(30);
      expect(c.n).toBeLessThanOrEqual(60);
      expect(c.rx).toBeGreaterThan(0);
      expect(c.statuses).toBeGreaterThan(2);
    }
    const before = counts.reduce((s, c) => s + c.n, 0);
    const members = [who.a, who.b].map((w) => ({ memberId: w.memberId as number, brand: 'finance', roles: [], userName: 'x' }));
    await plugin.seed?.({ sql: server.database.sql, scale: 1, members, random: Math.random, log: () => {} });
    const after = (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims'))[0]?.n;
    expect(after).toBe(before);
  });

  it('generates scale x 1000 bills in SQL over all members, and skips when already there', async () => {
    const members = [{ memberId: who.bulk.memberId as number, brand: 'finance', roles: [], userName: null }];
    const logs: string[] = [];
    await plugin.seed?.({ sql: server.database.sql, scale: 2, members, random: Math.random, log: (m) => logs.push(m) });
    const gen = await server.database.sql.query<{ n: number; members: number; bad: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT member_id)::int AS members,
         count(*) FILTER (WHERE received_date > current_date OR received_date < current_date - 731 OR service_date_from > received_date)::int AS bad
       FROM claims WHERE claim_number LIKE 'GC%'`,
    );
    expect(gen[0]).toEqual({ n: 2000, members: 1, bad: 0 });
    await plugin.seed?.({ sql: server.database.sql, scale: 2, members, random: Math.random, log: (m) => logs.push(m) });
    expect((await server.database.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM claims WHERE claim_number LIKE 'GC%'"))[0]?.n).toBe(2000);
    expect(logs.at(-1)).toContain('already there');
  });
});

describe('POST /api/claims/search', () => {
  it('lists only the signed-in member’s own bills, with the wire fields', async () => {
    const r = await search(who.a, { PageSize: 100 });
    expect(r.status).toBe(200);
    const own = (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE member_id = $1', [who.a.memberId]))[0]?.n;
    expect(r.body.Data.ItemCount).toBe(own);
    expect(r.body.Data.Items.every((c) => c.MemberID === who.a.memberId)).toBe(true);
    const c = r.body.Data.Items[0] as Claim;
    expect(Object.keys(c).sort()).toEqual(
      [
        'BillReviewReceivedDate',
        'BillTypeID',
        'BilledAmount',
        'CheckNumber',
        'ClaimID',
        'ClaimNumber',
        'ClaimStatusID',
        'ClaimTypeID',
        'DisplayStatusID',
        'MemberID',
        'MemberName',
        'MemberNumber',
        'PaidAmount',
        'PaidDate',
        'PayeeID',
        'PayeeName',
        'ReceivedDate',
        'ServiceDateFrom',
        'ServiceDateTo',
        'SubmittedUNCAmount',
        'Version',
      ].sort(),
    );
    expect(c.ReceivedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const x of r.body.Data.Items) expect(Math.round(x.BilledAmount * 100)).toBeCloseTo(x.BilledAmount * 100, 6);
    // Default sort: ClaimID descending.
    const ids = r.body.Data.Items.map((x) => x.ClaimID);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
  });

  it('does not widen a member’s list by naming another member', async () => {
    const r = await search(who.a, { MemberID: who.b.memberId });
    expect(r.status).toBe(200);
    expect(r.body.Data).toEqual({ Items: [], ItemCount: 0 });
    const byNumber = await search(who.a, { MemberNumber: 'claims-b' });
    expect(byNumber.body.Data.ItemCount).toBe(0);
  });

  it('pages consistently and sorts by every column', async () => {
    const all = (await search(who.a, { PageSize: 100, SortColumn: 'BilledAmount', SortOrder: 'asc' })).body.Data.Items;
    const page = (await search(who.a, { PageSize: 5, PageIndex: 2, SortColumn: 'BilledAmount', SortOrder: 'asc' })).body.Data;
    expect(page.Items.map((c) => c.ClaimID)).toEqual(all.slice(10, 15).map((c) => c.ClaimID));
    expect(page.ItemCount).toBe(all.length);
    const past = (await search(who.a, { PageSize: 100, PageIndex: 50 })).body.Data;
    expect(past).toEqual({ Items: [], ItemCount: all.length });
    for (let i = 1; i < all.length; i++) expect((all[i] as Claim).BilledAmount).toBeGreaterThanOrEqual((all[i - 1] as Claim).BilledAmount);
    for (const col of [
      'ClaimNumber',
      'PayeeName',
      'ClaimStatusID',
      'BillTypeID',
      'ClaimTypeID',
      'SubmittedUNCAmount',
      'ServiceDateFrom',
      'ServiceDateTo',
      'ReceivedDate',
      'PaidDate',
      'PaidAmount',
      'CheckNumber',
      'MemberNumber',
      'MemberName',
    ]) {
      for (const order of ['asc', 'desc']) {
        const r = await search(who.a, { SortColumn: col, SortOrder: order, PageSize: 10 });
        expect(r.status, `${col} ${order}`).toBe(200);
        // Text sorts ignore case.
        // The status column sorts on the status shown (DisplayStatusID: 29 and 30 read as 8, Paid).
        const vals = r.body.Data.Items.map((c) => (c as Record<string, unknown>)[col === 'ClaimStatusID' ? 'DisplayStatusID' : col])
          .filter((v) => v !== null)
          .map((v) => (col === 'PayeeName' ? String(v).toLowerCase() : v)) as (string | number)[];
        const sorted = [...vals].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
        if (order === 'desc') sorted.reverse();
        expect(vals, `${col} ${order}`).toEqual(sorted);
      }
    }
    const pd = (await search(who.a, { SortColumn: 'PaidDate', SortOrder: 'desc', PageSize: 100 })).body.Data.Items;
    const firstNull = pd.findIndex((c) => c.PaidDate === null);
    if (firstNull >= 0) expect(pd.slice(firstNull).every((c) => c.PaidDate === null)).toBe(true);
  });

  it('sorts by the status shown: bills shown as Paid (8, 29, 30) stay together between 5 and 9, in claim id order', async () => {
    const m = await login('claims-status-sort', [Roles.CareGuardFinance], true);
    const made: Record<number, number> = {};
    for (const status of [30, 9, 8, 5, 29]) {
      const bill = await addBill(m.memberId);
      await server.database.sql.query('UPDATE claims SET claim_status_id = $1 WHERE claim_id = $2', [status, bill.ClaimID]);
      made[status] = bill.ClaimID;
    }
    const order = async (SortOrder: 'asc' | 'desc') =>
      (await search(m, { SortColumn: 'ClaimStatusID', SortOrder, PageSize: 10 })).body.Data.Items.map((c) => [c.ClaimStatusID, c.DisplayStatusID]);
    expect(await order('asc')).toEqual([
      [5, 5],
      [30, 8],
      [8, 8],
      [29, 8],
      [9, 9],
    ]);
    expect(await order('desc')).toEqual([
      [9, 9],
      [29, 8],
      [8, 8],
      [30, 8],
      [5, 5],
    ]);
    expect(made[30]).toBeLessThan(made[8] as number);
  });

  it('sorts payee names without regard to case, as a reader expects (the database collation alone put lower case last)', async () => {
    const m = await login('claims-case', [Roles.CareGuardFinance], true);
    for (const PayeeName of ['Zeta Labs', 'acme pharmacy', 'CVS', 'beta clinic']) await addBill(m.memberId, { PayeeID: null, PayeeName });
    const names = async (order: 'asc' | 'desc') =>
      (await search(m, { SortColumn: 'PayeeName', SortOrder: order, PageSize: 10 })).body.Data.Items.map((c) => c.PayeeName);
    expect(await names('asc')).toEqual(['acme pharmacy', 'beta clinic', 'CVS', 'Zeta Labs']);
    expect(await names('desc')).toEqual(['Zeta Labs', 'CVS', 'beta clinic', 'acme pharmacy']);
  });

  it('filters by status (Paid includes 29 and 30), paid flag, dates, bill type and claim number', async () => {
    const items = (await search(who.a, { PageSize: 100 })).body.Data.Items;
    const paid = (await search(who.a, { PageSize: 100, ClaimStatusID: 8 })).body.Data.Items;
    expect(paid.length).toBe(items.filter((c) => [8, 29, 30].includes(c.ClaimStatusID)).length);
    expect(paid.every((c) => c.DisplayStatusID === 8)).toBe(true);
    const unpaid = (await search(who.a, { PageSize: 100, IsPaid: false })).body.Data;
    expect(unpaid.ItemCount).toBe(items.length - paid.length);
    const sorted = [...items].sort((x, y) => (x.ReceivedDate < y.ReceivedDate ? -1 : 1));
    const from = (sorted[5] as Claim).ReceivedDate;
    const to = (sorted[15] as Claim).ReceivedDate;
    const ranged = (await search(who.a, { PageSize: 100, ReceivedDateFrom: from, ReceivedDateTo: to })).body.Data.Items;
    expect(ranged.length).toBe(items.filter((c) => c.ReceivedDate >= from && c.ReceivedDate <= to).length);
    const rx = (await search(who.a, { PageSize: 100, BillTypeID: 21 })).body.Data.Items;
    expect(rx.length).toBeGreaterThan(0);
    expect(rx.every((c) => c.BillTypeID === 21)).toBe(true);
    const one = items[3] as Claim;
    const byNumber = (await search(who.a, { ClaimNumber: one.ClaimNumber.toLowerCase() })).body.Data.Items;
    expect(byNumber.map((c) => c.ClaimID)).toContain(one.ClaimID);
    const byId = (await search(who.a, { ClaimID: one.ClaimID })).body.Data;
    expect(byId.ItemCount).toBe(1);
    if (one.CheckNumber) expect((await search(who.a, { CheckNumber: one.CheckNumber })).body.Data.Items.map((c) => c.ClaimID)).toContain(one.ClaimID);
  });

  it('refuses bad input with 400 and a clear message', async () => {
    const bad = [
      [{ PageSize: 7 }, 'body.PageSize: must be one of 5, 10, 20, 50, 100'],
      [{ SortColumn: 'claim_id; DROP TABLE claims' }, 'body.SortColumn: must be one of'],
      [{ SortOrder: 'up' }, "body.SortOrder: must be 'asc' or 'desc'"],
      [{ ReceivedDateFrom: '2026-13-01' }, 'body.ReceivedDateFrom: is not a valid calendar date'],
      [{ PaidDateFrom: '2026-05-01', PaidDateTo: '2026-01-01' }, 'body.PaidDateTo: must not be before PaidDateFrom'],
      [{ ClaimStatusID: 99 }, 'body.ClaimStatusID: is not a known claim status'],
      [{ MemberID: -4 }, 'body.MemberID: must be positive'],
    ] as const;
    for (const [filter, msg] of bad) {
      const r = await search(who.a, filter);
      expect(r.status, JSON.stringify(filter)).toBe(400);
      expect(r.body.HasError).toBe(true);
      expect(r.body.MsgText).toContain(msg);
    }
  });

  it('answers a search across members with the rows of the members’ own lists, paged and sorted alike', async () => {
    const own = new Map<number, Claim>();
    for (const m of [who.a, who.b]) for (const c of (await search(m, { PageSize: 100 })).body.Data.Items) own.set(c.ClaimID, c);
    expect(own.size).toBeGreaterThan(0);
    for (const [col, order] of [
      ['ClaimID', 'desc'],
      ['BilledAmount', 'asc'],
      ['PaidDate', 'desc'],
      ['ReceivedDate', 'asc'],
      ['MemberName', 'asc'],
      ['MemberNumber', 'desc'],
    ] as const) {
      const all: Claim[] = [];
      for (let i = 0; i < 50; i++) {
        const r = await search(who.su, { SortColumn: col, SortOrder: order, PageSize: 100, PageIndex: i });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const d = r.body.Data;
        all.push(...d.Items);
        if (all.length >= d.ItemCount) break;
      }
      const page = (await search(who.su, { SortColumn: col, SortOrder: order, PageSize: 10, PageIndex: 1 })).body.Data;
      expect(all.length, col).toBeGreaterThan(20);
      expect(page.ItemCount, col).toBe(all.length);
      expect(page.Items, `${col} ${order}`).toEqual(all.slice(10, 20));
      const vals = all.map((c) => (c as Record<string, unknown>)[col]).filter((v) => v !== null) as (string | number)[];
      const sorted = [...vals].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      if (order === 'desc') sorted.reverse();
      expect(vals, `${col} ${order}`).toEqual(sorted);
      const mine = all.filter((c) => own.has(c.ClaimID));
      expect(mine.length, col).toBe(own.size);
      for (const c of mine) expect(c, `${col} ${c.ClaimID}`).toEqual(own.get(c.ClaimID));
    }
  });

  it("answers a staff search by one member's id or number with that member's own list, in each sort; an unknown number finds none", async () => {
    const mine = (await search(who.b, { PageSize: 100 })).body.Data.Items;
    const number = mine[0]?.MemberNumber;
    expect(number).toBeTruthy();
    for (const [col, order] of [
      ['ClaimID', 'desc'],
      ['PaidDate', 'asc'],
      ['PayeeName', 'desc'],
      ['MemberName', 'asc'],
    ] as const) {
      const own = (await search(who.b, { SortColumn: col, SortOrder: order, PageSize: 5, PageIndex: 1 })).body.Data;
      for (const by of [{ MemberID: who.b.memberId }, { MemberNumber: number }]) {
        const staff = await search(who.su, { ...by, SortColumn: col, SortOrder: order, PageSize: 5, PageIndex: 1 });
        expect(staff.status, JSON.stringify(staff.body)).toBe(200);
        expect(staff.body.Data, `${col} ${order} ${JSON.stringify(by)}`).toEqual(own);
      }
    }
    const none = await search(who.su, { MemberNumber: 'NO-SUCH-MEMBER' });
    expect(none.body.Data).toEqual({ Items: [], ItemCount: 0 });
    // A member's own list with another member's number finds nothing.
    const other = await search(who.a, { MemberNumber: number });
    expect(other.body.Data.ItemCount).toBe(0);
  });

  it('lets a SuperUser search across members, or within the impersonated member only', async () => {
    const across = await search(who.su, { MemberID: who.b.memberId, PageSize: 5 });
    expect(across.status).toBe(200);
    expect(across.body.Data.ItemCount).toBeGreaterThan(0);
    expect(across.body.Data.Items.every((c) => c.MemberID === who.b.memberId)).toBe(true);
    const all = await search(who.su, { PageSize: 5 });
    expect(all.body.Data.ItemCount).toBeGreaterThan(across.body.Data.ItemCount);
    const asB = await search(who.su, { PageSize: 100 }, asMember(who.b.memberId));
    expect(asB.body.Data.Items.every((c) => c.MemberID === who.b.memberId)).toBe(true);
    const asBforA = await search(who.su, { MemberID: who.a.memberId }, asMember(who.b.memberId));
    expect(asBforA.body.Data.ItemCount).toBe(0);
  });

  it('is refused to roles without the bills pages, and answers 404 on a brand without the feature', async () => {
    expect((await search(who.card)).status).toBe(403);
    expect((await search(who.support)).status).toBe(403);
    expect((await call(null, 'POST', '/api/claims/search', {})).status).toBe(401);
    const offBrand = await call(who.a, 'POST', '/api/claims/search', {}, { host: 'quote.localhost' });
    expect(offBrand.status).toBe(404);
  });
});

describe('GET getById and POST details', () => {
  it('returns an own bill and hides another member’s (404, no existence leak)', async () => {
    const mine = (await search(who.a, { PageSize: 5 })).body.Data.Items[0] as Claim;
    const theirs = (await search(who.b, { PageSize: 5 })).body.Data.Items[0] as Claim;
    const ok = await call<Claim>(who.a, 'GET', `/api/claims/getById/${mine.ClaimID}`);
    expect(ok.status).toBe(200);
    expect(ok.body.Data).toEqual(mine);
    const other = await call(who.a, 'GET', `/api/claims/getById/${theirs.ClaimID}`);
    expect(other.status).toBe(404);
    expect(other.body.MsgText).toBe('The bill was not found.');
    expect((await call(who.a, 'GET', '/api/claims/getById/999999')).body.MsgText).toBe('The bill was not found.');
    expect((await call(who.a, 'GET', '/api/claims/getById/abc')).status).toBe(400);
    expect((await call(who.a, 'POST', '/api/claims/details', { ClaimID: theirs.ClaimID })).status).toBe(404);
  });

  it('details carry the status history and the allowed next statuses', async () => {
    const bill = await addBill(who.a.memberId);
    const d = await call<ClaimDetails>(who.a, 'POST', '/api/claims/details', { ClaimID: bill.ClaimID });
    expect(d.status).toBe(200);
    expect(d.body.Data.Claim.ClaimID).toBe(bill.ClaimID);
    expect(d.body.Data.StatusHistory).toEqual([
      expect.objectContaining({ FromStatusID: null, ToStatusID: S.Received, ChangedBy: 'claims-admin', Reason: 'Created' }),
    ]);
    expect(d.body.Data.AllowedStatusIDs).toEqual([S.InReview, S.PendingInformation, S.Denied, S.Void]);
    expect(d.body.Data.CanEdit).toBe(true);
  });

  it("audits a staff read of a bill's details under the bill's member, and a member's read under their own", async () => {
    const bill = await addBill(who.a.memberId);
    const read = async (as: Who) => {
      expect((await call(as, 'POST', '/api/claims/details', { ClaimID: bill.ClaimID })).status).toBe(200);
      await server.flushAudit();
      return server.database.sql.query<{ member_id: number | null }>(
        `SELECT member_id FROM audit_log WHERE action = 'claims.read.details' AND entity_id = $1 AND actor_user_id = $2`,
        [String(bill.ClaimID), as.userId],
      );
    };
    // A SuperUser acting for nobody has no member of their own: the row names the bill's member.
    expect(await read(who.su)).toEqual([{ member_id: who.a.memberId }]);
    expect(await read(who.a)).toEqual([{ member_id: who.a.memberId }]);
  });
});

describe('POST create', () => {
  it('adds a Received bill for the named member, money in cents, audited', async () => {
    const r = await call<Claim>(who.admin, 'POST', '/api/claims/create', {
      MemberID: who.a.memberId,
      PayeeName: 'Brand New Compounding Pharmacy',
      BillTypeID: 21,
      BilledAmount: '1,234.50',
      SubmittedUNCAmount: 1300.1,
      ServiceDateFrom: '2026-02-03',
      ServiceDateTo: '2026-02-03',
      ClaimNumber: 'rx-777',
    });
    expect(r.status).toBe(200);
    expect(r.body.MsgText).toBe('The bill was added.');
    const c = r.body.Data;
    expect(c).toMatchObject({
      MemberID: who.a.memberId,
      ClaimStatusID: S.Received,
      BilledAmount: 1234.5,
      SubmittedUNCAmount: 1300.1,
      ClaimNumber: 'RX-777',
      PayeeName: 'Brand New Compounding Pharmacy',
      Version: 1,
    });
    expect(Number((await row(c.ClaimID))?.billed_cents)).toBe(123450);
    const audit = await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1 AND entity_id = $2', ['claim.create', String(c.ClaimID)]);
    expect(audit).toHaveLength(1);
    const vendors = await call<{ PayeeName: string }[]>(who.admin, 'GET', '/api/claims/searchVendors/compounding');
    expect(vendors.body.Data.map((v) => v.PayeeName)).toEqual(['Brand New Compounding Pharmacy']);
  });

  it('generates a claim number and takes the impersonated member', async () => {
    const r = await call<Claim>(
      who.su,
      'POST',
      '/api/claims/create',
      { PayeeID: 2, BillTypeID: 1, BilledAmount: 50, ServiceDateFrom: '2026-03-01' },
      asMember(who.b.memberId),
    );
    expect(r.status).toBe(200);
    expect(r.body.Data.MemberID).toBe(who.b.memberId);
    expect(r.body.Data.ClaimNumber).toMatch(/^CL\d{2}\d{6,}$/);
    const clash = await call(
      who.su,
      'POST',
      '/api/claims/create',
      { MemberID: who.a.memberId, PayeeID: 2, BillTypeID: 1, BilledAmount: 50, ServiceDateFrom: '2026-03-01' },
      asMember(who.b.memberId),
    );
    expect(clash.status).toBe(400);
  });

  it('refuses missing member, bad payee, bad amounts, and roles without create', async () => {
    const base = { PayeeID: 1, BillTypeID: 1, BilledAmount: 10, ServiceDateFrom: '2026-01-01' };
    expect((await call(who.admin, 'POST', '/api/claims/create', base)).body.MsgText).toBe('body.MemberID: choose the member the bill belongs to.');
    expect((await call(who.admin, 'POST', '/api/claims/create', { ...base, MemberID: 987654 })).status).toBe(400);
    expect((await call(who.admin, 'POST', '/api/claims/create', { ...base, MemberID: who.a.memberId, PayeeID: 99999 })).body.MsgText).toBe(
      'body.PayeeID: there is no payee 99999.',
    );
    const cents = await call(who.admin, 'POST', '/api/claims/create', { ...base, MemberID: who.a.memberId, BilledAmount: 10.999 });
    expect(cents.status).toBe(400);
    expect(cents.body.MsgText).toBe('body.BilledAmount: must have at most 2 decimals');
    expect((await call(who.card, 'POST', '/api/claims/create', base)).status).toBe(403);
  });

  it("lets a CareGuardFinance member add a bill to their own account only (the details screen's create mode)", async () => {
    const base = { PayeeName: 'My Own Physical Therapy', BillTypeID: 1, BilledAmount: 80, ServiceDateFrom: '2026-04-02' };
    const own = await call<Claim>(who.a, 'POST', '/api/claims/create', base);
    expect(own.status).toBe(200);
    expect(own.body.Data).toMatchObject({ MemberID: who.a.memberId, ClaimStatusID: S.Received, PayeeName: 'My Own Physical Therapy', PayeeID: null });
    // A member's typed payee stays on the member's bill: nobody's vendor search offers it.
    expect((await call<unknown[]>(who.admin, 'GET', '/api/claims/searchVendors/own physical')).body.Data).toEqual([]);
    const named = await call(who.a, 'POST', '/api/claims/create', { ...base, MemberID: who.b.memberId });
    expect(named.status).toBe(400);
    expect(await server.database.sql.query('SELECT 1 FROM claims WHERE member_id = $1 AND payee_name = $2', [who.b.memberId, base.PayeeName])).toEqual([]);
    // A finance login without a member record has no account to add to, and may not name one.
    const loose = await login('claims-finance-nomember', [Roles.CareGuardFinance], false);
    expect((await call(loose, 'POST', '/api/claims/create', { ...base, MemberID: who.b.memberId })).status).toBe(403);
  });
});

describe("bills are stamped with the business's day (BUSINESS_TIME_ZONE), not the database's UTC day", () => {
  // Dec 31 2025 at 9:00 pm in Chicago (the business's zone here) is already Jan 1 2026, 03:00 in UTC.
  const newYearsEve = Date.parse('2026-01-01T03:00:00Z');
  /** Runs `work` with the clock at `moment` (a moment in the past: the sessions signed in before stay valid). */
  async function at<T>(moment: number, work: () => Promise<T>): Promise<T> {
    const clock = vi.spyOn(Date, 'now').mockReturnValue(moment);
    try {
      return await work();
    } finally {
      clock.mockRestore();
    }
  }
  const numbered = (prefix: string, yy: string, id: number) => `${prefix}${yy}${String(id).padStart(6, '0')}`;

  it("receives a new bill on the business's day, its number of that day's year, whatever the caller's zone", async () => {
    const r = await at(newYearsEve, () =>
      call<Claim>(
        who.admin,
        'POST',
        '/api/claims/create',
        { MemberID: who.a.memberId, PayeeID: 1, BillTypeID: 1, BilledAmount: 42, ServiceDateFrom: '2025-12-20' },
        { 'x-time-zone': 'Asia/Tokyo' },
      ),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.Data.ReceivedDate).toBe('2025-12-31');
    expect(r.body.Data.ClaimNumber).toBe(numbered('CL', '25', r.body.Data.ClaimID));
    // A received date the bill names is kept as named.
    const named = await at(newYearsEve, () => addBill(who.a.memberId, { ServiceDateFrom: '2025-12-01', ReceivedDate: '2025-12-15' }));
    expect(named.ReceivedDate).toBe('2025-12-15');
  });

  it("stamps In Review and Paid with the business's day", async () => {
    const bill = await addBill(who.a.memberId, { BilledAmount: 60, ServiceDateFrom: '2025-12-01' });
    const review = await at(newYearsEve, () => call(who.su, 'POST', '/api/claims/changeStatusAM', { Ids: [bill.ClaimID], NewClaimStatusID: S.InReview }));
    expect(review.status, review.body.MsgText ?? '').toBe(200);
    await setStatus(bill.ClaimID, S.PaymentIssued);
    const paid = await at(newYearsEve, () => call(who.su, 'POST', '/api/claims/changeStatusAM', { Ids: [bill.ClaimID], NewClaimStatusID: S.Paid }));
    expect(paid.status, paid.body.MsgText ?? '').toBe(200);
    const now = await call<Claim>(who.a, 'GET', `/api/claims/getById/${bill.ClaimID}`);
    expect(now.body.Data).toMatchObject({ BillReviewReceivedDate: '2025-12-31', PaidDate: '2025-12-31', PaidAmount: 60 });
    // Support's change of a member's bills stamps the same day.
    const other = await addBill(who.a.memberId, { ServiceDateFrom: '2025-12-01' });
    const support = await at(newYearsEve, () =>
      call(who.support, 'POST', '/api/support/changeStatus', { MemberID: who.a.memberId, Ids: [other.ClaimID], NewClaimStatusID: S.InReview }),
    );
    expect(support.status, support.body.MsgText ?? '').toBe(200);
    expect((await call<Claim>(who.a, 'GET', `/api/claims/getById/${other.ClaimID}`)).body.Data.BillReviewReceivedDate).toBe('2025-12-31');
  });

  const reimbursement = { billedCents: 2500, serviceDate: '2026-12-15', createdByUserId: null, createdByName: 'member' };

  it("receives a member's reimbursement request on the business's day of the service's clock, numbered with its year", async () => {
    // Dec 31 2026 at 5:00 pm in Los Angeles is Jan 1 2027, 01:00 in UTC.
    const svc = makeClaimsService(server.database.sql, {
      timeZone: 'America/Los_Angeles',
      members: membersService(server.database.sql, server.jobs),
      now: () => Date.parse('2027-01-01T01:00:00Z'),
    });
    const made = await server.database.sql.transaction((tx) => svc.recordReimbursement({ ...reimbursement, memberId: who.a.memberId as number }, tx));
    expect(made.ClaimNumber).toBe(numbered('RB', '26', made.ClaimID));
    const got = await call<Claim>(who.a, 'GET', `/api/claims/getById/${made.ClaimID}`);
    expect(got.body.Data.ReceivedDate).toBe('2026-12-31');
  });

  it("the plugin's service (the one other plugins use) receives it on BUSINESS_TIME_ZONE's day", async () => {
    const services = { members: membersService(server.database.sql, server.jobs) };
    const svc = plugin.provides?.create({ database: server.database, config: server.config, services } as PluginInit);
    if (!svc) throw new Error('the claims plugin provides its service');
    const made = await at(newYearsEve, () =>
      server.database.sql.transaction((tx) => svc.recordReimbursement({ ...reimbursement, memberId: who.a.memberId as number }, tx)),
    );
    expect(made.ClaimNumber).toBe(numbered('RB', '25', made.ClaimID));
    const got = await call<Claim>(who.a, 'GET', `/api/claims/getById/${made.ClaimID}`);
    expect(got.body.Data.ReceivedDate).toBe('2025-12-31');
  });
});

describe('POST update', () => {
  const edit = (c: Claim, changes: Record<string, unknown> = {}) => ({ ...c, ...changes });

  it('saves an own bill and bumps its version', async () => {
    const bill = await addBill(who.a.memberId);
    const r = await call<Claim>(who.a, 'POST', '/api/claims/update', edit(bill, { BilledAmount: 250.75, PayeeID: 3 }));
    expect(r.status).toBe(200);
    expect(r.body.Data).toMatchObject({ BilledAmount: 250.75, Version: 2, PayeeID: 3 });
    expect(r.body.Data.PayeeName).not.toBe(bill.PayeeName);
  });

  it('refuses a stale version with a clear message and overwrites nothing', async () => {
    const bill = await addBill(who.a.memberId);
    expect((await call(who.a, 'POST', '/api/claims/update', edit(bill, { BilledAmount: 111 }))).status).toBe(200);
    const stale = await call(who.a, 'POST', '/api/claims/update', edit(bill, { BilledAmount: 222 }));
    expect(stale.status).toBe(409);
    expect(stale.body.MsgText).toContain('changed by someone else');
    const now = await row(bill.ClaimID);
    expect(Number(now?.billed_cents)).toBe(11100);
    expect(now?.version).toBe(2);
  });

  it('does not let one member change another member’s bill', async () => {
    const bill = await addBill(who.a.memberId);
    const r = await call(who.b, 'POST', '/api/claims/update', edit(bill, { BilledAmount: 1 }));
    expect(r.status).toBe(404);
    expect(await row(bill.ClaimID)).toMatchObject({ version: 1, member_id: who.a.memberId });
    expect(Number((await row(bill.ClaimID))?.billed_cents)).toBe(10000);
  });

  it('keeps payment details to SuperUser and settled bills locked for members', async () => {
    const bill = await addBill(who.a.memberId);
    const pay = await call(who.a, 'POST', '/api/claims/update', edit(bill, { PaidAmount: 90, PaidDate: '2026-02-01', CheckNumber: 'CHK1' }));
    expect(pay.status).toBe(403);
    const su = await call<Claim>(who.su, 'POST', '/api/claims/update', edit(bill, { PaidAmount: 90, PaidDate: '2026-02-01', CheckNumber: 'CHK1' }));
    expect(su.status).toBe(200);
    expect(su.body.Data).toMatchObject({ PaidAmount: 90, PaidDate: '2026-02-01', CheckNumber: 'CHK1' });
    await setStatus(bill.ClaimID, S.Paid);
    const locked = await call(who.a, 'POST', '/api/claims/update', edit(su.body.Data, { BilledAmount: 5 }));
    expect(locked.status).toBe(409);
    expect(locked.body.MsgText).toBe('A bill that is Paid can no longer be edited.');
  });
});

describe('POST changeStatusAM (state machine)', () => {
  it('moves several bills at once, records history and audit', async () => {
    const x = await addBill(who.a.memberId);
    const y = await addBill(who.b.memberId);
    const r = await call<ClaimSearchResult>(who.support, 'POST', '/api/claims/changeStatusAM', {
      Ids: [x.ClaimID, y.ClaimID],
      NewClaimStatusID: S.InReview,
      Reason: 'Documents complete',
    });
    expect(r.status).toBe(200);
    expect(r.body.MsgText).toBe('2 bills set to In Review.');
    expect(r.body.Data.Items.map((c) => [c.ClaimID, c.ClaimStatusID, c.Version])).toEqual([
      [x.ClaimID, S.InReview, 2],
      [y.ClaimID, S.InReview, 2],
    ]);
    const hist = await server.database.sql.query<{ claim_id: number; from_status_id: number; to_status_id: number; changed_by_name: string; reason: string }>(
      'SELECT claim_id, from_status_id, to_status_id, changed_by_name, reason FROM claim_status_history WHERE claim_id = ANY($1::int[]) AND from_status_id IS NOT NULL ORDER BY claim_id',
      [[x.ClaimID, y.ClaimID]],
    );
    expect(hist).toEqual([
      { claim_id: x.ClaimID, from_status_id: S.Received, to_status_id: S.InReview, changed_by_name: 'claims-support', reason: 'Documents complete' },
      { claim_id: y.ClaimID, from_status_id: S.Received, to_status_id: S.InReview, changed_by_name: 'claims-support', reason: 'Documents complete' },
    ]);
    // One audit row a bill, each naming its member and who changed it (written together, in one statement).
    const audit = await server.database.sql.query<{
      entity_id: string;
      member_id: number;
      actor_name: string;
      stamped: boolean;
      detail: { from: number; to: number };
    }>(
      `SELECT entity_id, member_id, actor_name, request_id IS NOT NULL AS stamped, detail FROM audit_log
       WHERE action = 'claim.status' AND outcome = 'success' AND entity_id = ANY($1::text[]) ORDER BY entity_id::int`,
      [[String(x.ClaimID), String(y.ClaimID)]],
    );
    const detail = { from: S.Received, to: S.InReview, reason: 'Documents complete' };
    expect(audit).toEqual([
      { entity_id: String(x.ClaimID), member_id: who.a.memberId, actor_name: 'claims-support', stamped: true, detail },
      { entity_id: String(y.ClaimID), member_id: who.b.memberId, actor_name: 'claims-support', stamped: true, detail },
    ]);
  });

  it('walks a bill to Paid (setting the paid date) and through the reissue loop', async () => {
    const bill = await addBill(who.a.memberId, { BilledAmount: 80 });
    for (const to of [S.InReview, S.Approved, S.ScheduledForPayment, S.PaymentIssued, S.Paid, S.NonRedeemedPayment, S.ReadyForReissue]) {
      const r = await call(who.su, 'POST', '/api/claims/changeStatusAM', { Ids: [bill.ClaimID], NewClaimStatusID: to });
      expect(r.status, `to ${to}: ${r.body.MsgText}`).toBe(200);
    }
    // Ready for Reissue still shows as Paid (spec 02 section 4), with the first payment.
    const waiting = await call<Claim>(who.a, 'GET', `/api/claims/getById/${bill.ClaimID}`);
    expect(waiting.body.Data).toMatchObject({ ClaimStatusID: S.ReadyForReissue, PaidAmount: 80 });
    expect(waiting.body.Data.PaidDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The reissue starts a new payment: the first one no longer stands.
    expect((await call(who.su, 'POST', '/api/claims/changeStatusAM', { Ids: [bill.ClaimID], NewClaimStatusID: S.PaymentIssued })).status).toBe(200);
    const now = await call<Claim>(who.a, 'GET', `/api/claims/getById/${bill.ClaimID}`);
    expect(now.body.Data).toMatchObject({ ClaimStatusID: S.PaymentIssued, PaidAmount: null, PaidDate: null, CheckNumber: null, Version: 9 });
  });

  it('refuses a forbidden change in a batch and changes nothing (all or nothing)', async () => {
    const ok1 = await addBill(who.a.memberId);
    const ok2 = await addBill(who.a.memberId);
    const done = await addBill(who.a.memberId);
    await setStatus(done.ClaimID, S.Void);
    const r = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [ok1.ClaimID, done.ClaimID, ok2.ClaimID], NewClaimStatusID: S.InReview });
    expect(r.status).toBe(409);
    expect(r.body.MsgText).toBe(`No status was changed. bill ${done.ClaimID}: A bill that is Void cannot be set to In Review: its status is final.`);
    for (const c of [ok1, ok2]) expect(await row(c.ClaimID)).toMatchObject({ claim_status_id: S.Received, version: 1 });
    expect(await row(done.ClaimID)).toMatchObject({ claim_status_id: S.Void, version: 1 });
    const hist = await server.database.sql.query('SELECT 1 FROM claim_status_history WHERE claim_id = ANY($1::int[]) AND from_status_id IS NOT NULL', [
      [ok1.ClaimID, ok2.ClaimID],
    ]);
    expect(hist).toHaveLength(0);
    const refusedAudit = await server.database.sql.query(`SELECT 1 FROM audit_log WHERE action = 'claim.status' AND outcome = 'refused'`);
    expect(refusedAudit.length).toBeGreaterThan(0);
    const illegalMove = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [ok1.ClaimID], NewClaimStatusID: S.Paid });
    expect(illegalMove.status).toBe(409);
    expect(illegalMove.body.MsgText).toContain('A bill that is Received cannot be set to Paid: it can move to In Review, Pending Information, Denied, Void.');
  });

  it('refuses unknown ids and bills outside the impersonated member, changing nothing', async () => {
    const a = await addBill(who.a.memberId);
    const missing = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [a.ClaimID, 999999], NewClaimStatusID: S.InReview });
    expect(missing.status).toBe(404);
    expect(missing.body.MsgText).toBe('No status was changed: bill 999999 not found.');
    const other = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [a.ClaimID], NewClaimStatusID: S.InReview }, asMember(who.b.memberId));
    expect(other.status).toBe(404);
    expect(await row(a.ClaimID)).toMatchObject({ claim_status_id: S.Received, version: 1 });
  });

  it('is refused to members and finance users', async () => {
    const a = await addBill(who.a.memberId);
    for (const as of [who.a, who.b, who.card, who.admin]) {
      const r = await call(as, 'POST', '/api/claims/changeStatusAM', { Ids: [a.ClaimID], NewClaimStatusID: S.InReview });
      expect(r.status).toBe(403);
    }
    expect(await row(a.ClaimID)).toMatchObject({ claim_status_id: S.Received, version: 1 });
    const bad = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [], NewClaimStatusID: S.InReview });
    expect(bad.status).toBe(400);
    expect(bad.body.MsgText).toBe('body.Ids: choose at least one bill');
  });
});

describe('status changes check the Version the caller saw', () => {
  const stale = (id: number) =>
    `No status was changed: bill ${id} was changed by someone else after you saw it. Reload to see its current status, then choose again.`;
  async function inReview(): Promise<Claim> {
    const bill = await addBill(who.a.memberId);
    const r = await call<ClaimSearchResult>(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [bill.ClaimID], NewClaimStatusID: S.InReview });
    expect(r.status).toBe(200);
    return r.body.Data.Items[0] as Claim;
  }

  it('refuses a void by a user who still saw the bill In Review after another approved it: 409, the bill stays Approved, audited', async () => {
    const bill = await inReview();
    // Both users have the bill open at the same Version, In Review.
    const seenByA = (await call<Claim>(who.su, 'GET', `/api/claims/getById/${bill.ClaimID}`)).body.Data;
    const seenByB = (await call<ClaimDetails>(who.support, 'GET', `/api/support/getClaimById/${bill.ClaimID}/${who.a.memberId}`)).body.Data.Claim;
    expect([seenByA.Version, seenByB.Version]).toEqual([bill.Version, bill.Version]);
    const approved = await call<ClaimSearchResult>(who.su, 'POST', '/api/claims/changeStatusAM', {
      Ids: [{ ID: bill.ClaimID, Version: seenByA.Version }],
      NewClaimStatusID: S.Approved,
    });
    expect(approved.status).toBe(200);
    expect(approved.body.Data.Items[0]).toMatchObject({ ClaimStatusID: S.Approved, Version: bill.Version + 1 });
    // Approved → Void is allowed by the state machine, but B never saw the approval.
    const voided = await call(who.support, 'POST', '/api/claims/changeStatusAM', {
      Ids: [{ ID: bill.ClaimID, Version: seenByB.Version }],
      NewClaimStatusID: S.Void,
      Reason: 'Duplicate',
    });
    expect(voided.status).toBe(409);
    expect(voided.body.MsgText).toBe(stale(bill.ClaimID));
    expect(await row(bill.ClaimID)).toMatchObject({ claim_status_id: S.Approved, version: bill.Version + 1 });
    const hist = await server.database.sql.query('SELECT 1 FROM claim_status_history WHERE claim_id = $1 AND to_status_id = $2', [bill.ClaimID, S.Void]);
    expect(hist).toHaveLength(0);
    const refused = await server.database.sql.query<{ actor_name: string; detail: { to: number; message: string } }>(
      `SELECT actor_name, detail FROM audit_log WHERE action = 'claim.status' AND outcome = 'refused' AND entity_id = $1`,
      [String(bill.ClaimID)],
    );
    expect(refused).toEqual([{ actor_name: 'claims-support', detail: expect.objectContaining({ to: S.Void, message: stale(bill.ClaimID) }) }]);
    // Having seen the approval (the current Version), B may void it.
    const again = await call(who.support, 'POST', '/api/claims/changeStatusAM', {
      Ids: [{ ID: bill.ClaimID, Version: bill.Version + 1 }],
      NewClaimStatusID: S.Void,
    });
    expect(again.status).toBe(200);
    expect(await row(bill.ClaimID)).toMatchObject({ claim_status_id: S.Void, version: bill.Version + 2 });
  });

  it('refuses the whole batch when one bill is stale, naming it, and changes none of them', async () => {
    const fresh = await addBill(who.a.memberId);
    const old = await inReview();
    const plain = await addBill(who.a.memberId);
    const r = await call(who.support, 'POST', '/api/claims/changeStatusAM', {
      Ids: [{ ID: fresh.ClaimID, Version: fresh.Version }, { ID: old.ClaimID, Version: old.Version - 1 }, plain.ClaimID],
      NewClaimStatusID: S.PendingInformation,
    });
    expect(r.status).toBe(409);
    expect(r.body.MsgText).toBe(stale(old.ClaimID));
    expect(await row(fresh.ClaimID)).toMatchObject({ claim_status_id: S.Received, version: 1 });
    expect(await row(old.ClaimID)).toMatchObject({ claim_status_id: S.InReview, version: old.Version });
    expect(await row(plain.ClaimID)).toMatchObject({ claim_status_id: S.Received, version: 1 });
    // Several stale bills are named together; a bill named twice with two Versions is stale by one of them.
    const two = await call(who.support, 'POST', '/api/claims/changeStatusAM', {
      Ids: [
        { ID: old.ClaimID, Version: old.Version },
        { ID: old.ClaimID, Version: old.Version + 5 },
        { ID: fresh.ClaimID, Version: 9 },
      ],
      NewClaimStatusID: S.PendingInformation,
    });
    expect(two.status).toBe(409);
    expect(two.body.MsgText).toBe(
      `No status was changed: bills ${[fresh.ClaimID, old.ClaimID].sort((x, y) => x - y).join(', ')} were changed by someone else after you saw them. Reload to see their current status, then choose again.`,
    );
    expect(await row(old.ClaimID)).toMatchObject({ claim_status_id: S.InReview, version: old.Version });
  });

  it('still takes plain ids (the spec’s list), and ids mixed with Versions', async () => {
    const bill = await inReview();
    const other = await addBill(who.a.memberId);
    const r = await call<ClaimSearchResult>(who.support, 'POST', '/api/claims/changeStatusAM', {
      Ids: [bill.ClaimID, { ID: other.ClaimID, Version: other.Version }, String(bill.ClaimID)],
      NewClaimStatusID: S.Denied,
    });
    expect(r.status, r.body.MsgText ?? '').toBe(200);
    expect(r.body.MsgText).toBe('2 bills set to Denied.');
    expect(r.body.Data.Items.map((c) => [c.ClaimID, c.ClaimStatusID, c.Version])).toEqual([
      [bill.ClaimID, S.Denied, bill.Version + 1],
      [other.ClaimID, S.Denied, other.Version + 1],
    ]);
  });

  it('refuses malformed entries with 400, changing nothing', async () => {
    const bill = await addBill(who.a.memberId);
    for (const bad of [
      { ID: bill.ClaimID },
      { ID: bill.ClaimID, Version: 'one' },
      { ID: bill.ClaimID, Version: 0 },
      { ID: '0x1', Version: 1 },
      { Version: 1 },
    ]) {
      const r = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [bill.ClaimID, bad], NewClaimStatusID: S.InReview });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.MsgText).toBe("body.Ids.1: must be a claim id, or an object with the bill's ID and Version");
    }
    expect(await row(bill.ClaimID)).toMatchObject({ claim_status_id: S.Received, version: 1 });
  });

  it("checks the Version on support's changeStatus too (it takes the same list)", async () => {
    const bill = await inReview();
    const body = { MemberID: who.a.memberId, NewClaimStatusID: S.Approved };
    const refused = await call(who.support, 'POST', '/api/support/changeStatus', { ...body, Ids: [{ ID: bill.ClaimID, Version: bill.Version - 1 }] });
    expect(refused.status).toBe(409);
    expect(refused.body.MsgText).toBe(stale(bill.ClaimID));
    expect(await row(bill.ClaimID)).toMatchObject({ claim_status_id: S.InReview, version: bill.Version });
    const ok = await call(who.support, 'POST', '/api/support/changeStatus', { ...body, Ids: [{ ID: bill.ClaimID, Version: bill.Version }] });
    expect(ok.status).toBe(200);
    expect(await row(bill.ClaimID)).toMatchObject({ claim_status_id: S.Approved, version: bill.Version + 1 });
  });
});

describe('POST create with an IdempotencyKey', () => {
  const bill = (fields: Record<string, unknown> = {}) => ({
    MemberID: who.a.memberId,
    PayeeID: 3,
    BillTypeID: 1,
    BilledAmount: 42.5,
    ServiceDateFrom: '2026-05-06',
    ...fields,
  });
  const count = async (key: string) =>
    (
      await server.database.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log WHERE action = 'claim.create' AND detail->>'idempotencyKey' = $1`,
        [key],
      )
    )[0]?.n;
  const bills = async (claimNumber: string) =>
    (await server.database.sql.query<{ claim_id: number }>('SELECT claim_id FROM claims WHERE claim_number = $1', [claimNumber])).map((r) => r.claim_id);

  it('adds one bill for the same key sent twice (a retry after a lost answer) and answers that bill both times', async () => {
    const key = 'claim-retry-0001';
    const first = await call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-1', IdempotencyKey: key }));
    expect(first.status).toBe(200);
    // The same bill, written another way the contract reads alike (42.5 and '42.50').
    const again = await call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'idem-1', BilledAmount: '42.50', IdempotencyKey: key }));
    expect(again.status).toBe(200);
    expect(again.body.MsgText).toBe('The bill was added.');
    expect(again.body.Data).toEqual(first.body.Data);
    expect(await bills('IDEM-1')).toEqual([first.body.Data.ClaimID]);
    expect(await count(key)).toBe(1);
  });

  it('adds one bill when the same key arrives twice at once (a double press), both answered with it', async () => {
    const key = 'claim-double-0001';
    const [x, y] = await Promise.all([
      call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-7', IdempotencyKey: key })),
      call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-7', IdempotencyKey: key })),
    ]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(y.body.Data.ClaimID).toBe(x.body.Data.ClaimID);
    expect(await bills('IDEM-7')).toEqual([x.body.Data.ClaimID]);
  });

  it('refuses the same key with another bill (409), adding nothing', async () => {
    const key = 'claim-reuse-0001';
    const first = await call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-2', IdempotencyKey: key }));
    expect(first.status).toBe(200);
    for (const other of [{ BilledAmount: 43 }, { MemberID: who.b.memberId }, { ClaimNumber: 'IDEM-2B' }]) {
      const r = await call(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-2', IdempotencyKey: key, ...other }));
      expect(r.status, JSON.stringify(other)).toBe(409);
      expect(r.body.MsgText).toBe(CREATE_KEY_REUSED);
    }
    expect(await bills('IDEM-2')).toEqual([first.body.Data.ClaimID]);
    expect(await bills('IDEM-2B')).toEqual([]);
  });

  it('still adds a bill for each create without a key, and keeps keys per caller', async () => {
    const plain = [
      await call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-3' })),
      await call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-3', IdempotencyKey: null })),
    ];
    expect(plain.map((r) => r.status)).toEqual([200, 200]);
    expect(await bills('IDEM-3')).toHaveLength(2);
    // Another user's key of the same text is that user's own: it makes their bill.
    const key = 'claim-shared-0001';
    const mine = await call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-4', IdempotencyKey: key }));
    const theirs = await call<Claim>(who.su, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-4', IdempotencyKey: key }));
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.body.Data.ClaimID).not.toBe(mine.body.Data.ClaimID);
  });

  it('claims the key only with its bill: a refused create leaves the key free for the corrected bill', async () => {
    const key = 'claim-refused-0001';
    const refused = await call(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-5', PayeeID: 99999, IdempotencyKey: key }));
    expect(refused.status).toBe(400);
    const ok = await call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-5', IdempotencyKey: key }));
    expect(ok.status).toBe(200);
    expect(await bills('IDEM-5')).toEqual([ok.body.Data.ClaimID]);
  });

  it("keeps the keys in the kernel's create_keys (scope claims.bill), the plugin's own table gone", async () => {
    const key = 'claim-kernel-0001';
    const first = await call<Claim>(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-8', IdempotencyKey: key }));
    expect(first.status).toBe(200);
    const kept = await server.database.sql.query<{ scope: string; record_id: string }>(
      'SELECT scope, record_id FROM create_keys WHERE user_id = $1 AND key = $2',
      [who.admin.userId, key],
    );
    expect(kept).toEqual([{ scope: 'claims.bill', record_id: String(first.body.Data.ClaimID) }]);
    expect(await server.database.sql.query(`SELECT 1 FROM pg_tables WHERE tablename = 'claim_create_keys'`)).toEqual([]);
  });

  it('reads a bill acting for its member alike whether MemberID is left out or names that member, and any field left out as null', async () => {
    const key = 'claim-acting-0001';
    const own = { PayeeID: 3, BillTypeID: 1, BilledAmount: 42.5, ServiceDateFrom: '2026-05-06', ClaimNumber: 'IDEM-9', IdempotencyKey: key };
    const first = await call<Claim>(who.su, 'POST', '/api/claims/create', own, asMember(who.a.memberId));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const named = await call<Claim>(
      who.su,
      'POST',
      '/api/claims/create',
      { ...own, MemberID: who.a.memberId, ServiceDateTo: null, SubmittedUNCAmount: '' },
      asMember(who.a.memberId),
    );
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.Data).toEqual(first.body.Data);
    expect(await bills('IDEM-9')).toEqual([first.body.Data.ClaimID]);
  });

  it('refuses a key in the wrong format with 400', async () => {
    for (const bad of ['short', 'has spaces in it', 'x'.repeat(101), 12345678]) {
      const r = await call(who.admin, 'POST', '/api/claims/create', bill({ ClaimNumber: 'IDEM-6', IdempotencyKey: bad }));
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.MsgText).toMatch(/^body\.IdempotencyKey: must be/);
    }
    expect(await bills('IDEM-6')).toEqual([]);
  });
});

describe('pending claims, recent claims, global search, vendors', () => {
  it('searchAmethyst lists the card member’s own unsettled bills only', async () => {
    const r = await call<ClaimSearchResult>(who.card, 'POST', '/api/claims/searchAmethyst', { PageSize: 100, SortColumn: 'PaidDate' });
    expect(r.status).toBe(200);
    expect(r.body.Data.ItemCount).toBeGreaterThan(0);
    expect(r.body.Data.Items.every((c) => c.MemberID === who.card.memberId && [1, 2, 3, 4, 6, 7].includes(c.ClaimStatusID))).toBe(true);
    expect((await call(who.a, 'POST', '/api/claims/searchAmethyst', {})).status).toBe(403);
  });

  it('recent claims: the six newest received of the member', async () => {
    const r = await call<Claim[]>(who.b, 'GET', '/api/dashboard/claims/recent/6');
    expect(r.status).toBe(200);
    expect(r.body.Data).toHaveLength(6);
    expect(r.body.Data.every((c) => c.MemberID === who.b.memberId)).toBe(true);
    const dates = r.body.Data.map((c) => c.ReceivedDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect((await call(who.card, 'GET', '/api/dashboard/claims/recent/6')).status).toBe(403);
  });

  it('global search finds own bills by number, at most 5, never another member’s', async () => {
    const mine = (await search(who.a, { PageSize: 5 })).body.Data.Items[0] as Claim;
    const r = await call<Claim[]>(who.a, 'GET', `/api/search/searchClaims?q=${encodeURIComponent(mine.ClaimNumber)}&s=5`);
    expect(r.status).toBe(200);
    expect(r.body.Data.map((c) => c.ClaimID)).toContain(mine.ClaimID);
    const broad = await call<Claim[]>(who.a, 'GET', '/api/search/searchClaims?q=pharmacy&s=50');
    expect(broad.body.Data.length).toBeLessThanOrEqual(5);
    expect(broad.body.Data.every((c) => c.MemberID === who.a.memberId)).toBe(true);
    const theirs = await call<Claim[]>(who.b, 'GET', `/api/search/searchClaims?q=${encodeURIComponent(mine.ClaimNumber)}`);
    expect(theirs.body.Data.map((c) => c.ClaimID)).not.toContain(mine.ClaimID);
    expect((await call(who.a, 'GET', '/api/search/searchClaims?q=x')).status).toBe(400);
  });

  it('vendor search needs 3 characters', async () => {
    const r = await call<{ PayeeName: string; Kind: string }[]>(who.a, 'GET', '/api/claims/searchVendors/pharm');
    expect(r.status).toBe(200);
    expect(r.body.Data.length).toBeGreaterThan(3);
    expect(r.body.Data.every((v) => /pharm/i.test(v.PayeeName))).toBe(true);
    const short = await call(who.a, 'GET', '/api/claims/searchVendors/ph');
    expect(short.status).toBe(400);
    expect(short.body.MsgText).toBe('Minimum 3 characters are required');
  });
});

/** Ids in every form that is not a positive integer in decimal; each would pass a lax coercion (true → 1, '0x10' → 16). */
const BAD_IDS: readonly unknown[] = [true, [2], '0x10', '1e1', '13.0', -1];
/** How a bad id reads in a path: text as it is, anything else as JSON. */
const inPath = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));

describe('ids are integers written in decimal and nothing else', () => {
  it('getById refuses every other form of :id with 400', async () => {
    for (const id of BAD_IDS) {
      const r = await call(who.su, 'GET', `/api/claims/getById/${inPath(id)}`);
      expect(r.status, JSON.stringify(id)).toBe(400);
      expect(r.body.MsgText, JSON.stringify(id)).toMatch(/^params\.id: /);
    }
  });

  it('details refuses every other form of ClaimID with 400', async () => {
    for (const id of BAD_IDS) {
      const r = await call(who.su, 'POST', '/api/claims/details', { ClaimID: id });
      expect(r.status, JSON.stringify(id)).toBe(400);
      expect(r.body.MsgText, JSON.stringify(id)).toMatch(/^body\.ClaimID: /);
    }
    expect((await call(who.su, 'POST', '/api/claims/details', { ClaimID: '13' })).status).not.toBe(400);
  });

  it('update refuses every other form of ClaimID and Version with 400, changing nothing', async () => {
    const bill = await addBill(who.a.memberId);
    for (const id of BAD_IDS) {
      const r = await call(who.su, 'POST', '/api/claims/update', { ...bill, ClaimID: id, BilledAmount: 1 });
      expect(r.status, JSON.stringify(id)).toBe(400);
      expect(r.body.MsgText, JSON.stringify(id)).toMatch(/^body\.ClaimID: /);
      const v = await call(who.su, 'POST', '/api/claims/update', { ...bill, Version: id, BilledAmount: 1 });
      expect(v.status, JSON.stringify(id)).toBe(400);
      expect(v.body.MsgText, JSON.stringify(id)).toMatch(/^body\.Version: /);
    }
    expect(await row(bill.ClaimID)).toMatchObject({ version: 1 });
    expect(Number((await row(bill.ClaimID))?.billed_cents)).toBe(10000);
  });

  it('status changes, member filters and new bills refuse them too', async () => {
    const bill = await addBill(who.a.memberId);
    for (const id of BAD_IDS) {
      const ids = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [bill.ClaimID, id], NewClaimStatusID: S.InReview });
      expect(ids.status, JSON.stringify(id)).toBe(400);
      expect(ids.body.MsgText, JSON.stringify(id)).toMatch(/^body\.Ids\.1: /);
      expect((await search(who.su, { MemberID: id })).status, JSON.stringify(id)).toBe(400);
      expect((await search(who.su, { ClaimID: id })).status, JSON.stringify(id)).toBe(400);
      const created = await call(who.admin, 'POST', '/api/claims/create', {
        MemberID: id,
        PayeeID: 1,
        BillTypeID: 1,
        BilledAmount: 1,
        ServiceDateFrom: '2026-01-05',
      });
      expect(created.status, JSON.stringify(id)).toBe(400);
      expect(created.body.MsgText, JSON.stringify(id)).toMatch(/^body\.MemberID: /);
    }
    expect(await row(bill.ClaimID)).toMatchObject({ claim_status_id: S.Received, version: 1 });
    // Digits in text are ids: a form posts them that way.
    expect((await search(who.su, { MemberID: String(who.a.memberId), PageSize: 5 })).body.Data.Items.every((c) => c.MemberID === who.a.memberId)).toBe(true);
  });
});

describe('payees: only staff add shared payees', () => {
  const vendors = async (as: Who, text: string) =>
    (await call<{ PayeeName: string }[]>(as, 'GET', `/api/claims/searchVendors/${encodeURIComponent(text)}`)).body.Data.map((v) => v.PayeeName);

  it('keeps a member’s new payee name on the member’s bill, out of everyone’s vendor search', async () => {
    const bill = await addBill(who.a.memberId);
    const r = await call<Claim>(who.a, 'POST', '/api/claims/update', { ...bill, PayeeID: null, PayeeName: 'Member Own Chiropractic' });
    expect(r.status, r.body.MsgText ?? '').toBe(200);
    expect(r.body.Data).toMatchObject({ PayeeID: null, PayeeName: 'Member Own Chiropractic', Version: 2 });
    for (const as of [who.a, who.admin, who.su]) expect(await vendors(as, 'own chiropractic')).toEqual([]);
    // Staff saving the bill without touching the payee do not share the member's payee either.
    const su = await call<Claim>(who.su, 'POST', '/api/claims/update', { ...r.body.Data, BilledAmount: 99 });
    expect(su.body.Data).toMatchObject({ PayeeID: null, PayeeName: 'Member Own Chiropractic', BilledAmount: 99 });
    expect(await vendors(who.su, 'own chiropractic')).toEqual([]);
    // The member still finds the bill by its payee name; another member does not.
    const found = await call<Claim[]>(who.a, 'GET', '/api/search/searchClaims?q=own%20chiropractic');
    expect(found.body.Data.map((c) => c.ClaimID)).toEqual([bill.ClaimID]);
    expect((await call<Claim[]>(who.b, 'GET', '/api/search/searchClaims?q=own%20chiropractic')).body.Data).toEqual([]);
    // A name that a shared payee already has links the bill to it.
    const known = await call<Claim>(who.a, 'POST', '/api/claims/update', { ...su.body.Data, PayeeID: null, PayeeName: 'labcorp' });
    expect(known.body.Data).toMatchObject({ PayeeName: 'LabCorp', PayeeID: expect.any(Number) });
  });

  it('adds a staff role’s new payee name to the shared payees', async () => {
    const bill = await addBill(who.b.memberId);
    const r = await call<Claim>(who.su, 'POST', '/api/claims/update', { ...bill, PayeeID: null, PayeeName: 'Staff Added Chiropractic' });
    expect(r.status, r.body.MsgText ?? '').toBe(200);
    expect(r.body.Data.PayeeID).toEqual(expect.any(Number));
    expect(await vendors(who.a, 'added chiropractic')).toEqual(['Staff Added Chiropractic']);
  });

  it('adds a new payee once when staff save bills naming it at the same moment (any case)', async () => {
    const bills = await Promise.all([addBill(who.a.memberId), addBill(who.b.memberId), addBill(who.a.memberId), addBill(who.b.memberId)]);
    const names = ['Same Moment Imaging', 'SAME MOMENT IMAGING', 'same moment imaging', 'Same Moment Imaging'];
    const saved = await Promise.all(bills.map((bill, i) => call<Claim>(who.su, 'POST', '/api/claims/update', { ...bill, PayeeID: null, PayeeName: names[i] })));
    for (const r of saved) expect(r.status, r.body.MsgText ?? '').toBe(200);
    const rows = await server.database.sql.query<{ payee_id: number }>("SELECT payee_id FROM claim_payees WHERE lower(name) = 'same moment imaging'");
    expect(rows).toHaveLength(1);
    expect(new Set(saved.map((r) => r.body.Data.PayeeID))).toEqual(new Set([rows[0]?.payee_id]));
  });
});

describe('a change and its audit row are one transaction', () => {
  it('rolls back a new bill, an edit and a status change whose audit row cannot be written', async () => {
    const sql = server.database.sql;
    const bill = await addBill(who.a.memberId);
    await sql.exec(`
      CREATE FUNCTION claims_test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$;
      CREATE TRIGGER claims_test_refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW
        WHEN (NEW.actor_name = 'claims-noaudit') EXECUTE FUNCTION claims_test_refuse_audit();`);
    try {
      const created = await call(who.noaudit, 'POST', '/api/claims/create', {
        MemberID: who.a.memberId,
        ClaimNumber: 'NOAUDIT-1',
        PayeeName: 'No Audit Payee',
        BillTypeID: 1,
        BilledAmount: 10,
        ServiceDateFrom: '2026-01-05',
      });
      expect(created.status).toBe(500);
      expect(await sql.query(`SELECT 1 FROM claims WHERE claim_number = 'NOAUDIT-1'`)).toHaveLength(0);
      expect(await sql.query(`SELECT 1 FROM claim_payees WHERE name = 'No Audit Payee'`)).toHaveLength(0);

      const edited = await call(who.noaudit, 'POST', '/api/claims/update', { ...bill, BilledAmount: 1 });
      expect(edited.status).toBe(500);
      expect(await row(bill.ClaimID)).toMatchObject({ version: 1 });
      expect(Number((await row(bill.ClaimID))?.billed_cents)).toBe(10000);

      const moved = await call(who.noaudit, 'POST', '/api/claims/changeStatusAM', { Ids: [bill.ClaimID], NewClaimStatusID: S.InReview });
      expect(moved.status).toBe(500);
      expect(await row(bill.ClaimID)).toMatchObject({ claim_status_id: S.Received, version: 1 });
      const hist = await sql.query('SELECT 1 FROM claim_status_history WHERE claim_id = $1 AND from_status_id IS NOT NULL', [bill.ClaimID]);
      expect(hist).toHaveLength(0);
    } finally {
      await sql.exec('DROP TRIGGER claims_test_refuse_audit ON audit_log; DROP FUNCTION claims_test_refuse_audit();');
    }
    // The same changes by the same user go through once their audit rows can be written.
    const edited = await call<Claim>(who.noaudit, 'POST', '/api/claims/update', { ...bill, BilledAmount: 1 });
    expect(edited.status).toBe(200);
    const audit = await sql.query(`SELECT 1 FROM audit_log WHERE action = 'claim.update' AND entity_id = $1`, [String(bill.ClaimID)]);
    expect(audit).toHaveLength(1);
  });
});

describe("messages in the user's language", () => {
  const es = { cookie: 'cq.lang=es' };

  it('answers a Spanish request with Spanish errors, refusals naming the bills and statuses, and toasts', async () => {
    const missing = await call(who.a, 'GET', '/api/claims/getById/999999', undefined, es);
    expect(missing.status).toBe(404);
    expect(missing.body.MsgText).toBe('No se encontró la factura.');

    const created = await call<Claim>(
      who.admin,
      'POST',
      '/api/claims/create',
      { MemberID: who.a.memberId, PayeeID: 1, BillTypeID: 1, BilledAmount: 10, ServiceDateFrom: '2026-01-05' },
      es,
    );
    expect(created.status).toBe(200);
    expect(created.body.MsgText).toBe('Se añadió la factura.');
    const bill = created.body.Data;

    const moved = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [bill.ClaimID], NewClaimStatusID: S.InReview }, es);
    expect(moved.status).toBe(200);
    expect(moved.body.MsgText).toBe('Se cambió el estado de 1 factura a En revisión.');

    const done = await addBill(who.a.memberId);
    await setStatus(done.ClaimID, S.Void);
    const refused = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [done.ClaimID], NewClaimStatusID: S.InReview }, es);
    expect(refused.status).toBe(409);
    expect(refused.body.MsgText).toBe(
      `No se cambió ningún estado. factura ${done.ClaimID}: Una factura con el estado Anulada no se puede cambiar a En revisión: su estado es definitivo.`,
    );
    const fresh = await addBill(who.a.memberId);
    const illegalMove = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [fresh.ClaimID], NewClaimStatusID: S.Paid }, es);
    expect(illegalMove.body.MsgText).toBe(
      `No se cambió ningún estado. factura ${fresh.ClaimID}: Una factura con el estado Recibida no se puede cambiar a Pagada: puede pasar a En revisión, Pendiente de información, Rechazada, Anulada.`,
    );

    const ids = Array.from({ length: 12 }, (_, i) => 999_900 + i);
    const unknown = await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: ids, NewClaimStatusID: S.InReview }, es);
    expect(unknown.status).toBe(404);
    expect(unknown.body.MsgText).toBe(`No se cambió ningún estado: no se encontraron las facturas ${ids.slice(0, 10).join(', ')} y 2 más.`);
    // English stays the spec's words.
    expect((await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: ids, NewClaimStatusID: S.InReview })).body.MsgText).toBe(
      `No status was changed: bills ${ids.slice(0, 10).join(', ')} and 2 more not found.`,
    );

    await setStatus(fresh.ClaimID, S.Paid);
    const current = (await call<Claim>(who.a, 'GET', `/api/claims/getById/${fresh.ClaimID}`)).body.Data;
    const locked = await call(who.a, 'POST', '/api/claims/update', { ...current, BilledAmount: 5 }, es);
    expect(locked.status).toBe(409);
    expect(locked.body.MsgText).toBe('Una factura con el estado Pagada ya no se puede editar.');

    const seen = await addBill(who.a.memberId);
    await call(who.support, 'POST', '/api/claims/changeStatusAM', { Ids: [seen.ClaimID], NewClaimStatusID: S.InReview });
    const stale = await call(
      who.su,
      'POST',
      '/api/claims/changeStatusAM',
      { Ids: [{ ID: seen.ClaimID, Version: seen.Version }], NewClaimStatusID: S.Void },
      es,
    );
    expect(stale.status).toBe(409);
    expect(stale.body.MsgText).toBe(
      `No se cambió ningún estado: otra persona cambió la factura ${seen.ClaimID} después de que usted la vio. Vuelva a cargar para ver su estado actual y luego elija de nuevo.`,
    );
    const keyed = { MemberID: who.a.memberId, PayeeID: 1, BillTypeID: 1, BilledAmount: 10, ServiceDateFrom: '2026-01-05', IdempotencyKey: 'claim-es-0001' };
    expect((await call(who.admin, 'POST', '/api/claims/create', keyed, es)).status).toBe(200);
    const reused = await call(who.admin, 'POST', '/api/claims/create', { ...keyed, BilledAmount: 11 }, es);
    expect(reused.status).toBe(409);
    expect(reused.body.MsgText).toBe('Esta IdempotencyKey ya se usó para otra solicitud. No se guardó nada; envíela con una clave nueva.');
  });
});

describe("the member index carries a member's bills (claims_member_cover_idx, migrations.ts MEMBER_INDEX_COVERS)", () => {
  it('saves and lists a bill with the longest payee name, bill number and check number the contract allows, in three-byte characters', async () => {
    const member = await login('claims-cover', [Roles.CareGuardFinance], true);
    // 120 and 40 characters of three bytes each: the index entry carrying them stays under btree's 2,704-byte limit.
    const long = { PayeeName: '語'.repeat(120), ClaimNumber: '請'.repeat(40), CheckNumber: '支'.repeat(40) };
    const made = await call<Claim>(who.su, 'POST', '/api/claims/create', {
      MemberID: member.memberId,
      BillTypeID: 1,
      BilledAmount: 12.5,
      ServiceDateFrom: '2026-04-01',
      PaidDate: '2026-04-20',
      PaidAmount: 12.5,
      ...long,
    });
    expect(made.status, made.body.MsgText ?? '').toBe(200);
    const list = await search(member, { SortColumn: 'PayeeName', SortOrder: 'desc' });
    expect(list.status).toBe(200);
    expect(list.body.Data.Items.find((c) => c.ClaimID === made.body.Data.ClaimID)).toMatchObject(long);
  });

  it('is built as migrations leave it: the member, received date and bill id as keys, carrying every listed column', async () => {
    // query.test.ts holds the list to the columns one member's list reads; this holds the migrated index to the list.
    // (Which plan the planner takes over a test's few bills depends on what VACUUM may mark all-visible while other
    // databases of the server hold snapshots; the bench shows the plan at a million bills: docs/performance-log.md.)
    const columns = await server.database.sql.query<{ name: string; key: boolean }>(
      `SELECT a.attname AS name, k.ord <= i.indnkeyatts AS key
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
       WHERE ic.relname = 'claims_member_cover_idx'
       ORDER BY k.ord`,
    );
    expect(columns.filter((c) => c.key).map((c) => c.name)).toEqual(['member_id', 'received_date', 'claim_id']);
    expect(columns.filter((c) => !c.key).map((c) => c.name)).toEqual([...MEMBER_INDEX_COVERS]);
    const replaced = await server.database.sql.query(`SELECT 1 FROM pg_class WHERE relname = 'claims_member_received_idx'`);
    expect(replaced).toEqual([]);
  });
});
