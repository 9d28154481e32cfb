import type { StartedServer } from '@portal/app-server/server';
import { COUPON_MESSAGES, type Coupon, type CouponDetail, CouponsApi, IN_USE_NAMED } from '@portal/plugin-coupons/contract';
import { authHeaders, indexPlan, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingApi } from '../contract';
import { MEMBERS_USING_SQL } from './coupon-usage';
import { type BillingStack, startBillingStack } from './test-stack';

/**
 * The coupons members' memberships were given with are in use: billing answers the coupons plugin's question
 * (CouponUsage, coupon-usage.ts) from billing_customers, so support's Delete refuses such a coupon (409 naming it,
 * nothing deleted) and the coupon's view counts its members. Memberships get their coupon through billing's own calls
 * (support's setcoupon, the member's subscription/start with a code) over the sandbox gateway.
 */
let stack: BillingStack;
let server: StartedServer & { dropDatabase(): Promise<void> };
let staff: Session;

const staffCall = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
  server.app.inject({ method: body === undefined ? 'GET' : 'POST', url: path, headers: authHeaders(staff, 'staff', headers), payload: body as object });
const spanish = { cookie: 'cq.lang=es' };

let codes = 0;
/** A coupon for the card brand's members, created through the coupons API. */
async function coupon(prefix: string): Promise<Coupon> {
  const res = await staffCall(CouponsApi.create.path, {
    Code: `${prefix}-${++codes}`,
    Product: 'Amethyst',
    MembershipType: 'Lifetime Membership',
    DiscountType: 'Lifetime',
    StartDate: '2020-01-01',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data as Coupon;
}

let people = 0;
/** A member of the card brand (Amethyst coupons), signed in. */
async function member(): Promise<{ id: number; session: Session }> {
  const userName = `usage-${++people}`;
  const id = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  return { id, session: await signIn(server, userName, undefined, `10.0.1.${people}`, 'card') };
}

/** Support gives the member's membership the coupon (POST support/setcoupon), typed in another case than stored. */
async function setCoupon(memberId: number, code: string): Promise<void> {
  const res = await staffCall(BillingApi.supportSetCoupon.path, { MemberId: memberId, CouponCode: code.toLowerCase() });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().Data.Status).toBe(0);
}

const exists = async (id: number) => (await server.database.sql.query('SELECT 1 FROM coupons WHERE id = $1', [id])).length === 1;
const deleteAudits = async (ids: number[]) =>
  (await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1 AND entity_id = ANY($2)', ['coupons.coupon.delete', ids.map(String)])).length;
const inUse = (codes: string) => COUPON_MESSAGES.inUse.replace('{{codes}}', codes);

beforeAll(async () => {
  stack = await startBillingStack();
  server = stack.server;
  staff = await stack.signInStaff('usage-staff');
});
afterAll(async () => {
  await stack?.close();
});

describe('coupons in use by members cannot be deleted', () => {
  it("refuses to delete a coupon a member's membership was given with: 409 naming it, the coupon stays, no audit row", async () => {
    const used = await coupon('USED');
    await setCoupon((await member()).id, used.Code);
    const refused = await staffCall(CouponsApi.remove.path, [used.ID]);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().MsgText).toBe(inUse(used.Code));
    expect(await exists(used.ID)).toBe(true);
    expect(await deleteAudits([used.ID])).toBe(0);
    // Also when the list sent the Version it showed.
    expect((await staffCall(CouponsApi.remove.path, [{ ID: used.ID, Version: used.Version }])).statusCode).toBe(409);
    // In the user's language.
    const es = await staffCall(CouponsApi.remove.path, [used.ID], spanish);
    expect(es.statusCode).toBe(409);
    expect(es.json().MsgText).toBe(
      `Estos cupones están en uso por miembros y no se pueden eliminar: ${used.Code}. Desactívelos en su lugar; no se eliminó nada.`,
    );
    expect(await exists(used.ID)).toBe(true);
  });

  it('leaves Deactivate and Activate as they were: a coupon in use is switched off and on', async () => {
    const used = await coupon('SWITCH');
    await setCoupon((await member()).id, used.Code);
    const off = await staffCall(CouponsApi.deactivate.path, [used.ID]);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().Data).toEqual({ Count: 1, Message: COUPON_MESSAGES.deactivated });
    const on = await staffCall(CouponsApi.activate.path, [used.ID]);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().Data).toEqual({ Count: 1, Message: COUPON_MESSAGES.activated });
  });

  it('still deletes a coupon no member used', async () => {
    const unused = await coupon('UNUSED');
    const res = await staffCall(CouponsApi.remove.path, [unused.ID]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data).toEqual({ Count: 1, Message: COUPON_MESSAGES.deleted });
    expect(await exists(unused.ID)).toBe(false);
    expect(await deleteAudits([unused.ID])).toBe(1);
  });

  it('deletes nothing of a selection that holds a coupon in use, and names only the coupons in use', async () => {
    const used = await coupon('MIXED-USED');
    const unused = await coupon('MIXED-FREE');
    await setCoupon((await member()).id, used.Code);
    const refused = await staffCall(CouponsApi.remove.path, [unused.ID, used.ID]);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().MsgText).toBe(inUse(used.Code));
    expect([await exists(used.ID), await exists(unused.ID)]).toEqual([true, true]);
    expect(await deleteAudits([used.ID, unused.ID])).toBe(0);
  });

  it(`names the first ${IN_USE_NAMED} coupons in use in code order and counts the rest`, async () => {
    const many: Coupon[] = [];
    for (let i = 0; i < IN_USE_NAMED + 2; i++) many.push(await coupon(`MANY-${String(i).padStart(2, '0')}`));
    // Memberships given with these codes as billing keeps them (billing_customers.coupon_code, any case).
    for (const c of many) {
      const m = await member();
      await server.database.sql.query(
        `INSERT INTO billing_customers (member_id, customer_profile_id, subscription_type, subscription_status, coupon_code)
         VALUES ($1, $2, 0, 'lifetime', $3)`,
        [m.id, 900_000 + m.id, c.Code.toLowerCase()],
      );
    }
    const refused = await staffCall(
      CouponsApi.remove.path,
      many.map((c) => c.ID),
    );
    expect(refused.statusCode, refused.body).toBe(409);
    const sorted = many.map((c) => c.Code).sort((a, b) => a.localeCompare(b));
    expect(refused.json().MsgText).toBe(inUse(`${sorted.slice(0, IN_USE_NAMED).join(', ')} and 2 more`));
    const es = await staffCall(
      CouponsApi.remove.path,
      many.map((c) => c.ID),
      spanish,
    );
    expect(es.json().MsgText).toContain(`${sorted.slice(0, IN_USE_NAMED).join(', ')} y 2 más.`);
    expect(await deleteAudits(many.map((c) => c.ID))).toBe(0);
  });

  it("counts on the coupon's view the members whose membership it gave (support's setcoupon and the member's own start)", async () => {
    const shared = await coupon('SHARED');
    const unused = await coupon('NOBODY');
    const view = async (c: Coupon) => {
      const res = await staffCall(CouponsApi.get.path.replace(':id', String(c.ID)));
      expect(res.statusCode, res.body).toBe(200);
      return res.json().Data as CouponDetail;
    };
    expect(await view(shared)).toEqual({ ...shared, UsedBy: 0 });
    await setCoupon((await member()).id, shared.Code);
    const own = await member();
    const started = await server.app.inject({
      method: 'POST',
      url: BillingApi.start.path,
      headers: authHeaders(own.session, 'card'),
      remoteAddress: '10.0.2.1',
      payload: { Type: 1, Code: ` ${shared.Code.toLowerCase()} `, IdempotencyKey: 'usage-start-0001' },
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().Data).toMatchObject({ StatusString: 'Ok', SubscriptionType: 0 });
    expect((await view(shared)).UsedBy).toBe(2);
    expect((await view(unused)).UsedBy).toBe(0);
  });

  it('refuses to change the code of a coupon in use (400, nothing saved), lets its case change, and renames one nobody uses', async () => {
    const used = await coupon('RENAME-USED');
    await setCoupon((await member()).id, used.Code);
    const edit = (c: Coupon, Code: string, headers: Record<string, string> = {}) =>
      staffCall(
        CouponsApi.update.path,
        {
          ID: c.ID,
          Version: c.Version,
          Code,
          Product: c.Product,
          MembershipType: c.MembershipType,
          DiscountType: c.DiscountType,
          StartDate: c.StartDate,
          EndDate: c.EndDate,
          Status: c.Status,
        },
        headers,
      );
    const refused = await edit(used, 'RENAMED-ONE');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().MsgText).toBe(COUPON_MESSAGES.codeInUse);
    const es = await edit(used, 'RENAMED-ONE', spanish);
    expect(es.json().MsgText).toBe(
      'Este cupón está en uso por miembros, así que su código no se puede cambiar; no se guardó nada. Agregue un cupón nuevo con el código nuevo.',
    );
    const row = async (id: number) =>
      (await server.database.sql.query<{ code: string; version: number }>('SELECT code, version FROM coupons WHERE id = $1', [id]))[0];
    expect(await row(used.ID)).toEqual({ code: used.Code, version: used.Version });
    // The member's membership still finds its coupon: a change of case only is saved.
    const lower = await edit(used, used.Code.toLowerCase());
    expect(lower.statusCode, lower.body).toBe(200);
    expect((await row(used.ID))?.code).toBe(used.Code.toLowerCase());
    expect((await staffCall(CouponsApi.get.path.replace(':id', String(used.ID)))).json().Data.UsedBy).toBe(1);
    // A coupon no member used takes a new code.
    const free = await coupon('RENAME-FREE');
    const renamed = await edit(free, `${free.Code}-NEW`);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await row(free.ID))?.code).toBe(`${free.Code}-NEW`);
  });

  it("reads only the members with a coupon: the question uses migration 0008's index of lower(coupon_code)", async () => {
    expect(await indexPlan(server.database.sql, MEMBERS_USING_SQL, [['USED-1', 'NOBODY-2']])).toContain('billing_customers_coupon_code_idx');
  });
});
