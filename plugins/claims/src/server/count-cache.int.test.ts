import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import type { SqlClient } from '@portal/server';
import { makeUser, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClaimSearch } from '../contract';
import { searchClaims } from './repo';

let server: StartedServer;
let memberId: number;

/** A database handle of its own (so its count cache starts empty) that notes every statement and can fail one. */
function recording(failFirstCount = false) {
  const texts: string[] = [];
  let fail = failFirstCount;
  const sql: SqlClient = {
    query: async (text, params, opts) => {
      texts.push(text);
      if (fail && text.includes('count(*)')) {
        fail = false;
        throw new Error('the database went away');
      }
      return server.database.sql.query(text, params, opts);
    },
    exec: (text) => server.database.sql.exec(text),
    transaction: (fn) => server.database.sql.transaction(fn),
  };
  const ctx = { user: { roles: [Roles.SuperUser] }, memberId: null, database: { ...server.database, sql }, searchSql: sql } as never;
  return { ctx, counts: () => texts.filter((t) => t.includes('count(*)')).length };
}

const broad = (PageIndex: number): ClaimSearch =>
  ({ ReceivedDateFrom: '2020-01-01', ReceivedDateTo: '2020-12-31', SortColumn: 'ClaimID', SortOrder: 'desc', PageIndex, PageSize: 20 }) as ClaimSearch;
const mine = (PageIndex: number): ClaimSearch => ({ ...broad(PageIndex), ReceivedDateFrom: '2020-06-01', ReceivedDateTo: '2020-06-30' }) as ClaimSearch;
let broadTotal = 0;
let smallTotal = 0;

beforeAll(async () => {
  server = await startTestServer();
  memberId = (await makeUser(server, { userName: 'count-cache', roles: [Roles.CareGuardFinance], member: true })).memberId as number;
  // 6,000 bills received in 2020: a result broad enough for its count to be kept (at least 5,000).
  await server.database.sql.query(
    `INSERT INTO claims (claim_number, member_id, payee_name, bill_type_id, billed_cents, service_date_from, received_date)
     SELECT 'CC' || g, $1, 'Payee ' || g, 1, 100 * g, DATE '2020-01-01' + (g % 366), DATE '2020-01-01' + (g % 366)
     FROM generate_series(1, 6000) g`,
    [memberId],
  );
  const n = async (from: string, to: string) =>
    (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE received_date BETWEEN $1 AND $2', [from, to]))[0]?.n ?? 0;
  broadTotal = await n('2020-01-01', '2020-12-31');
  smallTotal = await n('2020-06-01', '2020-06-30');
});
afterAll(() => server?.close());

describe('the bills search’s count', () => {
  it('is taken once for eight identical broad searches at the same moment, and each gets its own page and the total', async () => {
    const { ctx, counts } = recording();
    const pages = await Promise.all(Array.from({ length: 8 }, (_, i) => searchClaims(ctx, broad(i % 4))));
    expect(broadTotal).toBeGreaterThanOrEqual(6000);
    expect(counts()).toBe(1);
    for (const [i, p] of pages.entries()) {
      expect(p.ItemCount).toBe(broadTotal);
      expect(p.Items).toHaveLength(20);
      expect(p.Items).toEqual(pages[i % 4]?.Items);
    }
    expect(pages[1]?.Items[0]?.ClaimID).toBeLessThan(pages[0]?.Items[19]?.ClaimID as number);
  });

  it('is kept for 30 s when it is at least 5,000, then taken again', async () => {
    const { ctx, counts } = recording();
    await searchClaims(ctx, broad(0));
    await searchClaims(ctx, broad(3));
    expect(counts()).toBe(1);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 30_001);
    try {
      expect((await searchClaims(ctx, broad(5))).ItemCount).toBe(broadTotal);
      expect(counts()).toBe(2);
    } finally {
      clock.mockRestore();
    }
  });

  it('is taken on every search when it is under 5,000', async () => {
    const { ctx, counts } = recording();
    expect(smallTotal).toBeGreaterThan(0);
    expect(smallTotal).toBeLessThan(5000);
    expect((await searchClaims(ctx, mine(0))).ItemCount).toBe(smallTotal);
    expect((await searchClaims(ctx, mine(1))).ItemCount).toBe(smallTotal);
    expect(counts()).toBe(2);
  });

  it('is taken by each waiting search itself when the one it waited for failed', async () => {
    const { ctx, counts } = recording(true);
    const results = await Promise.allSettled([searchClaims(ctx, broad(0)), searchClaims(ctx, broad(1)), searchClaims(ctx, broad(2))]);
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { message: 'the database went away' } });
    for (const r of results.slice(1)) expect(r).toMatchObject({ status: 'fulfilled', value: { ItemCount: broadTotal } });
    // The failed one, then one for each waiting search (they take it at the same moment, one of them for the other).
    expect(counts()).toBeGreaterThanOrEqual(2);
    expect(counts()).toBeLessThanOrEqual(3);
  });
});
