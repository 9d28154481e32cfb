import type { StartedServer } from '@portal/app-server/server';
import { COUPON_CHECK_MESSAGES, COUPON_MESSAGES, type Coupon, CouponCheckStatus, CouponsApi } from '@portal/plugin-coupons/contract';
import { lockRaces } from '@portal/testing/races';
import { makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingApi, type BillingProfile } from '../contract';
import { gatewayHolds } from './gateway-holds';
import { type BillingStack, type StackCall, saveCardAtGateway, startBillingStack } from './test-stack';

/**
 * A coupon deleted while billing gives a membership its code (support's setcoupon, the member's customer/coupon, a
 * start with a code). Billing checks the code, then writes it in a transaction that holds the coupon (the coupons
 * service's holdForUse: its row FOR SHARE): a delete either commits first and the write sees no coupon (refused as not
 * found, nothing written), or waits for the write and then finds the member using the coupon (409). Either way no
 * member keeps a code that no coupon has.
 *
 * On both engines the delete lands between the check and the write while the flow is at the sandbox gateway (a
 * request held there, as in subscription-races.int.test.ts). On PostgreSQL the race itself is shown with locks the test
 * holds (PGlite is one connection: a transaction runs alone, so there is no race to show there).
 */
const HOLD_MS = 1500;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let stack: BillingStack;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };
let staff: Session;

const gateway = gatewayHolds(HOLD_MS);
const { interleave } = gateway;
const CANCEL = { method: 'POST', path: /^\/gateway\/api\/subscriptions\/\d+\/cancel$/ };

const call = (path: string, o: StackCall) => stack.call(path, o);
const data = <T>(path: string, o: StackCall) => stack.data<T>(path, o);
const asStaff = (path: string, body: unknown) => call(path, { session: staff, brand: 'staff', body });

let codes = 0;
/** A coupon for the card brand's members, created through the coupons API. */
async function coupon(prefix: string): Promise<Coupon> {
  const res = await asStaff(CouponsApi.create.path, {
    Code: `${prefix}-${++codes}`,
    Product: 'Amethyst',
    MembershipType: 'Lifetime Membership',
    DiscountType: 'Lifetime',
    StartDate: '2020-01-01',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data as Coupon;
}
const removeCoupon = (c: Coupon) => asStaff(CouponsApi.remove.path, [c.ID]);
const exists = async (id: number) => (await server.database.sql.query('SELECT 1 FROM coupons WHERE id = $1', [id])).length === 1;

let people = 0;
/** A member of the card brand, signed in. */
async function member(name: string): Promise<{ memberId: number; session: Session }> {
  const userName = `hold-${name}-${++people}`;
  const memberId = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  return { memberId, session: await signIn(server, userName, undefined, `10.0.3.${people}`) };
}

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
async function subscribedMember(name: string) {
  const m = await member(name);
  const card = await addCard(m.session, '4111111111111111');
  const started = await data<{ StatusString: string }>(BillingApi.start.path, {
    session: m.session,
    body: { Type: 1, IdempotencyKey: `${name}-monthly-0001` },
  });
  expect(started.StatusString).toBe('Ok');
  const subscriptionId = (await data<BillingProfile>(BillingApi.profile.path, { session: m.session })).SubscriptionId ?? 0;
  expect(subscriptionId).toBeGreaterThan(0);
  return { ...m, card, subscriptionId };
}

interface Row {
  subscription_id: number | null;
  subscription_type: number | null;
  subscription_status: string | null;
  coupon_code: string | null;
}
const rowOf = async (memberId: number) =>
  (
    await server.database.sql.query<Row>(
      'SELECT subscription_id, subscription_type, subscription_status, coupon_code FROM billing_customers WHERE member_id = $1',
      [memberId],
    )
  )[0];
const gatewayStatus = async (subscriptionId: number) =>
  (
    (await stack.gateway(`/subscriptions/${subscriptionId}`)) as {
      status: string;
    }
  ).status;
const audits = async (action: string, memberId: number) => {
  await server.flushAudit();
  return server.database.sql.query<{ outcome: string | null; detail: Record<string, unknown> }>(
    'SELECT outcome, detail FROM audit_log WHERE action = $1 AND entity_id = $2 ORDER BY id',
    [action, String(memberId)],
  );
};
const inUse = (code: string) => COUPON_MESSAGES.inUse.replace('{{codes}}', code);

beforeAll(async () => {
  stack = await startBillingStack({ sites: ['card'], beforeListen: (sandbox) => gateway.install(sandbox) });
  ({ sandboxUrl, server } = stack);
  staff = await stack.signInStaff('hold-staff');
});
afterAll(async () => {
  await stack?.close();
});

describe('a coupon deleted after the check and before the write (both engines)', () => {
  it("support's setcoupon over a running subscription: deleted while the gateway cancels it, the write refuses the code (not found) and records the cancel", async () => {
    const m = await subscribedMember('setcoupon');
    const c = await coupon('GONE');
    // The check passed and the gateway is canceling the monthly subscription when support deletes the coupon (no
    // member uses it yet, so the delete goes through).
    const [applied, deleted] = await interleave(
      CANCEL,
      () => asStaff(BillingApi.supportSetCoupon.path, { MemberId: m.memberId, CouponCode: c.Code.toLowerCase() }),
      () => removeCoupon(c),
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await exists(c.ID)).toBe(false);
    // The write found no coupon: refused as the check refuses an unknown code, and no code written.
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().Data).toMatchObject({ Status: CouponCheckStatus.NotFound, IsLifetime: false, Message: COUPON_CHECK_MESSAGES.notFound });
    // The gateway canceled the subscription before the write: our row says so (no lifetime, no code).
    expect(await gatewayStatus(m.subscriptionId)).toBe('canceled');
    expect(await rowOf(m.memberId)).toEqual({ subscription_id: m.subscriptionId, subscription_type: 1, subscription_status: 'canceled', coupon_code: null });
    expect((await audits('billing.subscription.cancel', m.memberId)).map((a) => a.detail)).toEqual([
      { subscriptionId: m.subscriptionId, reason: 'coupon refused', couponStatus: CouponCheckStatus.NotFound },
    ]);
    expect(await audits('billing.subscription.coupon', m.memberId)).toEqual([]);
    // The member can start a plan again.
    const again = await data<{ StatusString: string }>(BillingApi.start.path, {
      session: m.session,
      body: { Type: 12, IdempotencyKey: 'setcoupon-yearly-0001' },
    });
    expect(again.StatusString).toBe('Ok');
  });

  it("the member's customer/coupon over a running subscription: deactivated meanwhile, the write refuses it as inactive", async () => {
    const m = await subscribedMember('own-coupon');
    const c = await coupon('PAUSED');
    const [applied, paused] = await interleave(
      CANCEL,
      () => call(BillingApi.saveCoupon.path, { session: m.session, body: { Type: 1, Code: c.Code } }),
      () => asStaff(CouponsApi.deactivate.path, [c.ID]),
    );
    expect(paused.statusCode, paused.body).toBe(200);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().Data).toMatchObject({ Status: CouponCheckStatus.Inactive, Message: COUPON_CHECK_MESSAGES.inactive, Type: 1 });
    expect(await rowOf(m.memberId)).toMatchObject({ subscription_status: 'canceled', coupon_code: null });
  });

  it('a start with a code over a suspended membership writes the code before canceling the old one: a delete meanwhile finds it in use (409)', async () => {
    const m = await subscribedMember('suspended');
    // Deleting the only card suspends the membership.
    expect(
      (await data<{ Deactivated: boolean }>(BillingApi.deleteProfile.path.replace(':id', String(m.card)), { session: m.session, body: {} })).Deactivated,
    ).toBe(true);
    expect(await rowOf(m.memberId)).toMatchObject({ subscription_status: 'suspended' });
    const c = await coupon('KEPT');
    // The gateway is canceling the suspended subscription the coupon's membership replaces when support deletes the coupon.
    const [started, deleted] = await interleave(
      CANCEL,
      () => call(BillingApi.start.path, { session: m.session, body: { Type: 1, Code: c.Code, IdempotencyKey: 'suspended-coupon-0001' } }),
      () => removeCoupon(c),
    );
    expect(deleted.statusCode, deleted.body).toBe(409);
    expect(deleted.json().MsgText).toBe(inUse(c.Code));
    expect(await exists(c.ID)).toBe(true);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().Data).toMatchObject({ StatusString: 'Ok', SubscriptionType: 0 });
    expect(await rowOf(m.memberId)).toMatchObject({ subscription_type: 0, subscription_status: 'lifetime', coupon_code: c.Code });
    expect(await gatewayStatus(m.subscriptionId)).toBe('canceled');
  });

  it('a start with a code no coupon has (deleted just before) is refused as not found and leaves the suspended membership as it was', async () => {
    const m = await subscribedMember('refused-start');
    await data(BillingApi.deleteProfile.path.replace(':id', String(m.card)), { session: m.session, body: {} });
    const gatewayBefore = await gatewayStatus(m.subscriptionId);
    const c = await coupon('BEFORE');
    expect((await removeCoupon(c)).statusCode).toBe(200);
    const started = await data<{ StatusString: string; Message: string }>(BillingApi.start.path, {
      session: m.session,
      body: { Type: 1, Code: c.Code, IdempotencyKey: 'refused-start-0001' },
    });
    expect(started).toMatchObject({ StatusString: 'Error', Message: COUPON_CHECK_MESSAGES.notFound });
    expect(await rowOf(m.memberId)).toEqual({ subscription_id: m.subscriptionId, subscription_type: 1, subscription_status: 'suspended', coupon_code: null });
    // Nothing canceled at the gateway either.
    expect(await gatewayStatus(m.subscriptionId)).toBe(gatewayBefore);
    expect(gatewayBefore).not.toBe('canceled');
  });
});

/**
 * The race made deterministic on PostgreSQL with locks the test holds: a delete that locked the coupon first makes the
 * write's hold wait for it and see the coupon gone; a write that holds the coupon first (kept open by a lock on the
 * table its audit row goes to) makes the delete wait until the code is in, and the delete then finds the member using
 * it. The coupons plugin's own test shows the service's hold keeping a delete waiting (coupons.int.test.ts).
 */
describe.skipIf(!onPostgres)('a coupon delete racing a write of its code (PostgreSQL)', () => {
  const sql = () => server.database.sql;
  const { waiting, until, holding, whileHeld } = lockRaces(sql);
  const HOLD_READ = '%FROM coupons WHERE lower(code) = lower($1) FOR SHARE';
  const DELETE_LOCK = '%FROM coupons WHERE id = ANY($1::int[]) FOR UPDATE';

  /** Runs `flow` while a transaction that deleted the coupon is open; answers whether the flow waited for it, and its answer. */
  const whileDeleting = <T>(c: Coupon, flow: () => Promise<T>) => whileHeld('DELETE FROM coupons WHERE id = $1', [c.ID], flow, HOLD_READ);

  it("a delete committed while support's setcoupon writes: the write waits for it, then refuses the code as not found", async () => {
    const m = await member('race-set');
    const c = await coupon('RACE-SET');
    const { waited, answer } = await whileDeleting(c, () => asStaff(BillingApi.supportSetCoupon.path, { MemberId: m.memberId, CouponCode: c.Code }));
    expect(waited).toBe(true);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().Data).toMatchObject({ Status: CouponCheckStatus.NotFound, Message: COUPON_CHECK_MESSAGES.notFound });
    expect(await rowOf(m.memberId)).toMatchObject({ subscription_status: null, coupon_code: null });
    expect(await exists(c.ID)).toBe(false);
  });

  it("a delete committed while the member's customer/coupon writes: refused as not found, nothing written", async () => {
    const m = await member('race-own');
    const c = await coupon('RACE-OWN');
    const { waited, answer } = await whileDeleting(c, () => call(BillingApi.saveCoupon.path, { session: m.session, body: { Type: 12, Code: c.Code } }));
    expect(waited).toBe(true);
    expect(answer.json().Data).toMatchObject({ Status: CouponCheckStatus.NotFound, Message: COUPON_CHECK_MESSAGES.notFound, Type: 12 });
    expect(await rowOf(m.memberId)).toMatchObject({ subscription_status: null, coupon_code: null });
  });

  it('a delete committed while a start with the code writes: the start is refused as not found, nothing written', async () => {
    const m = await member('race-start');
    const c = await coupon('RACE-START');
    const { waited, answer } = await whileDeleting(c, () =>
      call(BillingApi.start.path, { session: m.session, body: { Type: 1, Code: c.Code, IdempotencyKey: 'race-start-0001' } }),
    );
    expect(waited).toBe(true);
    expect(answer.json().Data).toMatchObject({ StatusString: 'Error', Message: COUPON_CHECK_MESSAGES.notFound, SubscriptionType: null });
    expect(await rowOf(m.memberId)).toMatchObject({ subscription_status: null, coupon_code: null });
  });

  /** A member's billing row without a membership (no gateway customer needed: setcoupon then asks the gateway nothing). */
  const billingRow = async (memberId: number) => {
    await sql().query('INSERT INTO billing_customers (member_id, customer_profile_id) VALUES ($1, $2)', [memberId, 800_000 + memberId]);
  };

  it("a delete while support's setcoupon holds the coupon waits until the code is written, then is refused (409 naming it, nothing deleted)", async () => {
    const m = await member('writer');
    await billingRow(m.memberId);
    const c = await coupon('HELD');
    // The write's audit row waits on this lock of the audit table: the write's transaction has taken the coupon FOR
    // SHARE by then, and stays open until the lock is let go.
    const table = holding(async (tx) => {
      await tx.query('LOCK TABLE audit_log IN SHARE MODE');
    });
    await table.ready;
    let applied = false;
    const applying = asStaff(BillingApi.supportSetCoupon.path, { MemberId: m.memberId, CouponCode: c.Code.toLowerCase() }).finally(() => {
      applied = true;
    });
    let deleted = false;
    let deleting: ReturnType<typeof removeCoupon> | null = null;
    let writing: boolean;
    let waited = false;
    try {
      writing = await until(
        () => waiting('INSERT INTO audit_log%'),
        () => applied,
      );
      if (writing) {
        deleting = removeCoupon(c).finally(() => {
          deleted = true;
        });
        waited = await until(
          () => waiting(DELETE_LOCK),
          () => deleted,
        );
      }
    } finally {
      table.release();
      await table.done;
    }
    expect(writing).toBe(true);
    expect(waited).toBe(true);
    const answer = await applying;
    expect(answer.json().Data).toMatchObject({ Status: CouponCheckStatus.Valid });
    const refused = await (deleting as NonNullable<typeof deleting>);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().MsgText).toBe(inUse(c.Code));
    expect(await exists(c.ID)).toBe(true);
    expect(await rowOf(m.memberId)).toMatchObject({ subscription_status: 'lifetime', coupon_code: c.Code.toLowerCase() });
  });
});
