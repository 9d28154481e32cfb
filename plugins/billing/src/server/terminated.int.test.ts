import type { StartedServer } from '@portal/app-server/server';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, BillingApi, type BillingProfile } from '../contract';
import { type BillingStack, GATEWAY_BASIC, type StackCall, saveCardAtGateway, startBillingStack } from './test-stack';

/**
 * A terminated member (review "terminated membership", findings 1, 2, 8 and 10): no membership is started or changed,
 * no coupon applied, and support charges or authorizes nothing new for them (409, nothing asked of the gateway and
 * nothing stored); refunds, voids, captures of an earlier authorization, card management and every read still work,
 * and the billing profile says the membership is terminated. Against the sandbox gateway over real HTTP.
 */
let stack: BillingStack;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };
let staff: Session;

const call = (path: string, o: StackCall) => stack.call(path, o);
const data = <T>(path: string, o: StackCall) => stack.data<T>(path, o);
const asStaff = (path: string, body: unknown) => call(path, { session: staff, brand: 'staff', body });
const count = async (sqlText: string, params: unknown[]) => (await server.database.sql.query<{ n: number }>(sqlText, params))[0]?.n ?? 0;
const chargesOf = (memberId: number) => count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [memberId]);
const rowOf = async (memberId: number) =>
  (
    await server.database.sql.query<{
      subscription_id: number | null;
      subscription_type: number | null;
      subscription_status: string | null;
      coupon_code: string | null;
    }>('SELECT subscription_id, subscription_type, subscription_status, coupon_code FROM billing_customers WHERE member_id = $1', [memberId])
  )[0];
/** Everything the gateway holds for the customer: its subscriptions (any status) and its transactions. */
const atGateway = async (customerProfileId: number) => {
  const c = (await stack.gateway(`/customers/${customerProfileId}`)) as {
    subscriptions: { subscriptionId: number; status: string }[];
  };
  const transactions = (await stack.gateway(`/customers/${customerProfileId}/transactions`)) as { transId: number; type: string; status: string }[];
  return {
    subscriptions: c.subscriptions.map((s) => ({ subscriptionId: s.subscriptionId, status: s.status })),
    transactions: transactions.map((t) => ({ transId: t.transId, type: t.type })),
  };
};

/** Saves a card through the hosted form's own call, as its script does, and syncs our copy; answers the sync. */
async function addCard(session: Session, cardNumber: string) {
  const t = await data<{ Token: string }>(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`, { session });
  const res = await saveCardAtGateway(sandboxUrl, t.Token, cardNumber);
  expect(res.status).toBe(200);
  return data<BillingProfile & { Reactivated: boolean }>(BillingApi.sync.path, { session });
}

/** A CareGuard member with a card and a monthly membership who then terminates (the profile's Terminate), its job run. */
async function terminatedMember(userName: string) {
  const memberId = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  const session = await signIn(server, userName);
  const card = (await addCard(session, '4111111111111111')).Profiles[0]?.ProfileId ?? 0;
  const started = await data<{ StatusString: string }>(BillingApi.start.path, { session, body: { Type: 1, IdempotencyKey: `${userName}-monthly` } });
  expect(started.StatusString).toBe('Ok');
  // An authorization support made while the membership ran: capturing it later is not a new charge.
  const auth = await asStaff(BillingApi.prepull.path, { MemberId: memberId, Amount: 20, IdempotencyKey: `${userName}-prepull-before` });
  expect(auth.json().Data.StatusString, auth.body).toBe('Ok');
  expect((await call('/api/members/terminate', { method: 'POST', session })).statusCode).toBe(200);
  await server.jobs.drain();
  const profile = await data<BillingProfile>(BillingApi.profile.path, { session });
  return { memberId, session, card, customerId: profile.CustomerId ?? 0, profile };
}

beforeAll(async () => {
  stack = await startBillingStack({ sites: ['card'] });
  ({ sandboxUrl, server } = stack);
  staff = await stack.signInStaff('term-staff');
  await stack.addCoupons([{ code: 'LIFE-TERM' }]);
});
afterAll(async () => {
  await stack?.close();
});

describe('billing: a terminated member', () => {
  it('says so in the billing profile, with the date, and the membership the termination canceled', async () => {
    const m = await terminatedMember('term-ann');
    expect(m.profile).toMatchObject({ IsTerminated: true, SubscriptionStatus: 'canceled', SubscriptionType: 1 });
    expect(Date.parse(m.profile.TerminationDate ?? '')).toBeLessThanOrEqual(Date.now());
    expect(Date.now() - Date.parse(m.profile.TerminationDate ?? '')).toBeLessThan(120_000);
    // Support's tab reads it from its own answer.
    const support = await asStaff(BillingApi.supportSubscription.path, { MemberId: m.memberId });
    expect(support.json().Data).toMatchObject({ IsTerminated: true, TerminationDate: m.profile.TerminationDate });
    // A member who is not terminated: false, no date.
    const other = (await makeUser(server, { userName: 'term-live', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const live = await data<BillingProfile>(BillingApi.profile.path, { session: await signIn(server, 'term-live') });
    expect(live).toMatchObject({ IsTerminated: false, TerminationDate: null });
    expect(other).toBeGreaterThan(0);
  });

  it('cannot start a membership or apply a coupon (409): nothing charged at the gateway, nothing stored', async () => {
    const m = await terminatedMember('term-bea');
    const gatewayBefore = await atGateway(m.customerId);
    const oursBefore = await chargesOf(m.memberId);
    const rowBefore = await rowOf(m.memberId);
    const refusals = [
      await call(BillingApi.start.path, { session: m.session, body: { Type: 1, IdempotencyKey: 'term-bea-again-1' } }),
      // A retry of the start made before the termination is refused too: the termination canceled what it started.
      await call(BillingApi.start.path, { session: m.session, body: { Type: 1, IdempotencyKey: 'term-bea-monthly' } }),
      await call(BillingApi.start.path, { session: m.session, body: { Type: 0, Code: 'LIFE-TERM', IdempotencyKey: 'term-bea-again-2' } }),
      await call(BillingApi.saveSubscription.path, { session: m.session, body: { key: 12, IdempotencyKey: 'term-bea-again-3' } }),
      await call(BillingApi.saveCoupon.path, { session: m.session, body: { Type: 1, Code: 'LIFE-TERM' } }),
    ];
    for (const r of refusals) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().MsgText).toBe(BILLING_MESSAGES.terminated);
    }
    // In Spanish for a reader who asks for it.
    const es = await server.app.inject({
      method: 'POST',
      url: BillingApi.start.path,
      headers: { ...authHeaders(m.session, 'card'), cookie: 'cq.lang=es' },
      payload: { Type: 12, IdempotencyKey: 'term-bea-again-4' },
    });
    expect(es.statusCode).toBe(409);
    expect(es.json().MsgText).toMatch(/^Su membresía está dada de baja/);
    expect(await atGateway(m.customerId)).toEqual(gatewayBefore);
    expect(await chargesOf(m.memberId)).toBe(oursBefore);
    expect(await rowOf(m.memberId)).toEqual(rowBefore);
    expect(rowBefore).toMatchObject({ subscription_status: 'canceled', coupon_code: null });
  });

  it("refuses support's change of plan, coupon, prepull, charge and charge-again (409, worded for support): nothing at the gateway, nothing stored", async () => {
    const m = await terminatedMember('term-cal');
    // A declined charge from before (as the gateway's decline leaves it): charging it again would be a new charge.
    const declined = (
      await server.database.sql.query<{ id: number }>(
        `INSERT INTO billing_transactions (member_id, gateway_trans_id, kind, status, amount_cents, description, payment_profile_id, message)
         VALUES ($1, NULL, 'charge', 'Declined', 1500, 'Charge', $2, 'This transaction has been declined.') RETURNING id`,
        [m.memberId, m.card],
      )
    )[0]?.id;
    const gatewayBefore = await atGateway(m.customerId);
    const oursBefore = await chargesOf(m.memberId);
    const rowBefore = await rowOf(m.memberId);
    const refusals = [
      await asStaff(BillingApi.supportSubscriptionUpdate.path, { MemberId: m.memberId, Type: 12, IdempotencyKey: 'term-cal-change-1' }),
      await asStaff(BillingApi.supportSetCoupon.path, { MemberId: m.memberId, CouponCode: 'LIFE-TERM' }),
      await asStaff(BillingApi.prepull.path, { MemberId: m.memberId, Amount: 20, IdempotencyKey: 'term-cal-prepull-1' }),
      await asStaff(BillingApi.charge.path, { customerId: m.customerId, profileId: m.card, amount: 15, IdempotencyKey: 'term-cal-charge-1' }),
      await asStaff('/api/support/transaction/charge', { TransactionID: declined, IdempotencyKey: 'term-cal-again-1' }),
    ];
    for (const r of refusals) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().MsgText).toBe(BILLING_MESSAGES.memberTerminated);
    }
    expect(await atGateway(m.customerId)).toEqual(gatewayBefore);
    expect(await chargesOf(m.memberId)).toBe(oursBefore);
    expect(await rowOf(m.memberId)).toEqual(rowBefore);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE id = $1 AND status = 'Declined'`, [declined])).toBe(1);
  });

  it('still lets support refund, void and capture what was paid or authorized before, and answers a retry of a prepull made before', async () => {
    const m = await terminatedMember('term-dot');
    const first = (
      await server.database.sql.query<{ id: number }>(`SELECT id FROM billing_transactions WHERE member_id = $1 AND kind = 'subscription'`, [m.memberId])
    )[0]?.id;
    // The retry of the prepull made before the termination answers what it did (the money was authorized then).
    const retry = await asStaff(BillingApi.prepull.path, { MemberId: m.memberId, Amount: 20, IdempotencyKey: 'term-dot-prepull-before' });
    expect(retry.json().Data).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.authorized });
    const captured = await asStaff(BillingApi.capture.path, {
      CustomerProfileId: m.customerId,
      PaymentProfileId: m.card,
      Amount: 15,
      IdempotencyKey: 'term-dot-capture-1',
    });
    expect(captured.json().Data, captured.body).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.captured });
    // The membership's first payment, not yet settled: voided.
    const voided = await asStaff(BillingApi.void.path, { TransactionID: first, IdempotencyKey: 'term-dot-void-1' });
    expect(voided.json().Data, voided.body).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.voided });
    // The capture, once settled: refunded.
    await fetch(`${sandboxUrl}/gateway/api/settle-now`, { method: 'POST', headers: { authorization: GATEWAY_BASIC } });
    const capturedId = captured.json().Data.TransactionID as number;
    const refunded = await asStaff(BillingApi.refund.path, { TransactionID: capturedId, IdempotencyKey: 'term-dot-refund-1' });
    expect(refunded.json().Data, refunded.body).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.refunded });
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1 AND kind = 'refund'`, [m.memberId])).toBe(1);
    // Reads work: the member's payments and cards.
    expect((await call(BillingApi.transactions.path, { session: m.session })).statusCode).toBe(200);
    expect((await call(BillingApi.cardList.path, { session: m.session })).statusCode).toBe(200);
  });

  it('keeps card management, and adding a card after the last was deleted does not say the account is active again', async () => {
    const memberId = (await makeUser(server, { userName: 'term-eli', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    let session = await signIn(server, 'term-eli');
    const card = (await addCard(session, '4111111111111111')).Profiles[0]?.ProfileId ?? 0;
    const deleted = await call(BillingApi.deleteProfile.path.replace(':id', String(card)), { session, body: {} });
    expect(deleted.json().Data).toEqual({ Deactivated: true });
    session = await signIn(server, 'term-eli');
    expect((await call('/api/members/terminate', { method: 'POST', session })).statusCode).toBe(200);
    await server.jobs.drain();
    session = await signIn(server, 'term-eli');
    const synced = await addCard(session, '5555555555554444');
    // The card is saved and the no-card deactivation is over, but the membership is still terminated: not "reactivated".
    expect(synced).toMatchObject({ Reactivated: false, IsDeactivated: false, IsTerminated: true });
    expect(synced.Profiles).toHaveLength(1);
    await server.flushAudit();
    expect(
      await count(
        `SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.account.reactivate' AND member_id = $1 AND detail->>'memberTerminated' = 'true'`,
        [memberId],
      ),
    ).toBe(1);
    // A second card, then the first deleted (not the last): card management works while terminated.
    const both = await addCard(session, '4111111111111111');
    expect(both.Profiles).toHaveLength(2);
    const gone = await call(BillingApi.deleteProfile.path.replace(':id', String(both.Profiles[0]?.ProfileId)), { session, body: {} });
    expect(gone.json().Data).toEqual({ Deactivated: false });
  });
});
