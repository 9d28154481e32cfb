import { dayIn, Roles } from '@portal/core';
import { makeUser, startTestServer } from '@portal/testing/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminBalance, balanceByMonth } from './dashboard';
import { checkRowsNowDue, ledgerBalanceSource } from './lowBalance';
import { loadBalance } from './repo';

/**
 * One balance as of the business's today (review memmoney2 findings 2 and 5). The moment is pinned, not the run's:
 * 2026-12-01 03:45 UTC is still 2026-11-30 in Chicago (the business zone here), so a bank row dated by the aggregator's
 * UTC day, 12/01, is dated after the business's today. Only Date is faked, and only around direct calls (no request).
 */
const ZONE = 'America/Chicago';
const MOMENT = new Date('2026-12-01T03:45:00Z');
const TODAY = '2026-11-30';

let server: Awaited<ReturnType<typeof startTestServer>>;
let memberId: number;
let noInitialId: number;
const sql = () => server.database.sql;
const atMoment = <T>(fn: () => Promise<T>) => {
  vi.useFakeTimers({ toFake: ['Date'], now: MOMENT });
  return fn().finally(() => vi.useRealTimers());
};
afterEach(() => vi.useRealTimers());
/** The reading's language and account type only: the balance is what is under test. */
const stubServices = { identity: { languageOfMember: async () => 'en' }, messages: { t: () => 'Medicare set-aside' } } as never;

/** A row: 'bank' source or the member's own, dated `day`, written at `at`; negative cents an expense. */
const row = (member: number, day: string, cents: number, at = '2026-11-30T12:00:00Z', source = 'bank') =>
  sql().query(
    `INSERT INTO ledger_transactions (member_id, source, date_created, company, description, transaction_type_id, amount_cents, created_at)
     VALUES ($1, $2, $3, 'Bank Checking', 'item', $4, $5, $6::timestamptz)`,
    [member, source, day, cents < 0 ? 1 : 2, Math.abs(cents), at],
  );

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: ZONE });
  memberId = (await makeUser(server, { userName: 'asof-member', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
  noInitialId = (await makeUser(server, { userName: 'asof-none', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
  await sql().query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 100000), ($2, NULL)', [memberId, noInitialId]);
  // $1,000 initial; +$200 on 11/20 and -$50 on 11/30 (today), then a bank's -$1,100 dated 12/01 (the UTC day).
  await row(memberId, '2026-11-20', 20000);
  await row(memberId, '2026-11-30', -5000);
  await row(memberId, '2026-12-01', -110000, '2026-12-01T03:40:00Z');
  await row(noInitialId, '2026-11-20', 91842);
}, 240_000);
afterAll(async () => {
  await server?.close();
});

describe("the balance is the business's today's: a row dated after it counts from its own day (finding 2)", () => {
  it('the pinned moment is on different days in Chicago and in UTC', async () => {
    await atMoment(async () => {
      expect(dayIn(ZONE)).toBe(TODAY);
      expect(new Date().toISOString().slice(0, 10)).toBe('2026-12-01');
    });
  });

  it('the tile (loadBalance), the chart (balanceByMonth), the admin balance and the low-balance rule agree: $1,150.00', async () => {
    expect(await loadBalance(sql(), memberId, TODAY)).toEqual({ Amount: 1000, CurrentBalance: 1150 });
    const months = await balanceByMonth(sql(), memberId, TODAY);
    expect(months.at(-1)).toEqual({ Date: '2026-11-01', Balance: 1150 });
    expect((await adminBalance(sql(), memberId, TODAY)).Balance).toBe(1150);
    // The rule reads the business's today of the moment (not UTC's): the 12/01 row is not in it yet.
    const source = ledgerBalanceSource({ database: server.database, services: stubServices, config: { businessTimeZone: ZONE } as never });
    expect(await atMoment(() => source.read(memberId))).toMatchObject({ balanceCents: 115000 });
  });

  it("on the row's own day, it counts everywhere: the balance goes to $50.00", async () => {
    expect((await loadBalance(sql(), memberId, '2026-12-01')).CurrentBalance).toBe(50);
    expect((await balanceByMonth(sql(), memberId, '2026-12-01')).at(-1)).toEqual({ Date: '2026-12-01', Balance: 50 });
    // Inside the month too: the point of this month is the balance as of today, not of the month's end.
    expect((await balanceByMonth(sql(), memberId, TODAY)).find((m) => m.Date === '2026-11-01')?.Balance).toBe(1150);
  });

  it("the hourly run checks the low-balance rule for the members whose earlier-written rows' day has come", async () => {
    const checked: number[] = [];
    const init = { database: server.database, config: { businessTimeZone: ZONE } as never };
    // At the moment (11/30 in Chicago), the 12/01 row's day has not come: the member with today's row written today is
    // not checked again either (its own write ran the rule).
    expect(await atMoment(() => checkRowsNowDue(init, async (id) => void checked.push(id)))).toBe(0);
    // The next business day (12/01 10:00 in Chicago), the 12/01 row (written 11/30 in Chicago) is due: its member is checked.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-01T16:00:00Z') });
    try {
      expect(await checkRowsNowDue(init, async (id) => void checked.push(id))).toBe(1);
    } finally {
      vi.useRealTimers();
    }
    expect(checked).toEqual([memberId]);
  });
});

describe('no initial balance: no balance figures anywhere (finding 5, spec 02: null means no initial balance yet)', () => {
  it('the tile has none, the chart has no series, the low-balance rule has nothing to judge, though bank rows exist', async () => {
    expect(await loadBalance(sql(), noInitialId, TODAY)).toEqual({ Amount: null, CurrentBalance: null });
    expect(await balanceByMonth(sql(), noInitialId, TODAY)).toEqual([]);
    const source = ledgerBalanceSource({ database: server.database, services: stubServices, config: { businessTimeZone: ZONE } as never });
    expect(await atMoment(() => source.read(noInitialId))).toBeNull();
    // Once it is set, all three have it.
    await sql().query('UPDATE ledger_accounts SET initial_balance_cents = 0 WHERE member_id = $1', [noInitialId]);
    expect((await loadBalance(sql(), noInitialId, TODAY)).CurrentBalance).toBe(918.42);
    expect((await balanceByMonth(sql(), noInitialId, TODAY)).at(-1)?.Balance).toBe(918.42);
    expect(await atMoment(() => source.read(noInitialId))).toMatchObject({ balanceCents: 91842 });
  });
});
