import type { StartedServer } from '@portal/app-server/server';
import { mailTo } from '@portal/sandbox';
import { makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, BillingApi, type BillingProfile } from '../contract';
import { gatewayHolds } from './gateway-holds';
import { type BillingStack, GATEWAY_BASIC, saveCardAtGateway, startBillingStack } from './test-stack';

/**
 * Money given back outside our product: the merchant's staff void or refund a member's charge in the gateway's own
 * merchant screen. Our records follow from the gateway's webhook (void.created, refund.created), from support's Check
 * with the gateway, or from support's own Void or Refund of it, which the gateway then refuses; each records it once,
 * and a void or refund asked through us stays that call's to record. Against the sandbox gateway over real HTTP.
 */
let stack: BillingStack;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };
let staff: Session;
const holds = gatewayHolds();

const q = <T>(text: string, params: unknown[] = []) => server.database.sql.query<T & Record<string, unknown>>(text, params);
const asStaff = <T>(path: string, body: unknown) => stack.data<T>(path, { session: staff, brand: 'staff', body });
const rowOf = async (id: number) => (await q<{ status: string }>('SELECT status FROM billing_transactions WHERE id = $1', [id]))[0]?.status;
/** Our voids and refunds of one charge: kind and amount. */
const reversalsOf = (id: number) =>
  q<{ kind: string; amount_cents: number; status: string }>(
    'SELECT kind, amount_cents, status FROM billing_transactions WHERE ref_transaction_id = $1 ORDER BY id',
    [id],
  );
type GwTx = { transId: number; type: string; responseCode: string; refTransId: number | null };
/** The gateway's approved voids and refunds of one charge. */
const atGateway = async (customerId: number, transId: number) =>
  (await stack.gateway<GwTx[]>(`/customers/${customerId}/transactions`))
    .filter((t) => (t.type === 'void' || t.type === 'refund') && t.refTransId === transId && t.responseCode === '1')
    .map((t) => t.type);
type Audit = { action: string; outcome: string; actor_name: string | null; detail: Record<string, unknown> };
const auditsOf = async (memberId: number, actions: string[]) => {
  await server.flushAudit();
  return q<Audit>('SELECT action, outcome, actor_name, detail FROM audit_log WHERE member_id = $1 AND action = ANY($2) ORDER BY id', [memberId, actions]);
};

/** The merchant's staff give a charge back on the gateway's merchant screen, as a browser posts its form. */
const onMerchantScreen = async (transId: number, action: 'void' | 'refund') => {
  expect((await stack.merchantScreen(`transactions/${transId}/${action}`)).status).toBe(303);
};
/**
 * The gateway's webhook of the void or refund of a member's charge (the body it signed), delivered to our endpoint;
 * answers Recorded.
 */
const deliverReversal = async (m: Charged) => {
  const reversals = (await stack.gateway<GwTx[]>(`/customers/${m.customerId}/transactions`))
    .filter((t) => (t.type === 'void' || t.type === 'refund') && t.refTransId === m.transId)
    .map((t) => t.transId);
  const [raw] = await stack.sentWebhooks(['net.authorize.payment.void.created', 'net.authorize.payment.refund.created'], reversals);
  if (!raw) throw new Error(`no webhook of a void or refund of ${m.transId}`);
  const res = await stack.webhook(raw);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().Data as { Recorded: boolean }).Recorded;
};

interface Charged {
  memberId: number;
  email: string;
  id: number;
  transId: number;
  customerId: number;
}
/** A CareGuard member whose monthly membership's first payment ($12.00) the gateway approved; settled with `settle`. */
async function chargedMember(userName: string, settle = false): Promise<Charged> {
  const memberId = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  const session = await signIn(server, userName);
  const t = await stack.data<{ Token: string }>(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`, { session });
  expect((await saveCardAtGateway(sandboxUrl, t.Token, '4111111111111111')).status).toBe(200);
  const profile = await stack.data<BillingProfile>(BillingApi.sync.path, { session });
  const started = await stack.data<{ StatusString: string; TransactionID: number }>(BillingApi.start.path, {
    session,
    body: { Type: 1, IdempotencyKey: `${userName}-monthly-0001` },
  });
  expect(started.StatusString).toBe('Ok');
  const id = started.TransactionID;
  const transId = (await q<{ gateway_trans_id: number }>('SELECT gateway_trans_id FROM billing_transactions WHERE id = $1', [id]))[0]?.gateway_trans_id ?? 0;
  if (settle) await stack.gateway('/settle-now', 'POST');
  return { memberId, email: `${userName}@example.com`, id, transId, customerId: profile.CustomerId ?? 0 };
}
const receipts = async (email: string, subject: string) => (await mailTo(sandboxUrl, email)).filter((m) => m.subject === subject);

beforeAll(async () => {
  stack = await startBillingStack({ sites: ['card'], beforeListen: (sandbox) => holds.install(sandbox) });
  ({ sandboxUrl, server } = stack);
  staff = await stack.signInStaff('xr-staff');
});
afterAll(async () => {
  await stack?.close();
});

describe('billing: money given back in the gateway’s own merchant screen', () => {
  it('records a void from its webhook once: the charge Voided, a void row, audited as synced, one receipt', async () => {
    const m = await chargedMember('xr-void');
    await onMerchantScreen(m.transId, 'void');
    expect(await deliverReversal(m)).toBe(true);
    expect(await rowOf(m.id)).toBe('Voided');
    expect(await reversalsOf(m.id)).toEqual([{ kind: 'void', amount_cents: 1_200, status: 'Voided' }]);
    expect(await auditsOf(m.memberId, ['billing.void', 'billing.void.synced'])).toMatchObject([
      { action: 'billing.void', actor_name: null },
      { action: 'billing.void.synced', detail: { source: 'webhook', whole: true, amountCents: 1_200 } },
    ]);
    await expect.poll(() => receipts(m.email, 'Receipt: Voided: Monthly membership $12.00')).toHaveLength(1);
    // Delivered again: nothing more.
    expect(await deliverReversal(m)).toBe(false);
    expect(await reversalsOf(m.id)).toHaveLength(1);
    // Support's Void of it now answers it as voided, asking the gateway nothing.
    const again = await asStaff<{ StatusString: string; Message: string }>(BillingApi.void.path, { TransactionID: m.id, IdempotencyKey: 'xr-void-support-1' });
    expect(again).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.voided });
    expect(await atGateway(m.customerId, m.transId)).toEqual(['void']);
  });

  it("records a settled charge's refund from its webhook; support's Refund then answers it as refunded without refunding again", async () => {
    const m = await chargedMember('xr-refund', true);
    await onMerchantScreen(m.transId, 'refund');
    expect(await deliverReversal(m)).toBe(true);
    expect(await rowOf(m.id)).toBe('Refunded');
    expect(await reversalsOf(m.id)).toEqual([{ kind: 'refund', amount_cents: 1_200, status: 'Refunded' }]);
    const refund = await asStaff<{ StatusString: string; Message: string }>(BillingApi.refund.path, {
      TransactionID: m.id,
      IdempotencyKey: 'xr-refund-support-1',
    });
    expect(refund).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.refunded });
    expect(await atGateway(m.customerId, m.transId)).toEqual(['refund']);
    await expect.poll(() => receipts(m.email, 'Receipt: Refund: Monthly membership $12.00')).toHaveLength(1);
  });

  it("records a partial refund made at the gateway, leaving the charge Charged; support's Refund then refunds the rest", async () => {
    const m = await chargedMember('xr-partial', true);
    // Another tool on the merchant's account refunds $5.00 of the $12.00 through the gateway's API.
    const partial = await fetch(`${sandboxUrl}/gateway/api/transactions`, {
      method: 'POST',
      headers: { authorization: GATEWAY_BASIC, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'refund', refTransId: m.transId, amountCents: 500 }),
    });
    expect(partial.status).toBe(200);
    expect(await deliverReversal(m)).toBe(true);
    expect(await rowOf(m.id)).toBe('Charged');
    expect(await auditsOf(m.memberId, ['billing.refund.synced'])).toMatchObject([{ detail: { source: 'webhook', whole: false, amountCents: 500 } }]);
    const rest = await asStaff<{ StatusString: string; Message: string }>(BillingApi.refund.path, { TransactionID: m.id, IdempotencyKey: 'xr-partial-rest-1' });
    expect(rest).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.refunded });
    expect(await rowOf(m.id)).toBe('Refunded');
    expect((await reversalsOf(m.id)).map((r) => [r.kind, r.amount_cents])).toEqual([
      ['refund', 500],
      ['refund', 700],
    ]);
    expect(await atGateway(m.customerId, m.transId)).toEqual(['refund', 'refund']);
  });

  it("answers support's Void of a charge voided at the gateway (its webhook not come yet) as voided, recording that void once", async () => {
    const m = await chargedMember('xr-before-hook');
    await onMerchantScreen(m.transId, 'void');
    const voided = await asStaff<{ StatusString: string; Message: string }>(BillingApi.void.path, { TransactionID: m.id, IdempotencyKey: 'xr-before-hook-1' });
    expect(voided).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.voided });
    expect(await rowOf(m.id)).toBe('Voided');
    expect(await auditsOf(m.memberId, ['billing.void', 'billing.void.synced'])).toMatchObject([
      { action: 'billing.void', actor_name: 'xr-staff' },
      { action: 'billing.void.synced', detail: { source: 'sync' } },
    ]);
    // No refusal is audited: the charge was given back, only not by this call.
    expect((await auditsOf(m.memberId, ['billing.void'])).map((a) => a.outcome)).toEqual(['success']);
    expect(await deliverReversal(m)).toBe(false);
    expect(await reversalsOf(m.id)).toHaveLength(1);
    expect(await atGateway(m.customerId, m.transId)).toEqual(['void']);
  });

  it('records a refund made at the gateway when support checks with the gateway, once however often it checks', async () => {
    const m = await chargedMember('xr-sync', true);
    await onMerchantScreen(m.transId, 'refund');
    const first = await asStaff<{ Count: number }>(BillingApi.transactionSync.path, { MemberId: m.memberId });
    expect(first.Count).toBe(1);
    expect(await rowOf(m.id)).toBe('Refunded');
    expect(await asStaff<{ Count: number }>(BillingApi.transactionSync.path, { MemberId: m.memberId })).toEqual({ Count: 0 });
    expect(await reversalsOf(m.id)).toEqual([{ kind: 'refund', amount_cents: 1_200, status: 'Refunded' }]);
    expect(await auditsOf(m.memberId, ['billing.refund.synced'])).toMatchObject([{ detail: { source: 'sync', whole: true } }]);
  });

  it("leaves support's own void to its call while it is at the gateway: the webhook meanwhile records nothing, the void is support's", async () => {
    const m = await chargedMember('xr-race');
    const [voided, recorded] = await holds.interleave(
      { phase: 'onSend', method: 'POST', path: /^\/gateway\/api\/transactions$/ },
      () => asStaff<{ StatusString: string }>(BillingApi.void.path, { TransactionID: m.id, IdempotencyKey: 'xr-race-void-1' }),
      async () => {
        return deliverReversal(m);
      },
    );
    expect(recorded).toBe(false);
    expect(voided.StatusString).toBe('Ok');
    expect(await reversalsOf(m.id)).toEqual([{ kind: 'void', amount_cents: 1_200, status: 'Voided' }]);
    expect(await auditsOf(m.memberId, ['billing.void', 'billing.void.synced'])).toMatchObject([{ action: 'billing.void', actor_name: 'xr-staff' }]);
    expect(await deliverReversal(m)).toBe(false);
    await expect.poll(() => receipts(m.email, 'Receipt: Voided: Monthly membership $12.00')).toHaveLength(1);
  });
});
