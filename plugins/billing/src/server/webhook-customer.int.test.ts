import type { StartedServer } from '@portal/app-server/server';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingApi, type BillingProfile } from '../contract';
import { type BillingStack, GATEWAY_BASIC, saveCardAtGateway, startBillingStack } from './test-stack';

/**
 * A recurring charge's webhook names the gateway customer it is for; the charge is booked on that customer's member
 * only when the gateway's transaction is that customer's. Signed events (the signature is right): the check is on what
 * the event says, against the gateway's own record of the transaction.
 */
let stack: BillingStack;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };

const call = (session: Session, path: string, body?: unknown) =>
  server.app.inject({ method: body === undefined ? 'GET' : 'POST', url: path, headers: authHeaders(session, 'card'), payload: body as object });
const data = async <T>(session: Session, path: string, body?: unknown) => {
  const res = await call(session, path, body);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json().Data as T;
};
const count = async (sqlText: string, params: unknown[] = []) => (await server.database.sql.query<{ n: number }>(sqlText, params))[0]?.n ?? 0;

async function addCard(session: Session, cardNumber: string): Promise<BillingProfile> {
  const t = await data<{ Token: string }>(session, `${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`);
  const saved = await saveCardAtGateway(sandboxUrl, t.Token, cardNumber);
  expect(saved.status).toBe(200);
  return data<BillingProfile>(session, BillingApi.sync.path);
}

/** A member of the card brand with an active monthly membership on an approving card. */
async function subscribed(userName: string, n: number): Promise<{ id: number; session: Session; profile: BillingProfile }> {
  const id = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  const session = await signIn(server, userName);
  await addCard(session, '4111111111111111');
  const started = await data<{ StatusString: string }>(session, BillingApi.start.path, { Type: 1, IdempotencyKey: `${userName}-start-${n}` });
  expect(started.StatusString).toBe('Ok');
  return { id, session, profile: await data<BillingProfile>(session, BillingApi.profile.path) };
}

const postEvent = (event: object) => stack.webhook(JSON.stringify(event));
const renewalEvent = (notificationId: string, transId: number, subscriptionId: number | null, customerProfileId: number | null) => ({
  notificationId,
  eventType: 'net.authorize.payment.authcapture.created',
  eventDate: new Date().toISOString(),
  webhookId: '1',
  payload: {
    responseCode: 2,
    id: String(transId),
    subscriptionId: String(subscriptionId),
    customerProfileId,
    paymentProfileId: null,
    authAmount: 12,
    message: 'declined',
  },
});

beforeAll(async () => {
  stack = await startBillingStack();
  ({ sandboxUrl, server } = stack);
});
afterAll(async () => {
  await stack?.close();
});

describe('billing: a webhook names the customer of its transaction', () => {
  it("does not record a charge on a member whose customer profile the event names when the transaction is another customer's", async () => {
    const ivy = await subscribed('hook-ivy', 1);
    const jon = await subscribed('hook-jon', 1);
    // Ivy's renewal declines at the gateway: her subscription moves to a card that declines every charge.
    const declining = (await addCard(ivy.session, '4000000000000341')).Profiles.find((c) => c.CardNumber === 'XXXX0341')?.ProfileId;
    await data(ivy.session, BillingApi.setSubscriptionCard.path, { ProfileId: declining });
    const charged = (await (
      await fetch(`${sandboxUrl}/gateway/api/subscriptions/${ivy.profile.SubscriptionId}/charge-now`, {
        method: 'POST',
        headers: { authorization: GATEWAY_BASIC },
      })
    ).json()) as { transId: number; customerProfileId: number; responseCode: string };
    expect(charged).toMatchObject({ customerProfileId: ivy.profile.CustomerId, responseCode: '2' });

    // A signed event that names Jon's customer profile (and his subscription) for Ivy's declined charge.
    const forged = await postEvent(renewalEvent('hook-forged-1', charged.transId, jon.profile.SubscriptionId, jon.profile.CustomerId));
    expect(forged.statusCode, forged.body).toBe(200);
    expect(forged.json().Data).toEqual({ Recorded: false });
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE gateway_trans_id = $1', [charged.transId])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [jon.id])).toBe(1);
    expect((await data<BillingProfile>(jon.session, BillingApi.profile.path)).SubscriptionStatus).toBe('active');
    await server.flushAudit();
    const refused = await server.database.sql.query<{ member_id: number; detail: Record<string, unknown> }>(
      `SELECT member_id, detail FROM audit_log WHERE action = 'billing.webhook' AND outcome = 'refused' AND entity_id = 'hook-forged-1'`,
    );
    expect(refused).toEqual([
      {
        member_id: jon.id,
        detail: {
          reason: 'customer',
          eventType: 'net.authorize.payment.authcapture.created',
          gatewayTransId: charged.transId,
          eventCustomerProfileId: jon.profile.CustomerId,
          transactionCustomerProfileId: ivy.profile.CustomerId,
        },
      },
    ]);

    // The event that names Ivy's own customer profile records the decline on her, once, and suspends her membership.
    const genuine = await postEvent(renewalEvent('hook-genuine-1', charged.transId, ivy.profile.SubscriptionId, ivy.profile.CustomerId));
    expect(genuine.json().Data).toEqual({ Recorded: true });
    const rows = await server.database.sql.query<{ member_id: number; status: string }>(
      'SELECT member_id, status FROM billing_transactions WHERE gateway_trans_id = $1',
      [charged.transId],
    );
    expect(rows).toEqual([{ member_id: ivy.id, status: 'Declined' }]);
    expect((await data<BillingProfile>(ivy.session, BillingApi.profile.path)).SubscriptionStatus).toBe('suspended');
    expect((await data<BillingProfile>(jon.session, BillingApi.profile.path)).SubscriptionStatus).toBe('active');
  });
});
