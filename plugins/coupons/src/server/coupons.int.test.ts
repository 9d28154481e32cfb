import { rawManifests } from '@portal/brands';
import { ALL_ROLES, dayIn, hasAnyRole, MEMBER_ROLES } from '@portal/core';
import { CREATE_KEY_REUSED, type PluginInit } from '@portal/server';
import { lockRaces } from '@portal/testing/races';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUPONS_ACCESS } from '../access';
import {
  COUPON_CHECK_MESSAGES,
  COUPON_CODE_MAX_LENGTH,
  COUPON_MESSAGES,
  type Coupon,
  CouponCheckStatus,
  CouponsApi,
  SEARCH_TEXT_MAX_LENGTH,
} from '../contract';
import couponsPlugin from './index';
import { newCouponStatus } from './queries';
import { seed } from './seed';
import { makeCouponsService } from './service';

/**
 * The business's zone for this file: one where it is another day than in UTC now (14 hours ahead from 11:00 UTC,
 * 12 hours behind before), so a coupon rule that went by the UTC day (the database's current_date) shows.
 */
const businessZone = new Date().getUTCHours() >= 11 ? 'Pacific/Kiritimati' : 'Etc/GMT+12';

/** The coupons API through the whole kernel guard, and the coupon check service billing uses. */
const allowedRole = COUPONS_ACCESS[0];
const refusedRole = ALL_ROLES.find((role) => !hasAnyRole([role], COUPONS_ACCESS));
const otherBrand = Object.values(rawManifests).find((brand) => !brand.plugins.includes('coupons'))?.id;

let server: Awaited<ReturnType<typeof startTestServer>>;
let allowed: Session;
let refused: Session;

function sequence(state: number): () => number {
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

async function userWith(role: string): Promise<Session> {
  const userName = `coupons-${role.toLowerCase()}`;
  await makeUser(server, { userName, roles: [role], brand: 'staff', member: MEMBER_ROLES.some((r) => r === role) });
  return signIn(server, userName);
}

const call = (path: string, body?: unknown, session: Session = allowed, brand = 'staff') =>
  server.app.inject({ method: body === undefined ? 'GET' : 'POST', url: path, headers: authHeaders(session, brand), payload: body as object });
/** The business's day `offset` days from today. */
const day = (offset: number) => dayIn(businessZone, new Date(Date.now() + offset * 86_400_000));
const create = async (over: Record<string, unknown> = {}) => {
  const res = await call(CouponsApi.create.path, {
    Code: `C${Math.random().toString(36).slice(2, 10)}`,
    Product: 'Amethyst',
    MembershipType: 'Lifetime Membership',
    DiscountType: 'Lifetime',
    StartDate: day(-1),
    ...over,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data as Coupon;
};
const statusOf = async (id: number) => (await server.database.sql.query<{ status: string }>('SELECT status FROM coupons WHERE id = $1', [id]))[0]?.status;

beforeAll(async () => {
  if (!allowedRole || !refusedRole) throw new Error('COUPONS_ACCESS must name some roles and leave some out');
  server = await startTestServer({ businessTimeZone: businessZone });
  if (dayIn(businessZone) === dayIn('UTC')) throw new Error(`${businessZone} must be on another day than UTC now`);
  await seed({ sql: server.database.sql, scale: 1, members: [], random: sequence(7), log: () => {} });
  allowed = await userWith(allowedRole);
  refused = await userWith(refusedRole);
});
afterAll(() => server?.close());

describe('coupons API', () => {
  it('answers 401 without sign-in, 403 to other roles, 404 on a brand without coupons', async () => {
    const search = CouponsApi.search.path;
    expect((await server.app.inject({ method: 'POST', url: search, headers: { host: 'staff.localhost' }, payload: {} })).statusCode).toBe(401);
    expect((await call(search, {}, refused)).statusCode).toBe(403);
    if (!otherBrand) throw new Error('every brand enables coupons: drop this case');
    expect((await call(search, {}, allowed, otherBrand)).statusCode).toBe(404);
  });

  it('searches 20 per page by default, newest first, with 10/20/30 only', async () => {
    const res = await call(CouponsApi.search.path, {});
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().Data as { Items: Coupon[]; ItemCount: number };
    const all = await server.database.sql.query<{ id: number }>('SELECT id FROM coupons ORDER BY created_at DESC, id DESC');
    expect(page.ItemCount).toBe(all.length);
    expect(page.Items.map((c) => c.ID)).toEqual(all.slice(0, 20).map((r) => r.id));
    expect((await call(CouponsApi.search.path, { PageSize: 15 })).statusCode).toBe(400);
    const found = (await call(CouponsApi.search.path, { PageSize: 10, Query: { SearchString: 'welcome-ame' } })).json().Data;
    expect(found.Items.map((c: Coupon) => c.Code)).toEqual(['WELCOME-AMETHYST']);
  });

  it('searches the text as sent: longer than a code finds none (never the coupons of its first 40 characters), over 100 is a 400', async () => {
    const c = await create({ Code: `LONG${'X'.repeat(COUPON_CODE_MAX_LENGTH - 4)}` });
    const search = (SearchString: string) => call(CouponsApi.search.path, { Query: { SearchString } });
    const whole = await search(c.Code);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json().Data.Items.map((i: Coupon) => i.ID)).toEqual([c.ID]);
    const longer = await search(`${c.Code}Y`);
    expect(longer.statusCode, longer.body).toBe(200);
    expect(longer.json().Data).toEqual({ Items: [], ItemCount: 0 });
    const tooLong = await search('X'.repeat(SEARCH_TEXT_MAX_LENGTH + 1));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().MsgText).toContain(`must be at most ${SEARCH_TEXT_MAX_LENGTH} characters`);
  });

  it('creates a coupon with its status from the dates, unique code ignoring case, and refuses bad input', async () => {
    const started = await create({ Code: 'SPRING-25' });
    expect(started).toMatchObject({ Code: 'SPRING-25', Status: 'Active', EndDate: null, Version: 1 });
    expect((await create({ StartDate: day(3) })).Status).toBe('Inactive');
    expect((await create({ StartDate: day(-10), EndDate: day(-2) })).Status).toBe('Active');
    expect((await create({ StartDate: day(-10), EndDate: day(20) })).Status).toBe('Inactive');
    const dup = await call(CouponsApi.create.path, {
      Code: 'spring-25',
      Product: 'CareGuard',
      MembershipType: 'Year Membership',
      DiscountType: 'Months',
      StartDate: day(0),
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().MsgText).toBe(COUPON_MESSAGES.duplicateCode);
    const before = (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM coupons'))[0]?.n;
    for (const bad of [
      {},
      { Code: 'x' },
      { Code: 'GOOD-1', Product: 'Nope', MembershipType: 'Year Membership', DiscountType: 'Months', StartDate: day(0) },
      { Code: 'GOOD-2', Product: 'Amethyst', MembershipType: 'Year Membership', DiscountType: 'Months', StartDate: day(5), EndDate: day(1) },
      ['garbage'],
    ]) {
      expect((await call(CouponsApi.create.path, bad)).statusCode).toBe(400);
    }
    expect((await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM coupons'))[0]?.n).toBe(before);
    const audit = await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1 AND entity_id = $2', [
      'coupons.coupon.create',
      String(started.ID),
    ]);
    expect(audit.length).toBe(1);
  });

  it("gives a new coupon its status by the business's day (BUSINESS_TIME_ZONE), not the UTC day", async () => {
    expect(server.config.businessTimeZone).toBe(businessZone);
    // Starting on the business's today it has started (today counts); starting tomorrow it has not, whatever the UTC day.
    expect((await create({ StartDate: day(0) })).Status).toBe('Active');
    expect((await create({ StartDate: day(1) })).Status).toBe('Inactive');
    // The end date is "past" from the business's today on (the spec's wording, see README).
    expect((await create({ StartDate: day(-3), EndDate: day(0) })).Status).toBe('Active');
    expect((await create({ StartDate: day(-3), EndDate: day(1) })).Status).toBe('Inactive');
  });

  it("computes a new coupon's status on the day of the given moment in the given zone", () => {
    // Dec 31 2026, 5:00 pm in Los Angeles is Jan 1 2027, 01:00 in UTC: a coupon starting Jan 1 has not started yet.
    const evening = new Date('2027-01-01T01:00:00Z');
    expect(newCouponStatus('2027-01-01', null, 'America/Los_Angeles', evening)).toBe('Inactive');
    expect(newCouponStatus('2026-12-31', null, 'America/Los_Angeles', evening)).toBe('Active');
    // Midnight in Los Angeles: Jan 1 has come.
    expect(newCouponStatus('2027-01-01', null, 'America/Los_Angeles', new Date('2027-01-01T08:00:00Z'))).toBe('Active');
    expect(newCouponStatus('2027-01-01', null, 'America/Los_Angeles', new Date('2027-01-01T07:59:59Z'))).toBe('Inactive');
    // In Chicago (the default business zone) 5:00 pm Dec 31 in Los Angeles is 7:00 pm, still Dec 31.
    expect(newCouponStatus('2027-01-01', null, 'America/Chicago', evening)).toBe('Inactive');
  });

  it('reads and updates one coupon with a version check', async () => {
    const c = await create();
    const got = await call(CouponsApi.get.path.replace(':id', String(c.ID)));
    // Ours beside the spec's fields: how many members' memberships it gave (none).
    expect(got.json().Data).toEqual({ ...c, UsedBy: 0 });
    expect((await call(CouponsApi.get.path.replace(':id', '99999999'))).statusCode).toBe(404);
    expect((await call(CouponsApi.get.path.replace(':id', 'abc'))).statusCode).toBe(400);
    const save = { ...c, Product: 'CareAssist', Status: 'Inactive' };
    const saved = await call(CouponsApi.update.path, save);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().Data).toMatchObject({ Product: 'CareAssist', Status: 'Inactive', Version: 2 });
    expect((await call(CouponsApi.update.path, save)).statusCode).toBe(409);
  });

  it('activates, deactivates and deletes many in one transaction, all or nothing', async () => {
    const a = await create({ StartDate: day(2) });
    const b = await create({ StartDate: day(2) });
    const res = await call(CouponsApi.activate.path, [a.ID, b.ID]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data).toEqual({ Count: 2, Message: COUPON_MESSAGES.activated });
    expect([await statusOf(a.ID), await statusOf(b.ID)]).toEqual(['Active', 'Active']);
    const partial = await call(CouponsApi.deactivate.path, [a.ID, 99999999]);
    expect(partial.statusCode).toBe(404);
    expect(await statusOf(a.ID)).toBe('Active');
    const empty = await call(CouponsApi.deactivate.path, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().MsgText).toBe(COUPON_MESSAGES.selectCoupons);
    expect((await call(CouponsApi.deactivate.path, [a.ID, b.ID])).json().Data.Count).toBe(2);
    expect([await statusOf(a.ID), await statusOf(b.ID)]).toEqual(['Inactive', 'Inactive']);
    expect((await call(CouponsApi.remove.path, [a.ID, 'x'])).statusCode).toBe(400);
    expect((await call(CouponsApi.remove.path, [a.ID, 99999999])).statusCode).toBe(404);
    expect(await statusOf(a.ID)).toBe('Inactive');
    expect((await call(CouponsApi.remove.path, [a.ID, b.ID])).statusCode).toBe(200);
    expect(await statusOf(a.ID)).toBeUndefined();
    const audit = await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1 AND entity_id = ANY($2)', [
      'coupons.coupon.delete',
      [String(a.ID), String(b.ID)],
    ]);
    expect(audit.length).toBe(2);
  });
});

describe('coupon create with an IdempotencyKey (a retry after a lost answer adds the coupon once)', () => {
  const coupon = (over: Record<string, unknown> = {}) => ({
    Code: 'KEYED-1',
    Product: 'CareGuard',
    MembershipType: 'Year Membership',
    DiscountType: 'Months',
    StartDate: day(-1),
    ...over,
  });
  const withCode = async (code: string) =>
    (await server.database.sql.query<{ id: number }>('SELECT id FROM coupons WHERE lower(code) = lower($1)', [code])).map((r) => r.id);
  const audits = async (id: number) =>
    (
      await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND entity_id = $2', [
        'coupons.coupon.create',
        String(id),
      ])
    )[0]?.n;

  it('adds one coupon for the same key sent twice and answers that coupon both times, audited once', async () => {
    const first = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-1', IdempotencyKey: 'coupon-retry-0001' }));
    expect(first.statusCode, first.body).toBe(200);
    // The same coupon, written another way the contract reads alike (the code with spaces around it).
    const again = await call(CouponsApi.create.path, coupon({ Code: ' KEYED-1 ', IdempotencyKey: 'coupon-retry-0001' }));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.json().MsgText).toBe(COUPON_MESSAGES.created);
    const id = (first.json().Data as Coupon).ID;
    expect(await withCode('KEYED-1')).toEqual([id]);
    expect(await audits(id)).toBe(1);
  });

  it('adds one coupon when the same key arrives twice at once (a double press)', async () => {
    const body = coupon({ Code: 'KEYED-2', IdempotencyKey: 'coupon-double-0001' });
    const [x, y] = await Promise.all([call(CouponsApi.create.path, body), call(CouponsApi.create.path, body)]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(y.json().Data.ID).toBe(x.json().Data.ID);
    expect(await withCode('KEYED-2')).toEqual([x.json().Data.ID]);
  });

  it('refuses the same key with another coupon (409) and adds nothing', async () => {
    const first = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-3', IdempotencyKey: 'coupon-reuse-0001' }));
    expect(first.statusCode, first.body).toBe(200);
    for (const other of [{ Code: 'KEYED-3B' }, { Product: 'Amethyst' }, { EndDate: day(30) }]) {
      const res = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-3', IdempotencyKey: 'coupon-reuse-0001', ...other }));
      expect(res.statusCode, JSON.stringify(other)).toBe(409);
      expect(res.json().MsgText).toBe(CREATE_KEY_REUSED);
    }
    expect(await withCode('KEYED-3')).toEqual([first.json().Data.ID]);
    expect(await withCode('KEYED-3B')).toEqual([]);
    expect((await call(CouponsApi.get.path.replace(':id', String(first.json().Data.ID)))).json().Data.Product).toBe('CareGuard');
  });

  it('without a key creates each time, as before: the same coupon again is a second create, refused for its code', async () => {
    expect((await call(CouponsApi.create.path, coupon({ Code: 'KEYED-4' }))).statusCode).toBe(200);
    expect((await call(CouponsApi.create.path, coupon({ Code: 'KEYED-5', IdempotencyKey: null }))).statusCode).toBe(200);
    expect((await withCode('KEYED-4')).length + (await withCode('KEYED-5')).length).toBe(2);
    const again = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-4' }));
    expect(again.statusCode).toBe(400);
    expect(again.json().MsgText).toBe(COUPON_MESSAGES.duplicateCode);
  });

  it('keeps keys per user: another user’s key of the same text makes their coupon', async () => {
    await makeUser(server, { userName: 'coupons-second-user', roles: [allowedRole as string], brand: 'staff' });
    const second = await signIn(server, 'coupons-second-user');
    const mine = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-6', IdempotencyKey: 'coupon-shared-0001' }));
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-7', IdempotencyKey: 'coupon-shared-0001' }), second);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().Data.ID).not.toBe(mine.json().Data.ID);
  });

  it('claims the key only with its coupon: a refused create leaves the key free for the corrected one', async () => {
    const refused = await call(CouponsApi.create.path, coupon({ Code: 'WELCOME-AMETHYST', IdempotencyKey: 'coupon-refused-0001' }));
    expect(refused.statusCode).toBe(400);
    const ok = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-8', IdempotencyKey: 'coupon-refused-0001' }));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await withCode('KEYED-8')).toEqual([ok.json().Data.ID]);
  });

  it('answers 404 to a retry whose coupon was deleted since, adding none', async () => {
    const made = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-9', IdempotencyKey: 'coupon-gone-0001' }));
    expect((await call(CouponsApi.remove.path, [made.json().Data.ID])).statusCode).toBe(200);
    const again = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-9', IdempotencyKey: 'coupon-gone-0001' }));
    expect(again.statusCode).toBe(404);
    expect(again.json().MsgText).toBe(COUPON_MESSAGES.notFound);
    expect(await withCode('KEYED-9')).toEqual([]);
  });

  it('refuses a key in the wrong format with 400 and adds nothing', async () => {
    for (const bad of ['x', 'short', 'has spaces in it', 'x'.repeat(101), 12345678]) {
      const res = await call(CouponsApi.create.path, coupon({ Code: 'KEYED-10', IdempotencyKey: bad }));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().MsgText).toMatch(/^body\.IdempotencyKey: must be/);
    }
    expect(await withCode('KEYED-10')).toEqual([]);
  });
});

describe('coupon bulk actions with the versions the list showed', () => {
  const versionOf = async (id: number) => (await server.database.sql.query<{ version: number }>('SELECT version FROM coupons WHERE id = $1', [id]))[0]?.version;

  it('refuses the whole action when one coupon was changed since the caller saw it, and changes nothing', async () => {
    const a = await create({ StartDate: day(2) });
    const b = await create({ StartDate: day(2) });
    // Someone else saves b meanwhile: its Version moves from 1 to 2.
    expect((await call(CouponsApi.update.path, { ...b, Status: 'Active' })).statusCode).toBe(200);
    const refused = await call(CouponsApi.deactivate.path, [
      { ID: a.ID, Version: a.Version },
      { ID: b.ID, Version: b.Version },
    ]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().MsgText).toBe(COUPON_MESSAGES.someStale);
    expect([await statusOf(a.ID), await statusOf(b.ID)]).toEqual(['Inactive', 'Active']);
    expect([await versionOf(a.ID), await versionOf(b.ID)]).toEqual([1, 2]);
    const deleted = await call(CouponsApi.remove.path, [{ ID: b.ID, Version: 1 }]);
    expect(deleted.statusCode).toBe(409);
    expect(await statusOf(b.ID)).toBe('Active');
    const audit = await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = ANY($1) AND entity_id = ANY($2)', [
      ['coupons.coupon.deactivate', 'coupons.coupon.delete'],
      [String(a.ID), String(b.ID)],
    ]);
    expect(audit.length).toBe(0);
  });

  it("goes through at the current versions, raises each by one, and takes plain ids beside them (the spec's id list)", async () => {
    const a = await create({ StartDate: day(2) });
    const b = await create({ StartDate: day(2) });
    const res = await call(CouponsApi.activate.path, [{ ID: a.ID, Version: 1 }, b.ID, { ID: a.ID, Version: 1 }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data).toEqual({ Count: 2, Message: COUPON_MESSAGES.activated });
    expect([await versionOf(a.ID), await versionOf(b.ID)]).toEqual([2, 2]);
    // The same id named twice at two versions cannot be right for both.
    expect(
      (
        await call(CouponsApi.deactivate.path, [
          { ID: a.ID, Version: 2 },
          { ID: a.ID, Version: 1 },
        ])
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await call(CouponsApi.remove.path, [
          { ID: a.ID, Version: 2 },
          { ID: b.ID, Version: 2 },
        ])
      ).statusCode,
    ).toBe(200);
    expect([await statusOf(a.ID), await statusOf(b.ID)]).toEqual([undefined, undefined]);
  });

  it('answers 400 for a reference that is neither an id nor an ID with a Version', async () => {
    const a = await create({ StartDate: day(2) });
    for (const bad of [[{ ID: a.ID }], [{ ID: a.ID, Version: 'x' }], [{ Version: 1 }], [{ ID: a.ID, Version: 0 }]]) {
      const res = await call(CouponsApi.activate.path, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await statusOf(a.ID)).toBe('Inactive');
  });
});

describe("coupons API in the user's language", () => {
  const spanish = (path: string, body?: unknown) =>
    server.app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url: path,
      headers: authHeaders(allowed, 'staff', { cookie: 'cq.lang=es' }),
      payload: body as object,
    });

  it('words errors, the saved toast and the bulk result in Spanish for a Spanish user', async () => {
    const missing = await spanish(CouponsApi.get.path.replace(':id', '99999999'));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().MsgText).toBe('No se encontró el cupón.');
    const body = { Code: 'ESPANOL-1', Product: 'Amethyst', MembershipType: 'Lifetime Membership', DiscountType: 'Lifetime', StartDate: day(-1) };
    const created = await spanish(CouponsApi.create.path, body);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().MsgText).toBe('El cupón se ha creado.');
    const dup = await spanish(CouponsApi.create.path, { ...body, Code: 'espanol-1' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().MsgText).toBe('Ya existe un cupón con este código.');
    const id = (created.json().Data as Coupon).ID;
    const activated = await spanish(CouponsApi.activate.path, [id]);
    expect(activated.json()).toMatchObject({
      Data: { Count: 1, Message: 'Los cupones seleccionados se han activado.' },
      MsgText: 'Los cupones seleccionados se han activado.',
    });
    const partial = await spanish(CouponsApi.deactivate.path, [id, 99999999]);
    expect(partial.statusCode).toBe(404);
    expect(partial.json().MsgText).toBe('Algunos de los cupones seleccionados ya no existen; no se cambió nada.');
    // The same call without the choice stays in the spec's English.
    expect((await call(CouponsApi.deactivate.path, [id])).json().Data).toEqual({ Count: 1, Message: COUPON_MESSAGES.deactivated });
  });
});

describe('coupon check service', () => {
  const service = () => makeCouponsService(server.database.sql, server.config.businessTimeZone);
  it('answers Status 0 and lifetime for a valid coupon of the brand, in any case', async () => {
    const r = await service().check('welcome-amethyst', { brand: 'card' });
    expect(r).toMatchObject({ Status: CouponCheckStatus.Valid, IsLifetime: true, IsVendorLifetime: true, Message: COUPON_CHECK_MESSAGES.valid });
  });
  it('refuses unknown, inactive, expired, not started and other-product coupons', async () => {
    const s = service();
    expect((await s.check('NO-SUCH', { brand: 'card' })).Status).toBe(CouponCheckStatus.NotFound);
    expect((await s.check('PAUSED-CARE', { brand: 'card' })).Status).toBe(CouponCheckStatus.Inactive);
    const expired = await s.check('EXPIRED-2020', { brand: 'card' });
    expect(expired).toMatchObject({ Status: CouponCheckStatus.Expired, IsLifetime: false, Message: COUPON_CHECK_MESSAGES.expired });
    const future = await create({ StartDate: day(5) });
    await call(CouponsApi.activate.path, [future.ID]);
    expect((await s.check(future.Code, { brand: 'card' })).Status).toBe(CouponCheckStatus.NotStarted);
    expect((await s.check('WELCOME-AMETHYST', { brand: 'assist' })).Status).toBe(CouponCheckStatus.OtherProduct);
    expect((await s.check('WELCOME-AMETHYST', { brand: 'staff' })).Status).toBe(CouponCheckStatus.Valid);
  });

  it("holds a coupon for a writer's transaction (holdForUse): the same answers as the check, from the row read FOR SHARE", async () => {
    const s = service();
    const held = (code: string, brand: string | null = 'card') => server.database.sql.transaction((tx) => s.holdForUse(code, tx, { brand }));
    // Any case, spaces around it, as the check matches it.
    for (const code of ['welcome-amethyst', ' WELCOME-AMETHYST ']) {
      expect(await held(code)).toEqual(await s.check(code, { brand: 'card' }));
    }
    expect(await held('welcome-amethyst')).toMatchObject({ Status: CouponCheckStatus.Valid, IsLifetime: true, Message: COUPON_CHECK_MESSAGES.valid });
    expect(await held('NO-SUCH')).toEqual({
      Status: CouponCheckStatus.NotFound,
      IsLifetime: false,
      IsVendorLifetime: false,
      Message: COUPON_CHECK_MESSAGES.notFound,
      CouponId: null,
    });
    expect(await held('')).toMatchObject({ Status: CouponCheckStatus.NotFound });
    expect(await held('PAUSED-CARE')).toMatchObject({ Status: CouponCheckStatus.Inactive, Message: COUPON_CHECK_MESSAGES.inactive });
    expect(await held('EXPIRED-2020')).toMatchObject({ Status: CouponCheckStatus.Expired, Message: COUPON_CHECK_MESSAGES.expired });
    expect(await held('WELCOME-AMETHYST', 'assist')).toMatchObject({ Status: CouponCheckStatus.OtherProduct, Message: COUPON_CHECK_MESSAGES.otherProduct });
    const future = await create({ StartDate: day(5) });
    await call(CouponsApi.activate.path, [future.ID]);
    expect(await held(future.Code)).toMatchObject({ Status: CouponCheckStatus.NotStarted, CouponId: future.ID });
    // A coupon deactivated, then deleted, since a check said valid: the hold answers what the row says now.
    const c = await create();
    expect(await held(c.Code)).toMatchObject({ Status: CouponCheckStatus.Valid, CouponId: c.ID });
    await call(CouponsApi.deactivate.path, [c.ID]);
    expect(await held(c.Code)).toMatchObject({ Status: CouponCheckStatus.Inactive, CouponId: c.ID });
    expect((await call(CouponsApi.remove.path, [c.ID])).statusCode).toBe(200);
    expect(await held(c.Code)).toMatchObject({ Status: CouponCheckStatus.NotFound, Message: COUPON_CHECK_MESSAGES.notFound, CouponId: null });
  });

  const addCoupon = async (code: string, start: string, end: string | null) => {
    await server.database.sql.query(
      `INSERT INTO coupons (code, product, membership_type, discount_type, start_date, end_date, status)
       VALUES ($1, 'Amethyst', 'Lifetime Membership', 'Lifetime', $2::date, $3::date, 'Active')`,
      [code, start, end],
    );
  };

  it("starts and ends a coupon on the business's day: its last day lasts to midnight there", async () => {
    await addCoupon('DEC-2026-LA', '2026-12-01', '2026-12-31');
    await addCoupon('JAN-2027-LA', '2027-01-01', null);
    const la = makeCouponsService(server.database.sql, 'America/Los_Angeles');
    const check = (code: string, at: string) => la.check(code, { brand: 'card', at: new Date(at) });
    // Dec 31 2026, 5:00 pm in Los Angeles (Jan 1, 01:00 UTC): the December coupon still holds, January's has not started.
    expect(await check('DEC-2026-LA', '2027-01-01T01:00:00Z')).toMatchObject({ Status: CouponCheckStatus.Valid, IsLifetime: true });
    expect(await check('JAN-2027-LA', '2027-01-01T01:00:00Z')).toMatchObject({
      Status: CouponCheckStatus.NotStarted,
      IsLifetime: false,
      Message: COUPON_CHECK_MESSAGES.notStarted,
    });
    // The last second of Dec 31 there, then midnight.
    expect((await check('DEC-2026-LA', '2027-01-01T07:59:59Z')).Status).toBe(CouponCheckStatus.Valid);
    expect((await check('JAN-2027-LA', '2027-01-01T07:59:59Z')).Status).toBe(CouponCheckStatus.NotStarted);
    expect(await check('DEC-2026-LA', '2027-01-01T08:00:00Z')).toMatchObject({ Status: CouponCheckStatus.Expired, Message: COUPON_CHECK_MESSAGES.expired });
    expect((await check('JAN-2027-LA', '2027-01-01T08:00:00Z')).Status).toBe(CouponCheckStatus.Valid);
  });

  it("the plugin's service (the one billing uses) goes by BUSINESS_TIME_ZONE, not the UTC day", async () => {
    const provided = couponsPlugin.provides?.create({ database: server.database, config: server.config } as PluginInit);
    if (!provided) throw new Error('the coupons plugin provides its check service');
    await addCoupon('BIZ-STARTS-TODAY', day(0), null);
    await addCoupon('BIZ-STARTS-TOMORROW', day(1), null);
    await addCoupon('BIZ-ENDS-TODAY', day(-5), day(0));
    await addCoupon('BIZ-ENDED-YESTERDAY', day(-5), day(-1));
    const status = async (code: string) => (await provided.check(code, { brand: 'card' })).Status;
    expect(await status('BIZ-STARTS-TODAY')).toBe(CouponCheckStatus.Valid);
    expect(await status('BIZ-STARTS-TOMORROW')).toBe(CouponCheckStatus.NotStarted);
    expect(await status('BIZ-ENDS-TODAY')).toBe(CouponCheckStatus.Valid);
    expect(await status('BIZ-ENDED-YESTERDAY')).toBe(CouponCheckStatus.Expired);
  });
});

/**
 * The hold a writer of a code takes (holdForUse) made visible on PostgreSQL: while the writer's transaction is open, a
 * delete and a deactivation of the coupon wait for it (PGlite is one connection: a transaction runs alone, so nothing
 * can wait there). Billing's coupon-hold.int.test.ts shows the delete then finding the member using the coupon.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a coupon held for a writer (PostgreSQL)', () => {
  const races = lockRaces(() => server.database.sql);
  const BULK_LOCK = '%FROM coupons WHERE id = ANY($1::int[]) FOR UPDATE';

  /** Holds the coupon in a writer's transaction (holdForUse), runs `action` meanwhile, then ends it (`commit` or not). */
  const whileHeld = (c: Coupon, action: () => ReturnType<typeof call>, commit: boolean) =>
    races.whileHeld(
      async (tx) => {
        const s = makeCouponsService(server.database.sql, server.config.businessTimeZone);
        expect(await s.holdForUse(c.Code.toLowerCase(), tx, { brand: 'card' })).toMatchObject({ Status: CouponCheckStatus.Valid, CouponId: c.ID });
      },
      [],
      action,
      BULK_LOCK,
      { rollback: !commit },
    );

  it('keeps a delete waiting until the writer ends; a writer that wrote nothing (rolled back) then lets it through', async () => {
    const c = await create();
    const { waited, answer } = await whileHeld(c, () => call(CouponsApi.remove.path, [c.ID]), false);
    expect(waited).toBe(true);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await statusOf(c.ID)).toBeUndefined();
  });

  it('keeps a deactivation waiting until the writer commits, then it goes through', async () => {
    const c = await create();
    const { waited, answer } = await whileHeld(c, () => call(CouponsApi.deactivate.path, [c.ID]), true);
    expect(waited).toBe(true);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await statusOf(c.ID)).toBe('Inactive');
  });
});
