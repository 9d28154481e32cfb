import type { StartedServer } from '@portal/app-server/server';
import { COUPON_CHECK_MESSAGES } from '@portal/plugin-coupons/contract';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, BillingApi, type BillingProfile } from '../contract';
import { type BillingStack, GATEWAY_BASIC, saveCardAtGateway, startBillingStack } from './test-stack';
import { BILLING_THROTTLE } from './throttle';

/**
 * Guessing coupon codes (a valid one is a free lifetime membership) is limited per member and per client address:
 * every member call that takes a code, over the sandbox gateway, through the kernel guard. Each test acts from an
 * address of its own, so the per-address counts of one test do not reach another.
 */
let stack: BillingStack;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };

type Call = { session: Session; address: string; body: unknown; headers?: Record<string, string> };
const post = (path: string, o: Call) =>
  server.app.inject({
    method: 'POST',
    url: path,
    headers: { ...authHeaders(o.session, 'card'), ...o.headers },
    remoteAddress: o.address,
    payload: o.body as object,
  });
const data = async <T>(path: string, o: Call) => {
  const res = await post(path, o);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json().Data as T;
};
const count = async (sqlText: string, params: unknown[] = []) => (await server.database.sql.query<{ n: number }>(sqlText, params))[0]?.n ?? 0;

let people = 0;
/** A member of the card brand (Amethyst coupons), signed in. */
async function member(): Promise<{ id: number; session: Session }> {
  const userName = `guess-${++people}`;
  const id = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  return { id, session: await signIn(server, userName) };
}

/** Saves an approved card through the hosted form and syncs it: a start without a valid code would charge it. */
async function withCard(session: Session, address: string): Promise<BillingProfile> {
  const headers = authHeaders(session, 'card');
  const t = (
    await server.app.inject({
      method: 'GET',
      url: `${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`,
      headers,
      remoteAddress: address,
    })
  ).json().Data as { Token: string };
  const saved = await saveCardAtGateway(sandboxUrl, t.Token, '4111111111111111');
  expect(saved.status).toBe(200);
  const p = (await server.app.inject({ method: 'GET', url: BillingApi.sync.path, headers, remoteAddress: address })).json().Data as BillingProfile;
  expect(p.Profiles).toHaveLength(1);
  return p;
}

/** The 429's text for the Retry-After it came with. */
const tooMany = (retryAfter: unknown) => `Too many coupon codes were tried. Please try again in ${Math.ceil(Number(retryAfter) / 60)} minute(s).`;

beforeAll(async () => {
  stack = await startBillingStack();
  ({ sandboxUrl, server } = stack);
  await stack.addCoupons([
    { code: 'LIFE-CARD' },
    { code: 'OLD-CARD', end: '2020-12-31' },
    { code: 'PAUSED-CARD', status: 'Inactive' },
    { code: 'SOON-CARD', start: '2999-01-01' },
    { code: 'CARE-ONLY', product: 'CareGuard' },
  ]);
});
afterAll(async () => {
  await stack?.close();
});

describe('billing: guessing coupon codes', () => {
  it('refuses guessing after 10 wrong codes an hour with 429, the valid code too, and charges or changes nothing', async () => {
    const address = '203.0.113.1';
    const m = await member();
    const p = await withCard(m.session, address);
    const gatewayTransactions = async () =>
      (await fetch(`${sandboxUrl}/gateway/api/customers/${p.CustomerId}/transactions`, { headers: { authorization: GATEWAY_BASIC } })).json();
    const before = await gatewayTransactions();
    const o = (body: unknown) => ({ session: m.session, address, body });
    const check = (Code: string) => data<{ Status: number; IsLifetime: boolean; Message: string }>(BillingApi.checkCoupon.path, o({ Code }));

    // Ten wrong codes through every call that takes one, each answered with its status's own message.
    expect(await check('NOPE-1')).toMatchObject({ Status: 1, IsLifetime: false, Message: COUPON_CHECK_MESSAGES.notFound });
    expect(await check('PAUSED-CARD')).toMatchObject({ Status: 2, Message: COUPON_CHECK_MESSAGES.inactive });
    expect(await check('SOON-CARD')).toMatchObject({ Status: 3, Message: COUPON_CHECK_MESSAGES.notStarted });
    expect(await check('OLD-CARD')).toMatchObject({ Status: 4, Message: COUPON_CHECK_MESSAGES.expired });
    expect(await check('CARE-ONLY')).toMatchObject({ Status: 5, Message: COUPON_CHECK_MESSAGES.otherProduct });
    expect(await data(BillingApi.saveCoupon.path, o({ Type: 1, Code: 'NOPE-2' }))).toMatchObject({
      Status: 1,
      Type: 1,
      Message: COUPON_CHECK_MESSAGES.notFound,
    });
    expect(await data(BillingApi.start.path, o({ Type: 1, Code: 'NOPE-3', IdempotencyKey: 'guess-start-0001' }))).toMatchObject({
      StatusString: 'Error',
      Message: COUPON_CHECK_MESSAGES.notFound,
    });
    expect(await data(BillingApi.saveSubscription.path, o({ key: 1, code: 'NOPE-4', IdempotencyKey: 'guess-save-0001' }))).toBe(false);
    expect((await check('NOPE-5')).Status).toBe(1);
    expect((await check('NOPE-6')).Status).toBe(1);

    // The eleventh: 429 with Retry-After, in the user's language.
    const refused = await post(BillingApi.checkCoupon.path, o({ Code: 'NOPE-7' }));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60 * 59);
    expect(refused.json().MsgText).toBe(tooMany(refused.headers['retry-after']));
    const spanish = await post(BillingApi.checkCoupon.path, { ...o({ Code: 'NOPE-8' }), headers: { cookie: 'cq.lang=es' } });
    expect(spanish.statusCode).toBe(429);
    expect(spanish.json().MsgText).toBe(
      `Se probaron demasiados códigos de cupón. Inténtelo de nuevo en ${Math.ceil(Number(spanish.headers['retry-after']) / 60)} minuto(s).`,
    );

    // The valid code is refused the same way by every call, and a start with a code charges nothing.
    const overLimit = [
      post(BillingApi.checkCoupon.path, o({ Code: 'LIFE-CARD' })),
      post(BillingApi.saveCoupon.path, o({ Type: 0, Code: 'LIFE-CARD' })),
      post(BillingApi.start.path, o({ Type: 12, Code: 'LIFE-CARD', IdempotencyKey: 'guess-start-0002' })),
      post(BillingApi.start.path, o({ Type: 12, Code: 'NOPE-9', IdempotencyKey: 'guess-start-0003' })),
      post(BillingApi.saveSubscription.path, o({ key: 12, code: 'LIFE-CARD', IdempotencyKey: 'guess-save-0002' })),
    ];
    for (const res of await Promise.all(overLimit)) {
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json().MsgText).toBe(tooMany(res.headers['retry-after']));
    }
    const profile = (
      await server.app.inject({ method: 'GET', url: BillingApi.profile.path, headers: authHeaders(m.session, 'card'), remoteAddress: address })
    ).json().Data as BillingProfile;
    expect(profile).toMatchObject({ SubscriptionType: null, SubscriptionStatus: null, CouponCode: null, SubscriptionId: null });
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [m.id])).toBe(0);
    expect(await gatewayTransactions()).toEqual(before);
    // Each refusal is audited for the member; the codes tried are not written down.
    await server.flushAudit();
    const audited = await server.database.sql.query<{ detail: { reason: string; limit: string } }>(
      `SELECT detail FROM audit_log WHERE action = 'billing.coupon.check' AND outcome = 'refused' AND member_id = $1`,
      [m.id],
    );
    expect(audited).toHaveLength(7);
    expect(audited.every((a) => a.detail.reason === 'throttled' && a.detail.limit === 'wrong codes')).toBe(true);
    expect(JSON.stringify(audited)).not.toContain('NOPE');
  });

  it('lets a member use a valid code after a few wrong ones below the limit: lifetime, with no charge', async () => {
    const address = '203.0.113.2';
    const m = await member();
    await withCard(m.session, address);
    const o = (body: unknown) => ({ session: m.session, address, body });
    for (let i = 1; i < BILLING_THROTTLE.couponFailuresPerMember.max; i++) {
      expect((await data<{ Status: number }>(BillingApi.checkCoupon.path, o({ Code: `TYPO-${i}` }))).Status).toBe(1);
    }
    expect(await data(BillingApi.checkCoupon.path, o({ Code: 'life-card' }))).toMatchObject({
      Status: 0,
      IsLifetime: true,
      Message: COUPON_CHECK_MESSAGES.valid,
    });
    expect(await data(BillingApi.start.path, o({ Type: 1, Code: 'LIFE-CARD', IdempotencyKey: 'valid-start-0001' }))).toMatchObject({
      StatusString: 'Ok',
      SubscriptionType: 0,
      Message: BILLING_MESSAGES.lifetimeByCoupon,
    });
    const profile = (
      await server.app.inject({ method: 'GET', url: BillingApi.profile.path, headers: authHeaders(m.session, 'card'), remoteAddress: address })
    ).json().Data as BillingProfile;
    expect(profile).toMatchObject({ SubscriptionType: 0, SubscriptionStatus: 'lifetime', CouponCode: 'LIFE-CARD' });
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [m.id])).toBe(0);
    // The valid code counted as no wrong one: the tenth wrong code is still answered, the eleventh is not.
    expect((await data<{ Status: number }>(BillingApi.checkCoupon.path, o({ Code: 'TYPO-10' }))).Status).toBe(1);
    expect((await post(BillingApi.checkCoupon.path, o({ Code: 'TYPO-11' }))).statusCode).toBe(429);
  });

  it('counts wrong codes per address across members: 30 an hour, then another member there is refused but not elsewhere', async () => {
    const address = '203.0.113.3';
    const perMember = BILLING_THROTTLE.couponFailuresPerMember.max;
    const members = BILLING_THROTTLE.couponFailuresPerAddress.max / perMember;
    for (let n = 0; n < members; n++) {
      const m = await member();
      for (let i = 0; i < perMember; i++) {
        expect((await data<{ Status: number }>(BillingApi.checkCoupon.path, { session: m.session, address, body: { Code: `ADDR-${n}-${i}` } })).Status).toBe(1);
      }
    }
    const next = await member();
    const refused = await post(BillingApi.checkCoupon.path, { session: next.session, address, body: { Code: 'LIFE-CARD' } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().MsgText).toBe(tooMany(refused.headers['retry-after']));
    expect(await data(BillingApi.checkCoupon.path, { session: next.session, address: '203.0.113.33', body: { Code: 'LIFE-CARD' } })).toMatchObject({
      Status: 0,
    });
  });

  it('answers no more than 10 of the wrong codes a member sends at once; the others are 429', async () => {
    const address = '203.0.113.4';
    const m = await member();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(BillingApi.checkCoupon.path, { session: m.session, address, body: { Code: `BURST-${i}` } })),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(BILLING_THROTTLE.couponFailuresPerMember.max);
    expect(codes.filter((c) => c === 429)).toHaveLength(20 - BILLING_THROTTLE.couponFailuresPerMember.max);
  });

  it('counts every code a member checks, valid ones too: the 31st check in an hour is refused', async () => {
    const address = '203.0.113.5';
    const m = await member();
    for (let i = 0; i < BILLING_THROTTLE.couponChecksPerMember.max; i++) {
      expect((await data<{ Status: number }>(BillingApi.checkCoupon.path, { session: m.session, address, body: { Code: 'LIFE-CARD' } })).Status).toBe(0);
    }
    const refused = await post(BillingApi.checkCoupon.path, { session: m.session, address, body: { Code: 'LIFE-CARD' } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().MsgText).toBe(tooMany(refused.headers['retry-after']));
  });

  it("limits support's setcoupon per staff user: after 30 wrong codes an hour the valid code is refused too (429), nothing applied, and the member's own limits are untouched", async () => {
    const address = '203.0.113.7';
    const staff = await stack.signInStaff('guess-staff');
    const m = await member();
    await withCard(m.session, '203.0.113.8');
    const setCoupon = (code: string) =>
      server.app.inject({
        method: 'POST',
        url: BillingApi.supportSetCoupon.path,
        headers: authHeaders(staff, 'staff'),
        remoteAddress: address,
        payload: { MemberId: m.id, CouponCode: code },
      });
    for (let i = 0; i < BILLING_THROTTLE.couponFailuresPerStaff.max; i++) {
      const wrong = await setCoupon(`STAFF-${i}`);
      expect(wrong.statusCode, wrong.body).toBe(200);
      expect(wrong.json().Data.Status).toBe(1);
    }
    const refused = await setCoupon('LIFE-CARD');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().MsgText).toBe(tooMany(refused.headers['retry-after']));
    const status = await server.database.sql.query<{ subscription_status: string | null }>(
      'SELECT subscription_status FROM billing_customers WHERE member_id = $1',
      [m.id],
    );
    expect(status[0]?.subscription_status ?? null).not.toBe('lifetime');
    // The member's own check still works: staff's wrong codes are not the member's.
    expect(await data(BillingApi.checkCoupon.path, { session: m.session, address: '203.0.113.8', body: { Code: 'LIFE-CARD' } })).toMatchObject({ Status: 0 });
  });
});
