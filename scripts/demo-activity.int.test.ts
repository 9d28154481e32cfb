import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { SupportApi } from '@portal/plugin-support/contract';
import { createSandbox } from '@portal/sandbox';
import { authHeaders, makeUser, type Session, signIn, startTestServer, TEST_PASSWORD } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PLANS, demoActivity } from './demo-activity';

/**
 * The demo's card payments (scripts/start), made over real HTTP against a listening API and the sandbox gateway, as
 * scripts/start runs them: what support's lists then show, and that a second run moves no money and adds no card.
 */
const GATEWAY = { loginId: 'sandbox-merchant', transactionKey: 'sandbox-transaction-key', signatureKey: 'sandbox-signature-key', tickMs: 0 };
const BASIC = `Basic ${Buffer.from(`${GATEWAY.loginId}:${GATEWAY.transactionKey}`).toString('base64')}`;
let sandbox: Awaited<ReturnType<typeof createSandbox>>;
let sandboxUrl: string;
let server: StartedServer;
let apiUrl: string;
let staff: Session;
const memberIds: Record<string, number> = {};

beforeAll(async () => {
  sandbox = await createSandbox({ dataDir: null, gateway: GATEWAY });
  sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  server = await startTestServer({ sandboxUrl, smtpUrl: null });
  apiUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  await makeUser(server, { userName: 'staff.caresupport', roles: [Roles.CareSupport], brand: 'staff' });
  for (const [userName, brand, role] of [
    ['card.careguard', 'card', Roles.CareGuard],
    ['assist.careassist', 'assist', Roles.CareAssist],
  ] as const) {
    const { memberId } = await makeUser(server, { userName, roles: [role], brand, member: true });
    if (memberId === null) throw new Error('no member');
    memberIds[userName] = memberId;
    // The seed's demo members have these addresses; the plans find their members by them.
    await server.database.sql.query('UPDATE members SET email = $1 WHERE member_id = $2', [`${userName}@demo.example.com`, memberId]);
  }
  staff = await signIn(server, 'staff.caresupport');
});
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

const run = () => demoActivity({ apiUrl, sandboxUrl, password: TEST_PASSWORD, log: () => {} });

/** Every transaction support's list shows, as description and status, sorted by description. */
async function supportList() {
  const res = await server.app.inject({
    method: 'POST',
    url: SupportApi.transactions.path,
    headers: authHeaders(staff),
    payload: { PageSize: 50, Query: { Status: 'All' } },
  });
  expect(res.statusCode).toBe(200);
  const items = res.json().Data.Items as { TransactionID: number; Description: string | null; Status: string; Amount: number; Member: { MemberID: number } }[];
  return items
    .map((t) => ({ id: t.TransactionID, memberId: t.Member.MemberID, what: t.Description, status: t.Status, amount: t.Amount }))
    .sort((a, b) => a.id - b.id);
}
const cards = async (memberId: number) =>
  (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM billing_cards WHERE member_id = $1', [memberId]))[0]?.n;
async function gatewayTransactions(memberId: number) {
  const customer = (
    await server.database.sql.query<{ id: number }>('SELECT customer_profile_id AS id FROM billing_customers WHERE member_id = $1', [memberId])
  )[0]?.id;
  const res = await fetch(`${sandboxUrl}/gateway/api/customers/${customer}/transactions`, { headers: { authorization: BASIC } });
  expect(res.status).toBe(200);
  return ((await res.json()) as unknown[]).length;
}

describe('demo activity (scripts/demo-activity.ts)', () => {
  it('leaves support a list with charged, refunded, voided, authorized, declined and held payments of two members', async () => {
    expect(await run()).toEqual({ members: 2, calls: DEMO_PLANS.reduce((n, p) => n + p.steps.filter((s) => s.kind !== 'settle').length, 0) });
    const card = memberIds['card.careguard'];
    const assist = memberIds['assist.careassist'];
    const list = await supportList();
    const of = (memberId: number | undefined) => list.filter((t) => t.memberId === memberId).map(({ what, status, amount }) => ({ what, status, amount }));
    expect(of(card)).toEqual([
      { what: "St. Mary's Hospital, emergency visit", status: 'Charged', amount: 125.4 },
      { what: 'Riverside Pharmacy, prescriptions', status: 'Refunded', amount: 48 },
      { what: 'Lakeview Imaging, duplicate payment', status: 'Voided', amount: 19.99 },
      { what: 'Valley Medical Center, outpatient surgery', status: 'Authorized', amount: 210.15 },
      { what: 'Mercy Hospital, inpatient stay', status: 'Pending', amount: 1250 },
    ]);
    expect(of(assist)).toEqual([
      { what: 'Northside Clinic, office visit', status: 'Charged', amount: 86.2 },
      { what: 'Bay Dental Group, cleaning', status: 'Declined', amount: 64.1 },
      { what: 'Harbor Physical Therapy, six sessions', status: 'Declined', amount: 342.75 },
      { what: 'Summit Labs, blood panel', status: 'Authorized', amount: 150 },
    ]);
    expect(await cards(card ?? 0)).toBe(2);
    expect(await cards(assist ?? 0)).toBe(2);
    // A declined charge retried by support goes to the member's default card: the first one saved, which is approved.
    const declined = list.find((t) => t.what === 'Bay Dental Group, cleaning');
    const retry = await server.app.inject({
      method: 'POST',
      url: SupportApi.charge.path,
      headers: authHeaders(staff),
      payload: { TransactionID: declined?.id, IdempotencyKey: 'test-retry-dental' },
    });
    expect(retry.json().Data.StatusString).toBe('Ok');
  });

  it('run again, it adds no card and moves no money', async () => {
    const card = memberIds['card.careguard'] ?? 0;
    const assist = memberIds['assist.careassist'] ?? 0;
    const before = { list: await supportList(), gateway: [await gatewayTransactions(card), await gatewayTransactions(assist)] };
    await run();
    expect(await supportList()).toEqual(before.list);
    expect([await gatewayTransactions(card), await gatewayTransactions(assist)]).toEqual(before.gateway);
    expect([await cards(card), await cards(assist)]).toEqual([2, 2]);
  });

  it('leaves out a member the data does not have, and says so', async () => {
    const lines: string[] = [];
    const r = await demoActivity({
      apiUrl,
      sandboxUrl,
      password: TEST_PASSWORD,
      plans: [{ userName: 'nobody.here', cards: [], steps: [] }],
      log: (l) => lines.push(l),
    });
    expect(r).toEqual({ members: 0, calls: 0 });
    expect(lines).toEqual(['  demo activity: no member nobody.here, left out']);
  });
});
