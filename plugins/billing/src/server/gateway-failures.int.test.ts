import type { StartedServer } from '@portal/app-server/server';
import { Headers } from '@portal/core';
import { signWebhook } from '@portal/server/kernel';
import { makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, BillingApi, type BillingProfile } from '../contract';
import { failing, type ProviderProxy } from './test-proxy';
import { type BillingStack, GATEWAY_BASIC, SANDBOX_GATEWAY, type StackCall, saveCardAtGateway, startBillingStack } from './test-stack';

/**
 * Billing against a card gateway that fails: a proxy between our server and the sandbox passes each request on, or
 * passes it and drops the answer (the gateway did the work, we never hear of it), or answers in the gateway's place.
 */
let stack: BillingStack;
let sandboxUrl: string;
let proxy: ProviderProxy;
let server: StartedServer & { dropDatabase(): Promise<void> };
let staff: Session;
/** What the server logged at warn and above, one JSON line each. */
const logLines: string[] = [];
const logged = (msg: string) =>
  logLines.map((l) => JSON.parse(l) as { level: number; msg: string; reqId?: string; status?: number }).filter((l) => l.msg === msg);

const call = (path: string, o: StackCall) => stack.call(path, o);
const data = <T>(path: string, o: StackCall) => stack.data<T>(path, o);
const gw = <T>(path: string, method = 'GET') => stack.gateway<T>(path, method);
const q = <T>(text: string, params: unknown[] = []) => server.database.sql.query<T & Record<string, unknown>>(text, params);

async function addCard(session: Session, cardNumber: string): Promise<BillingProfile> {
  const t = await data<{ Token: string }>(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`, { session });
  const res = await saveCardAtGateway(sandboxUrl, t.Token, cardNumber);
  expect(res.status).toBe(200);
  return data<BillingProfile>(BillingApi.sync.path, { session });
}
async function member(name: string) {
  const id = (await makeUser(server, { userName: name, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  return { id, session: await signIn(server, name) };
}
type GwSub = { subscriptionId: number; status: string; amountCents: number };
type GwTx = { transId: number; status: string; amountCents: number; subscriptionId: number | null };
const gatewaySubs = async (customerId: number | null) => (await gw<{ subscriptions: GwSub[] }>(`/customers/${customerId}`)).subscriptions;
const gatewayCharges = async (customerId: number | null) => gw<GwTx[]>(`/customers/${customerId}/transactions`);
const ourRows = (memberId: number) =>
  q<{ kind: string; status: string; amount_cents: number; description: string | null }>(
    'SELECT kind, status, amount_cents, description FROM billing_transactions WHERE member_id = $1 ORDER BY id',
    [memberId],
  );

/** A member with a card whose first subscription start reached the gateway, which created it, but whose answer was lost. */
async function lostStart(name: string) {
  const m = await member(name);
  const p = await addCard(m.session, '4111111111111111');
  proxy.rule = failing('POST', '/gateway/api/subscriptions', 'dropAnswer');
  const first = await call(BillingApi.start.path, { session: m.session, body: { Type: 1, IdempotencyKey: `${name}-start-0001` } });
  expect(first.statusCode).toBe(503);
  expect(first.json().MsgText).toBe(BILLING_MESSAGES.unavailable);
  expect(proxy.seen).toContain('dropAnswer POST /gateway/api/subscriptions');
  const subs = await gatewaySubs(p.CustomerId);
  expect(subs.map((s) => s.status)).toEqual(['active']);
  expect((await data<BillingProfile>(BillingApi.profile.path, { session: m.session })).SubscriptionStatus).toBeNull();
  return { ...m, customerId: p.CustomerId, subscriptionId: subs[0]?.subscriptionId ?? 0 };
}

beforeAll(async () => {
  const started = await startBillingStack({
    sites: ['card'],
    proxy: true,
    logger: { level: 'warn', stream: { write: (line: string) => void logLines.push(line) } },
  });
  stack = started;
  ({ sandboxUrl, server, proxy } = started);
  staff = await stack.signInStaff('gwf-staff');
});
beforeEach(() => {
  proxy.rule = () => 'pass';
  proxy.seen.length = 0;
});
afterAll(async () => {
  await stack?.close();
});

describe('billing: a subscription start whose answer was lost', () => {
  it('takes up the subscription the gateway created when the member starts again (a new page, a new key), charging once', async () => {
    const m = await lostStart('gwf-again');
    const again = await data<{ StatusString: string; Message: string; SubscriptionType: number | null }>(BillingApi.start.path, {
      session: m.session,
      body: { Type: 1, IdempotencyKey: 'gwf-again-start-0002' },
    });
    expect(again).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.subscribed, SubscriptionType: 1 });
    const p = await data<BillingProfile>(BillingApi.profile.path, { session: m.session });
    expect(p).toMatchObject({ SubscriptionStatus: 'active', SubscriptionType: 1, SubscriptionId: m.subscriptionId });
    expect(p.Profiles[0]?.IsSubscription).toBe(true);
    expect((await gatewaySubs(m.customerId)).map((s) => `${s.subscriptionId} ${s.status}`)).toEqual([`${m.subscriptionId} active`]);
    expect((await gatewayCharges(m.customerId)).map((t) => `${t.amountCents} ${t.subscriptionId}`)).toEqual([`1200 ${m.subscriptionId}`]);
    expect(await ourRows(m.id)).toEqual([{ kind: 'subscription', status: 'Charged', amount_cents: 1200, description: 'Monthly membership' }]);
    // A retry of the second start (its key) answers what it did.
    const retry = await data<{ StatusString: string }>(BillingApi.start.path, {
      session: m.session,
      body: { Type: 1, IdempotencyKey: 'gwf-again-start-0002' },
    });
    expect(retry.StatusString).toBe('Ok');
    expect(
      (await q<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.takeup' AND member_id = $1`, [m.id]))[0]?.n,
    ).toBe(1);

    // The member's cancel stops the subscription taken up.
    await data(BillingApi.terminate.path, { session: m.session, body: {} });
    expect((await gatewaySubs(m.customerId)).map((s) => s.status)).toEqual(['canceled']);
  });

  it("takes it up through support's Check with the gateway: the membership runs, and a start then finds it", async () => {
    const m = await lostStart('gwf-sync');
    const synced = await data<{ Count: number }>(BillingApi.transactionSync.path, { session: staff, brand: 'staff', body: { MemberId: m.id } });
    expect(synced.Count).toBe(1);
    expect(await data<BillingProfile>(BillingApi.profile.path, { session: m.session })).toMatchObject({
      SubscriptionStatus: 'active',
      SubscriptionType: 1,
      SubscriptionId: m.subscriptionId,
    });
    expect(await ourRows(m.id)).toEqual([{ kind: 'subscription', status: 'Charged', amount_cents: 1200, description: 'Monthly membership' }]);
    const again = await data<{ StatusString: string; Message: string }>(BillingApi.start.path, {
      session: m.session,
      body: { Type: 1, IdempotencyKey: 'gwf-sync-start-0002' },
    });
    expect(again).toMatchObject({ StatusString: 'Error', Message: BILLING_MESSAGES.alreadySubscribed });
    expect((await gatewaySubs(m.customerId)).map((s) => s.status)).toEqual(['active']);
    expect(await gatewayCharges(m.customerId)).toHaveLength(1);
    // A second sync finds nothing new.
    expect((await data<{ Count: number }>(BillingApi.transactionSync.path, { session: staff, brand: 'staff', body: { MemberId: m.id } })).Count).toBe(0);
  });

  it('cancels the subscription nobody took up when the member is terminated', async () => {
    const m = await lostStart('gwf-term');
    const terminated = await call('/api/members/terminate', { method: 'POST', session: m.session });
    expect(terminated.statusCode).toBe(200);
    await server.jobs.drain();
    expect((await gatewaySubs(m.customerId)).map((s) => s.status)).toEqual(['canceled']);
  });

  it('cancels every subscription of ours the gateway still renews for the member, not only the one our row names', async () => {
    const m = await member('gwf-two');
    const p = await addCard(m.session, '4111111111111111');
    const started = await data<{ StatusString: string }>(BillingApi.start.path, {
      session: m.session,
      body: { Type: 1, IdempotencyKey: 'gwf-two-start-0001' },
    });
    expect(started.StatusString).toBe('Ok');
    // A second one our row does not name (one an earlier start lost track of).
    const stray = await fetch(`${sandboxUrl}/gateway/api/subscriptions`, {
      method: 'POST',
      headers: { authorization: GATEWAY_BASIC, 'content-type': 'application/json', 'idempotency-key': 'gwf-two-stray' },
      body: JSON.stringify({
        customerProfileId: p.CustomerId,
        paymentProfileId: p.Profiles[0]?.ProfileId,
        name: 'Monthly membership',
        intervalMonths: 1,
        amountCents: 1200,
      }),
    });
    expect(stray.status).toBe(200);
    expect((await gatewaySubs(p.CustomerId)).map((s) => s.status)).toEqual(['active', 'active']);
    await data(BillingApi.terminate.path, { session: m.session, body: {} });
    expect((await gatewaySubs(p.CustomerId)).map((s) => s.status)).toEqual(['canceled', 'canceled']);
  });
});

describe("billing: a declined renewal whose webhook was missed, found by support's sync", () => {
  it('suspends the membership as the webhook would, and a card the member adds resumes it', async () => {
    const m = await member('gwf-declined');
    await addCard(m.session, '4111111111111111');
    const started = await data<{ StatusString: string }>(BillingApi.start.path, { session: m.session, body: { Type: 1, IdempotencyKey: 'gwf-declined-0001' } });
    expect(started.StatusString).toBe('Ok');
    const p2 = await addCard(m.session, '4000000000000341');
    const bad = p2.Profiles.find((c) => c.CardNumber === 'XXXX0341')?.ProfileId ?? 0;
    await data(BillingApi.setSubscriptionCard.path, { session: m.session, body: { ProfileId: bad } });
    const subId = p2.SubscriptionId;
    // The renewal is declined; its webhook never reaches us (the test server listens nowhere the sandbox can post to).
    const renewal = await gw<{ responseCode: string }>(`/subscriptions/${subId}/charge-now`, 'POST');
    expect(renewal.responseCode).not.toBe('1');
    expect((await gw<{ status: string }>(`/subscriptions/${subId}`)).status).toBe('suspended');
    expect((await data<BillingProfile>(BillingApi.profile.path, { session: m.session })).SubscriptionStatus).toBe('active');

    expect((await data<{ Count: number }>(BillingApi.transactionSync.path, { session: staff, brand: 'staff', body: { MemberId: m.id } })).Count).toBe(1);
    expect((await data<BillingProfile>(BillingApi.profile.path, { session: m.session })).SubscriptionStatus).toBe('suspended');

    const p3 = await addCard(m.session, '5424000000000015');
    const fresh = p3.Profiles.find((c) => c.CardNumber === 'XXXX0015');
    expect(p3.SubscriptionStatus).toBe('active');
    expect(fresh?.IsSubscription).toBe(true);
    expect(await gw<{ status: string; paymentProfileId: number }>(`/subscriptions/${subId}`)).toMatchObject({
      status: 'active',
      paymentProfileId: fresh?.ProfileId,
    });
  });
});

describe('billing: the gateway refusing our credentials', () => {
  it('answers our own 503 "not available", never the gateway\'s text', async () => {
    const m = await member('gwf-keys');
    proxy.rule = (_method, path) =>
      path.startsWith('/gateway/api/') ? { status: 401, body: { error: 'User authentication failed due to invalid authentication values.' } } : 'pass';
    const res = await call(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`, { session: m.session });
    expect(res.statusCode).toBe(503);
    expect(res.json().MsgText).toBe(BILLING_MESSAGES.unavailable);
    // For the operator: an error on the request's own log line, under its request id.
    const lines = logged('card gateway refused our credentials').filter((l) => l.reqId === res.headers[Headers.requestId]);
    expect(lines).toEqual([expect.objectContaining({ level: 50, status: 401 })]);
  });
});

describe("billing: a gateway failure during a billing route is logged on that request's logger", () => {
  it('under each request id, two members failing at once', async () => {
    const [a, b] = await Promise.all([member('gwf-log-a'), member('gwf-log-b')]);
    proxy.rule = (_method, path) => (path.startsWith('/gateway/api/') ? { status: 500, body: { error: 'The card gateway answered 500.' } } : 'pass');
    const tokenPath = `${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`;
    const answers = await Promise.all([a, b].map((m) => call(tokenPath, { session: m.session })));
    const ids = answers.map((r) => r.headers[Headers.requestId]);
    expect(answers.map((r) => r.statusCode)).toEqual([503, 503]);
    expect(new Set(ids).size).toBe(2);
    const lines = logged('card gateway unavailable').filter((l) => ids.includes(l.reqId));
    expect(lines.map((l) => l.level)).toEqual([40, 40]);
    expect(new Set(lines.map((l) => l.reqId))).toEqual(new Set(ids));
  });
});

describe('billing: the webhook signature is checked over the bytes the gateway sent', () => {
  const raw =
    '{"notificationId":"gwf-n-1","eventType":"net.authorize.customer.updated","eventDate":"2026-01-01T00:00:00Z","webhookId":"1",' +
    '"payload":{"responseCode":1,"id":"999","subscriptionId":null,"customerProfileId":1,"paymentProfileId":1,"authAmount":12.00,"message":"ok"}}';
  const post = (body: string, signature: string) => stack.webhook(body, signature);

  it('refuses a body changed after it was signed', async () => {
    const res = await post(raw.replace('12.00', '13.00'), signWebhook(SANDBOX_GATEWAY.signatureKey, raw));
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe(BILLING_MESSAGES.badSignature);
  });

  // The signature is over the bytes sent: JSON.parse and JSON.stringify would turn 12.00 into 12 (the endpoint's rawBody).
  it('accepts a body with "authAmount":12.00 signed over exactly its bytes', async () => {
    const res = await post(raw, signWebhook(SANDBOX_GATEWAY.signatureKey, raw));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data).toEqual({ Recorded: false });
  });
});

describe('billing: PAYMENT_WEBHOOK_URL is checked when the server starts', () => {
  it('refuses to start with an address the gateway could not post to, naming the variable', async () => {
    const saved = process.env.PAYMENT_WEBHOOK_URL;
    process.env.PAYMENT_WEBHOOK_URL = 'staff.example.com/api/payment/webhook';
    try {
      await expect(startTestServer({ sandboxUrl, smtpUrl: null })).rejects.toThrow(/^PAYMENT_WEBHOOK_URL must be an absolute http\(s\) address/);
    } finally {
      if (saved === undefined) delete process.env.PAYMENT_WEBHOOK_URL;
      else process.env.PAYMENT_WEBHOOK_URL = saved;
    }
  });
});
