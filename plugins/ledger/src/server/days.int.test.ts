import { randomUUID } from 'node:crypto';
import { dayIn, Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, LedgerApi, todayUtc } from '../contract';

/**
 * Days and time zones in the ledger. Two kinds of day:
 * - a filter "from day A to day B" over moments (the activity's created_at) takes A and B in the reader's zone
 *   (x-time-zone), as the activity page shows the moments in local time;
 * - the server's "today" (the widgets' AsOf, the dashboard's periods, the views' default ranges, the day an empty date
 *   stands for) and the day stamped from a moment (a report's ReportedDate) are the business's (BUSINESS_TIME_ZONE).
 * The business zone here is one whose day is not UTC's right now (UTC+14 or UTC-12, whichever is on another day), so
 * the UTC day answered where the business's is meant is seen at any hour of the run.
 */
const BUSINESS_ZONE = ['Pacific/Kiritimati', 'Etc/GMT+12'].find((zone) => dayIn(zone) !== todayUtc()) as string;
/** Two readers 26 hours apart: their days always differ, so one of them is on neither UTC's day nor the business's. */
const READERS = ['Pacific/Kiritimati', 'Etc/GMT+12'] as const;
const LA = { 'x-time-zone': 'America/Los_Angeles' };

let server: Awaited<ReturnType<typeof startTestServer>>;
let member: Session;
let memberId: number;
let finance: Session;
let financeId: number;
let superUser: Session;

type Json = Record<string, unknown>;
const call = async (session: Session, path: string, body?: unknown, extra: Record<string, string> = {}, brand = 'card') => {
  const res = await server.app.inject({
    method: body === undefined ? 'GET' : 'POST',
    url: path,
    headers: authHeaders(session, brand, extra),
    ...(body === undefined ? {} : { payload: body as Json }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: unknown }).Data as Json & Json[];
};
const businessDay = () => dayIn(BUSINESS_ZONE);

/** A row of the member's ledger entered at the moment `at` (created_at), dated `day`. */
async function rowAt(at: string, day: string, description: string): Promise<number> {
  const rows = await server.database.sql.query<{ transaction_id: number }>(
    `INSERT INTO ledger_transactions (member_id, source, date_created, code, company, description, transaction_type_id, amount_cents, created_at)
     VALUES ($1, 'ledger', $2, '99213', 'Clinic', $3, 1, 1000, $4::timestamptz) RETURNING transaction_id`,
    [memberId, day, description, at],
  );
  return rows[0]?.transaction_id as number;
}

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: BUSINESS_ZONE });
  memberId = (await makeUser(server, { userName: 'days-member', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
  financeId = (await makeUser(server, { userName: 'days-finance', roles: [Roles.CareGuardFinance], brand: 'finance', member: true })).memberId as number;
  await makeUser(server, { userName: 'days-super', roles: [Roles.SuperUser], brand: 'staff' });
  member = await signIn(server, 'days-member');
  finance = await signIn(server, 'days-finance');
  superUser = await signIn(server, 'days-super');
  await server.database.sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 100000), ($2, 50000)', [memberId, financeId]);
}, 240_000);
afterAll(async () => {
  await server?.close();
});

describe("activity: From and To are the reader's days (x-time-zone), as the grid shows the rows' times", () => {
  let evening: number;
  let lateNinth: number;
  let earlyTenth: number;
  beforeAll(async () => {
    // 6:30 pm PDT on 03/10 (01:30 UTC on 03/11), 11:30 pm PDT on 03/09, 12:30 am PDT on 03/10.
    evening = await rowAt('2026-03-11T01:30:00Z', '2026-03-10', 'tz-activity evening');
    lateNinth = await rowAt('2026-03-10T06:30:00Z', '2026-03-09', 'tz-activity late on the ninth');
    earlyTenth = await rowAt('2026-03-10T07:30:00Z', '2026-03-10', 'tz-activity early on the tenth');
  });
  const activity = async (From: string, To: string, extra: Record<string, string> = {}) =>
    (await call(member, LedgerApi.financialsSearch.path, { Query: { From, To }, PageSize: 100 }, extra)).Items as Json[];
  const ids = (items: Json[]) => items.map((r) => r.TransactionID);

  it('From = To = 03/10 in Los Angeles holds the row shown as 03/10/2026 6:30 PM; 03/11 does not', async () => {
    const tenth = await activity('2026-03-10', '2026-03-10', LA);
    expect(ids(tenth)).toEqual([evening, earlyTenth]);
    expect(tenth[0]?.CreatedDate).toBe('2026-03-11T01:30:00Z');
    expect(ids(await activity('2026-03-11', '2026-03-11', LA))).toEqual([]);
    expect(ids(await activity('2026-03-09', '2026-03-09', LA))).toEqual([lateNinth]);
  });

  it("without x-time-zone the days are the business zone's", async () => {
    // 11:00 UTC on 03/20 is 03/21 at UTC+14 and 03/19 at UTC-12: the business's day of it is never UTC's.
    const eleven = await rowAt('2026-03-20T11:00:00Z', '2026-03-20', 'tz-activity eleven UTC');
    const moments: [number, string][] = [
      [eleven, '2026-03-20T11:00:00Z'],
      [evening, '2026-03-11T01:30:00Z'],
      [earlyTenth, '2026-03-10T07:30:00Z'],
      [lateNinth, '2026-03-10T06:30:00Z'],
    ];
    for (const day of ['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-19', '2026-03-20', '2026-03-21'])
      expect(ids(await activity(day, day)), day).toEqual(moments.filter(([, at]) => dayIn(BUSINESS_ZONE, new Date(at)) === day).map(([id]) => id));
  });

  it("without From and To: the last month up to the reader's today", async () => {
    for (const zone of READERS) {
      const d = await call(member, LedgerApi.financialsSearch.path, {}, { 'x-time-zone': zone });
      expect([zone, d.From, d.To]).toEqual([zone, addMonths(dayIn(zone), -1), dayIn(zone)]);
    }
  });
});

describe("the server's today is the business's day", () => {
  it("the widgets' AsOf: the member's balance and the admin balance (own and everyone's)", async () => {
    expect((await call(member, LedgerApi.accountBalance.path, undefined, LA)).AsOf).toBe(businessDay());
    expect((await call(finance, LedgerApi.adminBalance.path, undefined, LA, 'finance')).AsOf).toBe(businessDay());
    expect((await call(superUser, LedgerApi.adminBalance.path, undefined, LA, 'staff')).AsOf).toBe(businessDay());
  });

  it("the dashboard's periods end on the business's day and month", async () => {
    const days = (await call(member, LedgerApi.transactionsTime.path)) as unknown as { Date: string }[];
    expect(days.at(-1)?.Date).toBe(businessDay());
    expect(days[0]?.Date).toBe(addDays(businessDay(), -29));
    const month = `${businessDay().slice(0, 7)}-01`;
    expect(((await call(member, LedgerApi.balanceMonth.path)) as unknown as { Date: string }[]).at(-1)?.Date).toBe(month);
    expect(((await call(member, LedgerApi.transactionsBalanceMonth.path)) as unknown as { Date: string }[]).at(-1)?.Date).toBe(month);
    expect(((await call(member, LedgerApi.transactionsMonth.path)) as unknown as { Date: string }[]).at(-1)?.Date).toBe(month);
  });

  it("the ledger's and the card's default range: one year back to the business's today, whatever the reader's zone", async () => {
    for (const path of [LedgerApi.search.path, LedgerApi.amethystSearch.path])
      for (const zone of READERS) {
        const d = await call(member, path, {}, { 'x-time-zone': zone });
        expect([path, zone, d.From, d.To]).toEqual([path, zone, addMonths(businessDay(), -12), businessDay()]);
      }
  });

  it("an empty date on a create is the business's today", async () => {
    const row = await call(member, LedgerApi.create.path, {
      IdempotencyKey: `days-${randomUUID()}`,
      DateCreated: '',
      Company: 'Clinic',
      Description: 'Visit',
      Code: '99213',
      TransactionTypeID: 1,
      Amount: 5,
    });
    expect(row.DateCreated).toBe(businessDay());
  });

  it("a reported row's ReportedDate is the business's day of the payer's acknowledgement", async () => {
    // 11:00 UTC on 12/01 is 1:00 am on 12/02 at UTC+14 and 11:00 pm on 11/30 at UTC-12: never the UTC day.
    const sentAt = '2026-12-01T11:00:00Z';
    const sql = server.database.sql;
    const day = addDays(businessDay(), -3);
    const report = await sql.query<{ report_id: number }>(
      `INSERT INTO ledger_reports (member_id, period_from, period_to, acknowledgement_id, record_count, sent_at) VALUES ($1, $2, $2, 'FP-DAYS', 1, $3::timestamptz) RETURNING report_id`,
      [memberId, day, sentAt],
    );
    const id = await rowAt(sentAt, day, 'tz-reported');
    await sql.query('UPDATE ledger_transactions SET report_id = $2 WHERE transaction_id = $1', [id, report[0]?.report_id]);
    const expected = dayIn(BUSINESS_ZONE, new Date(sentAt));
    expect(expected).not.toBe('2026-12-01');
    const reported = (await call(member, LedgerApi.search.path, { Query: { View: 'reported' } }, LA)).Items as Json[];
    expect(reported.find((r) => r.TransactionID === id)?.ReportedDate).toBe(expected);
    const recent = (await call(member, LedgerApi.recent.path)) as Json[];
    expect(recent.find((r) => r.TransactionID === id)?.ReportedDate).toBe(expected);
  });
});
