import type { StartedServer } from '@portal/app-server/server';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SUPPORT_MESSAGES, SupportApi } from '../contract';

/**
 * Support's transaction spreadsheet over more rows than one batch (500): billing reads them in keyset batches, so the
 * sheet holds each charge once, in the grid's order, and the selected charges (TransactionIDs) are read in SQL.
 */
let server: StartedServer & { dropDatabase(): Promise<void> };
let staff: Session;
let memberNumber: string;
/** Two members of few charges each, for the member tab's export; and a staff login's member record. */
let ada: number;
let ben: number;
let staffMemberId: number;
/** The seeded charges' ids, newest first (the grid's default order): created three to a minute, id breaking ties. */
let newestFirst: number[];
/** Each seeded charge's amount in cents (its place in the series). */
const cents = new Map<number, number>();

/** The statements that read the charges while the export ran (on PGlite the route's ctx.searchSql is the primary). */
let reads: string[] = [];
const exportCall = (body: object) =>
  server.app.inject({ method: 'POST', url: SupportApi.transactionExcel.path, headers: authHeaders(staff, 'staff'), payload: body });
async function exportRows(body: object): Promise<unknown[][]> {
  const query = vi.spyOn(server.database.sql, 'query');
  const res = await exportCall(body);
  reads = query.mock.calls.map(([text]) => text).filter((text) => text.includes('FROM billing_transactions'));
  query.mockRestore();
  expect(res.statusCode, res.body).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(res.rawPayload).buffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

beforeAll(async () => {
  server = await startTestServer({}, { sites: ['card', 'staff'] });
  await makeUser(server, { userName: 'export-staff', roles: ['CareSupport'], brand: 'staff' });
  staff = await signIn(server, 'export-staff');
  const memberId = (await makeUser(server, { userName: 'export-member', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  await server.database.sql.query(`UPDATE members SET first_name = 'Exa', last_name = 'Porter' WHERE member_id = $1`, [memberId]);
  memberNumber = (await server.database.sql.query<{ member_number: string }>('SELECT member_number FROM members WHERE member_id = $1', [memberId]))[0]
    ?.member_number as string;
  // 1,200 charges in one statement: three at each minute (a time with microseconds), so ties straddle the batches.
  const seeded = await server.database.sql.query<{ id: number; amount_cents: number }>(
    `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message, created_at)
     SELECT $1, 'charge', 'Charged', g, 'Export ' || g, 'Charged', timestamptz '2024-05-01 08:00:00.654321+00' + (g / 3) * interval '1 minute'
     FROM generate_series(1, 1200) g
     RETURNING id, amount_cents`,
    [memberId],
  );
  for (const r of seeded) cents.set(r.id, r.amount_cents);
  const minute = (id: number) => Math.floor((cents.get(id) ?? 0) / 3);
  newestFirst = seeded.map((r) => r.id).sort((a, b) => minute(b) - minute(a) || b - a);
  ada = (await makeUser(server, { userName: 'export-ada', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  ben = (await makeUser(server, { userName: 'export-ben', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  staffMemberId = (await makeUser(server, { userName: 'export-staffmember', roles: ['CareSupport'], brand: 'staff', member: true })).memberId ?? 0;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('support: the transaction spreadsheet over more than one batch', () => {
  it('holds every charge of the filter once, newest first, with its cells', async () => {
    const rows = await exportRows({ Query: { Status: 'All' } });
    expect(rows[0]).toEqual(['Transaction ID', 'Date', 'Member', 'Member number', 'Status', 'Amount', 'PA number', 'Provider transaction ID', 'Description']);
    const ids = rows.slice(1).map((r) => r[0]);
    expect(ids).toHaveLength(1200);
    expect(new Set(ids).size).toBe(1200);
    expect(ids).toEqual(newestFirst);
    // Three batches of at most 500 (500, 500, 200), each read from where the one before ended: no count, no OFFSET.
    expect(reads).toHaveLength(3);
    for (const text of reads) expect(text).not.toMatch(/count\(|OFFSET/i);
    // The oldest: the series' first charge, of one cent.
    const last = rows[1200] as unknown[];
    expect(last[0]).toBe(newestFirst[1199]);
    expect([last[2], last[3], last[4], last[5], last[8]]).toEqual(['Exa Porter', memberNumber, 'Paid', 0.01, 'Export 1']);
  });

  it('holds exactly the selected charges, in the same order, when more are selected than one batch holds', async () => {
    const selected = newestFirst.filter((_, i) => i % 2 === 1).slice(0, 700);
    const shuffled = [...selected].reverse();
    const rows = await exportRows({ Query: { Status: 'All' }, TransactionIDs: shuffled });
    expect(rows.slice(1).map((r) => r[0])).toEqual(selected);
    // Read by their ids, 500 and 200: not the whole table filtered as it goes by.
    expect(reads).toHaveLength(2);
    for (const text of reads) expect(text).toContain('t.id = ANY(');
    // The filter still applies to the selected ones: none of them is Declined.
    expect(await exportRows({ Query: { Status: 'Declined' }, TransactionIDs: selected.slice(0, 3) })).toHaveLength(1);
  });
});

describe("support: the export from a member's transactions tab", () => {
  /** Ada's charges of 5, 1, 3 and 1 dollars (the last two 1's at the same moment), and Ben's of 9.99: their ids by amount. */
  let adaIds: { five: number; one: number; three: number; oneAgain: number };
  let benId: number;
  beforeAll(async () => {
    const insert = async (memberId: number, amountCents: number, minute: number) =>
      (
        await server.database.sql.query<{ id: number }>(
          `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message, created_at)
           VALUES ($1, 'charge', 'Charged', $2, 'Tab', 'Charged', timestamptz '2024-06-01 08:00:00+00' + $3 * interval '1 minute') RETURNING id`,
          [memberId, amountCents, minute],
        )
      )[0]?.id as number;
    adaIds = { five: await insert(ada, 500, 1), one: await insert(ada, 100, 2), three: await insert(ada, 300, 3), oneAgain: await insert(ada, 100, 2) };
    benId = await insert(ben, 999, 4);
  });
  /** The grid's own rows for the same search: the member tab's call. */
  const gridIds = async (memberId: number, sort: object) => {
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/support/transactions/${memberId}`,
      headers: authHeaders(staff, 'staff'),
      payload: { PageIndex: 0, PageSize: 50, Query: { Status: 'All' }, ...sort },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().Data.Items as { TransactionID: number }[]).map((t) => t.TransactionID);
  };

  it("holds only that member's charges, in the grid's sort (Amount ascending, then id), as the tab's grid shows them", async () => {
    const sort = { SortColumn: 'Amount', SortOrder: 'ASC' };
    const rows = (await exportRows({ Query: { Status: 'All' }, MemberID: ada, ...sort })).slice(1);
    const ids = rows.map((r) => r[0]);
    // Ties (the two 1-dollar charges) break on the id, the same way as the grid's.
    expect(ids).toEqual([adaIds.one, adaIds.oneAgain, adaIds.three, adaIds.five]);
    expect(ids).toEqual(await gridIds(ada, sort));
    expect(rows.map((r) => r[5])).toEqual([1, 1, 3, 5]);
    expect(ids).not.toContain(benId);
    for (const text of reads) expect(text).toContain('member_id');
  });

  it('follows every sort either way, as the grid does, and keeps the selection within the member', async () => {
    for (const SortColumn of ['DateCreated', 'Amount', 'Status', 'TransactionID', 'MemberName'])
      for (const SortOrder of ['ASC', 'DESC']) {
        const ids = (await exportRows({ Query: { Status: 'All' }, MemberID: ada, SortColumn, SortOrder })).slice(1).map((r) => r[0]);
        expect(ids, `${SortColumn} ${SortOrder}`).toEqual(await gridIds(ada, { SortColumn, SortOrder }));
      }
    // Checked rows of another member are not exported from this member's tab.
    const picked = await exportRows({ Query: { Status: 'All' }, MemberID: ada, TransactionIDs: [adaIds.three, benId] });
    expect(picked.slice(1).map((r) => r[0])).toEqual([adaIds.three]);
    // Without MemberID the export stays the list's: every member's charges.
    const all = (await exportRows({ Query: { Status: 'All' }, SortColumn: 'Amount', SortOrder: 'DESC' })).slice(1).map((r) => r[0]);
    expect(all).toHaveLength(1205);
    expect(all).toContain(benId);
    expect(all.indexOf(benId)).toBeLessThan(all.indexOf(adaIds.five));
  });

  it("records the export as a read of that member's charges", async () => {
    await exportRows({ Query: { Status: 'All' }, MemberID: ben });
    const audit = await server.database.sql.query<{ member_id: number | null }>(
      `SELECT member_id FROM audit_log WHERE action = 'support.report.transactions' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit[0]?.member_id).toBe(ben);
  });

  it('refuses a malformed MemberID (400), and a staff record or an unknown member as the member calls do (403), exporting nothing', async () => {
    for (const MemberID of ['abc', 0, -3, 1.5]) {
      const res = await exportCall({ Query: { Status: 'All' }, MemberID });
      expect(res.statusCode, String(MemberID)).toBe(400);
      expect(res.json().MsgText).toContain('MemberID');
    }
    for (const MemberID of [staffMemberId, 999_999]) {
      const res = await exportCall({ Query: { Status: 'All' }, MemberID });
      expect(res.statusCode, String(MemberID)).toBe(403);
      expect(res.json().MsgText).toBe(SUPPORT_MESSAGES.notMember);
      // The member tab's grid refuses the same ids the same way.
      const grid = await server.app.inject({ method: 'POST', url: `/api/support/transactions/${MemberID}`, headers: authHeaders(staff, 'staff'), payload: {} });
      expect(grid.statusCode).toBe(403);
    }
  });
});
