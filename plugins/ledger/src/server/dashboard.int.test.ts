import { dayIn, Roles } from '@portal/core';
import { authHeaders, makeUser, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceByMonth } from './dashboard';

/**
 * The balance by month is the running balance the server computes (review dash, finding 1): a month without activity
 * has the balance before it, and an account spent to exactly $0.00 shows 0 in that month, the same as the balance tile.
 * The web draws these figures as they are (no carrying forward over a 0).
 */
const ZONE = 'America/Chicago';
let server: Awaited<ReturnType<typeof startTestServer>>;
let memberId: number;
let session: Awaited<ReturnType<typeof signIn>>;
const sql = () => server.database.sql;
const today = dayIn(ZONE);
const [Y, M] = today.split('-').map(Number) as [number, number];
/** The first day of the month `back` months before the business's month. */
const monthStart = (back: number) => new Date(Date.UTC(Y, M - 1 - back, 1)).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: ZONE });
  memberId = (await makeUser(server, { userName: 'dash-depleted', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
  session = await signIn(server, 'dash-depleted', undefined, '10.0.0.9', 'card');
  // $500 set aside; $200 spent three months ago and the last $300 on the 1st of this month: depleted.
  await sql().query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 50000)', [memberId]);
  for (const [day, cents] of [
    [monthStart(3), 20000],
    [monthStart(0), 30000],
  ] as const)
    await sql().query(
      `INSERT INTO ledger_transactions (member_id, source, date_created, company, description, transaction_type_id, amount_cents)
       VALUES ($1, 'ledger', $2, 'Clinic', 'visit', 1, $3)`,
      [memberId, day, cents],
    );
}, 240_000);
afterAll(async () => {
  await server?.close();
});

describe('balance by month: running balances, a depleted month at 0', () => {
  it('carries the balance over months without activity and answers 0 for the month the account reached $0.00', async () => {
    const months = await balanceByMonth(sql(), memberId, today);
    expect(months).toHaveLength(12);
    expect(months.slice(-5)).toEqual([
      { Date: monthStart(4), Balance: 500 },
      { Date: monthStart(3), Balance: 300 },
      { Date: monthStart(2), Balance: 300 },
      { Date: monthStart(1), Balance: 300 },
      { Date: monthStart(0), Balance: 0 },
    ]);
  });

  it('answers the same on the wire as the balance tile: $0.00', async () => {
    const get = (url: string) => server.app.inject({ method: 'GET', url, headers: authHeaders(session, 'card') });
    const tile = (await get('/api/dashboard/account/balance')).json().Data;
    const series = (await get('/api/dashboard/balance/month')).json().Data as { Date: string; Balance: number }[];
    expect(tile).toMatchObject({ Balance: 0, InitialBalance: 500, AsOf: today });
    expect(series.at(-1)).toEqual({ Date: monthStart(0), Balance: tile.Balance });
  });
});
