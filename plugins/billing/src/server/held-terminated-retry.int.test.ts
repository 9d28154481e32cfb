import type { StartedServer } from '@portal/app-server/server';
import { mailTo } from '@portal/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BillingApi, type BillingProfile } from '../contract';
import { HELD_TERMINATED_JOB, type HeldTerminatedJob } from './core';
import { failing, type ProviderProxy, type ProxyMode } from './test-proxy';
import { type BillingStack, saveCardAtGateway, startBillingStack } from './test-stack';

/**
 * The give-back of a terminated member's approved first payment (the subscription it created canceled at the gateway,
 * the charge voided or refunded) when the gateway fails during it: a proxy between our server and the sandbox fails
 * the cancel and the void or refund, and the job `billing.held-terminated.finish` finishes what is left once the
 * gateway answers again, moving the money once however often it runs.
 */
const UNAVAILABLE: ProxyMode = { status: 503, body: { error: 'Service unavailable' } };
let stack: BillingStack;
let sandboxUrl: string;
let proxy: ProviderProxy;
let server: StartedServer & { dropDatabase(): Promise<void> };

const call = (path: string, session: Session, body?: unknown) =>
  server.app.inject({ method: body === undefined ? 'GET' : 'POST', url: path, headers: authHeaders(session, 'card'), payload: body as object });
const data = async <T>(path: string, session: Session, body?: unknown) => {
  const res = await call(path, session, body);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json().Data as T;
};
const gw = <T>(path: string, method = 'GET') => stack.gateway<T>(path, method);
const q = <T>(text: string, params: unknown[] = []) => server.database.sql.query<T & Record<string, unknown>>(text, params);

type GwTx = { transId: number; type: string; status: string; responseCode: string; refTransId: number | null; subscriptionId: number | null };
/** The gateway's approved voids and refunds of one charge: the money it gave back. */
const gatewayReversals = async (customerId: number, transId: number) =>
  (await gw<GwTx[]>(`/customers/${customerId}/transactions`))
    .filter((t) => (t.type === 'void' || t.type === 'refund') && t.refTransId === transId && t.responseCode === '1')
    .map((t) => t.type);
/** Our voids and refunds of one charge. */
const ourReversals = async (id: number) =>
  (await q<{ kind: string }>(`SELECT kind FROM billing_transactions WHERE ref_transaction_id = $1 ORDER BY id`, [id])).map((r) => r.kind);
const rowStatus = async (id: number) => (await q<{ status: string }>('SELECT status FROM billing_transactions WHERE id = $1', [id]))[0]?.status;
const subscriptionAt = async (id: number | null) => (await gw<{ status: string }>(`/subscriptions/${id}`)).status;

type Audit = { outcome: string; actor_name: string | null; detail: Record<string, unknown> };
const terminatedAudits = async (id: number) => {
  await server.flushAudit();
  return q<Audit>(`SELECT outcome, actor_name, detail FROM audit_log WHERE action = 'billing.held.terminated' AND entity_id = $1 ORDER BY id`, [String(id)]);
};
/** What an audited failure names as left: the step of each problem ('cancel', 'void', 'refund'). */
const whatFailed = (a: Audit | undefined) => ((a?.detail.problems as string[] | undefined) ?? []).map((p) => p.split(':')[0]);
/** The finishing jobs queued for one charge, whatever their state (finished ones stay an hour, then are archived). */
const jobsOf = (id: number) =>
  q<{ state: string; data: HeldTerminatedJob }>(
    `SELECT state::text AS state, data FROM pgboss.job WHERE name = $1 AND (data->>'transactionId')::int = $2
     UNION ALL SELECT state::text, data FROM pgboss.archive WHERE name = $1 AND (data->>'transactionId')::int = $2`,
    [HELD_TERMINATED_JOB, id],
  );
/**
 * A retry waiting for its delay (a minute or more) runs now: its next attempt, or with `lastAttempt` the last one
 * (pg-boss counts a retry when it takes the job up: retry_limit - 1 before it is the last).
 */
const retryNow = (id: number, lastAttempt = false) =>
  q(
    `UPDATE pgboss.job SET start_after = now()${lastAttempt ? ', retry_count = retry_limit - 1' : ''}
     WHERE name = $1 AND (data->>'transactionId')::int = $2 AND state = 'retry'`,
    [HELD_TERMINATED_JOB, id],
  );
/** The proxy fails the given requests (each `times` times; every time when omitted) and passes the rest. */
const failingAll = (rules: { method: string; path: string | RegExp; mode: ProxyMode; times?: number }[]): ProviderProxy['rule'] => {
  const each = rules.map((r) => failing(r.method, r.path, r.mode, r.times ?? Number.POSITIVE_INFINITY));
  return (m, p) => {
    for (const rule of each) {
      const mode = rule(m, p);
      if (mode !== 'pass') return mode;
    }
    return 'pass';
  };
};
const CANCEL = /^\/gateway\/api\/subscriptions\/\d+\/cancel$/;
const TRANSACTIONS = '/gateway/api/transactions';

/**
 * The gateway fails the cancel and every transaction while the approval's webhook is delivered and the job's first run
 * goes: the job waits for its retry, and the gateway still fails until a test lets it answer (proxy.rule).
 */
async function failFirstRun(a: { id: number; deliver: () => Promise<boolean> }) {
  proxy.rule = failingAll([
    { method: 'POST', path: CANCEL, mode: UNAVAILABLE },
    { method: 'POST', path: TRANSACTIONS, mode: UNAVAILABLE },
  ]);
  expect(await a.deliver()).toBe(true);
  await server.jobs.drain();
  expect((await jobsOf(a.id)).map((j) => j.state)).toEqual(['retry']);
}

interface Approved {
  memberId: number;
  email: string;
  id: number;
  transId: number;
  subscriptionId: number | null;
  customerId: number;
  /** Delivers the gateway's webhook of the approval (the body it signed) to our endpoint; answers whether it recorded anything. */
  deliver: () => Promise<boolean>;
}
/**
 * A member whose monthly membership's first payment the gateway held for review, terminated (the termination job not
 * yet run), whose payment the merchant then approves on the gateway's screen; its webhook not yet delivered.
 */
async function approvedForTerminated(userName: string): Promise<Approved> {
  const memberId = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  const session = await signIn(server, userName);
  const t = await data<{ Token: string }>(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`, session);
  const saved = await saveCardAtGateway(sandboxUrl, t.Token, '4000000000000259');
  expect(saved.status).toBe(200);
  const profile = await data<BillingProfile>(BillingApi.sync.path, session);
  const held = await data<{ StatusString: string; TransactionID: number }>(BillingApi.start.path, session, {
    Type: 1,
    IdempotencyKey: `${userName}-monthly-0001`,
  });
  expect(held.StatusString).toBe('Error');
  const id = held.TransactionID;
  const transId = (await q<{ gateway_trans_id: number }>('SELECT gateway_trans_id FROM billing_transactions WHERE id = $1', [id]))[0]?.gateway_trans_id ?? 0;
  const subscriptionId = (await gw<GwTx>(`/transactions/${transId}`)).subscriptionId;
  await q('UPDATE members SET termination_date = now() WHERE member_id = $1', [memberId]);
  expect((await stack.merchantScreen(`held/${transId}/approve`)).status).toBe(303);
  const [raw] = await stack.sentWebhooks(['net.authorize.payment.fraud.approved'], [transId]);
  if (!raw) throw new Error(`no webhook of the approval of ${transId}`);
  const deliver = async () => {
    const res = await stack.webhook(raw);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().Data as { Recorded: boolean }).Recorded;
  };
  return { memberId, email: `${userName}@example.com`, id, transId, subscriptionId, customerId: profile.CustomerId ?? 0, deliver };
}

beforeAll(async () => {
  const started = await startBillingStack({ sites: ['card'], proxy: true });
  stack = started;
  ({ sandboxUrl, server, proxy } = started);
});
beforeEach(() => {
  proxy.rule = () => 'pass';
  proxy.seen.length = 0;
});
afterAll(async () => {
  await stack?.close();
});

describe("billing: a terminated member's approved held first payment whose give-back the gateway failed", () => {
  it('is finished by the job once the gateway answers again: the subscription canceled and the charge voided once', async () => {
    const a = await approvedForTerminated('htr-void');
    proxy.rule = failingAll([
      { method: 'POST', path: CANCEL, mode: UNAVAILABLE },
      { method: 'POST', path: TRANSACTIONS, mode: UNAVAILABLE },
    ]);
    expect(await a.deliver()).toBe(true);
    // The first attempt failed: audited naming what is left, and the job queued with it.
    const [first] = await terminatedAudits(a.id);
    expect(first).toMatchObject({
      outcome: 'failure',
      detail: { subscriptionCanceled: false, reversal: 'void', reversed: false, retryJob: HELD_TERMINATED_JOB },
    });
    expect(whatFailed(first)).toEqual(['cancel', 'void']);
    expect((await jobsOf(a.id)).map((j) => j.data)).toEqual([
      { transactionId: a.id, subscriptionId: a.subscriptionId, subscriptionType: 1, action: 'billing.held.terminated' },
    ]);
    expect(await rowStatus(a.id)).toBe('Charged');
    expect(await subscriptionAt(a.subscriptionId)).toBe('active');

    // Its first run finds the gateway still failing: it is retried later, and nothing more is audited meanwhile.
    await server.jobs.drain();
    expect((await jobsOf(a.id)).map((j) => j.state)).toEqual(['retry']);
    expect(await terminatedAudits(a.id)).toHaveLength(1);
    expect(await ourReversals(a.id)).toEqual([]);

    // The gateway answers again; the retry finishes it.
    proxy.rule = () => 'pass';
    await retryNow(a.id);
    await server.jobs.drain();
    expect((await jobsOf(a.id)).map((j) => j.state)).toEqual(['completed']);
    expect(await subscriptionAt(a.subscriptionId)).toBe('canceled');
    expect(await rowStatus(a.id)).toBe('Voided');
    expect(await ourReversals(a.id)).toEqual(['void']);
    expect(await gatewayReversals(a.customerId, a.transId)).toEqual(['void']);
    expect((await gw<GwTx>(`/transactions/${a.transId}`)).status).toBe('voided');
    const audits = await terminatedAudits(a.id);
    expect(audits).toHaveLength(2);
    expect(audits[1]).toMatchObject({
      outcome: 'success',
      actor_name: 'system',
      detail: { retried: true, attempt: 2, subscriptionCanceled: true, reversal: 'void', reversed: true, finished: ['cancel', 'void'] },
    });
    expect(audits[1]?.detail.problems).toBeUndefined();
    // The member starts nothing: no membership.
    expect(
      (await q<{ subscription_status: string | null }>('SELECT subscription_status FROM billing_customers WHERE member_id = $1', [a.memberId]))[0],
    ).toMatchObject({ subscription_status: null });
  });

  it('refunds by the job a charge the gateway settled while it was failing (a void is no longer possible)', async () => {
    const a = await approvedForTerminated('htr-refund');
    await failFirstRun(a);
    await gw('/settle-now', 'POST');
    expect((await gw<GwTx>(`/transactions/${a.transId}`)).status).toBe('settledSuccessfully');

    proxy.rule = () => 'pass';
    await retryNow(a.id);
    await server.jobs.drain();
    expect(await subscriptionAt(a.subscriptionId)).toBe('canceled');
    expect(await rowStatus(a.id)).toBe('Refunded');
    expect(await ourReversals(a.id)).toEqual(['refund']);
    expect(await gatewayReversals(a.customerId, a.transId)).toEqual(['refund']);
    expect((await terminatedAudits(a.id)).at(-1)).toMatchObject({
      outcome: 'success',
      detail: { retried: true, reversal: 'refund', reversed: true, finished: ['cancel', 'refund'] },
    });
  });

  it('gives the money back once when the void went through but its answer was lost, however often the job runs or the webhook comes', async () => {
    const a = await approvedForTerminated('htr-lost');
    // The cancel fails; the void reaches the gateway, which voids the charge, and its answer never reaches us.
    proxy.rule = failingAll([
      { method: 'POST', path: CANCEL, mode: UNAVAILABLE, times: 1 },
      { method: 'POST', path: TRANSACTIONS, mode: 'dropAnswer', times: 1 },
    ]);
    expect(await a.deliver()).toBe(true);
    expect(proxy.seen).toContain(`dropAnswer POST ${TRANSACTIONS}`);
    expect((await gw<GwTx>(`/transactions/${a.transId}`)).status).toBe('voided');
    expect(await terminatedAudits(a.id)).toMatchObject([{ outcome: 'failure', detail: { reversed: false } }]);
    expect(await ourReversals(a.id)).toEqual([]);

    await server.jobs.drain();
    // The job recorded the gateway's void (its answer to the same key) rather than voiding or refunding again.
    expect(await ourReversals(a.id)).toEqual(['void']);
    expect(await rowStatus(a.id)).toBe('Voided');
    expect(await gatewayReversals(a.customerId, a.transId)).toEqual(['void']);
    expect(await subscriptionAt(a.subscriptionId)).toBe('canceled');
    expect((await terminatedAudits(a.id)).at(-1)).toMatchObject({ outcome: 'success', detail: { retried: true, finished: ['cancel', 'void'] } });

    // The same job delivered again, twice at once, and the webhook again: nothing more moves.
    const payload = (await jobsOf(a.id))[0]?.data as HeldTerminatedJob;
    await Promise.all(['rerun-1', 'rerun-2'].map((key) => server.jobs.send(HELD_TERMINATED_JOB, payload, { singletonKey: key })));
    expect(await a.deliver()).toBe(false);
    await server.jobs.drain();
    expect(await ourReversals(a.id)).toEqual(['void']);
    expect(await gatewayReversals(a.customerId, a.transId)).toEqual(['void']);
    const reruns = (await terminatedAudits(a.id)).slice(2);
    expect(reruns).toHaveLength(2);
    for (const r of reruns) expect(r).toMatchObject({ outcome: 'success', detail: { retried: true, reversed: true, finished: [] } });
    // One receipt of the void, however often the job ran.
    const voidReceipts = async () => (await mailTo(sandboxUrl, a.email)).filter((m) => m.subject === 'Receipt: Voided: Monthly membership $12.00');
    await expect.poll(voidReceipts).toHaveLength(1);
  });

  it("records the void the merchant's staff made on the gateway's screen while the job waited, and gives nothing back again", async () => {
    const a = await approvedForTerminated('htr-merchant');
    await failFirstRun(a);
    // Meanwhile the merchant's staff void the charge in the gateway's own screen (its webhook does not reach us here).
    expect((await stack.merchantScreen(`transactions/${a.transId}/void`)).status).toBe(303);

    proxy.rule = () => 'pass';
    await retryNow(a.id);
    await server.jobs.drain();
    expect((await jobsOf(a.id)).map((j) => j.state)).toEqual(['completed']);
    expect(await rowStatus(a.id)).toBe('Voided');
    expect(await ourReversals(a.id)).toEqual(['void']);
    expect(await gatewayReversals(a.customerId, a.transId)).toEqual(['void']);
    expect(await subscriptionAt(a.subscriptionId)).toBe('canceled');
    expect((await terminatedAudits(a.id)).at(-1)).toMatchObject({
      outcome: 'success',
      detail: { retried: true, reversal: 'void', reversed: true, givenBackAtGateway: true, finished: ['cancel'] },
    });
  });

  it('audits the last attempt that still fails as a failure naming what is left for support', async () => {
    const a = await approvedForTerminated('htr-last');
    await failFirstRun(a);
    await retryNow(a.id, true);
    await server.jobs.drain();
    expect((await jobsOf(a.id)).map((j) => j.state)).toEqual(['failed']);
    const audits = await terminatedAudits(a.id);
    expect(audits).toHaveLength(2);
    expect(audits[1]).toMatchObject({
      outcome: 'failure',
      actor_name: 'system',
      detail: { retried: true, attempt: 9, subscriptionCanceled: false, reversed: false, finished: [] },
    });
    expect(whatFailed(audits[1])).toEqual(['cancel', 'void']);
    expect(await rowStatus(a.id)).toBe('Charged');
    expect(await gatewayReversals(a.customerId, a.transId)).toEqual([]);
  });

  it('queues no job when the give-back succeeds the first time', async () => {
    const a = await approvedForTerminated('htr-ok');
    expect(await a.deliver()).toBe(true);
    expect(await terminatedAudits(a.id)).toMatchObject([{ outcome: 'success', detail: { subscriptionCanceled: true, reversal: 'void', reversed: true } }]);
    await server.jobs.drain();
    expect(await jobsOf(a.id)).toEqual([]);
    expect(await ourReversals(a.id)).toEqual(['void']);
  });
});
