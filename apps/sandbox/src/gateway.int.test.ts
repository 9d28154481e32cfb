import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError, SandboxPaymentGateway, signWebhook } from '@portal/server/kernel';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './app';
import { GATEWAY_MESSAGES, luhnValid, TEST_CARDS } from './gateway-cards';

const creds = { loginId: 'merchant-t', transactionKey: 'key-t', signatureKey: 'sig-t' };
/** The merchant's HTTP Basic credentials (login id : transaction key), for the gateway's API and its merchant screen. */
const MERCHANT_AUTH = `Basic ${Buffer.from(`${creds.loginId}:${creds.transactionKey}`).toString('base64')}`;
let sandbox: FastifyInstance;
let url: string;
let gateway: SandboxPaymentGateway;
let hooks: Server;
let hookUrl: string;
const received: { body: string; signature: string | undefined; host: string | undefined }[] = [];
const parentOrigin = 'http://card.localhost:8080';

beforeAll(async () => {
  sandbox = await createSandbox({ dataDir: null, gateway: { ...creds, tickMs: 0, settlementDelayMs: 60_000 } });
  url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  gateway = new SandboxPaymentGateway({ sandboxUrl: url, ...creds });
  hooks = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ body, signature: req.headers['x-anet-signature'] as string | undefined, host: req.headers.host });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
  hookUrl = `http://staff.localhost:${(hooks.address() as AddressInfo).port}/api/payment/webhook`;
});
afterAll(async () => {
  await sandbox?.close();
  await new Promise((r) => hooks?.close(r));
});

/** A new customer (merchant customer id `name`) with one card saved through the hosted form: their ids at the gateway. */
async function customerWithCard(name: string, cardNumber: string) {
  const customer = await gateway.ensureCustomer(name);
  await saveCard(customer, cardNumber);
  return { customer, profile: (await gateway.getCustomer(customer)).paymentProfiles[0]?.paymentProfileId ?? 0 };
}

/** Saves a card through the hosted form's own call, as the form's script does. */
async function saveCard(customerProfileId: number, cardNumber: string, expiry = '12/30', cvv = '123', paymentProfileId?: number) {
  const t = await gateway.hostedFormToken({ customerProfileId, paymentProfileId, returnUrl: `${parentOrigin}/payment` });
  return fetch(`${url}/customer/api/save`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: t.token, cardNumber, expiry, cvv }),
  });
}

// The sandbox's own embedded database, whichever engine the run tests: the PostgreSQL run skips it rather than repeat it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('sandbox card gateway', () => {
  it('has Luhn-valid test numbers', () => {
    for (const n of Object.keys(TEST_CARDS)) expect(luhnValid(n), n).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });

  it('refuses the merchant API without the credentials', async () => {
    expect((await fetch(`${url}/gateway/api/customers/1`)).status).toBe(401);
    const wrong = new SandboxPaymentGateway({ sandboxUrl: url, ...creds, transactionKey: 'nope' });
    await expect(wrong.ensureCustomer('m-1')).rejects.toThrow(/authentication failed/);
  });

  it('creates one customer per merchant id and validates input', async () => {
    const a = await gateway.ensureCustomer('member-1', 'a@example.com');
    expect(await gateway.ensureCustomer('member-1')).toBe(a);
    expect(await gateway.ensureCustomer('member-2')).not.toBe(a);
    const res = await fetch(`${url}/gateway/api/customers`, {
      method: 'POST',
      headers: { authorization: MERCHANT_AUTH, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
  });

  it('serves the hosted form with a token only, framed only by the token origin', async () => {
    const c = await gateway.ensureCustomer('member-form');
    const t = await gateway.hostedFormToken({ customerProfileId: c, returnUrl: `${parentOrigin}/payment?x=1` });
    expect(t.url).toBe(`${url}/customer/addPayment`);
    const page = await fetch(`${t.url}?token=${t.token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${parentOrigin}`);
    const html = await page.text();
    expect(html).toContain(`data-parent-origin="${parentOrigin}"`);
    expect(html).toContain('<label>Card number');
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    const none = await fetch(`${url}/customer/addPayment?token=bogus`);
    expect(none.status).toBe(403);
    expect(none.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    await expect(gateway.hostedFormToken({ customerProfileId: 999_999, returnUrl: parentOrigin })).rejects.toBeInstanceOf(GatewayError);
  });

  it('opens the edit-payment form for the card its token names, and saves the new expiry on that card', async () => {
    const c = await gateway.ensureCustomer('member-edit');
    expect((await saveCard(c, '4111 1111 1111 1111', '12/30')).status).toBe(200);
    const card = (await gateway.getCustomer(c)).paymentProfiles[0]?.paymentProfileId ?? 0;
    const t = await gateway.hostedFormToken({ customerProfileId: c, paymentProfileId: card, returnUrl: `${parentOrigin}/payment` });
    expect(t.url).toBe(`${url}/customer/editPayment`);
    const form = (fields: Record<string, string>) =>
      fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const page = await form({ token: t.token, paymentProfileId: String(card) });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Edit card XXXX1111');
    expect(html).toContain('value="12/30"');
    // Another card than the token's is not shown: the save would write the token's card.
    expect((await form({ token: t.token, paymentProfileId: String(card + 1) })).status).toBe(404);
    // The add-payment token cannot open the edit form.
    const add = await gateway.hostedFormToken({ customerProfileId: c, returnUrl: parentOrigin });
    expect((await form({ token: add.token })).status).toBe(404);
    // A card of another customer gets no token.
    const other = await gateway.ensureCustomer('member-edit-other');
    await expect(gateway.hostedFormToken({ customerProfileId: other, paymentProfileId: card, returnUrl: parentOrigin })).rejects.toBeInstanceOf(GatewayError);
    // The number left empty keeps the card's number; the new expiry is saved on the same profile.
    const saved = await fetch(`${url}/customer/api/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: t.token, cardNumber: '', expiry: '03/31', cvv: '123' }),
    });
    expect(await saved.json()).toEqual({ paymentProfileId: card, customerProfileId: c });
    const profiles = (await gateway.getCustomer(c)).paymentProfiles;
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({ paymentProfileId: card, cardNumber: 'XXXX1111', expiration: '03/2031' });
  });

  it('stores approved cards, refuses declined, CVV, expired and non-Luhn numbers, and uses a token once', async () => {
    const c = await gateway.ensureCustomer('member-cards');
    const ok = await saveCard(c, '4111 1111 1111 1111');
    expect(ok.status).toBe(200);
    const declined = await saveCard(c, TEST_CARD('decline'));
    expect(declined.status).toBe(402);
    expect(((await declined.json()) as { error: string }).error).toBe(GATEWAY_MESSAGES.declined);
    expect(((await (await saveCard(c, TEST_CARD('cvv'))).json()) as { error: string }).error).toBe(GATEWAY_MESSAGES.cvv);
    expect(((await (await saveCard(c, TEST_CARD('expired'))).json()) as { error: string }).error).toBe(GATEWAY_MESSAGES.expired);
    expect(((await (await saveCard(c, '4111111111111111', '01/20')).json()) as { error: string }).error).toBe(GATEWAY_MESSAGES.expired);
    expect(((await (await saveCard(c, '4111111111111112')).json()) as { error: string }).error).toBe(GATEWAY_MESSAGES.invalidNumber);
    const customer = await gateway.getCustomer(c);
    expect(customer.paymentProfiles).toHaveLength(1);
    expect(customer.paymentProfiles[0]).toMatchObject({ cardNumber: 'XXXX1111', last4: '1111', isDefault: true, cardType: 'Visa' });
    expect(JSON.stringify(customer)).not.toContain('4111111111111111');
    // A token saves once.
    const t = await gateway.hostedFormToken({ customerProfileId: c, returnUrl: parentOrigin });
    const body = JSON.stringify({ token: t.token, cardNumber: '5424000000000015', expiry: '12/30', cvv: '123' });
    const post = () => fetch(`${url}/customer/api/save`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(403);
    const two = await gateway.getCustomer(c);
    const mc = two.paymentProfiles.find((p) => p.last4 === '0015');
    expect(mc?.isDefault).toBe(false);
    await gateway.setDefaultProfile(c, mc?.paymentProfileId ?? 0);
    expect((await gateway.getCustomer(c)).paymentProfiles.find((p) => p.isDefault)?.last4).toBe('0015');
    await gateway.deleteProfile(c, mc?.paymentProfileId ?? 0);
    expect((await gateway.getCustomer(c)).paymentProfiles.map((p) => [p.last4, p.isDefault])).toEqual([['1111', true]]);
    await expect(gateway.deleteProfile(c, mc?.paymentProfileId ?? 0)).rejects.toThrow(GATEWAY_MESSAGES.profileNotFound);
  });

  it('charges once per idempotency key, refuses refunds before settlement, settles, refunds and voids', async () => {
    const { customer: c, profile: p } = await customerWithCard('member-tx', '4111111111111111');
    const req = { type: 'authCapture' as const, customerProfileId: c, paymentProfileId: p, amountCents: 1200 };
    const first = await gateway.transaction(req, 'charge-1');
    const again = await gateway.transaction(req, 'charge-1');
    expect(first.responseCode).toBe('1');
    expect(again.transId).toBe(first.transId);
    expect((await gateway.listTransactions(c)).filter((t) => t.type === 'authCapture')).toHaveLength(1);
    await expect(gateway.transaction({ ...req, amountCents: 1300 }, 'charge-1')).rejects.toThrow(/idempotency key/);

    const early = await gateway.transaction({ type: 'refund', refTransId: first.transId }, 'refund-early');
    expect(early.responseCode).toBe('3');
    expect(early.message).toBe('The referenced transaction does not meet the criteria for issuing a credit.');

    const settle = await fetch(`${url}/gateway/api/settle-now`, {
      method: 'POST',
      headers: { authorization: MERCHANT_AUTH },
    });
    expect(((await settle.json()) as { settled: number }).settled).toBeGreaterThanOrEqual(1);
    expect((await gateway.getTransaction(first.transId)).status).toBe('settledSuccessfully');
    const refund = await gateway.transaction({ type: 'refund', refTransId: first.transId }, 'refund-1');
    expect(refund).toMatchObject({ responseCode: '1', amountCents: 1200, status: 'refundPendingSettlement' });
    const tooMuch = await gateway.transaction({ type: 'refund', refTransId: first.transId, amountCents: 1 }, 'refund-2');
    expect(tooMuch.responseCode).toBe('3');

    const auth = await gateway.transaction({ ...req, type: 'authOnly', amountCents: 5000 }, 'auth-1');
    expect(auth.status).toBe('authorizedPendingCapture');
    const capture = await gateway.transaction({ type: 'priorAuthCapture', refTransId: auth.transId, amountCents: 4000 }, 'cap-1');
    expect(capture.responseCode).toBe('1');
    expect((await gateway.getTransaction(auth.transId)).amountCents).toBe(4000);
    const voided = await gateway.transaction({ type: 'void', refTransId: auth.transId }, 'void-1');
    expect(voided.responseCode).toBe('1');
    expect((await gateway.getTransaction(auth.transId)).status).toBe('voided');
    const voidSettled = await gateway.transaction({ type: 'void', refTransId: first.transId }, 'void-2');
    expect(voidSettled).toMatchObject({ responseCode: '3', message: GATEWAY_MESSAGES.voidNotAllowed });
  });

  it('declines charges on declining cards', async () => {
    const { customer: c, profile: p } = await customerWithCard('member-decline', '4111111111111111');
    const missing = gateway.transaction({ type: 'authCapture', customerProfileId: c, paymentProfileId: p + 1000, amountCents: 100 }, 'x-1');
    await expect(missing).rejects.toThrow(GATEWAY_MESSAGES.profileNotFound);
  });

  it('holds charges on a review card until the merchant approves (then it settles) or declines them, deciding once', async () => {
    const c = await gateway.ensureCustomer('member-review');
    expect((await saveCard(c, '4000000000000259')).status).toBe(200);
    const p = (await gateway.getCustomer(c)).paymentProfiles[0]?.paymentProfileId ?? 0;
    const req = { type: 'authCapture' as const, customerProfileId: c, paymentProfileId: p, amountCents: 125_000 };
    const held = await gateway.transaction(req, 'review-1');
    expect(held).toMatchObject({ responseCode: '4', status: 'FDSPendingReview', message: 'This transaction is being held for review.', authCode: null });
    const settle = () => fetch(`${url}/gateway/api/settle-now`, { method: 'POST', headers: { authorization: MERCHANT_AUTH } });
    await settle();
    expect((await gateway.getTransaction(held.transId)).status).toBe('FDSPendingReview');

    const approved = await gateway.reviewHeld(held.transId, 'approve');
    expect(approved).toMatchObject({ transId: held.transId, responseCode: '1', status: 'capturedPendingSettlement', amountCents: 125_000 });
    // The same decision again answers the transaction as it is; the other decision is refused.
    expect(await gateway.reviewHeld(held.transId, 'approve')).toMatchObject({ status: 'capturedPendingSettlement' });
    await expect(gateway.reviewHeld(held.transId, 'decline')).rejects.toThrow(GATEWAY_MESSAGES.notHeld);
    await settle();
    expect((await gateway.getTransaction(held.transId)).status).toBe('settledSuccessfully');

    const hold = await gateway.transaction({ ...req, type: 'authOnly', amountCents: 9_900 }, 'review-2');
    expect(hold).toMatchObject({ responseCode: '4', status: 'FDSAuthorizedPendingReview' });
    expect(await gateway.reviewHeld(hold.transId, 'approve')).toMatchObject({ responseCode: '1', status: 'authorizedPendingCapture' });
    const declined = await gateway.reviewHeld((await gateway.transaction({ ...req, amountCents: 500 }, 'review-3')).transId, 'decline');
    expect(declined).toMatchObject({ responseCode: '2', status: 'declined', message: GATEWAY_MESSAGES.declined });

    // A transaction the filters never held cannot be decided.
    const { customer: plain, profile: pp } = await customerWithCard('member-review-plain', '4111111111111111');
    const charged = await gateway.transaction({ ...req, customerProfileId: plain, paymentProfileId: pp }, 'review-4');
    await expect(gateway.reviewHeld(charged.transId, 'approve')).rejects.toThrow(GATEWAY_MESSAGES.notHeld);
    await expect(gateway.reviewHeld(999_999, 'approve')).rejects.toThrow(GATEWAY_MESSAGES.notFound);
  });

  it('keeps a subscription whose first payment is held pending, then runs it when the merchant approves and ends it when declined', async () => {
    const { customer: c, profile: p } = await customerWithCard('member-review-sub', '4000000000000259');
    const start = (name: string, intervalMonths: 0 | 1 | 12, key: string) =>
      gateway.createSubscription({ customerProfileId: c, paymentProfileId: p, name, intervalMonths, amountCents: 12_500 }, key);
    const yearly = await start('Yearly', 12, 'held-sub-1');
    expect(yearly.transaction).toMatchObject({ responseCode: '4', status: 'FDSPendingReview' });
    expect(yearly.subscription.status).toBe('pending');
    await gateway.reviewHeld(yearly.transaction.transId, 'approve');
    expect(await gateway.getSubscription(yearly.subscription.subscriptionId)).toMatchObject({ status: 'active' });

    const lifetime = await start('Lifetime', 0, 'held-sub-2');
    await gateway.reviewHeld(lifetime.transaction.transId, 'approve');
    expect((await gateway.getSubscription(lifetime.subscription.subscriptionId)).status).toBe('expired');

    const monthly = await start('Monthly', 1, 'held-sub-3');
    await gateway.reviewHeld(monthly.transaction.transId, 'decline');
    expect((await gateway.getSubscription(monthly.subscription.subscriptionId)).status).toBe('declined');
  });

  it('runs subscriptions (monthly, yearly, lifetime) and sends signed webhooks for recurring charges', async () => {
    await gateway.registerWebhook(hookUrl);
    const { customer: c, profile: p } = await customerWithCard('member-sub', '4111111111111111');
    const monthly = await gateway.createSubscription(
      { customerProfileId: c, paymentProfileId: p, name: 'Monthly', intervalMonths: 1, amountCents: 1200 },
      'sub-1',
    );
    expect(monthly.subscription).toMatchObject({ status: 'active', intervalMonths: 1, amountCents: 1200 });
    expect(monthly.transaction).toMatchObject({ responseCode: '1', amountCents: 1200, subscriptionId: monthly.subscription.subscriptionId });
    const retried = await gateway.createSubscription(
      { customerProfileId: c, paymentProfileId: p, name: 'Monthly', intervalMonths: 1, amountCents: 1200 },
      'sub-1',
    );
    expect(retried.transaction.transId).toBe(monthly.transaction.transId);
    const lifetime = await gateway.createSubscription(
      { customerProfileId: c, paymentProfileId: p, name: 'Lifetime', intervalMonths: 0, amountCents: 100_000 },
      'sub-2',
    );
    expect(lifetime.subscription).toMatchObject({ status: 'expired', nextChargeAt: null });
    const yearly = await gateway.createSubscription(
      { customerProfileId: c, paymentProfileId: p, name: 'Yearly', intervalMonths: 12, amountCents: 12_500 },
      'sub-3',
    );
    expect(new Date(yearly.subscription.nextChargeAt ?? 0).getUTCFullYear()).toBe(new Date().getUTCFullYear() + 1);

    const charged = await fetch(`${url}/gateway/api/subscriptions/${monthly.subscription.subscriptionId}/charge-now`, {
      method: 'POST',
      headers: { authorization: MERCHANT_AUTH },
    });
    expect(charged.status).toBe(200);
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const hook = received[0];
    expect(hook?.host).toBe(new URL(hookUrl).host);
    expect(hook?.signature).toBe(signWebhook('sig-t', hook?.body ?? ''));
    expect(gateway.verifyWebhook(hook?.body ?? '', hook?.signature)).toBe(true);
    expect(gateway.verifyWebhook(`${hook?.body} `, hook?.signature)).toBe(false);
    expect(gateway.verifyWebhook(hook?.body ?? '', undefined)).toBe(false);
    const event = JSON.parse(hook?.body ?? '{}');
    expect(event).toMatchObject({
      eventType: 'net.authorize.payment.authcapture.created',
      payload: { subscriptionId: String(monthly.subscription.subscriptionId), authAmount: 12 },
    });

    const canceled = await gateway.cancelSubscription(monthly.subscription.subscriptionId);
    expect(canceled.status).toBe('canceled');
  });

  it('starts a subscription on a later day (ARB startDate): nothing charged now, the first charge that day, once per key', async () => {
    const { customer: c, profile: p } = await customerWithCard('member-later', '4111111111111111');
    const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const input = { customerProfileId: c, paymentProfileId: p, name: 'Yearly', intervalMonths: 12 as const, amountCents: 12_500, startDate: day(200) };
    const later = await gateway.scheduleSubscription(input, 'later-1');
    expect(later).toMatchObject({ status: 'active', nextChargeAt: `${day(200)}T00:00:00.000Z`, amountCents: 12_500 });
    expect((await gateway.scheduleSubscription(input, 'later-1')).subscriptionId).toBe(later.subscriptionId);
    expect(await gateway.listTransactions(c)).toEqual([]);
    expect((await gateway.getCustomer(c)).subscriptions).toHaveLength(1);
    // A day before today is refused, as ARB refuses it.
    await expect(gateway.scheduleSubscription({ ...input, startDate: day(-2) }, 'later-2')).rejects.toThrow(
      'Start Date must not occur before the submission date.',
    );
    // Today charges the first payment at once, as without a start day.
    const today = await gateway.createSubscription({ ...input, startDate: day(0) } as Parameters<typeof gateway.createSubscription>[0], 'later-3');
    expect(today.transaction).toMatchObject({ responseCode: '1', amountCents: 12_500 });
  });

  it("lets the merchant decide held charges on its own screen, signed in and from that screen only, and tells the merchant's webhooks once", async () => {
    await gateway.registerWebhook(hookUrl);
    const { customer: c, profile: p } = await customerWithCard('member-merchant-screen', '4000000000000259');
    const held = await gateway.transaction({ type: 'authCapture', customerProfileId: c, paymentProfileId: p, amountCents: 4_321 }, 'screen-1');
    const screen = `${url}/gateway/merchant`;
    const origin = new URL(url).origin;

    const anonymous = await fetch(screen);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    const list = await fetch(screen, { headers: { authorization: MERCHANT_AUTH } });
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain(`Approve transaction ${held.transId}`);
    expect(html).toContain('ending 0259');
    expect(html).toContain('$43.21');

    const decide = (action: string, headers: Record<string, string>) =>
      fetch(`${screen}/held/${held.transId}/${action}`, { method: 'POST', redirect: 'manual', headers: { authorization: MERCHANT_AUTH, ...headers } });
    // Another site's form post carries the browser's Basic credentials too: refused, nothing decided.
    expect((await decide('approve', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await decide('approve', {})).status).toBe(403);
    expect((await gateway.getTransaction(held.transId)).status).toBe('FDSPendingReview');

    const before = received.length;
    const approved = await decide('approve', { origin });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe(`/gateway/merchant?done=${held.transId}&action=approve`);
    expect(await gateway.getTransaction(held.transId)).toMatchObject({ responseCode: '1', status: 'capturedPendingSettlement' });
    for (let i = 0; i < 50 && received.length === before; i++) await new Promise((r) => setTimeout(r, 50));
    const events = received.slice(before).map((h) => JSON.parse(h.body));
    expect(events).toEqual([
      expect.objectContaining({
        eventType: 'net.authorize.payment.fraud.approved',
        payload: expect.objectContaining({ id: String(held.transId), responseCode: 1 }),
      }),
    ]);
    // The same decision again changes nothing and tells no one; the other one is refused on the screen as in the API.
    expect((await decide('approve', { origin })).status).toBe(303);
    const refused = await decide('decline', { origin });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(GATEWAY_MESSAGES.notHeld);
    await new Promise((r) => setTimeout(r, 200));
    expect(received.length).toBe(before + 1);
    const after = await (await fetch(screen, { headers: { authorization: MERCHANT_AUTH } })).text();
    expect(after).not.toContain(`Approve transaction ${held.transId}`);
    expect(after).toMatch(new RegExp(`<td>${held.transId}</td>.*?<td>Approved</td><td>capturedPendingSettlement</td>`));
  });

  it("lets the merchant void an unsettled charge and refund a settled one on its own screen, telling the merchant's webhooks of each once", async () => {
    await gateway.registerWebhook(hookUrl);
    const { customer: c, profile: p } = await customerWithCard('member-merchant-give-back', '4111111111111111');
    const charge = (key: string, amountCents: number) =>
      gateway.transaction({ type: 'authCapture', customerProfileId: c, paymentProfileId: p, amountCents }, key);
    const settled = await charge('give-back-settled', 2_500);
    await fetch(`${url}/gateway/api/settle-now`, { method: 'POST', headers: { authorization: MERCHANT_AUTH } });
    const unsettled = await charge('give-back-unsettled', 1_200);
    const screen = `${url}/gateway/merchant`;
    const origin = new URL(url).origin;
    const html = await (await fetch(screen, { headers: { authorization: MERCHANT_AUTH } })).text();
    expect(html).toContain(`Void transaction ${unsettled.transId}`);
    expect(html).toContain(`Refund transaction ${settled.transId}`);
    expect(html).not.toContain(`Void transaction ${settled.transId}`);

    const giveBack = (id: number, action: string, headers: Record<string, string> = { origin }) =>
      fetch(`${screen}/transactions/${id}/${action}`, { method: 'POST', redirect: 'manual', headers: { authorization: MERCHANT_AUTH, ...headers } });
    // Another site's form post is refused, and nothing is given back.
    expect((await giveBack(unsettled.transId, 'void', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await gateway.getTransaction(unsettled.transId)).status).toBe('capturedPendingSettlement');
    expect((await giveBack(unsettled.transId, 'cancel')).status).toBe(404);

    const before = received.length;
    const voided = await giveBack(unsettled.transId, 'void');
    expect(voided.status).toBe(303);
    expect(voided.headers.get('location')).toBe(`/gateway/merchant?done=${unsettled.transId}&action=void`);
    expect((await gateway.getTransaction(unsettled.transId)).status).toBe('voided');
    const refunded = await giveBack(settled.transId, 'refund');
    expect(refunded.status).toBe(303);
    for (let i = 0; i < 50 && received.length < before + 2; i++) await new Promise((r) => setTimeout(r, 50));
    const events = received.slice(before).map((h) => JSON.parse(h.body));
    const reversals = (await gateway.listTransactions(c)).filter((t) => t.type === 'void' || t.type === 'refund');
    expect(reversals).toEqual([
      expect.objectContaining({ type: 'void', responseCode: '1', refTransId: unsettled.transId, amountCents: 1_200 }),
      expect.objectContaining({ type: 'refund', responseCode: '1', refTransId: settled.transId, amountCents: 2_500 }),
    ]);
    expect(events.map((e) => [e.eventType, e.payload.id])).toEqual([
      ['net.authorize.payment.void.created', String(reversals[0]?.transId)],
      ['net.authorize.payment.refund.created', String(reversals[1]?.transId)],
    ]);

    // Given back already: refused on the screen with the gateway's own words, telling no one; the list no longer offers them.
    const again = await giveBack(unsettled.transId, 'void');
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(GATEWAY_MESSAGES.voidNotAllowed);
    const refundAgain = await giveBack(settled.transId, 'refund');
    expect(refundAgain.status).toBe(400);
    expect(await refundAgain.text()).toContain(GATEWAY_MESSAGES.refundTooLarge);
    const after = await (await fetch(`${screen}?done=${settled.transId}&action=refund`, { headers: { authorization: MERCHANT_AUTH } })).text();
    expect(after).toContain(`Transaction ${settled.transId} refunded.`);
    expect(after).not.toContain(`Void transaction ${unsettled.transId}`);
    expect(after).not.toContain(`Refund transaction ${settled.transId}`);
    await new Promise((r) => setTimeout(r, 200));
    expect(received.length).toBe(before + 2);
  });

  it("tells the merchant's webhooks of a refund made through the API once, not again on the key's replay", async () => {
    await gateway.registerWebhook(hookUrl);
    const { customer: c, profile: p } = await customerWithCard('member-api-refund', '4111111111111111');
    const charged = await gateway.transaction({ type: 'authCapture', customerProfileId: c, paymentProfileId: p, amountCents: 900 }, 'api-refund-charge');
    const before = received.length;
    const v = await gateway.transaction({ type: 'void', refTransId: charged.transId }, `void:${charged.transId}`);
    expect(v).toMatchObject({ type: 'void', responseCode: '1' });
    expect((await gateway.transaction({ type: 'void', refTransId: charged.transId }, `void:${charged.transId}`)).transId).toBe(v.transId);
    for (let i = 0; i < 50 && received.length === before; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200));
    expect(received.slice(before).map((h) => [JSON.parse(h.body).eventType, JSON.parse(h.body).payload.id])).toEqual([
      ['net.authorize.payment.void.created', String(v.transId)],
    ]);
  });
});

function TEST_CARD(outcome: 'decline' | 'cvv' | 'expired'): string {
  const found = Object.entries(TEST_CARDS).find(([, o]) => o === outcome);
  if (!found) throw new Error(outcome);
  return found[0];
}
