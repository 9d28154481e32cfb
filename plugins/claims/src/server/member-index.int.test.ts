import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { authHeaders, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Claim, type ClaimSearchResult, claimSearchSchema, SORT_COLUMNS } from '../contract';
import { buildSearch } from './query';

/** One member's bills are read from claims_member_cover_idx alone (migrations.ts MEMBER_INDEX_COVERS). */
let server: StartedServer;
type Who = { userId: string; memberId: number | null; headers: Record<string, string> };
let member: Who;
let su: Who;

async function login(userName: string, roles: string[], isMember: boolean): Promise<Who> {
  const u = await makeUser(server, { userName, roles, member: isMember });
  return { ...u, headers: authHeaders(await mintSession(server, { ...u, name: userName, roles })) };
}
async function post<T>(as: Who, url: string, payload: object) {
  const res = await server.app.inject({ method: 'POST', url, headers: as.headers, payload });
  return { status: res.statusCode, body: res.json() as { Data: T; MsgText: string | null } };
}

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: 'America/Chicago' });
  member = await login('cover-member', [Roles.CareGuardFinance], true);
  su = await login('cover-su', [Roles.SuperUser], false);
  for (const [i, ServiceDateFrom] of ['2026-01-05', '2026-02-09', '2026-03-16'].entries()) {
    const r = await post<Claim>(su, '/api/claims/create', {
      MemberID: member.memberId,
      PayeeID: 1,
      BillTypeID: 1,
      BilledAmount: 100 + i,
      ServiceDateFrom,
    });
    expect(r.status, r.body.MsgText ?? '').toBe(200);
  }
  // As autovacuum leaves a table: its pages marked all-visible, so an index-only scan need not visit them.
  await server.database.sql.exec('VACUUM ANALYZE claims');
});
afterAll(async () => {
  await server?.close();
});

describe("the member index carries a member's bills", () => {
  it('saves and lists a bill with the longest payee name, bill number and check number the contract allows, in three-byte characters', async () => {
    // 120 and 40 characters of three bytes each: the index entry carrying them stays under btree's 2,704-byte limit.
    const long = { PayeeName: '語'.repeat(120), ClaimNumber: '請'.repeat(40), CheckNumber: '支'.repeat(40) };
    const made = await post<Claim>(su, '/api/claims/create', {
      MemberID: member.memberId,
      BillTypeID: 1,
      BilledAmount: 12.5,
      ServiceDateFrom: '2026-04-01',
      PaidDate: '2026-04-20',
      PaidAmount: 12.5,
      ...long,
    });
    expect(made.status, made.body.MsgText ?? '').toBe(200);
    const list = await post<ClaimSearchResult>(member, '/api/claims/search', { SortColumn: 'PayeeName', SortOrder: 'desc' });
    expect(list.status).toBe(200);
    expect(list.body.Data.Items.find((c) => c.ClaimID === made.body.Data.ClaimID)).toMatchObject(long);
  });

  it("reads one member's page and total in every sort from the member index alone, never from the table", async () => {
    // The table's pages all-visible, as autovacuum leaves them (an index-only scan then need not visit them).
    await server.database.sql.exec('VACUUM ANALYZE claims');
    const plans: string[] = [];
    for (const SortColumn of SORT_COLUMNS)
      for (const [scope, f] of [
        [{ memberId: member.memberId }, { ReceivedDateFrom: '2026-01-01', ReceivedDateTo: '2026-12-31' }],
        [{ memberId: member.memberId }, { ClaimStatusID: 1, BillTypeID: 1 }],
        [{ memberId: null }, { MemberID: member.memberId }],
      ] as const) {
        const q = buildSearch(claimSearchSchema.parse({ ...f, SortColumn, SortOrder: 'desc' }), scope);
        // A few bills would be read whole, and with one page of them any index is as cheap as another: priced as at a
        // million bills (no scan of the whole table, a visit to one of its pages dear, as the member's bills lie one a
        // page), the plan reads claims from an index alone. An index scan that visits the table is still open to it,
        // and must not be chosen: it is, when the member index lacks a column the list reads.
        const plan = await server.database.sql.transaction(async (tx) => {
          for (const set of ['enable_seqscan = off', 'enable_bitmapscan = off', 'random_page_cost = 1000']) await tx.exec(`SET LOCAL ${set}`);
          return tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${q.listWithCount.text}`, q.listWithCount.params);
        });
        const text = plan.map((r) => r['QUERY PLAN']).join('\n');
        expect(text, `${SortColumn} ${JSON.stringify(f)}`).toContain('Index Only Scan using claims_member_cover_idx on claims');
        expect(text, `${SortColumn} ${JSON.stringify(f)}`).not.toMatch(/(Seq Scan|Bitmap Heap Scan|Index Scan using \S+) on claims\b/);
        plans.push(text);
      }
    expect(plans).toHaveLength(SORT_COLUMNS.length * 3);
  });
});
