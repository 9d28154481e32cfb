import type { StartedServer } from '@portal/app-server/server';
import { ClaimStatus } from '@portal/core';
import { COUPON_CHECK_MESSAGES } from '@portal/plugin-coupons/contract';
import { mailTo } from '@portal/sandbox';
import { signWebhook } from '@portal/server/kernel';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, BillingApi, type BillingProfile, PREPULL_DESCRIPTION } from '../contract';
import { type BillingStack, GATEWAY_BASIC, SANDBOX_GATEWAY, saveCardAtGateway, startBillingStack } from './test-stack';

/**
 * The payment service against the sandbox gateway over real HTTP: the member adds cards through the hosted form's
 * own call (as the iframe does), then every member, card and support call runs through the kernel guard.
 */
let stack: BillingStack;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };
let ann: Session;
let bob: Session;
let staff: Session;
let annId: number;

type Call = { method?: 'GET' | 'POST'; body?: unknown; session?: Session; brand?: string; headers?: Record<string, string> };
const call = (path: string, o: Call = {}) =>
  server.app.inject({
    method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
    url: path,
    headers: { ...authHeaders(o.session ?? ann, o.brand ?? 'card'), ...o.headers },
    payload: o.body as object,
  });
const data = async <T>(path: string, o: Call = {}) => {
  const res = await call(path, o);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json().Data as T;
};

/** Opens the hosted form with a token from our API and saves a card the way the form's script does. */
async function addCard(session: Session, cardNumber: string): Promise<{ status: number; error?: string }> {
  const t = await data<{ Token: string; Url: string }>(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`, {
    session,
  });
  expect(t.Url).toBe(`${sandboxUrl}/customer/addPayment`);
  const res = await saveCardAtGateway(sandboxUrl, t.Token, cardNumber);
  const body = (await res.json()) as { error?: string };
  return { status: res.status, error: body.error };
}
const sync = (session: Session = ann) => data<BillingProfile & { Reactivated: boolean }>(BillingApi.sync.path, { session });
const settleNow = () => fetch(`${sandboxUrl}/gateway/api/settle-now`, { method: 'POST', headers: { authorization: GATEWAY_BASIC } });
const count = async (sqlText: string, params: unknown[] = []) => (await server.database.sql.query<{ n: number }>(sqlText, params))[0]?.n ?? 0;

beforeAll(async () => {
  stack = await startBillingStack({ sites: ['card'] });
  ({ sandboxUrl, server } = stack);
  annId = (await makeUser(server, { userName: 'bill-ann', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  await makeUser(server, { userName: 'bill-bob', roles: ['CareGuard'], brand: 'card', member: true });
  ann = await signIn(server, 'bill-ann');
  bob = await signIn(server, 'bill-bob');
  staff = await stack.signInStaff('bill-staff');
  await stack.addCoupons([{ code: 'LIFE-CARD' }, { code: 'OLD-CARD', end: '2020-12-31' }]);
});
afterAll(async () => {
  await stack?.close();
});

describe('billing: the page that embeds the card form', () => {
  it('allows only the gateway origin in frame-src and form-action, on the billing pages only', async () => {
    const csp = async (path: string) => {
      const res = await server.app.inject({ method: 'GET', url: path, headers: { host: 'card.localhost' } });
      expect(res.statusCode).toBe(200);
      return String(res.headers['content-security-policy']);
    };
    const gateway = new URL(sandboxUrl).origin;
    for (const path of ['/payment', '/payment/cards', '/billing']) {
      // The card form is framed, and opened by a POST of its token into the frame.
      expect(await csp(path)).toContain(`frame-src ${gateway};`);
      expect(await csp(path)).toContain(`form-action 'self' ${gateway};`);
    }
    expect(await csp('/dashboard')).toContain("frame-src 'none'");
    expect(await csp('/dashboard')).toContain("form-action 'self';");
  });
});

describe('billing: cards through the hosted form', () => {
  it('refuses anonymous callers, other roles and a returnUrl of another site', async () => {
    expect((await server.app.inject({ method: 'GET', url: BillingApi.profile.path, headers: { host: 'card.localhost' } })).statusCode).toBe(401);
    expect((await call(BillingApi.profile.path, { session: staff, brand: 'staff' })).statusCode).toBe(403);
    expect((await call(BillingApi.refund.path, { body: { TransactionID: 1, IdempotencyKey: 'ann-refund-0001' } })).statusCode).toBe(403);
    const evil = await call(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('https://evil.example.com/')}`);
    expect(evil.statusCode).toBe(400);
    expect(evil.json().MsgText).toBe(BILLING_MESSAGES.badReturnUrl);
    expect((await call(`${BillingApi.token.path}?returnUrl=nope`)).statusCode).toBe(400);
  });

  it('saves an approved card, masked and default; refuses a declined one with the gateway message', async () => {
    expect(await addCard(ann, '4111111111111111')).toEqual({ status: 200, error: undefined });
    const declined = await addCard(ann, '4000000000000002');
    expect(declined).toEqual({ status: 402, error: 'This transaction has been declined.' });
    const p = await sync();
    expect(p.Profiles).toHaveLength(1);
    expect(p.Profiles[0]).toMatchObject({ CardNumber: 'XXXX1111', IsDefault: true, IsSubscription: false, CardType: 'Visa' });
    expect(p.CustomerId).toBeGreaterThan(0);
    expect((await data<unknown[]>(BillingApi.cardList.path)).length).toBe(1);
    const def = await data<{ ProfileId: number }>(BillingApi.defaultCard.path);
    expect(def.ProfileId).toBe(p.Profiles[0]?.ProfileId);
  });

  it('keeps members to their own cards', async () => {
    const annCard = (await data<BillingProfile>(BillingApi.profile.path)).Profiles[0]?.ProfileId ?? 0;
    expect((await data<BillingProfile>(BillingApi.profile.path, { session: bob })).Profiles).toEqual([]);
    expect((await call(BillingApi.deleteProfile.path.replace(':id', String(annCard)), { session: bob, body: {} })).statusCode).toBe(404);
    expect((await call(BillingApi.setDefaultCard.path, { session: bob, body: { ProfileId: annCard } })).statusCode).toBe(404);
    expect((await call(BillingApi.cardGet.path.replace(':id', String(annCard)), { session: bob })).statusCode).toBe(404);
    expect((await data<unknown[]>(BillingApi.cardList.path)).length).toBe(1);
    const reads = await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.card.delete'`);
    expect(reads).toBe(0);
  });

  it("opens the gateway's edit-payment form for the member's own card only, and a save there updates that card", async () => {
    const before = (await sync()).Profiles;
    const card = before[0]?.ProfileId ?? 0;
    const tokenFor = (profileId: number | string, session = ann, brand = 'card') =>
      call(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}&paymentProfileId=${profileId}`, { session, brand });
    // Another member's card, an unknown card and a bad id give no token.
    expect((await tokenFor(card, bob)).statusCode).toBe(404);
    expect((await tokenFor(card, bob)).json().MsgText).toBe(BILLING_MESSAGES.cardNotFound);
    expect((await tokenFor(card + 1000)).statusCode).toBe(404);
    expect((await tokenFor('abc')).statusCode).toBe(400);
    const res = await tokenFor(card);
    expect(res.statusCode).toBe(200);
    const t = res.json().Data as { Token: string; Url: string };
    expect(t.Url).toBe(`${sandboxUrl}/customer/editPayment`);
    // Support opens the same form for the member's card (support/token/{memberId}), and not for another member's.
    const supportToken = (memberId: number) =>
      call(
        `${BillingApi.supportToken.path.replace(':memberId', String(memberId))}?returnUrl=${encodeURIComponent('http://staff.localhost/support/card/1')}&paymentProfileId=${card}`,
        {
          session: staff,
          brand: 'staff',
        },
      );
    expect((await supportToken(annId)).json().Data.Url).toBe(`${sandboxUrl}/customer/editPayment`);
    const bobId = (await server.database.sql.query<{ member_id: number }>(`SELECT member_id FROM users WHERE user_name = 'bill-bob'`))[0]?.member_id ?? 0;
    expect((await supportToken(bobId)).statusCode).toBe(404);
    // The member keeps the number and changes the expiry in the gateway's form; the sync shows the new expiry.
    const saved = await saveCardAtGateway(sandboxUrl, t.Token, '', '04/32');
    expect(saved.status).toBe(200);
    const after = (await sync()).Profiles;
    expect(after).toHaveLength(before.length);
    expect(after.find((c) => c.ProfileId === card)).toMatchObject({ CardNumber: 'XXXX1111', Expiration: '04/2032', IsDefault: true });
  });
});

describe('billing: coupons and subscriptions', () => {
  it('checks coupons: valid, invalid, expired', async () => {
    const ok = await data<{ Status: number; IsLifetime: boolean }>(BillingApi.checkCoupon.path, { body: { Code: 'life-card' } });
    expect(ok).toMatchObject({ Status: 0, IsLifetime: true, IsVendorLifetime: true });
    const bad = await data<{ Status: number; Message: string }>(BillingApi.checkCoupon.path, { body: { Code: 'NOPE' } });
    expect(bad).toMatchObject({ Status: 1, Message: COUPON_CHECK_MESSAGES.notFound, IsLifetime: false });
    const old = await data<{ Status: number; Message: string }>(BillingApi.checkCoupon.path, { body: { Code: 'OLD-CARD' } });
    expect(old.Message).toBe(COUPON_CHECK_MESSAGES.expired);
    expect((await call(BillingApi.checkCoupon.path, { body: { Code: 'x'.repeat(41) } })).statusCode).toBe(400);
    expect(
      await data<boolean>(BillingApi.saveSubscription.path, { session: bob, body: { code: 'OLD-CARD', key: 1, IdempotencyKey: 'bob-save-sub-0001' } }),
    ).toBe(false);
  });

  it('subscribes monthly at $12 once, records, audits and e-mails a receipt', async () => {
    const body = { Type: 1, IdempotencyKey: 'sub-ann-0001' };
    const r = await data<{ StatusString: string; SubscriptionType: number; TransactionID: number }>(BillingApi.start.path, { body });
    expect(r).toMatchObject({ StatusString: 'Ok', SubscriptionType: 1, Message: BILLING_MESSAGES.subscribed });
    const again = await data<{ TransactionID: number }>(BillingApi.start.path, { body });
    expect(again.TransactionID).toBe(r.TransactionID);
    const rows = await server.database.sql.query<{ amount_cents: number; status: string }>(
      'SELECT amount_cents, status FROM billing_transactions WHERE member_id = $1',
      [annId],
    );
    expect(rows).toEqual([{ amount_cents: 1200, status: 'Charged' }]);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription' AND member_id = $1`, [annId])).toBe(1);
    const p = await data<BillingProfile>(BillingApi.profile.path);
    expect(p).toMatchObject({ SubscriptionType: 1, SubscriptionStatus: 'active' });
    expect(p.Profiles[0]?.IsSubscription).toBe(true);
    await server.jobs.drain();
    const mail = await mailTo(sandboxUrl, 'bill-ann@example.com');
    expect(mail.filter((m) => m.subject === 'Receipt: Monthly membership $12.00')).toHaveLength(1);
    const already = await data<{ StatusString: string; Message: string }>(BillingApi.start.path, { body: { Type: 12, IdempotencyKey: 'sub-ann-0002' } });
    expect(already).toMatchObject({ StatusString: 'Error', Message: BILLING_MESSAGES.alreadySubscribed });
  });

  it('a valid coupon gives lifetime without a charge; an invalid one changes nothing', async () => {
    expect(await addCard(bob, '5424000000000015')).toMatchObject({ status: 200 });
    await sync(bob);
    const invalid = await data<{ StatusString: string; Message: string }>(BillingApi.start.path, {
      session: bob,
      body: { Type: 12, Code: 'NOPE', IdempotencyKey: 'bob-coupon-0001' },
    });
    expect(invalid).toMatchObject({ StatusString: 'Error', Message: COUPON_CHECK_MESSAGES.notFound });
    expect((await data<BillingProfile>(BillingApi.profile.path, { session: bob })).SubscriptionType).toBeNull();
    const ok = await data<{ StatusString: string; SubscriptionType: number }>(BillingApi.start.path, {
      session: bob,
      body: { Type: 1, Code: 'LIFE-CARD', IdempotencyKey: 'bob-coupon-0002' },
    });
    expect(ok).toMatchObject({ StatusString: 'Ok', SubscriptionType: 0 });
    expect(await data<BillingProfile>(BillingApi.profile.path, { session: bob })).toMatchObject({
      SubscriptionType: 0,
      SubscriptionStatus: 'lifetime',
      CouponCode: 'LIFE-CARD',
    });
    expect(
      await count('SELECT count(*)::int AS n FROM billing_transactions bt JOIN billing_customers bc USING (member_id) WHERE bc.coupon_code = $1', [
        'LIFE-CARD',
      ]),
    ).toBe(0);
  });
});

describe('billing: support calls', () => {
  let customerId: number;
  let profileId: number;
  it('charges once for a retried request', async () => {
    const p = await data<BillingProfile>(BillingApi.supportProfile.path, { session: staff, brand: 'staff', body: { MemberId: annId } });
    customerId = p.CustomerId ?? 0;
    profileId = p.Profiles[0]?.ProfileId ?? 0;
    const body = { customerId, profileId, amount: 25.5, description: 'Copay', IdempotencyKey: 'charge-ann-0001' };
    const first = await data<{ StatusString: string; TransactionID: number; Message: string }>(BillingApi.charge.path, {
      session: staff,
      brand: 'staff',
      body,
    });
    const second = await data<{ TransactionID: number }>(BillingApi.charge.path, { session: staff, brand: 'staff', body });
    expect(first).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.charged });
    expect(second.TransactionID).toBe(first.TransactionID);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE amount_cents = 2550`)).toBe(1);
    const gw = (await stack.gateway(`/customers/${customerId}/transactions`)) as {
      amountCents: number;
    }[];
    expect(gw.filter((t) => t.amountCents === 2550)).toHaveLength(1);
    for (const bad of [{}, { customerId, profileId, amount: -1 }, { customerId, profileId, amount: 1.234 }, { customerId: 'x', profileId, amount: 1 }]) {
      expect((await call(BillingApi.charge.path, { session: staff, brand: 'staff', body: bad })).statusCode).toBe(400);
    }
  });

  it('refuses a refund before settlement with the gateway message, voids or refunds after', async () => {
    const charged = await data<{ TransactionID: number }>(BillingApi.charge.path, {
      session: staff,
      brand: 'staff',
      body: { customerId, profileId, amount: 10, IdempotencyKey: 'charge-ann-0002' },
    });
    const early = await data<{ StatusString: string; Message: string }>(BillingApi.refund.path, {
      session: staff,
      brand: 'staff',
      body: { TransactionID: charged.TransactionID, IdempotencyKey: 'refund-ann-0001' },
    });
    expect(early).toEqual({
      StatusString: 'Error',
      Message: 'The referenced transaction does not meet the criteria for issuing a credit.',
      TransactionID: charged.TransactionID,
    });
    const voided = await data<{ StatusString: string }>(BillingApi.void.path, {
      session: staff,
      brand: 'staff',
      body: { TransactionID: charged.TransactionID, IdempotencyKey: 'void-ann-0001' },
    });
    expect(voided.StatusString).toBe('Ok');
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE id = $1 AND status = 'Voided'`, [charged.TransactionID])).toBe(1);

    const first = await server.database.sql.query<{ id: number }>(`SELECT id FROM billing_transactions WHERE amount_cents = 2550`);
    await settleNow();
    const refund = await data<{ StatusString: string; Message: string }>(BillingApi.refund.path, {
      session: staff,
      brand: 'staff',
      body: { TransactionID: first[0]?.id, IdempotencyKey: 'refund-ann-0002' },
    });
    expect(refund).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.refunded });
    // Once per charge, whatever the key: another press (another key) answers the refund already made.
    const twice = await data<{ StatusString: string }>(BillingApi.refund.path, {
      session: staff,
      brand: 'staff',
      body: { TransactionID: first[0]?.id, IdempotencyKey: 'refund-ann-0003' },
    });
    expect(twice.StatusString).toBe('Ok');
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE kind = 'refund'`)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.refund' AND outcome = 'refused'`)).toBe(1);
  });

  it('declines a charge on a card that declines, and records the decline once', async () => {
    expect(await addCard(bob, '4000000000000341')).toMatchObject({ status: 200 });
    const p = await sync(bob);
    const card = p.Profiles.find((c) => c.CardNumber === 'XXXX0341');
    const r = await data<{ StatusString: string; Message: string }>(BillingApi.charge.path, {
      session: staff,
      brand: 'staff',
      body: { customerId: p.CustomerId, profileId: card?.ProfileId, amount: 5, IdempotencyKey: 'charge-bob-decline' },
    });
    expect(r).toMatchObject({ StatusString: 'Error', Message: 'This transaction has been declined.' });
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE status = 'Declined'`)).toBe(1);
  });

  it("refuses a prepull naming a bill that is not the member's, and authorizes nothing", async () => {
    const bobId = (await server.database.sql.query<{ member_id: number }>("SELECT member_id FROM users WHERE user_name = 'bill-bob'"))[0]?.member_id;
    const bill = async (memberId: number | undefined, number: string) =>
      (
        await server.database.sql.query<{ claim_id: number }>(
          `INSERT INTO claims (claim_number, member_id, payee_name, bill_type_id, billed_cents, service_date_from)
           VALUES ($1, $2, 'Prepull Test Pharmacy', 21, 4000, '2026-10-01') RETURNING claim_id`,
          [number, memberId],
        )
      )[0]?.claim_id;
    const bobs = await bill(bobId, 'PP-BOB-1');
    const before = await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [annId]);
    const refused = await call(BillingApi.prepull.path, {
      session: staff,
      brand: 'staff',
      body: { MemberId: annId, Amount: 40, ClaimID: bobs, IdempotencyKey: 'prepull-ann-bobs-bill' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().MsgText).toBe("body.ClaimID: the bill is not one of this member's bills.");
    const missing = await call(BillingApi.prepull.path, {
      session: staff,
      brand: 'staff',
      body: { MemberId: annId, Amount: 40, ClaimID: 987654, IdempotencyKey: 'prepull-ann-no-bill' },
    });
    expect(missing.statusCode).toBe(400);
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [annId])).toBe(before);
  });

  it('refuses a prepull naming a Void or a Denied bill of the member, and authorizes nothing', async () => {
    const bill = async (number: string, statusId: number) =>
      (
        await server.database.sql.query<{ claim_id: number }>(
          `INSERT INTO claims (claim_number, member_id, payee_name, bill_type_id, billed_cents, service_date_from, claim_status_id)
           VALUES ($1, $2, 'Prepull Test Pharmacy', 21, 4000, '2026-10-01', $3) RETURNING claim_id`,
          [number, annId, statusId],
        )
      )[0]?.claim_id;
    const before = await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [annId]);
    for (const [number, statusId] of [
      ['PP-ANN-VOID', ClaimStatus.Void],
      ['PP-ANN-DENIED', ClaimStatus.Denied],
    ] as const) {
      const refused = await call(BillingApi.prepull.path, {
        session: staff,
        brand: 'staff',
        body: { MemberId: annId, Amount: 40, ClaimID: await bill(number, statusId), IdempotencyKey: `prepull-${number}` },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().MsgText).toBe('body.ClaimID: the bill is Void or Denied: nothing can be charged for it.');
    }
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [annId])).toBe(before);
  });

  it('prepulls (authorizes) with the default description, then captures', async () => {
    const r = await data<{ StatusString: string }>(BillingApi.prepull.path, {
      session: staff,
      brand: 'staff',
      body: { MemberId: annId, Amount: 40, IdempotencyKey: 'prepull-ann-1' },
    });
    expect(r.StatusString).toBe('Ok');
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE description = $1 AND status = 'Authorized'`, [PREPULL_DESCRIPTION])).toBe(1);
    const cap = await data<{ StatusString: string }>(BillingApi.capture.path, {
      session: staff,
      brand: 'staff',
      body: { CustomerProfileId: customerId, PaymentProfileId: profileId, Amount: 30, IdempotencyKey: 'capture-ann-0001' },
    });
    expect(cap.StatusString).toBe('Ok');
    expect(
      await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE description = $1 AND status = 'Charged' AND amount_cents = 3000`, [
        PREPULL_DESCRIPTION,
      ]),
    ).toBe(1);
    const pa = await data<{ PANumber: string }>(BillingApi.paNumber.path, { session: staff, brand: 'staff', body: { TransactionID: 1, PANumber: 'PA-77' } });
    expect(pa.PANumber).toBe('PA-77');
    const sub = await data<{ Transactions: unknown[] }>(BillingApi.supportSubscription.path, { session: staff, brand: 'staff', body: { MemberId: annId } });
    expect(sub.Transactions.length).toBeGreaterThanOrEqual(3);
    expect((await data<{ Count: number }>(BillingApi.transactionSync.path, { session: staff, brand: 'staff', body: { MemberId: annId } })).Count).toBe(0);
  });
});

describe('billing: webhooks', () => {
  it('refuses a bad signature and records a signed recurring charge once', async () => {
    const subId = (await data<BillingProfile>(BillingApi.profile.path)).SubscriptionId;
    const charged = (await (
      await fetch(`${sandboxUrl}/gateway/api/subscriptions/${subId}/charge-now`, { method: 'POST', headers: { authorization: GATEWAY_BASIC } })
    ).json()) as {
      transId: number;
      customerProfileId: number;
    };
    const event = {
      notificationId: 'n-1',
      eventType: 'net.authorize.payment.authcapture.created',
      eventDate: new Date().toISOString(),
      webhookId: '1',
      payload: {
        responseCode: 1,
        id: String(charged.transId),
        subscriptionId: String(subId),
        customerProfileId: charged.customerProfileId,
        paymentProfileId: 1,
        authAmount: 12,
        message: 'ok',
      },
    };
    const raw = JSON.stringify(event);
    const post = (signature: string) => stack.webhook(raw, signature);
    const bad = await post(signWebhook('wrong-key', raw));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().MsgText).toBe(BILLING_MESSAGES.badSignature);
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE gateway_trans_id = $1', [charged.transId])).toBe(0);
    const good = await post(signWebhook(SANDBOX_GATEWAY.signatureKey, raw));
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().Data).toEqual({ Recorded: true });
    expect((await post(signWebhook(SANDBOX_GATEWAY.signatureKey, raw))).json().Data).toEqual({ Recorded: false });
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE gateway_trans_id = $1', [charged.transId])).toBe(1);
  });

  it("follows a held charge the merchant decides in the gateway's own screen: by its webhook once, or by support's sync", async () => {
    const heldId = (await makeUser(server, { userName: 'bill-held', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const member = await signIn(server, 'bill-held');
    expect((await addCard(member, '4000000000000259')).status).toBe(200);
    await sync(member);
    const p = await data<BillingProfile>(BillingApi.supportProfile.path, { session: staff, brand: 'staff', body: { MemberId: heldId } });
    const charge = async (key: string) => {
      const r = await data<{ StatusString: string; TransactionID: number; Message: string }>(BillingApi.charge.path, {
        session: staff,
        brand: 'staff',
        body: { customerId: p.CustomerId, profileId: p.Profiles[0]?.ProfileId, amount: 61.5, description: 'Clinic visit', IdempotencyKey: key },
      });
      expect(r.StatusString).toBe('Error');
      const row = (
        await server.database.sql.query<{ gateway_trans_id: number; status: string }>(
          'SELECT gateway_trans_id, status FROM billing_transactions WHERE id = $1',
          [r.TransactionID],
        )
      )[0];
      expect(row?.status).toBe('Pending');
      return { id: r.TransactionID, transId: row?.gateway_trans_id ?? 0 };
    };
    const statusOf = async (id: number) =>
      (await server.database.sql.query<{ status: string }>('SELECT status FROM billing_transactions WHERE id = $1', [id]))[0]?.status;
    const decided = (id: number, source: string) =>
      count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.held.decided' AND entity_id = $1 AND detail->>'source' = $2`, [
        String(id),
        source,
      ]);
    /** The merchant's decision on the sandbox gateway's screen, as the merchant's browser sends it. */
    const onScreen = async (transId: number, action: 'approve' | 'decline') => {
      expect((await stack.merchantScreen(`held/${transId}/${action}`)).status).toBe(303);
    };
    const hook = (eventType: string, transId: number) => {
      const raw = JSON.stringify({
        notificationId: `held-${eventType}-${transId}`,
        eventType,
        eventDate: new Date().toISOString(),
        payload: { responseCode: 1, id: String(transId), subscriptionId: null, customerProfileId: p.CustomerId, paymentProfileId: null, authAmount: 61.5 },
      });
      return stack.webhook(raw);
    };

    // Approved on the gateway's screen: the webhook moves the charge to Charged once, audited as the gateway's word.
    const first = await charge('held-screen-1');
    await onScreen(first.transId, 'approve');
    expect((await hook('net.authorize.payment.fraud.approved', first.transId)).json().Data).toEqual({ Recorded: true });
    expect(await statusOf(first.id)).toBe('Charged');
    expect((await hook('net.authorize.payment.fraud.approved', first.transId)).json().Data).toEqual({ Recorded: false });
    expect(await decided(first.id, 'webhook')).toBe(1);

    // While support's own decision is out at the gateway, its webhook leaves the row to support's call.
    const second = await charge('held-screen-2');
    await server.database.sql.query('UPDATE billing_transactions SET review_started_at = now() WHERE id = $1', [second.id]);
    await onScreen(second.transId, 'approve');
    expect((await hook('net.authorize.payment.fraud.approved', second.transId)).json().Data).toEqual({ Recorded: false });
    expect(await statusOf(second.id)).toBe('Pending');
    // A call that never came back (a minute on) no longer holds it: the next word from the gateway moves it.
    await server.database.sql.query(`UPDATE billing_transactions SET review_started_at = now() - interval '2 minutes' WHERE id = $1`, [second.id]);
    expect((await hook('net.authorize.payment.fraud.approved', second.transId)).json().Data).toEqual({ Recorded: true });
    expect(await statusOf(second.id)).toBe('Charged');

    // Declined on the screen with no webhook heard: support's transaction sync finds it.
    const third = await charge('held-screen-3');
    await onScreen(third.transId, 'decline');
    expect(await statusOf(third.id)).toBe('Pending');
    const synced = await data<{ Count: number }>(BillingApi.transactionSync.path, { session: staff, brand: 'staff', body: { MemberId: heldId } });
    expect(synced.Count).toBe(1);
    expect(await statusOf(third.id)).toBe('Declined');
    expect(await decided(third.id, 'sync')).toBe(1);
    expect((await data<{ Count: number }>(BillingApi.transactionSync.path, { session: staff, brand: 'staff', body: { MemberId: heldId } })).Count).toBe(0);
    // One gateway transaction each: deciding moved no money twice.
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [heldId])).toBe(3);
  });
});

describe('billing: deactivation', () => {
  it('deleting the last card deactivates; adding a card reactivates', async () => {
    const cards = (await data<BillingProfile>(BillingApi.profile.path)).Profiles;
    for (const [i, c] of cards.entries()) {
      const r = await data<{ Deactivated: boolean }>(BillingApi.deleteProfile.path.replace(':id', String(c.ProfileId)), { body: {} });
      expect(r.Deactivated).toBe(i === cards.length - 1);
    }
    expect(await data<BillingProfile>(BillingApi.profile.path)).toMatchObject({ IsDeactivated: true, Profiles: [], SubscriptionStatus: 'suspended' });
    await addCard(ann, '5424000000000015');
    const p = await sync();
    expect(p).toMatchObject({ Reactivated: true, IsDeactivated: false, SubscriptionStatus: 'active' });
    expect(p.Profiles[0]).toMatchObject({ CardNumber: 'XXXX0015', IsDefault: true, IsSubscription: true });
  });

  it('keeps card numbers out of our database', async () => {
    const dump = await server.database.sql.query<{ t: string }>(
      `SELECT string_agg(row_to_json(x)::text, ' ') AS t FROM (
         SELECT * FROM billing_transactions) x
       UNION ALL SELECT string_agg(row_to_json(c)::text, ' ') FROM billing_cards c
       UNION ALL SELECT string_agg(row_to_json(a)::text, ' ') FROM audit_log a`,
    );
    const text = dump.map((r) => r.t ?? '').join(' ');
    expect(text).toContain('"last4":"0015"');
    for (const n of ['4111111111111111', '5424000000000015', '4000000000000341', '4000000000000002']) expect(text).not.toContain(n);
  });
});

describe("billing in the member's language", () => {
  const spanish = { cookie: 'cq.lang=es' };
  let eva: Session;
  let evaId: number;
  beforeAll(async () => {
    evaId = (await makeUser(server, { userName: 'bill-eva', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    eva = await signIn(server, 'bill-eva');
    // Eva reads Spanish: the language her login last signed in with is the one e-mails to her are written in.
    await server.database.sql.query(`UPDATE users SET language = 'es' WHERE member_id = $1`, [evaId]);
  });

  it('words errors and the messages inside results in Spanish for a Spanish request', async () => {
    const evil = await call(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('https://evil.example.com/')}`, { session: eva, headers: spanish });
    expect(evil.statusCode).toBe(400);
    expect(evil.json().MsgText).toBe('returnUrl debe ser una dirección de este sitio.');
    const coupon = await data<{ Status: number; Message: string }>(BillingApi.checkCoupon.path, { session: eva, headers: spanish, body: { Code: 'NOPE' } });
    expect(coupon).toMatchObject({ Status: 1, Message: 'El código de cupón no es válido.' });
    const noCard = await data<{ StatusString: string; Message: string }>(BillingApi.start.path, {
      session: eva,
      headers: spanish,
      body: { Type: 1, IdempotencyKey: 'eva-no-card-0001' },
    });
    expect(noCard).toMatchObject({ StatusString: 'Error', Message: 'Primero agregue una tarjeta.' });
  });

  it("relays the gateway's decline in Spanish", async () => {
    const p = await sync(bob);
    const card = p.Profiles.find((c) => c.CardNumber === 'XXXX0341');
    const r = await data<{ StatusString: string; Message: string }>(BillingApi.charge.path, {
      session: staff,
      brand: 'staff',
      headers: spanish,
      body: { customerId: p.CustomerId, profileId: card?.ProfileId, amount: 5, IdempotencyKey: 'charge-bob-decline-es' },
    });
    expect(r).toMatchObject({ StatusString: 'Error', Message: 'Esta transacción ha sido rechazada.' });
  });

  it('subscribes in Spanish and e-mails the receipts in the member’s language, also when staff move the money in English', async () => {
    expect(await addCard(eva, '4111111111111111')).toMatchObject({ status: 200 });
    const p = await sync(eva);
    const started = await data<{ StatusString: string; Message: string }>(BillingApi.start.path, {
      session: eva,
      headers: spanish,
      body: { Type: 1, IdempotencyKey: 'sub-eva-0001' },
    });
    expect(started).toMatchObject({ StatusString: 'Ok', Message: 'Su suscripción se ha iniciado.' });

    // Staff (in English) authorize on Eva's card, then try to capture more than was authorized: the refusal carries the amount.
    const auth = await data<{ StatusString: string; Message: string }>(BillingApi.prepull.path, {
      session: staff,
      brand: 'staff',
      body: { MemberId: evaId, Amount: 40, IdempotencyKey: 'prepull-eva-1' },
    });
    expect(auth).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.authorized });
    const capture = { CustomerProfileId: p.CustomerId, PaymentProfileId: p.Profiles[0]?.ProfileId };
    const tooMuch = await call(BillingApi.capture.path, {
      session: staff,
      brand: 'staff',
      headers: spanish,
      body: { ...capture, Amount: 50, IdempotencyKey: 'capture-eva-0001' },
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().MsgText).toBe('Amount: debe ser como máximo el monto autorizado de $40.00');
    const captured = await data<{ Message: string }>(BillingApi.capture.path, {
      session: staff,
      brand: 'staff',
      headers: spanish,
      body: { ...capture, Amount: 30, IdempotencyKey: 'capture-eva-0002' },
    });
    expect(captured.Message).toBe('El monto autorizado se ha capturado.');

    await server.jobs.drain();
    const mail = await mailTo(sandboxUrl, 'bill-eva@example.com');
    const subjects = mail.map((m) => m.subject);
    expect(subjects).toContain('Recibo: Membresía mensual $12.00');
    expect(subjects).toContain('Recibo: Autorización: Cargo para transacciones futuras $40.00');
    expect(subjects).toContain('Recibo: Cargo: Cargo para transacciones futuras $30.00');
    const first = mail.find((m) => m.subject === 'Recibo: Membresía mensual $12.00');
    expect(first?.text).toContain('Estimado/a');
    expect(first?.text).toContain('Membresía mensual: $12.00');
    expect(first?.text).toMatch(/Transacción: \d+/);
    expect(first?.text).toContain('Tarjeta: XXXX1111');
    // The day in the member's language ('29 nov 2026'), and the same facts as a table in the brand's HTML part.
    expect(first?.text).toMatch(/Fecha: \d{1,2} [a-z]+\.? \d{4}/);
    expect(first?.html).toContain('<html lang="es">');
    expect(first?.html).toMatch(/<th scope="row"[^>]*>Tarjeta<\/th><td[^>]*>XXXX1111<\/td>/);
  });

  it('names a charge with a blank description "Charge", and words a void of an undescribed charge without a second colon', async () => {
    const leaId = (await makeUser(server, { userName: 'bill-lea', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const lea = await signIn(server, 'bill-lea');
    await server.database.sql.query(`UPDATE users SET language = 'es' WHERE member_id = $1`, [leaId]);
    expect((await addCard(lea, '4111111111111111')).status).toBe(200);
    const p = await sync(lea);
    const charge = (amount: number, description: string | undefined, key: string) =>
      data<{ StatusString: string; TransactionID: number }>(BillingApi.charge.path, {
        session: staff,
        brand: 'staff',
        body: { customerId: p.CustomerId, profileId: p.Profiles[0]?.ProfileId, amount, description, IdempotencyKey: key },
      });
    const blank = await charge(10, '   ', 'charge-lea-0001');
    expect(blank.StatusString).toBe('Ok');
    const rows = await server.database.sql.query<{ description: string | null }>('SELECT description FROM billing_transactions WHERE id = $1', [
      blank.TransactionID,
    ]);
    expect(rows[0]?.description).toBe('Charge');
    // A charge with no description at all (as the transaction sync records one), then voided.
    const bare = await charge(11, undefined, 'charge-lea-0002');
    await server.database.sql.query('UPDATE billing_transactions SET description = NULL WHERE id = $1', [bare.TransactionID]);
    const voided = await data<{ StatusString: string }>(BillingApi.void.path, {
      session: staff,
      brand: 'staff',
      body: { TransactionID: bare.TransactionID, IdempotencyKey: 'void-lea-0001' },
    });
    expect(voided.StatusString).toBe('Ok');

    await server.jobs.drain();
    const mail = await mailTo(sandboxUrl, 'bill-lea@example.com');
    const subjects = mail.map((m) => m.subject);
    expect(subjects).toContain('Recibo: Cargo $10.00');
    expect(subjects).toContain('Recibo: Cargo anulado $11.00');
    const texts = mail.map((m) => m.text).join('\n');
    expect(texts).toContain('\nCargo: $10.00\n');
    expect(texts).toContain('\nCargo anulado: $11.00\n');
    expect(texts).not.toMatch(/::|\n: /);
  });

  it("lists the member's own payments, newest first: the server's descriptions in her language, staff's text as typed", async () => {
    const p = await sync(eva);
    const typed = await data<{ StatusString: string }>(BillingApi.charge.path, {
      session: staff,
      brand: 'staff',
      body: {
        customerId: p.CustomerId,
        profileId: p.Profiles[0]?.ProfileId,
        amount: 7.5,
        description: 'Northside Clinic, copay',
        IdempotencyKey: 'charge-eva-copay',
      },
    });
    expect(typed.StatusString).toBe('Ok');
    type Payment = { TransactionID: number; Kind: string; Status: string; Amount: number; Description: string | null };
    const list = await data<Payment[]>(BillingApi.transactions.path, { session: eva, headers: spanish });
    expect(list.map(({ Kind, Status, Amount, Description }) => ({ Kind, Status, Amount, Description }))).toEqual([
      { Kind: 'charge', Status: 'Charged', Amount: 7.5, Description: 'Northside Clinic, copay' },
      { Kind: 'prepull', Status: 'Charged', Amount: 30, Description: 'Cargo para transacciones futuras' },
      { Kind: 'subscription', Status: 'Charged', Amount: 12, Description: 'Membresía mensual' },
    ]);
    const english = await data<Payment[]>(BillingApi.transactions.path, { session: eva });
    expect(english.map((t) => t.Description)).toEqual(['Northside Clinic, copay', PREPULL_DESCRIPTION, 'Monthly membership']);
    // Bob's declined charges are his: none of them is in Eva's list.
    const owners = await server.database.sql.query<{ member_id: number }>('SELECT DISTINCT member_id FROM billing_transactions WHERE id = ANY($1::int[])', [
      list.map((t) => t.TransactionID),
    ]);
    expect(owners).toEqual([{ member_id: evaId }]);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE status = 'Declined'`)).toBeGreaterThan(0);
  });

  it('writes amounts of $1,000 and more grouped as the pages do ($1,500.00), in the capture limit and in the receipts', async () => {
    const p = await sync(eva);
    const auth = await data<{ StatusString: string }>(BillingApi.prepull.path, {
      session: staff,
      brand: 'staff',
      body: { MemberId: evaId, Amount: 1500, IdempotencyKey: 'prepull-eva-1500' },
    });
    expect(auth.StatusString).toBe('Ok');
    const capture = { CustomerProfileId: p.CustomerId, PaymentProfileId: p.Profiles[0]?.ProfileId };
    const tooMuch = (headers: Record<string, string>, IdempotencyKey: string) =>
      call(BillingApi.capture.path, { session: staff, brand: 'staff', headers, body: { ...capture, Amount: 2000, IdempotencyKey } });
    const english = await tooMuch({}, 'capture-eva-2000-en');
    expect(english.statusCode).toBe(400);
    expect(english.json().MsgText).toBe('Amount: must be at most the authorized $1,500.00');
    expect((await tooMuch(spanish, 'capture-eva-2000-es')).json().MsgText).toBe('Amount: debe ser como máximo el monto autorizado de $1,500.00');
    const captured = await data<{ StatusString: string }>(BillingApi.capture.path, {
      session: staff,
      brand: 'staff',
      body: { ...capture, Amount: 1234.56, IdempotencyKey: 'capture-eva-1234' },
    });
    expect(captured.StatusString).toBe('Ok');
    await server.jobs.drain();
    const mail = await mailTo(sandboxUrl, 'bill-eva@example.com');
    const subjects = mail.map((m) => m.subject);
    expect(subjects).toContain('Recibo: Autorización: Cargo para transacciones futuras $1,500.00');
    expect(subjects).toContain('Recibo: Cargo: Cargo para transacciones futuras $1,234.56');
    expect(mail.find((m) => m.subject.endsWith('$1,234.56'))?.text).toContain('Cargo: Cargo para transacciones futuras: $1,234.56');
  });
});

describe('billing: money moves once, whoever retries and whatever runs at once', () => {
  let cat: Session;
  let dan: Session;
  let catId: number;
  let danId: number;
  const gatewayTransactions = async (customerProfileId: number) =>
    (await stack.gateway(`/customers/${customerProfileId}/transactions`)) as {
      type: string;
      amountCents: number;
      subscriptionId: number | null;
      refTransId: number | null;
    }[];
  const asStaff = { session: () => staff, brand: 'staff' };
  const staffCall = (path: string, body: unknown) => call(path, { session: asStaff.session(), brand: asStaff.brand, body });

  beforeAll(async () => {
    catId = (await makeUser(server, { userName: 'bill-cat', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    danId = (await makeUser(server, { userName: 'bill-dan', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    cat = await signIn(server, 'bill-cat');
    dan = await signIn(server, 'bill-dan');
    for (const s of [cat, dan]) {
      expect(await addCard(s, '4111111111111111')).toMatchObject({ status: 200 });
      await sync(s);
    }
  });

  it('captures once when the same capture is sent again, instead of capturing the next authorization', async () => {
    const p = await data<BillingProfile>(BillingApi.profile.path, { session: cat });
    for (const [amount, key] of [
      [40, 'cat-prepull-40'],
      [50, 'cat-prepull-50'],
    ] as const) {
      const r = await staffCall(BillingApi.prepull.path, { MemberId: catId, Amount: amount, IdempotencyKey: key });
      expect(r.json().Data.StatusString).toBe('Ok');
    }
    const capture = { CustomerProfileId: p.CustomerId, PaymentProfileId: p.Profiles[0]?.ProfileId, Amount: 30, IdempotencyKey: 'cat-capture-0001' };
    const first = (await staffCall(BillingApi.capture.path, capture)).json().Data;
    const again = (await staffCall(BillingApi.capture.path, capture)).json().Data;
    expect(first.StatusString).toBe('Ok');
    expect(again).toEqual(first);
    const captures = (await gatewayTransactions(p.CustomerId ?? 0)).filter((t) => t.type === 'priorAuthCapture');
    expect(captures.map((t) => t.amountCents)).toEqual([3000]);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1 AND status = 'Authorized'`, [catId])).toBe(1);
    // The same key for another capture is refused and captures nothing.
    const other = await staffCall(BillingApi.capture.path, { ...capture, Amount: 20 });
    expect(other.statusCode).toBe(409);
    expect(other.json().MsgText).toBe(BILLING_MESSAGES.keyReused);
    expect((await gatewayTransactions(p.CustomerId ?? 0)).filter((t) => t.type === 'priorAuthCapture')).toHaveLength(1);

    // The same card and amount captured again soon after is a capture of its own when it comes with a key of its own:
    // it takes the next authorization (a repeat of the first key would not).
    expect((await staffCall(BillingApi.prepull.path, { MemberId: catId, Amount: 60, IdempotencyKey: 'cat-prepull-60' })).json().Data.StatusString).toBe('Ok');
    const next = { CustomerProfileId: p.CustomerId, PaymentProfileId: p.Profiles[0]?.ProfileId, Amount: 15 };
    const once = (await staffCall(BillingApi.capture.path, { ...next, IdempotencyKey: 'cat-capture-0002' })).json().Data;
    expect(once.StatusString).toBe('Ok');
    expect((await staffCall(BillingApi.capture.path, { ...next, IdempotencyKey: 'cat-capture-0002' })).json().Data).toEqual(once);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1 AND status = 'Authorized'`, [catId])).toBe(1);
    const keyed = (await staffCall(BillingApi.capture.path, { ...next, IdempotencyKey: 'cat-capture-0003' })).json().Data;
    expect(keyed.StatusString).toBe('Ok');
    expect(keyed.TransactionID).not.toBe(once.TransactionID);
    expect((await gatewayTransactions(p.CustomerId ?? 0)).filter((t) => t.type === 'priorAuthCapture')).toHaveLength(3);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1 AND status = 'Authorized'`, [catId])).toBe(0);
  });

  it('refuses every money call without an IdempotencyKey (400, naming it, in the user’s language) and moves nothing: no gateway call, no row', async () => {
    const nedId = (await makeUser(server, { userName: 'bill-ned', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const ned = await signIn(server, 'bill-ned');
    expect(await addCard(ned, '4111111111111111')).toMatchObject({ status: 200 });
    const p = await sync(ned);
    const card = { customerId: p.CustomerId, profileId: p.Profiles[0]?.ProfileId };
    // Something to capture, and a charge to refund or void.
    const auth = (await staffCall(BillingApi.prepull.path, { MemberId: nedId, Amount: 20, IdempotencyKey: 'ned-prepull-0001' })).json().Data;
    const charged = (await staffCall(BillingApi.charge.path, { ...card, amount: 10, IdempotencyKey: 'ned-charge-0001' })).json().Data;
    expect([auth.StatusString, charged.StatusString]).toEqual(['Ok', 'Ok']);
    const state = async () => {
      await server.flushAudit();
      return {
        gateway: (await gatewayTransactions(p.CustomerId ?? 0)).length,
        rows: await server.database.sql.query('SELECT id, kind, status, amount_cents FROM billing_transactions WHERE member_id = $1 ORDER BY id', [nedId]),
        customer: await server.database.sql.query('SELECT subscription_id, subscription_status FROM billing_customers WHERE member_id = $1', [nedId]),
        audits: await count(`SELECT count(*)::int AS n FROM audit_log WHERE member_id = $1 AND action LIKE 'billing.%'`, [nedId]),
      };
    };
    const before = await state();
    const keyless: [string, Call][] = [
      [BillingApi.start.path, { session: ned, body: { Type: 1 } }],
      [BillingApi.saveSubscription.path, { session: ned, body: { key: 12 } }],
      [BillingApi.supportSubscriptionUpdate.path, { session: staff, brand: 'staff', body: { MemberId: nedId, Type: 1 } }],
      [BillingApi.charge.path, { session: staff, brand: 'staff', body: { ...card, amount: 10 } }],
      [BillingApi.prepull.path, { session: staff, brand: 'staff', body: { MemberId: nedId, Amount: 20 } }],
      [BillingApi.capture.path, { session: staff, brand: 'staff', body: { CustomerProfileId: card.customerId, PaymentProfileId: card.profileId, Amount: 20 } }],
      [BillingApi.refund.path, { session: staff, brand: 'staff', body: { TransactionID: charged.TransactionID } }],
      [BillingApi.void.path, { session: staff, brand: 'staff', body: { TransactionID: charged.TransactionID } }],
    ];
    for (const [path, o] of keyless) {
      const res = await call(path, o);
      expect(res.statusCode, path).toBe(400);
      expect(res.json().MsgText, path).toBe('body.IdempotencyKey: is required: one key of your own per payment, sent again unchanged when the call is retried');
    }
    const spanish = await call(BillingApi.charge.path, { session: staff, brand: 'staff', headers: { cookie: 'cq.lang=es' }, body: { ...card, amount: 10 } });
    expect(spanish.json().MsgText).toBe(
      'body.IdempotencyKey: es obligatorio: una clave propia por pago, que se envía de nuevo sin cambios cuando se reintenta la llamada',
    );
    expect(await state()).toEqual(before);
  });

  it("keeps a member's idempotency key to that member: another member's charge with the same key is charged, not answered with the first", async () => {
    const cp = await data<BillingProfile>(BillingApi.profile.path, { session: cat });
    const dp = await data<BillingProfile>(BillingApi.profile.path, { session: dan });
    const charge = (p: BillingProfile, amount: number) =>
      staffCall(BillingApi.charge.path, { customerId: p.CustomerId, profileId: p.Profiles[0]?.ProfileId, amount, IdempotencyKey: 'shared-key-0001' });
    const catCharge = (await charge(cp, 10)).json().Data;
    const danCharge = (await charge(dp, 99)).json().Data;
    expect(catCharge.StatusString).toBe('Ok');
    expect(danCharge.StatusString).toBe('Ok');
    expect(danCharge.TransactionID).not.toBe(catCharge.TransactionID);
    const danRow = await server.database.sql.query<{ member_id: number; amount_cents: number }>(
      'SELECT member_id, amount_cents FROM billing_transactions WHERE id = $1',
      [danCharge.TransactionID],
    );
    expect(danRow).toEqual([{ member_id: danId, amount_cents: 9900 }]);
    expect((await gatewayTransactions(dp.CustomerId ?? 0)).filter((t) => t.type === 'authCapture').map((t) => t.amountCents)).toEqual([9900]);
    // The member's own key sent again with another amount is refused, and nothing moves.
    const changed = await charge(dp, 50);
    expect(changed.statusCode).toBe(409);
    expect((await gatewayTransactions(dp.CustomerId ?? 0)).filter((t) => t.type === 'authCapture')).toHaveLength(1);
    // Sent again as it was, it answers what the first did.
    expect((await charge(dp, 99)).json().Data).toEqual(danCharge);
  });

  it('starts one subscription when two starts with different keys arrive at once, so a cancel leaves nothing charging', async () => {
    const started = await Promise.all([
      call(BillingApi.start.path, { session: cat, body: { Type: 1, IdempotencyKey: 'cat-tab-one-0001' } }),
      call(BillingApi.start.path, { session: cat, body: { Type: 12, IdempotencyKey: 'cat-tab-two-0001' } }),
    ]);
    const answers = started.map((r) => r.json().Data as { StatusString: string; Message: string });
    expect(answers.filter((a) => a.StatusString === 'Ok')).toHaveLength(1);
    expect(answers.find((a) => a.StatusString !== 'Ok')?.Message).toBe(BILLING_MESSAGES.alreadySubscribed);
    const p = await data<BillingProfile>(BillingApi.profile.path, { session: cat });
    const subscriptions = new Set((await gatewayTransactions(p.CustomerId ?? 0)).flatMap((t) => (t.subscriptionId ? [t.subscriptionId] : [])));
    expect([...subscriptions]).toEqual([p.SubscriptionId]);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1 AND kind = 'subscription'`, [catId])).toBe(1);
    await data(BillingApi.terminate.path, { session: cat, body: {} });
    const sub = (await stack.gateway(`/subscriptions/${p.SubscriptionId}`)) as {
      status: string;
    };
    expect(sub.status).toBe('canceled');
    // The lease is given back: a later start runs.
    expect(await count('SELECT count(*)::int AS n FROM billing_customers WHERE member_id = $1 AND start_lease IS NOT NULL', [catId])).toBe(0);
  });

  it('replaces a suspended subscription at the gateway when the member starts another, so only the new one can charge', async () => {
    const first = (await call(BillingApi.start.path, { session: dan, body: { Type: 1, IdempotencyKey: 'dan-monthly-0001' } })).json().Data;
    expect(first.StatusString).toBe('Ok');
    const old = (await data<BillingProfile>(BillingApi.profile.path, { session: dan })).SubscriptionId;
    // A declined renewal suspends it (the webhook's change, made here directly).
    await server.database.sql.query(`UPDATE billing_customers SET subscription_status = 'suspended' WHERE member_id = $1`, [danId]);
    const second = (await call(BillingApi.start.path, { session: dan, body: { Type: 12, IdempotencyKey: 'dan-yearly-0001' } })).json().Data;
    expect(second.StatusString).toBe('Ok');
    const p = await data<BillingProfile>(BillingApi.profile.path, { session: dan });
    expect(p).toMatchObject({ SubscriptionStatus: 'active', SubscriptionType: 12 });
    expect(p.SubscriptionId).not.toBe(old);
    const statusAt = async (id: number | null) => ((await stack.gateway(`/subscriptions/${id}`)) as { status: string }).status;
    expect(await statusAt(old)).toBe('canceled');
    expect(await statusAt(p.SubscriptionId)).toBe('active');
  });

  it('answers a save-subscription sent again with the same IdempotencyKey as it answered the first: one subscription at the gateway, one charge, one row', async () => {
    const samId = (await makeUser(server, { userName: 'bill-sam', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const sam = await signIn(server, 'bill-sam');
    expect(await addCard(sam, '4111111111111111')).toMatchObject({ status: 200 });
    await sync(sam);
    const body = { key: 1, IdempotencyKey: 'sam-save-sub-0001' };
    const first = await call(BillingApi.saveSubscription.path, { session: sam, body });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().Data).toBe(true);
    // The same request again (its answer lost, the page retries): the first one's answer, not "already subscribed" (false).
    const again = await call(BillingApi.saveSubscription.path, { session: sam, body });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().Data).toBe(true);
    const p = await data<BillingProfile>(BillingApi.profile.path, { session: sam });
    expect(p).toMatchObject({ SubscriptionType: 1, SubscriptionStatus: 'active' });
    const gw = await gatewayTransactions(p.CustomerId ?? 0);
    expect([...new Set(gw.flatMap((t) => (t.subscriptionId ? [t.subscriptionId] : [])))]).toEqual([p.SubscriptionId]);
    expect(gw.filter((t) => t.type === 'authCapture').map((t) => t.amountCents)).toEqual([1200]);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1`, [samId])).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1 AND kind = 'subscription'`, [samId])).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription' AND member_id = $1`, [samId])).toBe(1);
  });

  it('refuses an amount that only JavaScript reads as a number, and authorizes nothing', async () => {
    for (const Amount of ['0x10', '1e2', 'Infinity']) {
      const r = await staffCall(BillingApi.prepull.path, { MemberId: danId, Amount, IdempotencyKey: `dan-bad-amount-${Amount}` });
      expect(r.statusCode, Amount).toBe(400);
      expect(r.json().MsgText).toContain('Amount');
    }
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1 AND kind = 'prepull'`, [danId])).toBe(0);
    const comma = await staffCall(BillingApi.prepull.path, { MemberId: danId, Amount: '12,5', IdempotencyKey: 'dan-comma-amount' });
    expect(comma.json().Data.StatusString).toBe('Ok');
    expect(await count(`SELECT amount_cents AS n FROM billing_transactions WHERE member_id = $1 AND kind = 'prepull'`, [danId])).toBe(1250);
  });
});

describe("billing: the default card, set by support's defaultcard/update and by the member's POST /api/card", () => {
  let dora: Session;
  let doraId: number;
  let ottoId: number;
  /** Dora's two cards: the first saved (the default to begin with) and the second. */
  let firstCard: number;
  let secondCard: number;
  /** The one card of another member, Otto. */
  let ottoCard: number;
  const asStaff = (path: string, body: unknown) => call(path, { session: staff, brand: 'staff', body });
  /** Which of a member's cards is the default, in our table and at the gateway. */
  const defaults = async (memberId: number) => {
    const ours = await server.database.sql.query<{ payment_profile_id: number; is_default: boolean }>(
      'SELECT payment_profile_id, is_default FROM billing_cards WHERE member_id = $1 ORDER BY payment_profile_id',
      [memberId],
    );
    const customerId =
      (
        await server.database.sql.query<{ customer_profile_id: number }>('SELECT customer_profile_id FROM billing_customers WHERE member_id = $1', [memberId])
      )[0]?.customer_profile_id ?? 0;
    const gateway = ((await stack.gateway(`/customers/${customerId}`)) as { paymentProfiles: { paymentProfileId: number; isDefault: boolean }[] })
      .paymentProfiles;
    return {
      ours: ours.filter((c) => c.is_default).map((c) => c.payment_profile_id),
      gateway: gateway.filter((c) => c.isDefault).map((c) => c.paymentProfileId),
    };
  };
  const defaultAudits = (memberId: number) =>
    count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.card.default' AND member_id = $1`, [memberId]);
  /** What a refused call must leave as it was: the default card (ours and the gateway's) and the audit of default changes. */
  const state = async (memberId: number) => ({ ...(await defaults(memberId)), audits: await defaultAudits(memberId) });
  /** Dora's card that is not her default now: the one a call is to make the default (each test stands on its own). */
  const notDefault = async () => ((await defaults(doraId)).ours[0] === firstCard ? secondCard : firstCard);
  const defaultsOf = (p: BillingProfile) => p.Profiles.filter((c) => c.IsDefault).map((c) => c.ProfileId);

  beforeAll(async () => {
    doraId = (await makeUser(server, { userName: 'bill-dora', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    ottoId = (await makeUser(server, { userName: 'bill-otto', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    dora = await signIn(server, 'bill-dora');
    const otto = await signIn(server, 'bill-otto');
    expect((await addCard(dora, '4111111111111111')).status).toBe(200);
    expect((await addCard(dora, '5424000000000015')).status).toBe(200);
    const cards = (await sync(dora)).Profiles;
    firstCard = cards.find((c) => c.CardNumber === 'XXXX1111')?.ProfileId ?? 0;
    secondCard = cards.find((c) => c.CardNumber === 'XXXX0015')?.ProfileId ?? 0;
    expect((await addCard(otto, '4111111111111111')).status).toBe(200);
    ottoCard = (await sync(otto)).Profiles[0]?.ProfileId ?? 0;
    expect(await defaults(doraId)).toEqual({ ours: [firstCard], gateway: [firstCard] });
  });

  it("support (CareSupport) makes the member's named card the default: answered, read back by support and by the member, at the gateway too, audited", async () => {
    const target = await notDefault();
    const audits = await defaultAudits(doraId);
    const res = await asStaff(BillingApi.supportDefaultCard.path, { MemberId: doraId, ProfileId: target });
    expect(res.statusCode, res.body).toBe(200);
    expect(defaultsOf(res.json().Data)).toEqual([target]);
    expect(defaultsOf((await asStaff(BillingApi.supportProfile.path, { MemberId: doraId })).json().Data)).toEqual([target]);
    expect((await data<{ ProfileId: number }>(BillingApi.defaultCard.path, { session: dora })).ProfileId).toBe(target);
    expect(await state(doraId)).toEqual({ ours: [target], gateway: [target], audits: audits + 1 });
  });

  it("refuses a member support's defaultcard/update (403), changing nothing", async () => {
    const before = await state(doraId);
    const res = await call(BillingApi.supportDefaultCard.path, { session: dora, body: { MemberId: doraId, ProfileId: await notDefault() } });
    expect(res.statusCode, res.body).toBe(403);
    expect(await state(doraId)).toEqual(before);
  });

  it("refuses support's defaultcard/update naming another member's card (404, the card was not found), changing neither member's cards", async () => {
    const before = { dora: await state(doraId), otto: await state(ottoId) };
    const res = await asStaff(BillingApi.supportDefaultCard.path, { MemberId: doraId, ProfileId: ottoCard });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().MsgText).toBe(BILLING_MESSAGES.cardNotFound);
    expect({ dora: await state(doraId), otto: await state(ottoId) }).toEqual(before);
  });

  it("the member's POST /api/card makes their own card the default, answers it as the default and reads it back so; staff are refused (403)", async () => {
    const target = await notDefault();
    const other = target === firstCard ? secondCard : firstCard;
    const audits = await defaultAudits(doraId);
    const res = await call(BillingApi.cardSave.path, { session: dora, body: { Id: target, IsDefault: true } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data).toMatchObject({ ProfileId: target, IsDefault: true });
    const one = (id: number) => data<{ ProfileId: number; IsDefault: boolean }>(BillingApi.cardGet.path.replace(':id', String(id)), { session: dora });
    expect(await one(target)).toMatchObject({ IsDefault: true });
    expect(await one(other)).toMatchObject({ IsDefault: false });
    expect((await data<{ ProfileId: number }>(BillingApi.defaultCard.path, { session: dora })).ProfileId).toBe(target);
    expect(await state(doraId)).toEqual({ ours: [target], gateway: [target], audits: audits + 1 });
    // The card page's call is the member's own: support, acting on nobody, is refused and changes nothing.
    const staffCall = await asStaff(BillingApi.cardSave.path, { Id: other, IsDefault: true });
    expect(staffCall.statusCode, staffCall.body).toBe(403);
    expect(await state(doraId)).toEqual({ ours: [target], gateway: [target], audits: audits + 1 });
  });

  it("refuses the member's POST /api/card naming another member's card (404, the card was not found), changing neither member's cards", async () => {
    const before = { dora: await state(doraId), otto: await state(ottoId) };
    const res = await call(BillingApi.cardSave.path, { session: dora, body: { Id: ottoCard, IsDefault: true } });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().MsgText).toBe(BILLING_MESSAGES.cardNotFound);
    expect({ dora: await state(doraId), otto: await state(ottoId) }).toEqual(before);
  });
});

describe('billing: a membership that ends', () => {
  it('cancels the subscription the gateway would renew when the member terminates, once the kernel job has run', async () => {
    const eveId = (await makeUser(server, { userName: 'bill-eve', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const eve = await signIn(server, 'bill-eve');
    expect(await addCard(eve, '4111111111111111')).toEqual({ status: 200, error: undefined });
    await sync(eve);
    const started = await data<{ StatusString: string }>(BillingApi.start.path, { session: eve, body: { Type: 1, IdempotencyKey: 'eve-monthly-0001' } });
    expect(started.StatusString).toBe('Ok');
    const subscriptionId = (await data<BillingProfile>(BillingApi.profile.path, { session: eve })).SubscriptionId;
    const statusAt = async (id: number | null) => ((await stack.gateway(`/subscriptions/${id}`)) as { status: string }).status;
    expect(await statusAt(subscriptionId)).toBe('active');

    // The member's own Terminate (the profile plugin's POST /api/members/terminate).
    const terminated = await call('/api/members/terminate', { method: 'POST', session: eve });
    expect(terminated.statusCode).toBe(200);
    await server.jobs.drain();
    expect(await statusAt(subscriptionId)).toBe('canceled');
    const p = await data<BillingProfile>(BillingApi.profile.path, { session: eve });
    expect(p.SubscriptionStatus).toBe('canceled');
    // The page names the plan canceled and until when it was paid: the first month's charge plus a month.
    const days = (new Date(p.PaidThrough ?? 0).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27.9);
    expect(days).toBeLessThan(31.1);
    expect(
      await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.cancel' AND member_id = $1 AND actor_name = 'system'`, [
        eveId,
      ]),
    ).toBe(1);
    // No renewal is charged any more: the only charge is the first month's.
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1`, [eveId])).toBe(1);
  });
});

describe('billing: a member who terminates and reactivates keeps the period already paid for', () => {
  it('gives the yearly membership back without a second charge, renewing at the gateway when the paid year ends; a start then is refused', async () => {
    const idaId = (await makeUser(server, { userName: 'bill-ida', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const ida = await signIn(server, 'bill-ida');
    expect((await addCard(ida, '4111111111111111')).status).toBe(200);
    const card = (await sync(ida)).Profiles[0]?.ProfileId;
    const started = await data<{ StatusString: string }>(BillingApi.start.path, { session: ida, body: { Type: 12, IdempotencyKey: 'ida-yearly-0001' } });
    expect(started.StatusString).toBe('Ok');
    const before = await data<BillingProfile>(BillingApi.profile.path, { session: ida });
    const subAt = async (id: number | null) =>
      (await stack.gateway(`/subscriptions/${id}`)) as {
        status: string;
        nextChargeAt: string | null;
        amountCents: number;
        paymentProfileId: number;
      };
    const gatewayCharges = async () => ((await stack.gateway(`/customers/${before.CustomerId}/transactions`)) as unknown[]).length;

    expect((await call('/api/members/terminate', { method: 'POST', session: ida })).statusCode).toBe(200);
    await server.jobs.drain();
    expect((await subAt(before.SubscriptionId)).status).toBe('canceled');
    const canceled = await data<BillingProfile>(BillingApi.profile.path, { session: ida });
    expect(canceled).toMatchObject({ SubscriptionStatus: 'canceled', SubscriptionType: 12 });

    const again = await signIn(server, 'bill-ida');
    expect((await call('/api/members/reactivate', { method: 'POST', session: again })).statusCode).toBe(200);
    await server.jobs.drain();
    const back = await data<BillingProfile>(BillingApi.profile.path, { session: again });
    expect(back).toMatchObject({ SubscriptionStatus: 'active', SubscriptionType: 12, PaidThrough: null });
    expect(back.SubscriptionId).not.toBe(before.SubscriptionId);
    expect(back.Profiles.find((c) => c.ProfileId === card)?.IsSubscription).toBe(true);
    // Paid through a year after the first payment: the gateway charges the next year then, and nothing now.
    const firstPaid = (
      await server.database.sql.query<{ at: Date }>(`SELECT created_at AS at FROM billing_transactions WHERE member_id = $1 AND kind = 'subscription'`, [idaId])
    )[0]?.at;
    const paidThrough = new Date(firstPaid ?? 0);
    paidThrough.setUTCFullYear(paidThrough.getUTCFullYear() + 1);
    const restored = await subAt(back.SubscriptionId);
    expect(restored).toMatchObject({ status: 'active', amountCents: 12_500, paymentProfileId: card });
    expect(restored.nextChargeAt?.slice(0, 10)).toBe(paidThrough.toISOString().slice(0, 10));
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1`, [idaId])).toBe(1);
    expect(await gatewayCharges()).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.restore' AND member_id = $1`, [idaId])).toBe(1);

    // The job run again (a retry) gives back nothing more.
    await server.jobs.send('member.reactivated', { memberId: idaId });
    await server.jobs.drain();
    expect((await data<BillingProfile>(BillingApi.profile.path, { session: again })).SubscriptionId).toBe(back.SubscriptionId);
    const renewing = (
      (await stack.gateway(`/customers/${before.CustomerId}`)) as {
        subscriptions: { status: string }[];
      }
    ).subscriptions.filter((x) => x.status === 'active');
    expect(renewing).toHaveLength(1);

    // The member's start is answered as the membership already running, and charges nothing.
    const start = await data<{ StatusString: string; Message: string }>(BillingApi.start.path, {
      session: again,
      body: { Type: 12, IdempotencyKey: 'ida-yearly-0002' },
    });
    expect(start).toMatchObject({ StatusString: 'Error', Message: BILLING_MESSAGES.alreadySubscribed });
    expect(await gatewayCharges()).toBe(1);
  });

  it('does not give back a membership the member canceled before terminating, nor one whose paid period is over', async () => {
    const joeId = (await makeUser(server, { userName: 'bill-joe', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const joe = await signIn(server, 'bill-joe');
    expect((await addCard(joe, '4111111111111111')).status).toBe(200);
    await sync(joe);
    await data(BillingApi.start.path, { session: joe, body: { Type: 1, IdempotencyKey: 'joe-monthly-0001' } });
    // The member cancels the membership, then terminates and reactivates: it stays canceled.
    expect((await call(BillingApi.terminate.path, { method: 'POST', session: joe })).statusCode).toBe(200);
    expect((await call('/api/members/terminate', { method: 'POST', session: joe })).statusCode).toBe(200);
    await server.jobs.drain();
    const joe2 = await signIn(server, 'bill-joe');
    expect((await call('/api/members/reactivate', { method: 'POST', session: joe2 })).statusCode).toBe(200);
    await server.jobs.drain();
    expect((await data<BillingProfile>(BillingApi.profile.path, { session: joe2 })).SubscriptionStatus).toBe('canceled');

    // A month paid long ago: terminated and reactivated, the member starts a plan again as before.
    const kitId = (await makeUser(server, { userName: 'bill-kit', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const kit = await signIn(server, 'bill-kit');
    expect((await addCard(kit, '4111111111111111')).status).toBe(200);
    await sync(kit);
    await data(BillingApi.start.path, { session: kit, body: { Type: 1, IdempotencyKey: 'kit-monthly-0001' } });
    await server.database.sql.query(`UPDATE billing_transactions SET created_at = now() - interval '40 days' WHERE member_id = $1`, [kitId]);
    expect((await call('/api/members/terminate', { method: 'POST', session: kit })).statusCode).toBe(200);
    await server.jobs.drain();
    const kit2 = await signIn(server, 'bill-kit');
    expect((await call('/api/members/reactivate', { method: 'POST', session: kit2 })).statusCode).toBe(200);
    await server.jobs.drain();
    const p = await data<BillingProfile>(BillingApi.profile.path, { session: kit2 });
    expect(p.SubscriptionStatus).toBe('canceled');
    expect(new Date(p.PaidThrough ?? 0).getTime()).toBeLessThan(Date.now());
    expect(
      await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.restore' AND member_id = ANY($1::int[])`, [[joeId, kitId]]),
    ).toBe(0);
  });
});

describe("billing: support's change of a membership keeps the old one until the new one stands", () => {
  const statusAt = async (id: number | null) => ((await stack.gateway(`/subscriptions/${id}`)) as { status: string }).status;
  const asStaff = (path: string, body: unknown) => call(path, { session: staff, brand: 'staff', body });

  it('keeps a coupon lifetime membership when the member has no card for the new one', async () => {
    const fayId = (await makeUser(server, { userName: 'bill-fay', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const coupon = await asStaff(BillingApi.supportSetCoupon.path, { MemberId: fayId, CouponCode: 'LIFE-CARD' });
    expect(coupon.json().Data.Status).toBe(0);
    const r = (await asStaff(BillingApi.supportSubscriptionUpdate.path, { MemberId: fayId, Type: 1, IdempotencyKey: 'fay-change-0001' })).json().Data;
    expect(r).toMatchObject({ StatusString: 'Error', Message: BILLING_MESSAGES.noCard });
    const p = (await asStaff(BillingApi.supportProfile.path, { MemberId: fayId })).json().Data as BillingProfile;
    expect(p).toMatchObject({ SubscriptionType: 0, SubscriptionStatus: 'lifetime', CouponCode: 'LIFE-CARD' });
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.cancel' AND member_id = $1`, [fayId])).toBe(0);
  });

  it('keeps the active membership when the new one is declined, and ends it at the gateway once a change succeeds', async () => {
    const gusId = (await makeUser(server, { userName: 'bill-gus', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const gus = await signIn(server, 'bill-gus');
    expect((await addCard(gus, '4111111111111111')).status).toBe(200);
    await sync(gus);
    expect(
      (await data<{ StatusString: string }>(BillingApi.start.path, { session: gus, body: { Type: 1, IdempotencyKey: 'gus-monthly-0001' } })).StatusString,
    ).toBe('Ok');
    const before = await data<BillingProfile>(BillingApi.profile.path, { session: gus });
    // The card that declines becomes the default: the change is charged to it.
    expect((await addCard(gus, '4000000000000341')).status).toBe(200);
    const declining = (await sync(gus)).Profiles.find((c) => c.CardNumber === 'XXXX0341')?.ProfileId;
    await data(BillingApi.setDefaultCard.path, { session: gus, body: { ProfileId: declining } });
    const declined = (await asStaff(BillingApi.supportSubscriptionUpdate.path, { MemberId: gusId, Type: 12, IdempotencyKey: 'gus-change-0001' })).json().Data;
    expect(declined).toMatchObject({ StatusString: 'Error', Message: 'This transaction has been declined.' });
    const kept = await data<BillingProfile>(BillingApi.profile.path, { session: gus });
    expect(kept).toMatchObject({ SubscriptionType: 1, SubscriptionStatus: 'active', SubscriptionId: before.SubscriptionId });
    expect(await statusAt(before.SubscriptionId)).toBe('active');

    // With the good card as the default the change goes through: the new one runs, the old one is canceled at the gateway.
    await data(BillingApi.setDefaultCard.path, { session: gus, body: { ProfileId: before.Profiles[0]?.ProfileId } });
    const changed = (await asStaff(BillingApi.supportSubscriptionUpdate.path, { MemberId: gusId, Type: 12, IdempotencyKey: 'gus-change-0002' })).json().Data;
    expect(changed).toMatchObject({ StatusString: 'Ok', SubscriptionType: 12 });
    const after = await data<BillingProfile>(BillingApi.profile.path, { session: gus });
    expect(after).toMatchObject({ SubscriptionType: 12, SubscriptionStatus: 'active' });
    expect(after.SubscriptionId).not.toBe(before.SubscriptionId);
    expect(await statusAt(before.SubscriptionId)).toBe('canceled');
    expect(await statusAt(after.SubscriptionId)).toBe('active');
  });
});

describe('billing: a membership suspended by a declined renewal resumes on the card the member gives', () => {
  it('resumes on a card the member adds, and on a card the member makes the default, at the gateway too', async () => {
    const halId = (await makeUser(server, { userName: 'bill-hal', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const hal = await signIn(server, 'bill-hal');
    expect((await addCard(hal, '4111111111111111')).status).toBe(200);
    const good = (await sync(hal)).Profiles[0]?.ProfileId ?? 0;
    expect(
      (await data<{ StatusString: string }>(BillingApi.start.path, { session: hal, body: { Type: 1, IdempotencyKey: 'hal-monthly-0001' } })).StatusString,
    ).toBe('Ok');
    expect((await addCard(hal, '4000000000000341')).status).toBe(200);
    const bad = (await sync(hal)).Profiles.find((c) => c.CardNumber === 'XXXX0341')?.ProfileId ?? 0;
    const subAt = async (id: number | null) =>
      (await stack.gateway(`/subscriptions/${id}`)) as {
        status: string;
        paymentProfileId: number;
      };
    /** The subscription moves to the card that declines, its renewal is declined, and the gateway's webhook says so. */
    const declineRenewal = async (n: number) => {
      await data(BillingApi.setSubscriptionCard.path, { session: hal, body: { ProfileId: bad } });
      const subId = (await data<BillingProfile>(BillingApi.profile.path, { session: hal })).SubscriptionId;
      const t = (await (
        await fetch(`${sandboxUrl}/gateway/api/subscriptions/${subId}/charge-now`, { method: 'POST', headers: { authorization: GATEWAY_BASIC } })
      ).json()) as { transId: number; customerProfileId: number };
      const raw = JSON.stringify({
        notificationId: `hal-renewal-${n}`,
        eventType: 'net.authorize.payment.fraud.declined',
        eventDate: new Date().toISOString(),
        webhookId: '1',
        payload: {
          responseCode: 2,
          id: String(t.transId),
          subscriptionId: String(subId),
          customerProfileId: t.customerProfileId,
          paymentProfileId: bad,
          authAmount: 12,
        },
      });
      const res = await stack.webhook(raw);
      expect(res.json().Data).toEqual({ Recorded: true });
      expect((await data<BillingProfile>(BillingApi.profile.path, { session: hal })).SubscriptionStatus).toBe('suspended');
      expect((await subAt(subId)).status).toBe('suspended');
      return subId;
    };

    // Adding a card resumes it on that card.
    const subId = await declineRenewal(1);
    expect((await addCard(hal, '5424000000000015')).status).toBe(200);
    const added = await sync(hal);
    const fresh = added.Profiles.find((c) => c.CardNumber === 'XXXX0015');
    expect(added.SubscriptionStatus).toBe('active');
    expect(fresh?.IsSubscription).toBe(true);
    expect(await subAt(subId)).toMatchObject({ status: 'active', paymentProfileId: fresh?.ProfileId });

    // Making a card the default resumes it on that card.
    await declineRenewal(2);
    const p = await data<BillingProfile>(BillingApi.setDefaultCard.path, { session: hal, body: { ProfileId: good } });
    expect(p.SubscriptionStatus).toBe('active');
    expect(p.Profiles.find((c) => c.ProfileId === good)).toMatchObject({ IsDefault: true, IsSubscription: true });
    expect(await subAt(subId)).toMatchObject({ status: 'active', paymentProfileId: good });
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.resume' AND member_id = $1`, [halId])).toBe(2);
  });
});

describe('billing: the member fixes the card that declined, or chooses the card that pays the membership', () => {
  const subAt = async (id: number | null) =>
    (await stack.gateway(`/subscriptions/${id}`)) as {
      status: string;
      paymentProfileId: number;
    };
  /** Saves a card through the hosted form: a new one, or (with its id) the member's Edit of that card. */
  const saveCard = async (session: Session, cardNumber: string, paymentProfileId?: number) => {
    const q = paymentProfileId ? `&paymentProfileId=${paymentProfileId}` : '';
    const t = await data<{ Token: string }>(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}${q}`, { session });
    const res = await saveCardAtGateway(sandboxUrl, t.Token, cardNumber);
    return res.status;
  };

  it('resumes a membership suspended by a declined renewal when the member edits its card to one that works, at the gateway too', async () => {
    const ikeId = (await makeUser(server, { userName: 'bill-ike', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const ike = await signIn(server, 'bill-ike');
    expect(await saveCard(ike, '4111111111111111')).toBe(200);
    const card = (await sync(ike)).Profiles[0]?.ProfileId ?? 0;
    expect(
      (await data<{ StatusString: string }>(BillingApi.start.path, { session: ike, body: { Type: 1, IdempotencyKey: 'ike-monthly-0001' } })).StatusString,
    ).toBe('Ok');
    // The card starts declining (the bank replaced it): its renewal is declined and the gateway's webhook says so.
    expect(await saveCard(ike, '4000000000000341', card)).toBe(200);
    await sync(ike);
    const subId = (await data<BillingProfile>(BillingApi.profile.path, { session: ike })).SubscriptionId;
    const t = (await (
      await fetch(`${sandboxUrl}/gateway/api/subscriptions/${subId}/charge-now`, { method: 'POST', headers: { authorization: GATEWAY_BASIC } })
    ).json()) as { transId: number; customerProfileId: number };
    const raw = JSON.stringify({
      notificationId: 'ike-renewal-1',
      eventType: 'net.authorize.payment.fraud.declined',
      eventDate: new Date().toISOString(),
      webhookId: '1',
      payload: { responseCode: 2, id: String(t.transId), subscriptionId: String(subId), customerProfileId: t.customerProfileId, authAmount: 12 },
    });
    const res = await stack.webhook(raw);
    expect(res.json().Data).toEqual({ Recorded: true });
    expect((await data<BillingProfile>(BillingApi.profile.path, { session: ike })).SubscriptionStatus).toBe('suspended');
    expect((await subAt(subId)).status).toBe('suspended');

    // The member edits the same card to the new number: the membership runs again on it.
    expect(await saveCard(ike, '5424000000000015', card)).toBe(200);
    const fixed = await sync(ike);
    expect(fixed.SubscriptionStatus).toBe('active');
    expect(fixed.Profiles).toEqual([expect.objectContaining({ ProfileId: card, CardNumber: 'XXXX0015', IsSubscription: true })]);
    expect(await subAt(subId)).toMatchObject({ status: 'active', paymentProfileId: card });
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.resume' AND member_id = $1`, [ikeId])).toBe(1);
    // A later edit of a running membership's card changes nothing more.
    expect(await saveCard(ike, '4111111111111111', card)).toBe(200);
    expect((await sync(ike)).SubscriptionStatus).toBe('active');
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.resume' AND member_id = $1`, [ikeId])).toBe(1);
  });

  it('charges the renewal to the card the member chose for the membership, not to the old one', async () => {
    await makeUser(server, { userName: 'bill-jo', roles: ['CareGuard'], brand: 'card', member: true });
    const jo = await signIn(server, 'bill-jo');
    expect(await saveCard(jo, '4111111111111111')).toBe(200);
    const old = (await sync(jo)).Profiles[0]?.ProfileId ?? 0;
    await data(BillingApi.start.path, { session: jo, body: { Type: 1, IdempotencyKey: 'jo-monthly-0001' } });
    expect(await saveCard(jo, '5424000000000015')).toBe(200);
    const chosen = (await sync(jo)).Profiles.find((c) => c.CardNumber === 'XXXX0015')?.ProfileId ?? 0;
    await data(BillingApi.setSubscriptionCard.path, { session: jo, body: { ProfileId: chosen } });
    const p = await data<BillingProfile>(BillingApi.profile.path, { session: jo });
    expect(p.Profiles.find((c) => c.ProfileId === chosen)?.IsSubscription).toBe(true);
    expect(p.Profiles.find((c) => c.ProfileId === old)?.IsSubscription).toBe(false);
    const renewal = (await (
      await fetch(`${sandboxUrl}/gateway/api/subscriptions/${p.SubscriptionId}/charge-now`, { method: 'POST', headers: { authorization: GATEWAY_BASIC } })
    ).json()) as { paymentProfileId: number; responseCode: string };
    expect(renewal).toMatchObject({ paymentProfileId: chosen, responseCode: '1' });
  });
});

describe('billing: GET calls that change data need the anti-forgery token', () => {
  it('refuses sync, the card-form token and support’s token without x-form-token, changing nothing', async () => {
    const ivyId = (await makeUser(server, { userName: 'bill-ivy', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const ivy = await signIn(server, 'bill-ivy');
    const bare = (path: string, session: Session, brand: string) => {
      const { 'x-form-token': _dropped, ...headers } = authHeaders(session, brand);
      return server.app.inject({ method: 'GET', url: path, headers });
    };
    const returnUrl = encodeURIComponent('http://card.localhost/payment');
    expect((await bare(`${BillingApi.token.path}?returnUrl=${returnUrl}`, ivy, 'card')).statusCode).toBe(403);
    const staffUrl = encodeURIComponent('http://staff.localhost/support');
    expect((await bare(`${BillingApi.supportToken.path.replace(':memberId', String(ivyId))}?returnUrl=${staffUrl}`, staff, 'staff')).statusCode).toBe(403);
    expect(await count('SELECT count(*)::int AS n FROM billing_customers WHERE member_id = $1', [ivyId])).toBe(0);

    // A card saved at the gateway reaches our copy only through a sync that carries the token, audited.
    expect((await addCard(ivy, '4111111111111111')).status).toBe(200);
    expect((await bare(BillingApi.sync.path, ivy, 'card')).statusCode).toBe(403);
    expect(await count('SELECT count(*)::int AS n FROM billing_cards WHERE member_id = $1', [ivyId])).toBe(0);
    expect((await sync(ivy)).Profiles).toHaveLength(1);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.cards.sync' AND member_id = $1`, [ivyId])).toBe(1);
    // Nothing changed: a second sync writes no audit row.
    await sync(ivy);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.cards.sync' AND member_id = $1`, [ivyId])).toBe(1);
  });

  it("audits a charge voided in the gateway's own screens when support's transaction sync finds it", async () => {
    const p = await data<BillingProfile>(BillingApi.profile.path, { session: bob });
    const card = p.Profiles.find((c) => c.CardNumber === 'XXXX0015')?.ProfileId;
    const charged = (
      await call(BillingApi.charge.path, {
        session: staff,
        brand: 'staff',
        body: { customerId: p.CustomerId, profileId: card, amount: 7, IdempotencyKey: 'bob-void-at-gateway' },
      })
    ).json().Data as { StatusString: string; TransactionID: number };
    expect(charged.StatusString).toBe('Ok');
    const transId = (
      await server.database.sql.query<{ gateway_trans_id: number }>('SELECT gateway_trans_id FROM billing_transactions WHERE id = $1', [charged.TransactionID])
    )[0]?.gateway_trans_id;
    const voided = await fetch(`${sandboxUrl}/gateway/api/transactions`, {
      method: 'POST',
      headers: { authorization: GATEWAY_BASIC, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'void', refTransId: transId }),
    });
    expect(voided.status).toBe(200);
    const bobId = (
      await server.database.sql.query<{ member_id: number }>('SELECT member_id FROM billing_customers WHERE customer_profile_id = $1', [p.CustomerId])
    )[0]?.member_id;
    await data(BillingApi.transactionSync.path, { session: staff, brand: 'staff', body: { MemberId: bobId } });
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE id = $1 AND status = 'Voided'`, [charged.TransactionID])).toBe(1);
    expect(
      await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.void.synced' AND entity_id = $1`, [String(charged.TransactionID)]),
    ).toBe(1);
  });
});

describe('billing: a member whose first card declined starts the membership on the card saved next', () => {
  it('charges the card made the default (as the registration card step does), not the first card saved', async () => {
    const jonId = (await makeUser(server, { userName: 'bill-jon', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const jon = await signIn(server, 'bill-jon');
    expect((await addCard(jon, '4000000000000341')).status).toBe(200);
    await sync(jon);
    const declined = await data<{ StatusString: string; Message: string }>(BillingApi.start.path, {
      session: jon,
      body: { Type: 1, IdempotencyKey: 'jon-monthly-0001' },
    });
    expect(declined).toMatchObject({ StatusString: 'Error', Message: 'This transaction has been declined.' });
    // The gateway keeps the first card as the default; the card just saved is made the default before the start.
    expect((await addCard(jon, '4111111111111111')).status).toBe(200);
    const saved = (await sync(jon)).Profiles.find((c) => c.CardNumber === 'XXXX1111');
    expect(saved?.IsDefault).toBe(false);
    const p = await data<BillingProfile>(BillingApi.setDefaultCard.path, { session: jon, body: { ProfileId: saved?.ProfileId } });
    expect(p.Profiles.find((c) => c.ProfileId === saved?.ProfileId)?.IsDefault).toBe(true);
    const started = await data<{ StatusString: string }>(BillingApi.start.path, { session: jon, body: { Type: 1, IdempotencyKey: 'jon-monthly-0002' } });
    expect(started.StatusString).toBe('Ok');
    const after = await data<BillingProfile>(BillingApi.profile.path, { session: jon });
    expect(after).toMatchObject({ SubscriptionStatus: 'active', SubscriptionType: 1 });
    expect(after.Profiles.find((c) => c.ProfileId === saved?.ProfileId)?.IsSubscription).toBe(true);
    expect(
      await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1 AND status = 'Charged' AND payment_profile_id = $2`, [
        jonId,
        saved?.ProfileId,
      ]),
    ).toBe(1);
  });
});

describe("billing: a membership's first payment held for review starts the membership once the merchant approves it", () => {
  const HELD = 'This transaction is being held for review.';
  type Start = { StatusString: string; Message: string; TransactionID: number | null; SubscriptionType: number | null };
  const start = (session: Session, body: { Type: number; IdempotencyKey: string; Code?: string }) => data<Start>(BillingApi.start.path, { session, body });
  const rowOf = async (id: number | null) =>
    (
      await server.database.sql.query<{ status: string; gateway_trans_id: number; member_id: number }>(
        'SELECT status, gateway_trans_id, member_id FROM billing_transactions WHERE id = $1',
        [id],
      )
    )[0];
  const gatewayTx = async (transId: number) =>
    (await stack.gateway(`/transactions/${transId}`)) as {
      subscriptionId: number | null;
      status: string;
    };
  const gatewayCharges = async (customerProfileId: number | null) =>
    (
      (await stack.gateway(`/customers/${customerProfileId}/transactions`)) as {
        type: string;
      }[]
    ).filter((t) => t.type === 'authCapture');
  const subscriptionAt = async (id: number | null) => ((await stack.gateway(`/subscriptions/${id}`)) as { status: string }).status;
  /** The merchant's decision on the sandbox gateway's own screen, as the merchant's browser sends it. */
  const onScreen = async (transId: number, action: 'approve' | 'decline') => {
    expect((await stack.merchantScreen(`held/${transId}/${action}`)).status).toBe(303);
  };
  /** The webhook the gateway sent of its decision (the body it signed), delivered to our endpoint again. */
  const deliverDecision = async (eventType: string, transId: number) => {
    const sent = await stack.sentWebhooks([eventType], [transId]);
    expect(sent).toHaveLength(1);
    const raw = sent[0] ?? '';
    return async () => {
      const res = await stack.webhook(raw);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().Data as { Recorded: boolean }).Recorded;
    };
  };
  const decisions = (id: number | null, action: string) =>
    count(`SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND entity_id = $2`, [action, String(id)]);
  /** A member whose only card's charges the gateway holds for review. */
  const heldMember = async (userName: string) => {
    const memberId = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const session = await signIn(server, userName);
    expect((await addCard(session, '4000000000000259')).status).toBe(200);
    await sync(session);
    return { memberId, session };
  };

  it("starts the yearly membership paid for when the merchant approves it on the gateway's screen, once however often the webhook comes", async () => {
    const { memberId, session } = await heldMember('bill-kim');
    const held = await start(session, { Type: 12, IdempotencyKey: 'kim-yearly-0001' });
    expect(held).toMatchObject({ StatusString: 'Error', Message: HELD, SubscriptionType: null });
    // The profile names the plan whose payment is held (the page says it is being reviewed, and offers no plan).
    expect(await data<BillingProfile>(BillingApi.profile.path, { session })).toMatchObject({
      SubscriptionStatus: null,
      SubscriptionType: null,
      HeldSubscriptionType: 12,
    });
    const customerId = (await data<BillingProfile>(BillingApi.profile.path, { session })).CustomerId;
    // Trying again (another key, another plan, or a coupon) while the payment is held answers the held payment and charges nothing.
    for (const again of [
      { Type: 1, IdempotencyKey: 'kim-monthly-0001' },
      { Type: 12, IdempotencyKey: 'kim-coupon-0001', Code: 'LIFE-CARD' },
    ]) {
      expect(await start(session, again)).toMatchObject({ StatusString: 'Error', Message: HELD, TransactionID: held.TransactionID });
    }
    expect(await gatewayCharges(customerId)).toHaveLength(1);
    // A coupon waits for the held payment's decision (its approval would start the plan paid for over the coupon's).
    for (const [path, body, session_] of [
      [BillingApi.saveCoupon.path, { Type: 0, Code: 'LIFE-CARD' }, session],
      [BillingApi.supportSetCoupon.path, { MemberId: memberId, CouponCode: 'LIFE-CARD' }, staff],
    ] as const) {
      const refused = await call(path, { session: session_, brand: session_ === staff ? 'staff' : 'card', body });
      expect(refused.statusCode, path).toBe(409);
      expect(refused.json().MsgText).toBe(BILLING_MESSAGES.couponWhileHeld);
    }
    expect(await data<BillingProfile>(BillingApi.profile.path, { session })).toMatchObject({ CouponCode: null, SubscriptionStatus: null });

    const transId = (await rowOf(held.TransactionID))?.gateway_trans_id ?? 0;
    const subscriptionId = (await gatewayTx(transId)).subscriptionId;
    await onScreen(transId, 'approve');
    const deliver = await deliverDecision('net.authorize.payment.fraud.approved', transId);
    // The webhook twice at once, with support's transaction sync beside it: the decision is taken once.
    const [a, b, synced] = await Promise.all([
      deliver(),
      deliver(),
      data<{ Count: number }>(BillingApi.transactionSync.path, { session: staff, brand: 'staff', body: { MemberId: memberId } }),
    ]);
    expect([a, b].filter(Boolean).length + synced.Count).toBe(1);
    expect(await deliver()).toBe(false);

    const p = await data<BillingProfile>(BillingApi.profile.path, { session });
    expect(p).toMatchObject({
      SubscriptionType: 12,
      SubscriptionStatus: 'active',
      SubscriptionId: subscriptionId,
      CouponCode: null,
      HeldSubscriptionType: null,
    });
    expect(p.Profiles[0]?.IsSubscription).toBe(true);
    expect(await rowOf(held.TransactionID)).toMatchObject({ status: 'Charged' });
    // The gateway runs the subscription too (it renews a year on).
    expect(await subscriptionAt(subscriptionId)).toBe('active');
    expect(await decisions(held.TransactionID, 'billing.held.decided')).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.held.decided' AND entity_id = $1
           AND (detail->'membership'->>'subscriptionType')::int = 12 AND (detail->'membership'->>'subscriptionId')::int = $2`,
        [String(held.TransactionID), subscriptionId],
      ),
    ).toBe(1);
    // One payment, one membership: no second charge at the gateway or in our records, one receipt.
    expect(await gatewayCharges(customerId)).toHaveLength(1);
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1`, [memberId])).toBe(1);
    await server.jobs.drain();
    const receipts = (await mailTo(sandboxUrl, 'bill-kim@example.com')).filter((m) => m.subject === 'Receipt: Yearly membership $125.00');
    expect(receipts).toHaveLength(1);
    // Decided by a webhook or from the staff site, the receipt is signed by the member's brand (card).
    expect(receipts[0]?.from).toBe('"Amethyst Card" <support@card.example.com>');
    expect(await start(session, { Type: 1, IdempotencyKey: 'kim-monthly-0002' })).toMatchObject({
      StatusString: 'Error',
      Message: BILLING_MESSAGES.alreadySubscribed,
    });
  });

  it('leaves the member without a membership, free to start again, when the merchant declines the held first payment', async () => {
    const { memberId, session } = await heldMember('bill-lou');
    const held = await start(session, { Type: 1, IdempotencyKey: 'lou-monthly-0001' });
    expect(held).toMatchObject({ StatusString: 'Error', Message: HELD });
    const transId = (await rowOf(held.TransactionID))?.gateway_trans_id ?? 0;
    await onScreen(transId, 'decline');
    const deliver = await deliverDecision('net.authorize.payment.fraud.declined', transId);
    expect(await deliver()).toBe(true);
    expect(await deliver()).toBe(false);
    expect(await rowOf(held.TransactionID)).toMatchObject({ status: 'Declined' });
    expect(await subscriptionAt((await gatewayTx(transId)).subscriptionId)).toBe('declined');
    expect(await decisions(held.TransactionID, 'billing.held.decided')).toBe(1);
    expect(await data<BillingProfile>(BillingApi.profile.path, { session })).toMatchObject({
      SubscriptionStatus: null,
      SubscriptionType: null,
      SubscriptionId: null,
      HeldSubscriptionType: null,
    });

    // The member starts again on a card that charges: that payment starts the membership.
    expect((await addCard(session, '4111111111111111')).status).toBe(200);
    const good = (await sync(session)).Profiles.find((c) => c.CardNumber === 'XXXX1111')?.ProfileId;
    await data(BillingApi.setDefaultCard.path, { session, body: { ProfileId: good } });
    expect(await start(session, { Type: 1, IdempotencyKey: 'lou-monthly-0002' })).toMatchObject({ StatusString: 'Ok', SubscriptionType: 1 });
    expect(await data<BillingProfile>(BillingApi.profile.path, { session })).toMatchObject({ SubscriptionStatus: 'active', SubscriptionType: 1 });
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1 AND status = 'Charged'`, [memberId])).toBe(1);
  });

  it("starts it through support's Charge too, once against the merchant's webhook; an approved change replaces the old membership", async () => {
    const { memberId, session } = await heldMember('bill-max');
    const supportCharge = (id: number | null, key: string) =>
      call('/api/support/transaction/charge', { session: staff, brand: 'staff', body: { TransactionID: id, IdempotencyKey: key } });
    const held = await start(session, { Type: 1, IdempotencyKey: 'max-monthly-0001' });
    expect(held).toMatchObject({ StatusString: 'Error', Message: HELD });
    const transId = (await rowOf(held.TransactionID))?.gateway_trans_id ?? 0;
    const charged = await Promise.all([supportCharge(held.TransactionID, 'max-approve-0001'), supportCharge(held.TransactionID, 'max-approve-0002')]);
    for (const r of charged) expect(r.json().Data, r.body).toMatchObject({ StatusString: 'Ok', TransactionID: held.TransactionID });
    // The gateway's webhook of the same approval leaves the row to support's call.
    expect(await (await deliverDecision('net.authorize.payment.fraud.approved', transId))()).toBe(false);
    const monthly = await data<BillingProfile>(BillingApi.profile.path, { session });
    expect(monthly).toMatchObject({ SubscriptionType: 1, SubscriptionStatus: 'active', SubscriptionId: (await gatewayTx(transId)).subscriptionId });
    expect(await decisions(held.TransactionID, 'billing.held.approve')).toBe(1);
    expect(await gatewayCharges(monthly.CustomerId)).toHaveLength(1);

    // Support changes the membership to yearly; its payment is held too, and the monthly one runs until it is approved.
    const change = (
      await call(BillingApi.supportSubscriptionUpdate.path, {
        session: staff,
        brand: 'staff',
        body: { MemberId: memberId, Type: 12, IdempotencyKey: 'max-change-0001' },
      })
    ).json().Data as Start;
    expect(change).toMatchObject({ StatusString: 'Error', Message: HELD });
    expect(await data<BillingProfile>(BillingApi.profile.path, { session })).toMatchObject({ SubscriptionType: 1, SubscriptionStatus: 'active' });
    const changeTransId = (await rowOf(change.TransactionID))?.gateway_trans_id ?? 0;
    await onScreen(changeTransId, 'approve');
    expect(await (await deliverDecision('net.authorize.payment.fraud.approved', changeTransId))()).toBe(true);
    const yearly = await data<BillingProfile>(BillingApi.profile.path, { session });
    expect(yearly).toMatchObject({ SubscriptionType: 12, SubscriptionStatus: 'active', SubscriptionId: (await gatewayTx(changeTransId)).subscriptionId });
    expect(await subscriptionAt(monthly.SubscriptionId)).toBe('canceled');
    expect(
      await count(
        `SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.subscription.cancel' AND member_id = $1 AND (detail->>'subscriptionId')::int = $2`,
        [memberId, monthly.SubscriptionId],
      ),
    ).toBe(1);
    expect(await gatewayCharges(monthly.CustomerId)).toHaveLength(2);
  });

  /** The member's billing row as stored (a terminated member's own calls are not what these tests look at). */
  const billingRow = async (memberId: number) =>
    (
      await server.database.sql.query<{ subscription_id: number | null; subscription_status: string | null; customer_profile_id: number }>(
        'SELECT subscription_id, subscription_status, customer_profile_id FROM billing_customers WHERE member_id = $1',
        [memberId],
      )
    )[0];
  /** A termination whose job has not run yet (it is queued, or retrying): the member's termination date is set. */
  const terminatedNotYetAnnounced = (memberId: number) =>
    server.database.sql.query('UPDATE members SET termination_date = now() WHERE member_id = $1', [memberId]);
  const auditCount = async (action: string, entityId: number | null, extra = '') => {
    await server.flushAudit();
    return count(`SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND entity_id = $2 ${extra}`, [action, String(entityId)]);
  };
  /** The approved first payment was given back and started nothing: no membership, no subscription the gateway renews. */
  const expectReversedNothingStarted = async (memberId: number, heldId: number | null, subscriptionId: number | null) => {
    expect(await rowOf(heldId)).toMatchObject({ status: 'Voided' });
    expect(await count(`SELECT count(*)::int AS n FROM billing_transactions WHERE ref_transaction_id = $1 AND kind = 'void'`, [heldId])).toBe(1);
    expect((await gatewayTx((await rowOf(heldId))?.gateway_trans_id ?? 0)).status).toBe('voided');
    expect(await subscriptionAt(subscriptionId)).toBe('canceled');
    expect(await billingRow(memberId)).toMatchObject({ subscription_id: null, subscription_status: null });
    expect(await auditCount('billing.held.terminated', heldId, `AND outcome = 'success' AND detail->>'reversal' = 'void'`)).toBe(1);
  };

  it('declines the held first payment at the gateway when the member is terminated: nothing starts later, even if a webhook comes', async () => {
    const { memberId, session } = await heldMember('bill-tia');
    const held = await start(session, { Type: 1, IdempotencyKey: 'tia-monthly-0001' });
    expect(held).toMatchObject({ StatusString: 'Error', Message: HELD });
    const transId = (await rowOf(held.TransactionID))?.gateway_trans_id ?? 0;
    const subscriptionId = (await gatewayTx(transId)).subscriptionId;

    // The member's own Terminate; the kernel's member.terminated job runs billing's onMemberTerminated.
    expect((await call('/api/members/terminate', { method: 'POST', session })).statusCode).toBe(200);
    await server.jobs.drain();
    expect((await gatewayTx(transId)).status).toBe('declined');
    expect(await subscriptionAt(subscriptionId)).toBe('declined');
    expect(await rowOf(held.TransactionID)).toMatchObject({ status: 'Declined' });
    expect(await auditCount('billing.held.decline', held.TransactionID, `AND actor_name = 'system' AND detail->>'reason' = 'member terminated'`)).toBe(1);

    // The merchant can no longer approve it, and the gateway's word of the decline (or a replayed approval) starts nothing.
    const late = await fetch(`${sandboxUrl}/gateway/merchant/held/${transId}/approve`, {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: GATEWAY_BASIC, origin: new URL(sandboxUrl).origin },
    });
    expect(late.status).toBe(400);
    expect(await (await deliverDecision('net.authorize.payment.fraud.declined', transId))()).toBe(false);
    const [declined] = await stack.sentWebhooks(['net.authorize.payment.fraud.declined'], [transId]);
    const approvedRaw = (declined ?? '').replace('net.authorize.payment.fraud.declined', 'net.authorize.payment.fraud.approved');
    const replayed = await stack.webhook(approvedRaw);
    expect(replayed.statusCode, replayed.body).toBe(200);
    expect(replayed.json().Data).toEqual({ Recorded: false });
    expect(await billingRow(memberId)).toMatchObject({ subscription_id: null, subscription_status: null });
    expect(await rowOf(held.TransactionID)).toMatchObject({ status: 'Declined' });
    expect(await gatewayCharges((await billingRow(memberId))?.customer_profile_id ?? 0)).toHaveLength(1);
  });

  it("starts nothing when the merchant approves a terminated member's held first payment: the charge is voided and its subscription canceled", async () => {
    const { memberId, session } = await heldMember('bill-uma');
    const held = await start(session, { Type: 1, IdempotencyKey: 'uma-monthly-0001' });
    const transId = (await rowOf(held.TransactionID))?.gateway_trans_id ?? 0;
    const subscriptionId = (await gatewayTx(transId)).subscriptionId;
    await terminatedNotYetAnnounced(memberId);
    await onScreen(transId, 'approve');
    expect(await (await deliverDecision('net.authorize.payment.fraud.approved', transId))()).toBe(true);
    await expectReversedNothingStarted(memberId, held.TransactionID, subscriptionId);
    // The decision is recorded as the gateway made it (the money moved), naming the membership not started.
    expect(
      await auditCount(
        'billing.held.decided',
        held.TransactionID,
        `AND detail->>'status' = 'Charged' AND detail->'membership' = 'null'::jsonb AND detail->'notStarted'->>'reason' = 'member terminated'`,
      ),
    ).toBe(1);
    await server.jobs.drain();
    const receipts = (await mailTo(sandboxUrl, 'bill-uma@example.com')).map((m) => m.subject);
    expect(receipts).toEqual(expect.arrayContaining(['Receipt: Monthly membership $12.00', 'Receipt: Voided: Monthly membership $12.00']));
  });

  it('gives back a held first payment the merchant approved before the termination job declined it, and starts nothing', async () => {
    const { memberId, session } = await heldMember('bill-vic');
    const held = await start(session, { Type: 12, IdempotencyKey: 'vic-yearly-0001' });
    const transId = (await rowOf(held.TransactionID))?.gateway_trans_id ?? 0;
    const subscriptionId = (await gatewayTx(transId)).subscriptionId;
    // The merchant approves on the gateway's screen; its webhook has not reached us when the member terminates.
    await onScreen(transId, 'approve');
    expect((await call('/api/members/terminate', { method: 'POST', session })).statusCode).toBe(200);
    await server.jobs.drain();
    await expectReversedNothingStarted(memberId, held.TransactionID, subscriptionId);
    expect(await (await deliverDecision('net.authorize.payment.fraud.approved', transId))()).toBe(false);
    expect(await billingRow(memberId)).toMatchObject({ subscription_id: null, subscription_status: null });
  });

  it("refuses support's Charge of a terminated member's held first payment (409) before asking the gateway", async () => {
    const { memberId, session } = await heldMember('bill-wes');
    const held = await start(session, { Type: 1, IdempotencyKey: 'wes-monthly-0001' });
    const transId = (await rowOf(held.TransactionID))?.gateway_trans_id ?? 0;
    await terminatedNotYetAnnounced(memberId);
    const refused = await call('/api/support/transaction/charge', {
      session: staff,
      brand: 'staff',
      body: { TransactionID: held.TransactionID, IdempotencyKey: 'wes-approve-0001' },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().MsgText).toBe(BILLING_MESSAGES.heldForTerminated);
    // Still held at the gateway (not approved), nothing charged or started.
    expect((await gatewayTx(transId)).status).toMatch(/^FDS/);
    expect(await rowOf(held.TransactionID)).toMatchObject({ status: 'Pending' });
    expect(await gatewayCharges((await billingRow(memberId))?.customer_profile_id ?? 0)).toHaveLength(1);
    expect(await billingRow(memberId)).toMatchObject({ subscription_id: null, subscription_status: null });
    expect(await auditCount('billing.held.approve', held.TransactionID)).toBe(0);
  });

  it("declines a change's held first payment when the member cancels the membership: its approval cannot start the plan later", async () => {
    const memberId = (await makeUser(server, { userName: 'bill-xia', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const session = await signIn(server, 'bill-xia');
    expect((await addCard(session, '4111111111111111')).status).toBe(200);
    await sync(session);
    expect(await start(session, { Type: 1, IdempotencyKey: 'xia-monthly-0001' })).toMatchObject({ StatusString: 'Ok' });
    // The default card becomes one whose charges are held: support's change to yearly is held for review.
    expect((await addCard(session, '4000000000000259')).status).toBe(200);
    const heldCard = (await sync(session)).Profiles.find((c) => c.CardNumber === 'XXXX0259')?.ProfileId;
    await data(BillingApi.setDefaultCard.path, { session, body: { ProfileId: heldCard } });
    const change = (
      await call(BillingApi.supportSubscriptionUpdate.path, {
        session: staff,
        brand: 'staff',
        body: { MemberId: memberId, Type: 12, IdempotencyKey: 'xia-change-0001' },
      })
    ).json().Data as Start;
    expect(change).toMatchObject({ StatusString: 'Error', Message: HELD });
    const transId = (await rowOf(change.TransactionID))?.gateway_trans_id ?? 0;

    const canceled = await call(BillingApi.terminate.path, { method: 'POST', session });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().Data).toMatchObject({ SubscriptionStatus: 'canceled', SubscriptionType: 1, HeldSubscriptionType: null });
    expect((await gatewayTx(transId)).status).toBe('declined');
    expect(await rowOf(change.TransactionID)).toMatchObject({ status: 'Declined' });
    expect(await auditCount('billing.held.decline', change.TransactionID, `AND detail->>'reason' = 'membership canceled'`)).toBe(1);
    expect(await billingRow(memberId)).toMatchObject({ subscription_status: 'canceled' });
  });
});
