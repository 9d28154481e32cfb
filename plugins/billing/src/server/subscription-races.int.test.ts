import type { StartedServer } from '@portal/app-server/server';
import { makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, BillingApi, type BillingProfile } from '../contract';
import { gatewayHolds } from './gateway-holds';
import { type BillingStack, GATEWAY_BASIC, type StackCall, saveCardAtGateway, startBillingStack } from './test-stack';

/**
 * Calls on one member's subscription that arrive at once (the member's cancel, support's change of plan, the
 * termination job, a move to another card, a card deletion) against the sandbox gateway over real HTTP. Each test holds
 * one call at the gateway (before the gateway runs its request, or after it ran and before it answers) and sends the
 * other call meanwhile: without the subscription-start lease the other call runs to its end in between; with it, the
 * other call waits for the held one (which the hold lets go after HOLD_MS) and then acts on the row as it is by then.
 * Whatever the order, our row must name what the gateway runs.
 */
const HOLD_MS = 1500;
let stack: BillingStack;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };
let staff: Session;

const gateway = gatewayHolds(HOLD_MS);
const { interleave } = gateway;

const call = (path: string, o: StackCall) => stack.call(path, o);
const data = <T>(path: string, o: StackCall) => stack.data<T>(path, o);
const asStaff = (path: string, body: unknown) => call(path, { session: staff, brand: 'staff', body });
const terminate = (session: Session) => call(BillingApi.terminate.path, { session, method: 'POST' });
const change = (memberId: number, Type: 1 | 12, IdempotencyKey: string) =>
  asStaff(BillingApi.supportSubscriptionUpdate.path, { MemberId: memberId, Type, IdempotencyKey });

/** Saves a card through the hosted form's own call, as its script does, and syncs our copy; answers the card's id. */
async function addCard(session: Session, cardNumber: string): Promise<number> {
  const t = await data<{ Token: string }>(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`, { session });
  const res = await saveCardAtGateway(sandboxUrl, t.Token, cardNumber);
  expect(res.status).toBe(200);
  const p = await data<BillingProfile>(BillingApi.sync.path, { session });
  const card = p.Profiles.find((c) => c.CardNumber === `XXXX${cardNumber.slice(-4)}`);
  if (!card) throw new Error(`card ${cardNumber} not synced`);
  return card.ProfileId;
}

/** A member with a card and a running monthly subscription on it. */
async function subscribedMember(userName: string): Promise<{ session: Session; memberId: number; card: number; subscriptionId: number }> {
  const memberId = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  const session = await signIn(server, userName);
  const card = await addCard(session, '4111111111111111');
  const started = await data<{ StatusString: string }>(BillingApi.start.path, { session, body: { Type: 1, IdempotencyKey: `${userName}-monthly` } });
  expect(started.StatusString).toBe('Ok');
  const subscriptionId = (await data<BillingProfile>(BillingApi.profile.path, { session })).SubscriptionId ?? 0;
  expect(subscriptionId).toBeGreaterThan(0);
  return { session, memberId, card, subscriptionId };
}

interface Row {
  subscription_id: number | null;
  subscription_type: number | null;
  subscription_status: string | null;
  subscription_profile_id: number | null;
  customer_profile_id: number;
}
const rowOf = async (memberId: number) =>
  (
    await server.database.sql.query<Row>(
      'SELECT subscription_id, subscription_type, subscription_status, subscription_profile_id, customer_profile_id FROM billing_customers WHERE member_id = $1',
      [memberId],
    )
  )[0] as Row;
/** The member's subscriptions the gateway would still charge (active, or suspended until a card is given). */
const runningAtGateway = async (customerProfileId: number) => {
  const res = await fetch(`${sandboxUrl}/gateway/api/customers/${customerProfileId}`, { headers: { authorization: GATEWAY_BASIC } });
  const c = (await res.json()) as { subscriptions: { subscriptionId: number; status: string; paymentProfileId: number }[] };
  return c.subscriptions
    .filter((s) => s.status === 'active' || s.status === 'suspended')
    .map((s) => ({ subscriptionId: s.subscriptionId, status: s.status, paymentProfileId: s.paymentProfileId }));
};
const gatewayStatus = async (subscriptionId: number) =>
  (
    (await stack.gateway(`/subscriptions/${subscriptionId}`)) as {
      status: string;
    }
  ).status;
/** Everything the gateway holds for the customer: its subscriptions (any status) and its transactions. */
const atGateway = async (customerProfileId: number) => {
  const c = (await stack.gateway(`/customers/${customerProfileId}`)) as {
    subscriptions: { subscriptionId: number; status: string }[];
  };
  const transactions = (await stack.gateway(`/customers/${customerProfileId}/transactions`)) as { transId: number; type: string }[];
  return {
    subscriptions: c.subscriptions.map((s) => ({ subscriptionId: s.subscriptionId, status: s.status })),
    transactions: transactions.map((t) => ({ transId: t.transId, type: t.type })),
  };
};
/** How many charges, refunds and voids we recorded for the member. */
const chargesOf = async (memberId: number) =>
  (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [memberId]))[0]?.n ?? 0;
const count = async (sqlText: string, params: unknown[]) => {
  await server.flushAudit();
  return (await server.database.sql.query<{ n: number }>(sqlText, params))[0]?.n ?? 0;
};

const CREATE = { method: 'POST', path: /^\/gateway\/api\/subscriptions$/ };
const CANCEL = { method: 'POST', path: /^\/gateway\/api\/subscriptions\/\d+\/cancel$/ };
const MOVE = { method: 'PUT', path: /^\/gateway\/api\/subscriptions\/\d+$/ };

beforeAll(async () => {
  stack = await startBillingStack({ sites: ['card'], beforeListen: (sandbox) => gateway.install(sandbox) });
  ({ sandboxUrl, server } = stack);
  staff = await stack.signInStaff('race-staff');
});
afterAll(async () => {
  await stack?.close();
});

describe('billing: a cancel and a change of plan at once run one after the other', () => {
  it("refuses support's change (409, nothing charged or started) when the member's cancel at the gateway ended the membership support saw", async () => {
    const m = await subscribedMember('race-ann');
    const customerId = (await rowOf(m.memberId)).customer_profile_id;
    const gatewayBefore = await atGateway(customerId);
    const oursBefore = await chargesOf(m.memberId);
    // The member's cancel is at the gateway (canceling the monthly one) when support, who saw the monthly membership
    // active, changes the plan to yearly.
    const [canceled, changed] = await interleave(
      { phase: 'onRequest', ...CANCEL },
      () => terminate(m.session),
      () => change(m.memberId, 12, 'race-ann-change'),
    );
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().Data.SubscriptionStatus).toBe('canceled');
    // The change waited for the cancel and found the membership it was to change canceled: refused, nothing charged.
    expect(changed.statusCode, changed.body).toBe(409);
    expect(changed.json().MsgText).toBe(BILLING_MESSAGES.subscriptionChangedNotStarted);
    expect(await rowOf(m.memberId)).toMatchObject({ subscription_id: m.subscriptionId, subscription_type: 1, subscription_status: 'canceled' });
    expect(await gatewayStatus(m.subscriptionId)).toBe('canceled');
    expect(await atGateway(customerId)).toEqual({ ...gatewayBefore, subscriptions: gatewayBefore.subscriptions.map((s) => ({ ...s, status: 'canceled' })) });
    expect(await runningAtGateway(customerId)).toEqual([]);
    expect(await chargesOf(m.memberId)).toBe(oursBefore);

    // Support, now seeing no membership, starts the yearly one; it runs alone, and support can cancel it.
    const started = await change(m.memberId, 12, 'race-ann-start');
    expect(started.json().Data).toMatchObject({ StatusString: 'Ok', SubscriptionType: 12 });
    const row = await rowOf(m.memberId);
    expect(row).toMatchObject({ subscription_type: 12, subscription_status: 'active' });
    expect(await runningAtGateway(customerId)).toEqual([{ subscriptionId: row.subscription_id, status: 'active', paymentProfileId: m.card }]);
    const again = await asStaff(BillingApi.supportSubscriptionCancel.path, { MemberId: m.memberId });
    expect(again.statusCode).toBe(200);
    expect(await runningAtGateway(customerId)).toEqual([]);
    expect((await rowOf(m.memberId)).subscription_status).toBe('canceled');
  });

  it("changes the plan of a membership nobody changed meanwhile, and a retry with the request's key answers the first outcome", async () => {
    const m = await subscribedMember('race-fox');
    const customerId = (await rowOf(m.memberId)).customer_profile_id;
    const changed = await change(m.memberId, 12, 'race-fox-change');
    expect(changed.statusCode).toBe(200);
    const first = changed.json().Data;
    expect(first).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.subscribed, SubscriptionType: 12 });
    expect(first.TransactionID).toBeGreaterThan(0);
    const row = await rowOf(m.memberId);
    expect(row).toMatchObject({ subscription_type: 12, subscription_status: 'active' });
    expect(row.subscription_id).not.toBe(m.subscriptionId);
    expect(await gatewayStatus(m.subscriptionId)).toBe('canceled');
    expect(await runningAtGateway(customerId)).toEqual([{ subscriptionId: row.subscription_id, status: 'active', paymentProfileId: m.card }]);

    // The same request again (its answer was lost): the first outcome, and nothing more charged or started.
    const gatewayBefore = await atGateway(customerId);
    const oursBefore = await chargesOf(m.memberId);
    const retried = await change(m.memberId, 12, 'race-fox-change');
    expect(retried.statusCode).toBe(200);
    expect(retried.json().Data).toEqual(first);
    expect(await atGateway(customerId)).toEqual(gatewayBefore);
    expect(await chargesOf(m.memberId)).toBe(oursBefore);
    expect(await rowOf(m.memberId)).toEqual(row);
  });

  it("answers a retry of support's change sent while the first is at the gateway with the first's outcome, not a 409", async () => {
    const m = await subscribedMember('race-gil');
    const customerId = (await rowOf(m.memberId)).customer_profile_id;
    const gatewayBefore = await atGateway(customerId);
    // The retry comes while the first is creating the yearly one: it saw the monthly membership, which the first
    // replaces; the key names the first's request, so the retry is that request, answered as it was.
    const [first, retried] = await interleave(
      { phase: 'onRequest', ...CREATE },
      () => change(m.memberId, 12, 'race-gil-change'),
      () => change(m.memberId, 12, 'race-gil-change'),
    );
    expect(first.statusCode).toBe(200);
    expect(first.json().Data).toMatchObject({ StatusString: 'Ok', SubscriptionType: 12 });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().Data).toEqual(first.json().Data);
    const gatewayAfter = await atGateway(customerId);
    expect(gatewayAfter.subscriptions).toHaveLength(gatewayBefore.subscriptions.length + 1);
    expect(gatewayAfter.transactions).toHaveLength(gatewayBefore.transactions.length + 1);
    const row = await rowOf(m.memberId);
    expect(await runningAtGateway(customerId)).toEqual([{ subscriptionId: row.subscription_id, status: 'active', paymentProfileId: m.card }]);
  });

  it('answers 409 and cancels nothing when a change under way replaced the subscription the member asked to cancel', async () => {
    const m = await subscribedMember('race-bea');
    // Support's change is at the gateway (creating the yearly one) when the member's cancel of the monthly one comes.
    const [changed, canceled] = await interleave(
      { phase: 'onRequest', ...CREATE },
      () => change(m.memberId, 12, 'race-bea-change'),
      () => terminate(m.session),
    );
    expect(changed.json().Data).toMatchObject({ StatusString: 'Ok', SubscriptionType: 12 });
    expect(canceled.statusCode).toBe(409);
    expect(canceled.json().MsgText).toBe(BILLING_MESSAGES.subscriptionChangedNotCanceled);
    const row = await rowOf(m.memberId);
    expect(row).toMatchObject({ subscription_type: 12, subscription_status: 'active' });
    expect(await gatewayStatus(m.subscriptionId)).toBe('canceled');
    expect(await runningAtGateway(row.customer_profile_id)).toEqual([{ subscriptionId: row.subscription_id, status: 'active', paymentProfileId: m.card }]);
    expect(
      await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.cancel' AND member_id = $1 AND detail->>'replaced' IS NULL`, [
        m.memberId,
      ]),
    ).toBe(0);

    // Cancelled again, now that the member sees the yearly one, it ends at the gateway too.
    const again = await terminate(m.session);
    expect(again.statusCode).toBe(200);
    expect(await gatewayStatus(row.subscription_id ?? 0)).toBe('canceled');
    expect(await runningAtGateway(row.customer_profile_id)).toEqual([]);
    expect((await rowOf(m.memberId)).subscription_status).toBe('canceled');
    expect(
      await count(
        `SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.cancel' AND member_id = $1 AND (detail->>'subscriptionId')::int = $2 AND detail->>'replaced' IS NULL`,
        [m.memberId, row.subscription_id],
      ),
    ).toBe(1);
  });

  it('starts nothing when the membership ends while a change is at the gateway: the new subscription is canceled and its charge given back (409)', async () => {
    const m = await subscribedMember('race-cid');
    const customerId = (await rowOf(m.memberId)).customer_profile_id;
    const gatewayBefore = await atGateway(customerId);
    // Support's change is at the gateway when the member terminates and the kernel's job cancels the renewals.
    const [changed] = await interleave(
      { phase: 'onRequest', ...CREATE },
      () => change(m.memberId, 12, 'race-cid-change'),
      async () => {
        expect((await call('/api/members/terminate', { method: 'POST', session: m.session })).statusCode).toBe(200);
        await server.jobs.drain();
      },
    );
    // The change writes after the termination committed (it reads the member FOR SHARE there): no yearly membership.
    expect(changed.statusCode, changed.body).toBe(409);
    expect(changed.json().MsgText).toBe(BILLING_MESSAGES.memberTerminated);
    await server.jobs.drain();
    const row = await rowOf(m.memberId);
    // The monthly one, canceled by the termination (its job ran once the change let go of the lease).
    expect(row).toMatchObject({ subscription_id: m.subscriptionId, subscription_type: 1, subscription_status: 'canceled' });
    expect(await runningAtGateway(customerId)).toEqual([]);
    const gatewayAfter = await atGateway(customerId);
    const created = gatewayAfter.subscriptions.filter((s) => !gatewayBefore.subscriptions.some((b) => b.subscriptionId === s.subscriptionId));
    expect(created).toEqual([{ subscriptionId: expect.any(Number), status: 'canceled' }]);
    // The yearly charge is recorded as the gateway made it and voided: the member paid nothing for it.
    const yearly = await server.database.sql.query<{ status: string }>(
      `SELECT status FROM billing_transactions WHERE member_id = $1 AND kind = 'subscription' AND description = 'Yearly membership'`,
      [m.memberId],
    );
    expect(yearly).toEqual([{ status: 'Voided' }]);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.terminated' AND member_id = $1 AND outcome = 'success'
           AND detail->>'reversal' = 'void' AND (detail->>'subscriptionCanceled')::boolean`,
        [m.memberId],
      ),
    ).toBe(1);
  });
});

describe("billing: moving the subscription to another card keeps our row to the gateway's", () => {
  it('does not mark active a subscription the member canceled while it was being moved to another card', async () => {
    const m = await subscribedMember('race-dee');
    const other = await addCard(m.session, '5424000000000015');
    // The move is at the gateway when the member's cancel comes.
    const [moved, canceled] = await interleave(
      { phase: 'onRequest', ...MOVE },
      () => call(BillingApi.setSubscriptionCard.path, { session: m.session, body: { ProfileId: other } }),
      () => terminate(m.session),
    );
    expect(moved.statusCode).toBe(200);
    expect(moved.json().Data.Profiles.find((c: { ProfileId: number }) => c.ProfileId === other)).toMatchObject({ IsSubscription: true });
    expect(canceled.statusCode).toBe(200);
    expect(await rowOf(m.memberId)).toMatchObject({ subscription_id: m.subscriptionId, subscription_status: 'canceled', subscription_profile_id: other });
    expect(await gatewayStatus(m.subscriptionId)).toBe('canceled');
    // Moving a canceled subscription is refused and changes nothing.
    const late = await call(BillingApi.setSubscriptionCard.path, { session: m.session, body: { ProfileId: m.card } });
    expect(late.statusCode).toBe(400);
    expect(late.json().MsgText).toBe(BILLING_MESSAGES.noSubscription);
    expect((await rowOf(m.memberId)).subscription_status).toBe('canceled');
  });

  it("moves a deleted card's subscription to the default card, audited, without writing over a move the member made meanwhile", async () => {
    const m = await subscribedMember('race-eli');
    const def = await addCard(m.session, '5424000000000015');
    const chosen = await addCard(m.session, '4012888888881881');
    await data(BillingApi.setDefaultCard.path, { session: m.session, body: { ProfileId: def } });
    // Deleting the card that pays the subscription moves it to the default card; that move has run at the gateway and
    // not yet answered when the member moves the subscription to another card.
    const [deleted, moved] = await interleave(
      { phase: 'onSend', ...MOVE },
      () => call(BillingApi.deleteProfile.path.replace(':id', String(m.card)), { session: m.session, body: {} }),
      () => call(BillingApi.setSubscriptionCard.path, { session: m.session, body: { ProfileId: chosen } }),
    );
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().Data).toEqual({ Deactivated: false });
    expect(moved.statusCode).toBe(200);
    // The two moves ran one after the other: the member's came last, and our row and the gateway agree on it.
    const row = await rowOf(m.memberId);
    expect(row).toMatchObject({ subscription_id: m.subscriptionId, subscription_status: 'active', subscription_profile_id: chosen });
    expect(await runningAtGateway(row.customer_profile_id)).toEqual([{ subscriptionId: m.subscriptionId, status: 'active', paymentProfileId: chosen }]);
    // The deletion's move is audited (in its transaction), with the card it left and the subscription it moved.
    const audits = await server.database.sql.query<{ entity_id: string; detail: Record<string, unknown> }>(
      `SELECT entity_id, detail FROM audit_log WHERE action = 'billing.subscription.card' AND member_id = $1 ORDER BY id`,
      [m.memberId],
    );
    expect(audits).toEqual([
      { entity_id: String(def), detail: { subscriptionId: m.subscriptionId, from: m.card, reason: 'card deleted' } },
      { entity_id: String(chosen), detail: { subscriptionId: m.subscriptionId, from: def, resumed: false } },
    ]);
  });
});
