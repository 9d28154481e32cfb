import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { authHeaders, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claim, ClaimSearchResult } from '../contract';
import { MEMBER_INDEX_COVERS } from './migrations';

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
