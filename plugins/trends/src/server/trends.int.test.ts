import type { StartedServer } from '@portal/app-server/server';
import { buildPath, dayIn, Roles } from '@portal/core';
import { createSandbox, linksIn, mailTo } from '@portal/sandbox';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOW_BALANCE_SUBJECT, type SERIES_PERIODS, TrendsApi } from '../contract';
import { nextFundingDate } from './funding';

/** The dashboard calls through the kernel guard on a fresh database, with a sandbox inbox for the low-balance mail. */
let server: StartedServer & { close(): Promise<void> };
let sandbox: Awaited<ReturnType<typeof createSandbox>>;
let sandboxUrl: string;
/** The business's zone (BUSINESS_TIME_ZONE), set explicitly so no environment changes it. */
const BUSINESS_ZONE = 'America/Chicago';
const users: Record<string, { session: Session; memberId: number | null; userName: string }> = {};

const sql = () => server.database.sql;
/**
 * The day `offsetDays` before the business's today (America/Chicago, the test server's BUSINESS_TIME_ZONE), as the
 * series' windows count days: UTC's day is a day ahead every US evening.
 */
const day = (offsetDays: number) => dayIn('America/Chicago', new Date(Date.now() - offsetDays * 86_400_000));

async function user(key: string, roles: string[], brand: string, member: boolean) {
  const userName = `trends-${key}`;
  const { memberId } = await makeUser(server, { userName, roles, brand, member });
  users[key] = { session: await signIn(server, userName, undefined, '10.0.0.1', brand), memberId, userName };
}

/** Bills for a member: [days ago, billed cents, payee id] each. */
async function bills(memberId: number, rows: [number, number, number][]) {
  for (const [ago, cents, payee] of rows) {
    await sql().query(
      `INSERT INTO claims (claim_number, member_id, payee_id, payee_name, bill_type_id, billed_cents, service_date_from, received_date)
       SELECT $1, $2, payee_id, name, 1, $3, $4::date, $4::date FROM claim_payees WHERE payee_id = $5`,
      [`T${memberId}-${ago}-${cents}`, memberId, cents, day(ago), payee],
    );
  }
}

const get = (path: string, key: string, brand = users[key]?.session.brand) =>
  server.app.inject({ method: 'GET', url: path, headers: authHeaders(users[key]?.session as Session, brand) });
const claimsPath = (period: (typeof SERIES_PERIODS)[number] | string) => buildPath(TrendsApi.claims.path, { period });
const billsPath = (period: string) => buildPath(TrendsApi.bills.path, { period });
/** A day series' points with bills: the days without any are answered as 0 (every day of the window has a point). */
const withBills = <P extends { NumberOfClaims: number } | { Amount: number }>(points: P[]) =>
  points.filter((p) => ('NumberOfClaims' in p ? p.NumberOfClaims : p.Amount) !== 0);

let payees: { id: number; city: string }[];

beforeAll(async () => {
  sandbox = await createSandbox({ dataDir: null });
  sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  server = await startTestServer({ sandboxUrl, smtpUrl: null, businessTimeZone: BUSINESS_ZONE });
  await user('fin-a', [Roles.CareGuardFinance], 'finance', true);
  await user('fin-b', [Roles.CareGuardFinance], 'finance', true);
  await user('super', [Roles.SuperUser], 'staff', false);
  await user('guard', [Roles.CareGuard], 'card', true);
  await user('assist', [Roles.CareAssist], 'assist', true);
  await user('quote', [Roles.CareQuote], 'quote', true);
  await user('support', [Roles.CareSupport], 'staff', false);
  payees = (
    await sql().query<{ payee_id: number; city: string; state: string }>(
      'SELECT payee_id, city, state FROM claim_payees WHERE city IS NOT NULL AND state IS NOT NULL ORDER BY payee_id LIMIT 2',
    )
  ).map((p) => ({ id: p.payee_id, city: `${p.city}, ${p.state}` }));
  const [p1, p2] = payees as [{ id: number; city: string }, { id: number; city: string }];
  // Member A: 3 bills today, 1 forty days ago, 1 older than every window (900 days).
  await bills(users['fin-a']?.memberId as number, [
    [0, 10_050, p1.id],
    [0, 2_000, p1.id],
    [0, 1_000, p2.id],
    [40, 50_000, p2.id],
    [900, 99_999, p1.id],
  ]);
  // Member B: 2 bills today; never in A's series.
  await bills(users['fin-b']?.memberId as number, [
    [0, 7_00, p2.id],
    [0, 3_00, p2.id],
  ]);
});
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

describe('claims-based dashboard series: who may call them', () => {
  const paths = [
    claimsPath('time'),
    claimsPath('quarter'),
    claimsPath('month'),
    billsPath('time'),
    billsPath('quarter'),
    billsPath('month'),
    TrendsApi.cities.path,
    TrendsApi.fundingDate.path,
  ];

  it('answers 401 without a sign-in', async () => {
    for (const url of paths) expect((await server.app.inject({ method: 'GET', url, headers: { host: 'finance.localhost' } })).statusCode, url).toBe(401);
  });

  it('answers 403 to the transaction-based and quote roles (spec 02 section 6)', async () => {
    for (const key of ['guard', 'assist', 'quote', 'support']) for (const url of paths) expect((await get(url, key)).statusCode, `${key} ${url}`).toBe(403);
  });

  it('answers 200 to CareGuardFinance and SuperUser', async () => {
    for (const key of ['fin-a', 'super'])
      for (const url of paths) {
        const res = await get(url, key);
        expect(res.statusCode, `${key} ${url} ${res.body}`).toBe(200);
      }
  });

  it('refuses a period the spec does not name with 400', async () => {
    expect((await get(claimsPath('week'), 'fin-a')).statusCode).toBe(400);
    expect((await get(billsPath('%00'), 'fin-a')).statusCode).toBe(400);
  });
});

describe('series shapes and scoping', () => {
  it('claims/month: 24 months oldest first, with zeros, counting the member’s own bills only', async () => {
    const res = await get(claimsPath('month'), 'fin-a');
    const points = res.json().Data as { Date: string; NumberOfClaims: number }[];
    expect(points).toHaveLength(24);
    expect(points.map((p) => p.Date)).toEqual([...points.map((p) => p.Date)].sort());
    expect(points.every((p) => p.Date.endsWith('-01'))).toBe(true);
    expect(points.at(-1)).toEqual({ Date: `${day(0).slice(0, 7)}-01`, NumberOfClaims: 3 + (day(40).slice(0, 7) === day(0).slice(0, 7) ? 1 : 0) });
    // 4 in the window; the 900-day-old bill and member B's two are not counted.
    expect(points.reduce((s, p) => s + p.NumberOfClaims, 0)).toBe(4);
  });

  it('claims/time: every day of the last 12 months up to today, those without bills as 0; claims/quarter: 8 quarters', async () => {
    const time = (await get(claimsPath('time'), 'fin-a')).json().Data as { Date: string; NumberOfClaims: number }[];
    expect(withBills(time)).toEqual([
      { Date: day(40), NumberOfClaims: 1 },
      { Date: day(0), NumberOfClaims: 3 },
    ]);
    // 12 months back to today, both ends in: 366 or 367 days, one after the other, none missing.
    expect([366, 367]).toContain(time.length);
    expect(time.at(-1)?.Date).toBe(day(0));
    const at = (d: string) => Date.parse(`${d}T00:00:00Z`);
    expect(time.every((p, i) => i === 0 || at(p.Date) - at(time[i - 1]?.Date ?? '') === 86_400_000)).toBe(true);
    const quarter = (await get(claimsPath('quarter'), 'fin-a')).json().Data as { Date: string; NumberOfClaims: number }[];
    expect(quarter).toHaveLength(8);
    expect(quarter.reduce((s, p) => s + p.NumberOfClaims, 0)).toBe(4);
  });

  it('bills/time: the billed amount per day in dollars', async () => {
    const time = (await get(billsPath('time'), 'fin-a')).json().Data;
    expect(withBills(time)).toEqual([
      { Date: day(40), Amount: 500 },
      { Date: day(0), Amount: 130.5 },
    ]);
  });

  it('cities/bill: bills per payee city, most first, with the totals of the window', async () => {
    const [p1, p2] = payees as [{ id: number; city: string }, { id: number; city: string }];
    const cities = (await get(TrendsApi.cities.path, 'fin-a')).json().Data as { City: string; NumberOfClaims: number }[];
    if (p1.city === p2.city) expect(cities).toEqual([{ City: p1.city, NumberOfClaims: 4, TotalCities: 1, TotalClaims: 4 }]);
    else
      expect(cities).toEqual(
        [
          { City: p2.city, NumberOfClaims: 2, TotalCities: 2, TotalClaims: 4 },
          { City: p1.city, NumberOfClaims: 2, TotalCities: 2, TotalClaims: 4 },
        ].sort((a, b) => b.NumberOfClaims - a.NumberOfClaims || a.City.localeCompare(b.City)),
      );
  });

  it('another member sees their own series only', async () => {
    const time = (await get(billsPath('time'), 'fin-b')).json().Data;
    expect(withBills(time)).toEqual([{ Date: day(0), Amount: 10 }]);
  });

  it('SuperUser not acting for a member sees every member’s; acting for one, that member’s', async () => {
    const all = (await get(claimsPath('time'), 'super')).json().Data as { Date: string; NumberOfClaims: number }[];
    expect(all.find((p) => p.Date === day(0))?.NumberOfClaims).toBe(5);
    const res = await server.app.inject({
      method: 'GET',
      url: claimsPath('time'),
      headers: authHeaders(users.super?.session as Session, 'staff', { 'x-member-id': String(users['fin-b']?.memberId) }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(withBills(res.json().Data)).toEqual([{ Date: day(0), NumberOfClaims: 2 }]);
  });

  it('admin/foundingdate: the next first business day of a month', async () => {
    const res = await get(TrendsApi.fundingDate.path, 'fin-a');
    expect(res.json().Data).toEqual({ FundingDate: nextFundingDate(BUSINESS_ZONE) });
  });

  it("admin/foundingdate: goes by the business's day, not the UTC day nor the caller's", async () => {
    // 7 pm CST on Monday 2025-12-01, the funding day, is already 12/02 in UTC and (10 am) in the caller's Tokyo.
    // Back in time, so the session signed in now is still live.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-12-02T01:00:00Z'));
    try {
      const res = await server.app.inject({
        method: 'GET',
        url: TrendsApi.fundingDate.path,
        headers: authHeaders(users['fin-a']?.session as Session, 'finance', { 'x-time-zone': 'Asia/Tokyo' }),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Data).toEqual({ FundingDate: '2025-12-01' });
      // One minute after midnight in Chicago: next month's, Thursday 2026-01-01.
      vi.setSystemTime(new Date('2025-12-02T06:01:00Z'));
      expect((await get(TrendsApi.fundingDate.path, 'fin-a')).json().Data).toEqual({ FundingDate: '2026-01-01' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('POST email/lowbalance', () => {
  const post = (key: string, body: unknown, extra: Record<string, string> = {}) =>
    server.app.inject({
      method: 'POST',
      url: TrendsApi.lowBalance.path,
      headers: authHeaders(users[key]?.session as Session, undefined, extra),
      payload: body as object,
    });
  const inbox = async (key: string) => {
    await server.jobs.drain();
    return (await mailTo(sandboxUrl, `${users[key]?.userName}@example.com`)).filter((m) => m.subject === LOW_BALANCE_SUBJECT);
  };

  it('sends the e-mail once per crossing under the threshold, not on every read', async () => {
    const steps: [number, boolean, boolean][] = [
      [250, false, false], // over $100: nothing
      [80.5, true, true], // crosses under: sent
      [40, false, true], // still under: not again
      [40, false, true],
      [100, false, false], // back at the threshold: re-armed
      [12.34, true, true], // crosses again: sent
    ];
    for (const [balance, sent, below] of steps) {
      const res = await post('guard', { Balance: balance, AccountType: 'Prepaid card' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Data, `balance ${balance}`).toEqual({ Sent: sent, Below: below });
    }
    const mails = await inbox('guard');
    expect(mails).toHaveLength(2);
    const texts = mails.map((m) => m.text).join('\n');
    expect(texts).toContain('$80.50');
    expect(texts).toContain('$12.34');
    expect(texts).toContain('Prepaid card');
    expect(mails[0]?.brand).toBe('card');
    // Its button signs the member in on their brand's site, to add funds.
    expect(mails[0]?.text).toMatch(/^Sign in: http:\/\/card\.localhost:\d+\/login$/m);
    expect(mails[0]?.html).toContain('>Sign in</a>');
    expect(linksIn(mails[0] as NonNullable<(typeof mails)[0]>)).toContain(`http://card.localhost:${server.config.port}/login`);
  });

  it('a first reading under the threshold sends it; concurrent readings send it once', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => post('assist', { Balance: 5, AccountType: 'Checking' })));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(results.filter((r) => r.json().Data.Sent)).toHaveLength(1);
    expect(await inbox('assist')).toHaveLength(1);
  });

  it('refuses staff not acting for a member, a role without a balance, and bad input', async () => {
    expect((await post('super', { Balance: 5, AccountType: 'Checking' })).statusCode).toBe(403);
    expect((await post('quote', { Balance: 5, AccountType: 'Checking' })).statusCode).toBe(403);
    expect((await post('guard', { Balance: 'low', AccountType: 'Checking' })).statusCode).toBe(400);
    expect((await post('guard', { Balance: 5 })).statusCode).toBe(400);
    expect((await post('guard', {})).statusCode).toBe(400);
    const anon = await server.app.inject({ method: 'POST', url: TrendsApi.lowBalance.path, headers: { host: 'card.localhost' }, payload: {} });
    expect(anon.statusCode).toBe(401);
  });

  it('refuses a Balance with more than 2 decimals (400) rather than rounding it under the threshold: no e-mail, no state', async () => {
    await user('cents', [Roles.CareGuard], 'card', true);
    const memberId = users.cents?.memberId as number;
    // Rounded, 99.994 and 99.9949 would be $99.99, under $100.00 (an e-mail for a balance nobody showed); 99.995 $100.00.
    for (const Balance of [99.994, 99.9949, 99.995, 99.999, '99.99']) {
      const res = await post('cents', { Balance, AccountType: 'Checking' });
      expect(res.statusCode, String(Balance)).toBe(400);
      expect(res.json().MsgText, String(Balance)).toMatch(/^body\.Balance: /);
    }
    expect(await inbox('cents')).toHaveLength(0);
    expect(await sql().query('SELECT 1 FROM trends_low_balance WHERE member_id = $1', [memberId])).toHaveLength(0);
    // Whole cents are taken as sent: $99.99 is under the threshold and sends the e-mail once.
    const cents = await post('cents', { Balance: 99.99, AccountType: 'Checking' });
    expect(cents.json().Data).toEqual({ Sent: true, Below: true });
    const mails = await inbox('cents');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('$99.99');
  });

  it('records no crossing when its e-mail could not be queued: the next reading under the threshold sends it', async () => {
    await user('queue-fails', [Roles.CareGuard], 'card', true);
    const realSend = server.jobs.send.bind(server.jobs);
    let refused = 0;
    const spy = vi.spyOn(server.jobs, 'send').mockImplementation(async (name, payload, opts) => {
      if (name === 'mail.send' && refused === 0) {
        refused++;
        throw new Error('the job queue is unavailable');
      }
      return realSend(name, payload, opts);
    });
    try {
      const failed = await post('queue-fails', { Balance: 60, AccountType: 'Checking' });
      expect(refused).toBe(1);
      expect(failed.statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(await sql().query('SELECT 1 FROM trends_low_balance WHERE member_id = $1', [users['queue-fails']?.memberId])).toHaveLength(0);
    const next = await post('queue-fails', { Balance: 10, AccountType: 'Checking' });
    expect(next.json().Data).toEqual({ Sent: true, Below: true });
    const mails = await inbox('queue-fails');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('$10.00');
  });

  it('staff acting for a member send to that member', async () => {
    const res = await post('support', { Balance: 1, AccountType: 'Checking' }, { 'x-member-id': String(users['fin-b']?.memberId) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data).toEqual({ Sent: true, Below: true });
    expect(await inbox('fin-b')).toHaveLength(1);
  });
});

// Runs last: it adds bills that the counts above do not expect.
describe("a member's own bill series: transactions/bills/:period and transactions/cities/bill", () => {
  const memberBillsPath = (period: string) => buildPath(TrendsApi.memberBills.path, { period });

  it('answers 403 to CareGuardFinance, CareQuote and CareAssist (no bills), and 400 to staff not acting for a member', async () => {
    for (const key of ['fin-a', 'quote', 'assist']) expect((await get(memberBillsPath('time'), key)).statusCode, key).toBe(403);
    for (const key of ['super', 'support']) {
      const res = await get(TrendsApi.memberCities.path, key);
      expect(res.statusCode, key).toBe(400);
      expect(res.json().MsgText).toBe('Your account has no bills of its own. Choose a member to act for first.');
    }
  });

  it("answers a member with their own bills only, in dollars, and staff acting for them with that member's", async () => {
    const guardId = users.guard?.memberId as number;
    const [p1] = payees as [{ id: number; city: string }];
    await bills(guardId, [
      [0, 12_345, p1.id],
      [3, 5_00, p1.id],
    ]);
    const time = (await get(memberBillsPath('time'), 'guard')).json().Data;
    expect(withBills(time)).toEqual([
      { Date: day(3), Amount: 5 },
      { Date: day(0), Amount: 123.45 },
    ]);
    const months = (await get(memberBillsPath('month'), 'guard')).json().Data as { Date: string; Amount: number }[];
    expect(months).toHaveLength(24);
    expect(months.reduce((s, p) => s + p.Amount, 0)).toBeCloseTo(128.45, 2);
    expect((await get(TrendsApi.memberCities.path, 'guard')).json().Data).toEqual([{ City: p1.city, NumberOfClaims: 2, TotalCities: 1, TotalClaims: 2 }]);
    const acting = await server.app.inject({
      method: 'GET',
      url: memberBillsPath('time'),
      headers: authHeaders(users.support?.session as Session, 'staff', { 'x-member-id': String(guardId) }),
    });
    expect(acting.statusCode, acting.body).toBe(200);
    expect(acting.json().Data).toEqual(time);
  });

  it('refuses a period the spec does not name with 400', async () => {
    expect((await get(memberBillsPath('year'), 'guard')).statusCode).toBe(400);
  });
});

describe("the dashboard calls in the member's language", () => {
  const spanish = { cookie: 'cq.lang=es' };
  it('words refusals in Spanish for a Spanish request', async () => {
    const cities = await server.app.inject({
      method: 'GET',
      url: TrendsApi.memberCities.path,
      headers: authHeaders(users.super?.session as Session, 'staff', spanish),
    });
    expect(cities.statusCode).toBe(400);
    expect(cities.json().MsgText).toBe('Su cuenta no tiene facturas propias. Primero elija el miembro en cuyo nombre actuar.');
    const low = await server.app.inject({
      method: 'POST',
      url: TrendsApi.lowBalance.path,
      headers: authHeaders(users.super?.session as Session, 'staff', spanish),
      payload: { Balance: 5, AccountType: 'Checking' },
    });
    expect(low.statusCode).toBe(403);
    expect(low.json().MsgText).toBe('Primero elija el miembro en cuyo nombre actuar: el correo electrónico de saldo bajo se envía a un miembro.');
  });

  it('writes the low-balance e-mail in the language of the member, whoever reports the balance', async () => {
    await user('es-guard', [Roles.CareGuard], 'card', true);
    const memberId = users['es-guard']?.memberId as number;
    await sql().query(`UPDATE users SET language = 'es' WHERE member_id = $1`, [memberId]);
    // The page reports the balance in English; the e-mail follows the member's language, not the request's.
    const res = await server.app.inject({
      method: 'POST',
      url: TrendsApi.lowBalance.path,
      headers: authHeaders(users['es-guard']?.session as Session),
      payload: { Balance: 42, AccountType: 'Prepaid card' },
    });
    expect(res.json().Data).toEqual({ Sent: true, Below: true });
    await server.jobs.drain();
    const mail = (await mailTo(sandboxUrl, 'trends-es-guard@example.com')).filter((m) => m.subject === 'Saldo bajo en la cuenta');
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toMatch(/^Hola, .+:/);
    expect(mail[0]?.text).toContain('El saldo de su cuenta Prepaid card es de $42.00, por debajo de $100.00.');
    expect(mail[0]?.text).toContain('Agregue fondos para que sus facturas se puedan pagar a tiempo.');
    expect(mail[0]?.text).toContain('¿Tiene preguntas? Comuníquese con nosotros en ');
  });
});

// Runs after the counts above: it adds a bill.
describe('every member’s series are kept for up to 5 minutes; a member’s own are always fresh', () => {
  type Point = { Date: string; NumberOfClaims: number };
  const today = (points: Point[]) => points.find((p) => p.Date === day(0))?.NumberOfClaims ?? 0;
  const asSuper = async (extra: Record<string, string> = {}) => {
    const res = await server.app.inject({ method: 'GET', url: claimsPath('time'), headers: authHeaders(users.super?.session as Session, 'staff', extra) });
    expect(res.statusCode, res.body).toBe(200);
    return today(res.json().Data as Point[]);
  };

  it('answers SuperUser acting for nobody from the series taken first until it is 5 minutes old; a member sees a new bill at once', async () => {
    const memberB = users['fin-b']?.memberId as number;
    const [, p2] = payees as [{ id: number; city: string }, { id: number; city: string }];
    const inTable = async () => (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE received_date = $1::date', [day(0)]))[0]?.n ?? 0;
    const everyone = await asSuper();
    const own = today((await get(claimsPath('time'), 'fin-b')).json().Data as Point[]);
    await bills(memberB, [[0, 4_44, p2.id]]);
    // Every member's: still the one taken before the bill (and before the bills the tests above added).
    expect(await asSuper()).toBe(everyone);
    expect(await inTable()).toBeGreaterThan(everyone);
    // The member's own, and SuperUser acting for the member: with it.
    expect(today((await get(claimsPath('time'), 'fin-b')).json().Data as Point[])).toBe(own + 1);
    expect(await asSuper({ 'x-member-id': String(memberB) })).toBe(own + 1);
    // Five minutes later every member's is taken again.
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 5 * 60_000 + 1_000);
    try {
      expect(await asSuper()).toBe(await inTable());
    } finally {
      clock.mockRestore();
    }
  });
});
