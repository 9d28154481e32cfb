import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { makeUser, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from './index';

/** The demo bills count back from the business's day the seed is given (scripts/seed's), never from the UTC one. */
let server: StartedServer;
let memberId: number;

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: 'America/Chicago' });
  memberId = (await makeUser(server, { userName: 'seed-day', roles: [Roles.CareGuardFinance], member: true })).memberId as number;
});
afterAll(() => server?.close());

describe('claims seed', () => {
  it('dates no bill after the business’s today it is given, and gives the newest ones days just before it', async () => {
    const members = [{ memberId, brand: 'finance', roles: [], userName: 'seed-day' }];
    await plugin.seed?.({ sql: server.database.sql, scale: 1, members, random: Math.random, log: () => {}, today: '2026-01-15' });
    const [days] = await server.database.sql.query<{ newest: string; latest_paid: string | null; n: number }>(
      `SELECT to_char(max(received_date), 'YYYY-MM-DD') AS newest, to_char(max(paid_date), 'YYYY-MM-DD') AS latest_paid, count(*)::int AS n
       FROM claims WHERE member_id = $1`,
      [memberId],
    );
    expect(days?.n).toBeGreaterThanOrEqual(30);
    // Its three newest are received within 20 days before that day: the newest is in January 2026, not later.
    expect(days?.newest && days.newest >= '2025-12-26' && days.newest <= '2026-01-15').toBe(true);
    expect(days?.latest_paid === null || (days?.latest_paid ?? '') <= '2026-01-15').toBe(true);
  });
});
