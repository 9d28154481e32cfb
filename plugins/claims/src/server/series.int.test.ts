import type { StartedServer } from '@portal/app-server/server';
import { dayIn, Roles } from '@portal/core';
import type { SqlClient } from '@portal/server';
import { makeUser, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeriesScope } from '../service';
import { makeClaimsService, SERIES_TTL_MS } from './series';

let server: StartedServer;
let memberId: number;
let otherId: number;
let billNo = 0;
/** The series read no termination (they record no reimbursement bill). */
const noTerminations = { terminationDay: async () => null };

/** A client on the test database that notes every statement it runs and can fail the next one. */
function recording() {
  const texts: string[] = [];
  let failNext = false;
  const client: SqlClient = {
    query: async (text, params, opts) => {
      texts.push(text);
      if (failNext) {
        failNext = false;
        throw new Error('the database went away');
      }
      return server.database.sql.query(text, params, opts);
    },
    exec: (text) => server.database.sql.exec(text),
    transaction: (fn) => server.database.sql.transaction(fn),
  };
  return { client, texts, failNext: () => (failNext = true) };
}

/** A service of its own (so nothing is kept yet) on a clock the test moves, with a replica that notes its reads. */
function service() {
  const primary = recording();
  const replica = recording();
  // Starts now: the clock also names the business's day the windows end on.
  const clock = { now: Date.now() };
  const routedAfter: (bigint | null)[] = [];
  const svc = makeClaimsService(primary.client, {
    timeZone: 'America/Chicago',
    members: noTerminations,
    now: () => clock.now,
    replica: {
      routed: (after) => {
        routedAfter.push(after);
        return replica.client;
      },
    },
  });
  return { svc, primary, replica, clock, routedAfter };
}

/**
 * One bill received today for the member: the business's today (America/Chicago), as the claims plugin stamps a bill
 * and as the series' windows end. The database's current_date is UTC's, a day ahead every US evening.
 */
async function bill(member: number, cents = 1_000) {
  billNo++;
  const today = dayIn('America/Chicago');
  await server.database.sql.query(
    `INSERT INTO claims (claim_number, member_id, payee_name, bill_type_id, billed_cents, service_date_from, received_date)
     VALUES ($1, $2, 'Series payee', 1, $3, $4::date, $4::date)`,
    [`SERIES-${billNo}`, member, cents, today],
  );
}

const all: SeriesScope = { memberId: null };
const total = (points: { NumberOfClaims: number }[]) => points.reduce((s, p) => s + p.NumberOfClaims, 0);

beforeAll(async () => {
  server = await startTestServer();
  memberId = (await makeUser(server, { userName: 'series-a', roles: [Roles.CareGuardFinance], member: true })).memberId as number;
  otherId = (await makeUser(server, { userName: 'series-b', roles: [Roles.CareGuardFinance], member: true })).memberId as number;
  await bill(memberId);
  await bill(otherId);
});
afterAll(() => server?.close());

describe('every member’s series are kept for 5 minutes; a member’s own are always fresh', () => {
  it('answers every member’s series from the one taken first while it is under 5 minutes old', async () => {
    const { svc, replica, clock } = service();
    const first = await svc.claimCounts(all, 'time');
    await bill(otherId);
    clock.now += SERIES_TTL_MS - 1;
    const again = await svc.claimCounts(all, 'time');
    expect(again).toEqual(first);
    expect(replica.texts).toHaveLength(1);
  });

  it('takes a member’s own series on every call, so it sees a bill added meanwhile', async () => {
    const { svc, primary } = service();
    const scope = { memberId };
    const before = total(await svc.claimCounts(scope, 'time'));
    const amountBefore = (await svc.billAmounts(scope, 'month')).reduce((s, p) => s + p.AmountCents, 0);
    await bill(memberId, 2_500);
    expect(total(await svc.claimCounts(scope, 'time'))).toBe(before + 1);
    expect((await svc.billAmounts(scope, 'month')).reduce((s, p) => s + p.AmountCents, 0)).toBe(amountBefore + 2_500);
    expect(primary.texts).toHaveLength(4);
  });

  it('takes every member’s series again once it is 5 minutes old, with the bills added since', async () => {
    const { svc, replica, clock } = service();
    const before = total(await svc.claimCounts(all, 'month'));
    await bill(memberId);
    expect(total(await svc.claimCounts(all, 'month'))).toBe(before);
    clock.now += SERIES_TTL_MS;
    expect(total(await svc.claimCounts(all, 'month'))).toBe(before + 1);
    expect(replica.texts).toHaveLength(2);
  });

  it('keeps each series and period apart', async () => {
    const { svc, replica } = service();
    await svc.claimCounts(all, 'time');
    await svc.claimCounts(all, 'month');
    await svc.claimCounts(all, 'quarter');
    await svc.billAmounts(all, 'time');
    await svc.cityCounts(all);
    const cities = replica.texts.length;
    await svc.claimCounts(all, 'time');
    await svc.claimCounts(all, 'month');
    await svc.claimCounts(all, 'quarter');
    await svc.billAmounts(all, 'time');
    await svc.cityCounts(all);
    expect(cities).toBe(5);
    expect(replica.texts).toHaveLength(5);
    expect(replica.texts.filter((t) => t.includes('sum(c.billed_cents)'))).toHaveLength(1);
    expect(replica.texts.filter((t) => t.includes('claim_payees'))).toHaveLength(1);
  });

  it('reads every member’s series through the read replica (no position of its own), a member’s own from the primary', async () => {
    const { svc, primary, replica, routedAfter } = service();
    await svc.billAmounts(all, 'quarter');
    await svc.cityCounts({ memberId });
    expect(replica.texts).toHaveLength(1);
    expect(replica.texts[0]).toContain('sum(c.billed_cents)');
    expect(routedAfter).toEqual([null]);
    expect(primary.texts).toHaveLength(1);
    expect(primary.texts[0]).toContain('claim_payees');
  });

  it('reads the primary when there is no replica', async () => {
    const primary = recording();
    const svc = makeClaimsService(primary.client, { timeZone: 'America/Chicago', members: noTerminations });
    await svc.claimCounts(all, 'quarter');
    await svc.claimCounts(all, 'quarter');
    expect(primary.texts).toHaveLength(1);
  });

  it('takes a series once for eight asking at the same moment, each with an answer of its own', async () => {
    const { svc, replica } = service();
    const answers = await Promise.all(Array.from({ length: 8 }, () => svc.claimCounts(all, 'time')));
    expect(replica.texts).toHaveLength(1);
    for (const a of answers) expect(a).toEqual(answers[0]);
    const kept = structuredClone(answers[0]);
    expect(kept?.length).toBeGreaterThan(0);
    // A caller changing its answer changes neither the others' nor the kept one.
    for (const p of answers[0] ?? []) p.NumberOfClaims = -1;
    expect(answers[1]).toEqual(kept);
    expect(await svc.claimCounts(all, 'time')).toEqual(kept);
  });

  it('keeps nothing when taking fails: the next call takes it again', async () => {
    const { svc, replica } = service();
    replica.failNext();
    await expect(svc.claimCounts(all, 'quarter')).rejects.toThrow('the database went away');
    expect(total(await svc.claimCounts(all, 'quarter'))).toBeGreaterThan(0);
    await svc.claimCounts(all, 'quarter');
    expect(replica.texts).toHaveLength(2);
  });

  it('a call that waited for a take that failed takes it itself', async () => {
    const { svc, replica } = service();
    replica.failNext();
    const [failed, waited] = await Promise.allSettled([svc.claimCounts(all, 'month'), svc.claimCounts(all, 'month')]);
    expect(failed).toMatchObject({ status: 'rejected', reason: { message: 'the database went away' } });
    expect(waited).toMatchObject({ status: 'fulfilled' });
    expect(replica.texts).toHaveLength(2);
    await svc.claimCounts(all, 'month');
    expect(replica.texts).toHaveLength(2);
  });
});

describe("the series' windows end on the business's day, not the database's UTC day", () => {
  it("at 9 pm on Dec 31 in Chicago (Jan 1 in UTC) a member's months end in December, with December's bill, and no empty January", async () => {
    const member = (await makeUser(server, { userName: 'series-tz', roles: [Roles.CareGuardFinance], member: true })).memberId as number;
    await server.database.sql.query(
      `INSERT INTO claims (claim_number, member_id, payee_name, bill_type_id, billed_cents, service_date_from, received_date)
       VALUES ('SERIES-TZ', $1, 'Series payee', 1, 2500, '2025-12-15', '2025-12-15')`,
      [member],
    );
    const { svc, clock } = service();
    clock.now = Date.parse('2026-01-01T03:00:00Z');
    const months = await svc.claimCounts({ memberId: member }, 'month');
    expect(months.at(-1)).toEqual({ Date: '2025-12-01', NumberOfClaims: 1 });
    expect(months).toHaveLength(24);
    expect(months[0]?.Date).toBe('2024-01-01');
    const amounts = await svc.billAmounts({ memberId: member }, 'quarter');
    expect(amounts.at(-1)).toEqual({ Date: '2025-10-01', AmountCents: 2500 });
  });
});

describe('the windows: 24 calendar months for months and cities, every day for days', () => {
  /** The first day of the month `back` months before the business's month on `now`, 'YYYY-MM-DD'. */
  const monthStart = (today: string, back: number) => {
    const [y, m] = today.split('-').map(Number) as [number, number];
    return new Date(Date.UTC(y, m - 1 - back, 1)).toISOString().slice(0, 10);
  };

  it('counts a bill of 23 months back in both the month series and the cities, and one of 24 months back in neither', async () => {
    const member = (await makeUser(server, { userName: 'series-window', roles: [Roles.CareGuardFinance], member: true })).memberId as number;
    const payee = (
      await server.database.sql.query<{ payee_id: number }>(
        `INSERT INTO claim_payees (name, kind, city, state) VALUES ('Window clinic', 'Clinic', 'Windowtown', 'WY') RETURNING payee_id`,
      )
    )[0]?.payee_id;
    const today = dayIn('America/Chicago');
    for (const [n, back] of [
      ['W-24', 24],
      ['W-23', 23],
      ['W-0', 0],
    ] as const)
      await server.database.sql.query(
        `INSERT INTO claims (claim_number, member_id, payee_id, payee_name, bill_type_id, billed_cents, service_date_from, received_date)
         VALUES ($1, $2, $3, 'Window clinic', 1, 1000, $4::date, $4::date)`,
        [n, member, payee, monthStart(today, back)],
      );
    const { svc } = service();
    const months = await svc.claimCounts({ memberId: member }, 'month');
    expect(months).toHaveLength(24);
    expect(months[0]).toEqual({ Date: monthStart(today, 23), NumberOfClaims: 1 });
    expect(total(months)).toBe(2);
    // The same window: the cities count the same 2 bills.
    expect(await svc.cityCounts({ memberId: member })).toEqual([{ City: 'Windowtown, WY', NumberOfClaims: 2, TotalCities: 1, TotalClaims: 2 }]);
  });

  it('answers the 25 cities with most bills, each with how many cities and bills the whole window has', async () => {
    const member = (await makeUser(server, { userName: 'series-cities', roles: [Roles.CareGuardFinance], member: true })).memberId as number;
    const today = dayIn('America/Chicago');
    // 30 cities: city i has i + 1 bills (465 bills in all).
    for (let i = 0; i < 30; i++) {
      const payee = (
        await server.database.sql.query<{ payee_id: number }>(
          `INSERT INTO claim_payees (name, kind, city, state) VALUES ($1, 'Clinic', $2, 'TX') RETURNING payee_id`,
          [`City clinic ${i}`, `Town ${String(i).padStart(2, '0')}`],
        )
      )[0]?.payee_id;
      await server.database.sql.query(
        `INSERT INTO claims (claim_number, member_id, payee_id, payee_name, bill_type_id, billed_cents, service_date_from, received_date)
         SELECT 'C-' || $3 || '-' || n, $1, $2, 'City clinic', 1, 1000, $4::date, $4::date FROM generate_series(0, $3::int) n`,
        [member, payee, i, today],
      );
    }
    const { svc } = service();
    const cities = await svc.cityCounts({ memberId: member });
    expect(cities).toHaveLength(25);
    expect(cities[0]).toEqual({ City: 'Town 29, TX', NumberOfClaims: 30, TotalCities: 30, TotalClaims: 465 });
    expect(cities.at(-1)).toMatchObject({ City: 'Town 05, TX', NumberOfClaims: 6 });
    expect(cities.every((c) => c.TotalCities === 30 && c.TotalClaims === 465)).toBe(true);
    // What the 25 leave out: the 5 smallest cities' 15 bills.
    expect(cities.reduce((s, c) => s + c.NumberOfClaims, 0)).toBe(465 - 15);
  });

  it('answers every day of the last 12 months, the days without bills as 0', async () => {
    const { svc } = service();
    const days = await svc.claimCounts({ memberId }, 'time');
    const today = dayIn('America/Chicago');
    expect(days.at(-1)?.Date).toBe(today);
    expect([366, 367]).toContain(days.length);
    const at = (d: string) => Date.parse(`${d}T00:00:00Z`);
    expect(days.every((p, i) => i === 0 || at(p.Date) - at(days[i - 1]?.Date ?? '') === 86_400_000)).toBe(true);
    expect(days.filter((p) => p.NumberOfClaims === 0).length).toBeGreaterThan(300);
  });
});
