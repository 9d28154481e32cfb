import { buildPath, KernelApi } from '@portal/core';
import { codeIn, latestSmsTo, smsTo } from '@portal/sandbox';
import { CREATE_KEY_REUSED } from '@portal/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_MAX_ATTEMPTS, type Member, ProfileApi, ProfileMessages } from '../contract';
import { CODE_PRUNE_CRON, CODE_PRUNE_JOB, pruneCodes } from './codes';
import { SMS_SEND_JOB } from './handlers/messaging';
import { type ProfileTestEnv, startProfileTestEnv, type TestUser, userOf } from './test-support';
import { PROFILE_THROTTLE } from './throttle';

let env: ProfileTestEnv;
let guard: TestUser; // CareGuard member on the card site
let other: TestUser; // another CareGuard member
let finance: TestUser; // CareGuardFinance member
let support: TestUser; // CareSupport staff, no member record
let quote: TestUser; // CareQuote: outside every profile gate

beforeAll(async () => {
  env = await startProfileTestEnv();
  guard = await userOf(env, 'CareGuard', 'card');
  other = await userOf(env, 'CareGuard', 'card');
  finance = await userOf(env, 'CareGuardFinance', 'finance');
  support = await userOf(env, 'CareSupport', 'staff', false);
  quote = await userOf(env, 'CareQuote', 'finance');
});
afterAll(() => env?.close());

const sql = () => env.server.database.sql;
type Json = Record<string, unknown>;

function call(method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) {
  return env.server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}
const get = (url: string, u: TestUser, extra: Record<string, string> = {}) => call('GET', url, u.headers(extra));
const post = (url: string, u: TestUser, body?: unknown, extra: Record<string, string> = {}) => call('POST', url, u.headers(extra), body ?? {});

async function load(u: TestUser): Promise<Member> {
  const res = await get(ProfileApi.loadOwn.path, u);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data as Member;
}
/** A valid save body from the stored record, with changes. */
function saveBody(m: Member, change: Json = {}): Json {
  return {
    MemberID: m.MemberID,
    Version: m.Version,
    FirstName: m.FirstName,
    LastName: m.LastName,
    Email: m.Email ?? 'someone@example.com',
    DateOfBirth: m.DateOfBirth,
    Gender: m.Gender,
    HomePhone: m.HomePhone,
    WorkPhone: m.WorkPhone,
    MobilePhone: m.MobilePhone,
    PreferredContactNumber: m.PreferredContactNumber,
    PBMVendor: m.PBMVendor,
    ...change,
  };
}
async function auditCount(action: string, memberId: number | null) {
  return (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND member_id = $2', [action, memberId]))[0]?.n ?? 0;
}
/** Sets a member's mobile through the API (a valid, mobile test number) and returns the saved record. */
async function withMobile(u: TestUser, mobile: string): Promise<Member> {
  const m = await load(u);
  if (m.MobilePhone === mobile) return m;
  const res = await post(ProfileApi.save.path, u, saveBody(m, { MobilePhone: mobile }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data as Member;
}

describe('guard and scoping', () => {
  it('answers 401 without a sign-in, 403 to a role outside the gate, 404 on a brand without the plugin', async () => {
    expect((await call('GET', ProfileApi.loadOwn.path, { host: 'card.localhost' })).statusCode).toBe(401);
    expect((await get(ProfileApi.loadOwn.path, quote)).statusCode).toBe(403);
    expect((await call('GET', ProfileApi.loadOwn.path, { ...guard.headers(), host: 'quote.localhost' })).statusCode).toBe(404);
    expect((await post(ProfileApi.terminate.path, finance)).statusCode).toBe(403);
    expect((await post(ProfileApi.list.path, guard, {})).statusCode).toBe(403);
  });

  it('loads the own record in the spec wire names and audits the read', async () => {
    const before = await auditCount('profile.member.read', guard.memberId);
    const m = await load(guard);
    expect(m.MemberID).toBe(guard.memberId);
    expect(Object.keys(m).sort()).toEqual(
      [
        'ApprovedDate',
        'DOBStr',
        'DateOfBirth',
        'Email',
        'FirstName',
        'Gender',
        'HomePhone',
        'IsMSA',
        'IsMobileRequired',
        'IsPhoneValidated',
        'LastName',
        'MemberID',
        'MemberNumber',
        'MobilePhone',
        'PBMVendor',
        'PreferredContactNumber',
        'TerminatedBy',
        'TerminationDate',
        'Version',
        'WorkPhone',
      ].sort(),
    );
    expect(await auditCount('profile.member.read', guard.memberId)).toBe(before + 1);
  });

  it("answers 404 to a member asking for another member's record, and lets support read it", async () => {
    const url = buildPath(ProfileApi.load.path, { id: String(other.memberId) });
    expect((await get(url, guard)).statusCode).toBe(404);
    expect((await get(buildPath(ProfileApi.load.path, { id: String(guard.memberId) }), guard)).statusCode).toBe(200);
    const bySupport = await get(url, support);
    expect(bySupport.statusCode, bySupport.body).toBe(200);
    expect(bySupport.json().Data.MemberID).toBe(other.memberId);
    expect((await get(buildPath(ProfileApi.load.path, { id: 'abc' }), guard)).statusCode).toBe(400);
  });

  it('gives staff no own profile, and the member profile while impersonating', async () => {
    expect((await get(ProfileApi.loadOwn.path, support)).statusCode).toBe(404);
    const res = await get(ProfileApi.loadOwn.path, support, { 'x-member-id': String(finance.memberId) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data.MemberID).toBe(finance.memberId);
  });

  it("refuses a save of another member's record with 404 and changes nothing", async () => {
    const theirs = (await get(buildPath(ProfileApi.load.path, { id: String(other.memberId) }), support)).json().Data as Member;
    const res = await post(ProfileApi.save.path, guard, saveBody(theirs, { FirstName: 'Hijacked' }));
    expect(res.statusCode).toBe(404);
    expect((await load(other)).FirstName).toBe(theirs.FirstName);
    expect((await load(other)).Version).toBe(theirs.Version);
  });

  it('answers 400, not 5xx, to empty and garbage bodies', async () => {
    for (const path of [
      ProfileApi.save.path,
      ProfileApi.registrationSave.path,
      ProfileApi.createAddress.path,
      ProfileApi.updateAddress.path,
      ProfileApi.requestCode.path,
      ProfileApi.verifyCode.path,
    ]) {
      expect((await post(path, guard, {})).statusCode, path).toBe(400);
      expect((await post(path, guard, [1, 2])).statusCode, path).toBe(400);
    }
  });
});

describe('POST /api/members/save', () => {
  it('refuses a Version beyond the database integer with 400, and changes nothing', async () => {
    const m = await load(guard);
    const res = await post(ProfileApi.save.path, guard, { ...saveBody(m, { FirstName: 'Overflow' }), Version: 2_147_483_648 });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().MsgText).toContain('Version');
    expect(await load(guard)).toEqual(m);
  });

  it('saves, moves the Version on, audits in the same commit and answers the saved record', async () => {
    const m = await load(guard);
    const before = await auditCount('profile.member.update', guard.memberId);
    const res = await post(
      ProfileApi.save.path,
      guard,
      saveBody(m, { FirstName: 'Grace', LastName: 'Hopper', DateOfBirth: '1980-02-29', PBMVendor: 'Caremark', Gender: 'F' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().MsgText).toBe(ProfileMessages.saved);
    const saved = res.json().Data as Member;
    expect(saved).toMatchObject({
      FirstName: 'Grace',
      LastName: 'Hopper',
      DateOfBirth: '1980-02-29',
      DOBStr: '02/29/1980',
      PBMVendor: 'Caremark',
      Gender: 'F',
    });
    expect(saved.Version).toBe(m.Version + 1);
    expect(await load(guard)).toEqual(saved);
    expect(await auditCount('profile.member.update', guard.memberId)).toBe(before + 1);
  });

  it('refuses a stale Version with 409 and the message, and changes nothing', async () => {
    const m = await load(guard);
    expect((await post(ProfileApi.save.path, guard, saveBody(m, { FirstName: 'First' }))).statusCode).toBe(200);
    const stale = await post(ProfileApi.save.path, guard, saveBody(m, { FirstName: 'Second' }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().MsgText).toBe('Someone else changed this profile; reload to see their change.');
    expect((await load(guard)).FirstName).toBe('First');
  });

  it('lets exactly one of two concurrent saves on one Version win', async () => {
    const m = await load(guard);
    const [a, b] = await Promise.all([
      post(ProfileApi.save.path, guard, saveBody(m, { LastName: 'Alpha' })),
      post(ProfileApi.save.path, guard, saveBody(m, { LastName: 'Bravo' })),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const winner = (a.statusCode === 200 ? a : b).json().Data as Member;
    const stored = await load(guard);
    expect(stored.LastName).toBe(winner.LastName);
    expect(stored.Version).toBe(m.Version + 1);
  });

  it('forces Mobile as the preferred contact of a CareGuard member and always requires the mobile', async () => {
    const m = await load(guard);
    const res = await post(ProfileApi.save.path, guard, saveBody(m, { PreferredContactNumber: 'Home', HomePhone: '3125550142' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data.PreferredContactNumber).toBe('Mobile');
    const m2 = await load(guard);
    const noMobile = await post(ProfileApi.save.path, guard, saveBody(m2, { MobilePhone: '', PreferredContactNumber: 'Home' }));
    expect(noMobile.statusCode).toBe(400);
    expect(noMobile.json().MsgText).toBe(ProfileMessages.mobileRequired);
  });

  it("answers IsMobileRequired from the member's own roles, the same to the member and to support reading or acting for them", async () => {
    const cg = await userOf(env, 'CareGuard', 'card');
    const assist = await userOf(env, 'CareAssist', 'assist');
    const fin = await userOf(env, 'CareGuardFinance', 'finance'); // a brand without the rule
    const byId = (u: TestUser, id: number | null) => get(buildPath(ProfileApi.load.path, { id: String(id) }), u);
    for (const [member, required] of [
      [cg, true],
      [assist, true],
      [fin, false],
    ] as const) {
      expect((await load(member)).IsMobileRequired, `${member.brand} own`).toBe(required);
      const bySupport = await byId(support, member.memberId);
      expect(bySupport.statusCode, bySupport.body).toBe(200);
      expect(bySupport.json().Data.IsMobileRequired, `${member.brand} by support`).toBe(required);
      const acting = await get(ProfileApi.loadOwn.path, support, { 'x-member-id': String(member.memberId) });
      expect(acting.statusCode, acting.body).toBe(200);
      expect(acting.json().Data.IsMobileRequired, `${member.brand} impersonated`).toBe(required);
    }
    // The flag is the rule the save applies: support saving the CareGuard member by id gets Mobile forced and the
    // mobile required; the CareGuardFinance member keeps Home. Every member answer carries the flag.
    const g = (await byId(support, cg.memberId)).json().Data as Member;
    const noMobile = await post(ProfileApi.save.path, support, saveBody(g, { MobilePhone: null, PreferredContactNumber: 'Home', HomePhone: '3125550142' }));
    expect(noMobile.statusCode).toBe(400);
    expect(noMobile.json().MsgText).toBe(ProfileMessages.mobileRequired);
    const forced = await post(ProfileApi.save.path, support, saveBody(g, { PreferredContactNumber: 'Home', HomePhone: '3125550142' }));
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json().Data).toMatchObject({ PreferredContactNumber: 'Mobile', IsMobileRequired: true });
    const f = (await byId(support, fin.memberId)).json().Data as Member;
    const free = await post(ProfileApi.save.path, support, saveBody(f, { PreferredContactNumber: 'Home', HomePhone: '3125550142' }));
    expect(free.statusCode, free.body).toBe(200);
    expect(free.json().Data).toMatchObject({ PreferredContactNumber: 'Home', IsMobileRequired: false });
    const validated = await post(`${ProfileApi.phoneValidate.path}?validated=false`, cg);
    expect(validated.json().Data.IsMobileRequired).toBe(true);
  });

  it('requires the preferred Home or Work number, and the mobile when it is preferred (other members)', async () => {
    const m = await load(finance);
    const home = await post(ProfileApi.save.path, finance, saveBody(m, { PreferredContactNumber: 'Home', HomePhone: null }));
    expect(home.json().MsgText).toBe(ProfileMessages.homeRequired);
    const work = await post(ProfileApi.save.path, finance, saveBody(m, { PreferredContactNumber: 'Work', WorkPhone: '' }));
    expect(work.json().MsgText).toBe(ProfileMessages.workRequired);
    // Only staff acting for a CareGuardFinance member may clear the mobile (the member may not change phones).
    const mobile = await post(ProfileApi.save.path, support, saveBody(m, { PreferredContactNumber: 'Mobile', MobilePhone: null }), {
      'x-member-id': String(finance.memberId),
    });
    expect(mobile.json().MsgText).toBe(ProfileMessages.mobileRequired);
    expect([home.statusCode, work.statusCode, mobile.statusCode]).toEqual([400, 400, 400]);
    expect((await load(finance)).Version).toBe(m.Version);
  });

  it('keeps phone numbers to CareGuard and CareAssist members (and staff acting for a member)', async () => {
    const m = await load(finance);
    const res = await post(ProfileApi.save.path, finance, saveBody(m, { HomePhone: '3125550142' }));
    expect(res.statusCode).toBe(403);
    expect(res.json().MsgText).toBe(ProfileMessages.phoneEditRefused);
    const name = await post(ProfileApi.save.path, finance, saveBody(m, { FirstName: 'Fran' }));
    expect(name.statusCode, name.body).toBe(200);
    const m2 = name.json().Data as Member;
    const bySupport = await post(ProfileApi.save.path, support, saveBody(m2, { HomePhone: '3125550142', PreferredContactNumber: 'Home' }), {
      'x-member-id': String(finance.memberId),
    });
    expect(bySupport.statusCode, bySupport.body).toBe(200);
    expect(bySupport.json().Data).toMatchObject({ HomePhone: '3125550142', PreferredContactNumber: 'Home' });
  });

  it('refuses bad phones, dates of birth and e-mail addresses with 400 naming the field', async () => {
    const m = await load(guard);
    const cases: [Json, string][] = [
      [{ MobilePhone: '0125550101' }, 'MobilePhone'],
      [{ MobilePhone: '212555010' }, 'MobilePhone'],
      [{ HomePhone: '21255501011' }, 'HomePhone'],
      [{ DateOfBirth: '1899-12-31' }, 'DateOfBirth'],
      [{ DateOfBirth: '2999-01-01' }, 'DateOfBirth'],
      [{ DateOfBirth: '2001-02-30' }, 'DateOfBirth'],
      [{ Email: 'not-an-address' }, 'Email'],
      [{ Email: 'a@b' }, 'Email'],
      [{ PreferredContactNumber: 'Fax' }, 'PreferredContactNumber'],
      [{ PBMVendor: 'Acme' }, 'PBMVendor'],
      [{ MemberID: -1 }, 'MemberID'],
    ];
    for (const [change, field] of cases) {
      const res = await post(ProfileApi.save.path, guard, saveBody(m, change));
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().MsgText).toContain(field);
    }
    expect((await load(guard)).Version).toBe(m.Version);
  });

  it('checks a changed number with the carrier lookup (+1 and the number) and refuses one it does not know', async () => {
    const m = await load(guard);
    const res = await post(ProfileApi.save.path, guard, saveBody(m, { MobilePhone: '2125550000' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe(String(ProfileMessages.phoneInvalid('2125550000')));
    const landline = await post(ProfileApi.save.path, guard, saveBody(m, { WorkPhone: '2125559901' }));
    expect(landline.statusCode, landline.body).toBe(200);
  });

  it('marks the phone unverified when the mobile changes', async () => {
    const m = await withMobile(guard, '2125550111');
    await sql().query('UPDATE members SET is_phone_validated = true WHERE member_id = $1', [guard.memberId]);
    const current = await load(guard);
    expect(current.IsPhoneValidated).toBe(true);
    const same = await post(ProfileApi.save.path, guard, saveBody(current, { FirstName: 'Same phone' }));
    expect(same.json().Data.IsPhoneValidated).toBe(true);
    const changed = await post(ProfileApi.save.path, guard, saveBody(same.json().Data, { MobilePhone: '2125550112' }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().Data.IsPhoneValidated).toBe(false);
    expect(m.MemberID).toBe(guard.memberId);
  });
});

describe('POST /api/members/registration-save', () => {
  it('saves the profile and the current address together, updating that address on a second save', async () => {
    const user = await userOf(env, 'CareAssist', 'assist');
    const m = await load(user);
    const body = { ...saveBody(m, { MobilePhone: '4155550123' }), Address1: '1 Main St', City: 'Austin', State: 'TX', Zip: '78701' };
    const first = await post(ProfileApi.registrationSave.path, user, body);
    expect(first.statusCode, first.body).toBe(200);
    const { Member: saved, Address: address } = first.json().Data;
    expect(saved.IsMobileRequired).toBe(true);
    expect(address).toMatchObject({ Address1: '1 Main St', IsCurrent: true, AddressTypeID: 4, MemberID: user.memberId });
    const second = await post(ProfileApi.registrationSave.path, user, { ...body, Version: saved.Version, Address1: '2 Main St' });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().Data.Address.AddressID).toBe(address.AddressID);
    const list = (await get(ProfileApi.loadAddresses.path, user)).json().Data;
    expect(list).toHaveLength(1);
    expect(list[0].Address1).toBe('2 Main St');
    const missing = await post(ProfileApi.registrationSave.path, user, { ...body, Version: second.json().Data.Member.Version, City: '' });
    expect(missing.statusCode).toBe(400);
  });

  it('refuses (409) to overwrite a current address changed or added since the form showed it, and changes nothing', async () => {
    const user = await userOf(env, 'CareAssist', 'assist');
    const m = await load(user);
    const body = { ...saveBody(m, { MobilePhone: '4155550123' }), Address1: '1 Main St', City: 'Austin', State: 'TX', Zip: '78701' };
    // The form showed no address, and one was added since.
    const added = await post(ProfileApi.createAddress.path, user, { MemberID: user.memberId, Address1: '9 Staff Rd', City: 'Waco', State: 'TX', Zip: '76701' });
    expect(added.statusCode, added.body).toBe(200);
    const overNew = await post(ProfileApi.registrationSave.path, user, { ...body, AddressVersion: null });
    expect(overNew.statusCode).toBe(409);
    expect(overNew.json().MsgText).toBe(ProfileMessages.addressStale);
    // The form showed that address, and it was changed since.
    const seen = added.json().Data as { AddressID: number; Version: number };
    const changed = await post(ProfileApi.updateAddress.path, user, {
      MemberID: user.memberId,
      AddressID: seen.AddressID,
      Version: seen.Version,
      Address1: '10 Staff Rd',
      City: 'Waco',
      State: 'TX',
      Zip: '76701',
      IsCurrent: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const stale = await post(ProfileApi.registrationSave.path, user, { ...body, AddressVersion: seen.Version });
    expect(stale.statusCode).toBe(409);
    const list = (await get(ProfileApi.loadAddresses.path, user)).json().Data as { Address1: string }[];
    expect(list.map((a) => a.Address1)).toEqual(['10 Staff Rd']);
    expect((await load(user)).Version).toBe(m.Version);
    // The Version it has now saves.
    const fresh = await post(ProfileApi.registrationSave.path, user, { ...body, AddressVersion: changed.json().Data.Version });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().Data.Address).toMatchObject({ AddressID: seen.AddressID, Address1: '1 Main St' });
  });
});

describe('addresses', () => {
  const address = (u: TestUser, change: Json = {}) => ({ MemberID: u.memberId, Address1: '10 Elm St', City: 'Denver', State: 'CO', Zip: '80202', ...change });

  it('creates addresses with one current address per member, defaulting the type to 4, and audits', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const a = await post(ProfileApi.createAddress.path, u, address(u));
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json().Data).toMatchObject({ IsCurrent: true, AddressTypeID: 4, IsSelected: false });
    const b = await post(ProfileApi.createAddress.path, u, address(u, { Address1: '20 Oak St', AddressTypeID: 3 }));
    expect(b.json().Data).toMatchObject({ IsCurrent: false, AddressTypeID: 3 });
    const c = await post(ProfileApi.createAddress.path, u, address(u, { Address1: '30 Pine Rd', IsCurrent: true }));
    expect(c.json().Data.IsCurrent).toBe(true);
    const list = (await get(ProfileApi.loadAddresses.path, u)).json().Data as { Address1: string; IsCurrent: boolean }[];
    expect(list.filter((x) => x.IsCurrent).map((x) => x.Address1)).toEqual(['30 Pine Rd']);
    expect(await auditCount('profile.address.create', u.memberId)).toBe(3);
    expect(await auditCount('profile.address.read', u.memberId)).toBe(1);
  });

  it('keeps one current address when two are made current at once', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const results = await Promise.all([1, 2, 3].map((i) => post(ProfileApi.createAddress.path, u, address(u, { Address1: `${i} Race St`, IsCurrent: true }))));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const rows = await sql().query('SELECT 1 FROM profile_addresses WHERE member_id = $1 AND is_current', [u.memberId]);
    expect(rows).toHaveLength(1);
  });

  it('updates with a Version check, refuses another member’s address with 404, and validates', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const created = (await post(ProfileApi.createAddress.path, u, address(u))).json().Data;
    const upd = await post(ProfileApi.updateAddress.path, u, {
      ...address(u, { City: 'Boulder' }),
      AddressID: created.AddressID,
      Version: created.Version,
      IsCurrent: true,
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().Data).toMatchObject({ City: 'Boulder', Version: created.Version + 1 });
    const stale = await post(ProfileApi.updateAddress.path, u, {
      ...address(u, { City: 'Aspen' }),
      AddressID: created.AddressID,
      Version: created.Version,
      IsCurrent: true,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().MsgText).toBe(ProfileMessages.addressStale);
    const foreign = await post(ProfileApi.updateAddress.path, guard, {
      ...address(guard, { City: 'Nope' }),
      AddressID: created.AddressID,
      Version: created.Version + 1,
    });
    expect(foreign.statusCode).toBe(404);
    const foreignMember = await post(ProfileApi.createAddress.path, guard, address(u));
    expect(foreignMember.statusCode).toBe(404);
    expect((await post(ProfileApi.createAddress.path, u, address(u, { State: 'XX' }))).statusCode).toBe(400);
    expect((await post(ProfileApi.createAddress.path, u, address(u, { Zip: '1234' }))).statusCode).toBe(400);
    expect((await post(ProfileApi.createAddress.path, u, address(u, { AddressTypeID: 9 }))).statusCode).toBe(400);
    const stored = (await get(ProfileApi.loadAddresses.path, u)).json().Data;
    expect(stored).toHaveLength(1);
    expect(stored[0].City).toBe('Boulder');
  });

  it('keeps the current address current when it is saved unticked or without the flag: another address takes it over only by being made current', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const current = (await post(ProfileApi.createAddress.path, u, address(u, { Address1: '1 Main St' }))).json().Data;
    const old = (await post(ProfileApi.createAddress.path, u, address(u, { Address1: '9 Old Rd' }))).json().Data;
    const unticked = await post(ProfileApi.updateAddress.path, u, {
      ...address(u, { Address1: '2 Main St' }),
      AddressID: current.AddressID,
      Version: current.Version,
      IsCurrent: false,
    });
    expect(unticked.statusCode, unticked.body).toBe(200);
    expect(unticked.json().Data).toMatchObject({ Address1: '2 Main St', IsCurrent: true });
    const { IsCurrent: _left, ...withoutFlag } = {
      ...address(u, { Address1: '3 Main St' }),
      AddressID: current.AddressID,
      Version: current.Version + 1,
      IsCurrent: false,
    };
    expect((await post(ProfileApi.updateAddress.path, u, withoutFlag)).json().Data).toMatchObject({ Address1: '3 Main St', IsCurrent: true });
    const listed = () =>
      get(ProfileApi.loadAddresses.path, u).then((r) =>
        (r.json().Data as { Address1: string; IsCurrent: boolean }[]).filter((a) => a.IsCurrent).map((a) => a.Address1),
      );
    expect(await listed()).toEqual(['3 Main St']);
    // Made current, the other address takes it over.
    await post(ProfileApi.updateAddress.path, u, { ...address(u, { Address1: '9 Old Rd' }), AddressID: old.AddressID, Version: old.Version, IsCurrent: true });
    expect(await listed()).toEqual(['9 Old Rd']);
  });

  it('searches, sorts and pages the member’s own addresses', async () => {
    const u = await userOf(env, 'CareAssist', 'assist');
    for (const city of ['Austin', 'Boston', 'Chicago']) await post(ProfileApi.createAddress.path, u, address(u, { City: city }));
    await post(ProfileApi.createAddress.path, guard, address(guard, { City: 'Boston' }));
    const page = await post(ProfileApi.searchAddresses.path, u, { PageIndex: 0, PageSize: 2, SortColumn: 'City', SortOrder: 'ASC' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().Data.ItemCount).toBe(3);
    expect(page.json().Data.Items.map((a: { City: string }) => a.City)).toEqual(['Austin', 'Boston']);
    const found = await post(ProfileApi.searchAddresses.path, u, { Query: 'bos' });
    expect(found.json().Data.Items.map((a: { MemberID: number }) => a.MemberID)).toEqual([u.memberId]);
    expect((await post(ProfileApi.searchAddresses.path, u, { SortColumn: 'address1; DROP TABLE x' })).statusCode).toBe(400);
  });
});

describe('createAddress with an IdempotencyKey (the answer lost, Save pressed again)', () => {
  const address = (u: TestUser, change: Json = {}) => ({ MemberID: u.memberId, Address1: '5 Once St', City: 'Denver', State: 'CO', Zip: '80202', ...change });
  const stored = async (memberId: number | null) =>
    (await sql().query<{ address1: string }>('SELECT address1 FROM profile_addresses WHERE member_id = $1 ORDER BY address_id', [memberId])).map(
      (r) => r.address1,
    );

  it('adds the address once for the same key sent twice, answering the same address and message, with one audit row', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const first = await post(ProfileApi.createAddress.path, u, address(u, { IdempotencyKey: 'address-once-0001' }));
    expect(first.statusCode, first.body).toBe(200);
    const again = await post(ProfileApi.createAddress.path, u, address(u, { IdempotencyKey: 'address-once-0001' }));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.json().MsgText).toBe(ProfileMessages.addressSaved);
    expect(await stored(u.memberId)).toEqual(['5 Once St']);
    expect(await auditCount('profile.address.create', u.memberId)).toBe(1);
  });

  it('refuses the key with another address (409) and adds nothing', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    expect((await post(ProfileApi.createAddress.path, u, address(u, { IdempotencyKey: 'address-once-0002' }))).statusCode).toBe(200);
    const other = await post(ProfileApi.createAddress.path, u, address(u, { Address1: '6 Other St', IdempotencyKey: 'address-once-0002' }));
    expect(other.statusCode).toBe(409);
    expect(other.json().MsgText).toBe(CREATE_KEY_REUSED);
    expect(await stored(u.memberId)).toEqual(['5 Once St']);
    expect(await auditCount('profile.address.create', u.memberId)).toBe(1);
  });

  it('adds each create sent without a key, as before', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    // Three addresses (the same address twice is refused: its own tests, 'addresses: the same address twice').
    for (const body of [address(u), address(u, { Address1: '6 Once St' }), address(u, { Address1: '7 Once St', IdempotencyKey: null })])
      expect((await post(ProfileApi.createAddress.path, u, body)).statusCode).toBe(200);
    expect(await stored(u.memberId)).toEqual(['5 Once St', '6 Once St', '7 Once St']);
  });

  it('refuses a malformed key with 400 and adds nothing', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    for (const bad of ['x', 'has spaces in it', 42]) {
      const res = await post(ProfileApi.createAddress.path, u, address(u, { IdempotencyKey: bad }));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().MsgText).toMatch(/^body\.IdempotencyKey: must be/);
    }
    expect(await stored(u.memberId)).toEqual([]);
  });

  it("adds support's address once too, and refuses the key sent for another member's account", async () => {
    const a = await userOf(env, 'CareGuard', 'card');
    const b = await userOf(env, 'CareGuard', 'card');
    const body = address(a, { IdempotencyKey: 'support-address-0001' });
    const first = await post(ProfileApi.supportCreateAddress.path, support, body);
    expect(first.statusCode, first.body).toBe(200);
    const again = await post(ProfileApi.supportCreateAddress.path, support, body);
    expect(again.json().Data).toEqual(first.json().Data);
    const elsewhere = await post(ProfileApi.supportCreateAddress.path, support, { ...body, MemberID: b.memberId });
    expect(elsewhere.statusCode).toBe(409);
    expect(await stored(a.memberId)).toEqual(['5 Once St']);
    expect(await stored(b.memberId)).toEqual([]);
    // The member's own key is the member's: the same key of theirs, with another address, adds it (not CREATE_KEY_REUSED).
    expect((await post(ProfileApi.createAddress.path, a, { ...body, Address1: '6 Once St' })).statusCode).toBe(200);
    expect(await stored(a.memberId)).toEqual(['5 Once St', '6 Once St']);
  });
});

describe('addresses: the same address twice', () => {
  const address = (u: TestUser, change: Json = {}) => ({
    MemberID: u.memberId,
    Address1: '12 Elm St',
    Address2: 'Apt 4',
    City: 'Tulsa',
    State: 'OK',
    Zip: '74103',
    ...change,
  });
  const count = async (memberId: number | null) =>
    (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM profile_addresses WHERE member_id = $1', [memberId]))[0]?.n ?? 0;

  it('refuses a second add of an address the member has (409 naming it), case and spacing aside, whatever its type or flag; adds nothing', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const first = (await post(ProfileApi.createAddress.path, u, address(u))).json().Data;
    for (const again of [
      address(u),
      address(u, { Address1: '  12  ELM st ', Address2: 'apt 4', City: 'TULSA' }),
      address(u, { AddressTypeID: 2, IsCurrent: true }),
      address(u, { IdempotencyKey: 'address-dup-0001' }),
    ]) {
      const res = await post(ProfileApi.createAddress.path, u, again);
      expect(res.statusCode, JSON.stringify(again)).toBe(409);
      expect(res.json().MsgText).toBe(ProfileMessages.addressDuplicate);
      expect(res.json().Data).toEqual({ DuplicateAddressID: first.AddressID });
    }
    expect(await count(u.memberId)).toBe(1);
    expect(await auditCount('profile.address.create', u.memberId)).toBe(1);
    // Still the current address: the refused one that asked to be current changed nothing.
    expect((await get(ProfileApi.loadAddresses.path, u)).json().Data).toMatchObject([{ AddressID: first.AddressID, IsCurrent: true, Version: 1 }]);
    const es = await post(ProfileApi.createAddress.path, u, address(u), { cookie: 'cq.lang=es' });
    expect(es.statusCode).toBe(409);
    expect(es.json().MsgText).toBe('Esta dirección ya está en su lista.');
  });

  it('adds one that differs in a part (another unit, city or ZIP), and the same address for another member', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const v = await userOf(env, 'CareGuard', 'card');
    expect((await post(ProfileApi.createAddress.path, u, address(u))).statusCode).toBe(200);
    for (const change of [{ Address2: 'Apt 5' }, { Address2: null }, { City: 'Tulsa Heights' }, { Zip: '74103-1234' }, { State: 'TX' }]) {
      const res = await post(ProfileApi.createAddress.path, u, address(u, change));
      expect(res.statusCode, JSON.stringify(change)).toBe(200);
    }
    expect((await post(ProfileApi.createAddress.path, v, address(v))).statusCode).toBe(200);
  });

  it('refuses an update that makes an address another one the member has; a change of its type or flag alone goes through', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const first = (await post(ProfileApi.createAddress.path, u, address(u))).json().Data;
    const second = (await post(ProfileApi.createAddress.path, u, address(u, { Address1: '14 Elm St' }))).json().Data;
    const res = await post(ProfileApi.updateAddress.path, u, {
      ...address(u, { Address1: '12 elm st' }),
      AddressID: second.AddressID,
      Version: second.Version,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().MsgText).toBe(ProfileMessages.addressDuplicate);
    expect(res.json().Data).toEqual({ DuplicateAddressID: first.AddressID });
    const kept = (await get(ProfileApi.loadAddresses.path, u)).json().Data as { AddressID: number; Address1: string; Version: number }[];
    expect(kept.find((a) => a.AddressID === second.AddressID)).toMatchObject({ Address1: '14 Elm St', Version: second.Version });
    // The address itself, typed otherwise and of another type: not a duplicate of itself.
    const own = await post(ProfileApi.updateAddress.path, u, {
      ...address(u, { City: 'tulsa', AddressTypeID: 5 }),
      AddressID: first.AddressID,
      Version: first.Version,
      IsCurrent: true,
    });
    expect(own.statusCode, own.body).toBe(200);
    // Two copies stored before the check existed: made current, one is not refused for being like the other.
    await sql().query(
      "INSERT INTO profile_addresses (member_id, address1, city, state, zip) VALUES ($1, '1 Twin Rd', 'Waco', 'TX', '76701'), ($1, '1 Twin Rd', 'Waco', 'TX', '76701')",
      [u.memberId],
    );
    const twins = ((await get(ProfileApi.loadAddresses.path, u)).json().Data as { AddressID: number; Address1: string; Version: number }[]).filter(
      (a) => a.Address1 === '1 Twin Rd',
    );
    const [twin] = twins;
    if (!twin) throw new Error('no twin');
    const current = await post(ProfileApi.updateAddress.path, u, {
      MemberID: u.memberId,
      AddressID: twin.AddressID,
      Version: twin.Version,
      Address1: '1 Twin Rd',
      City: 'Waco',
      State: 'TX',
      Zip: '76701',
      IsCurrent: true,
    });
    expect(current.statusCode, current.body).toBe(200);
  });

  it("refuses support's add and change of a member's address the same way, in support's words", async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const first = (await post(ProfileApi.supportCreateAddress.path, support, address(u))).json().Data;
    const again = await post(ProfileApi.supportCreateAddress.path, support, address(u, { City: ' tulsa' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().MsgText).toBe(ProfileMessages.addressDuplicateSupport);
    expect(again.json().Data).toEqual({ DuplicateAddressID: first.AddressID });
    const second = (await post(ProfileApi.supportCreateAddress.path, support, address(u, { Address2: null }))).json().Data;
    const change = await post(
      ProfileApi.supportUpdateAddress.path,
      support,
      { ...address(u), AddressID: second.AddressID, Version: second.Version },
      {
        cookie: 'cq.lang=es',
      },
    );
    expect(change.statusCode).toBe(409);
    expect(change.json().MsgText).toBe('Esta dirección ya está en la lista del miembro.');
    expect(await count(u.memberId)).toBe(2);
  });

  it("leaves the registration wizard's one address unchecked: it is written as typed, like another address of the member's", async () => {
    const u = await userOf(env, 'CareAssist', 'assist');
    const m = await load(u);
    const current = (await post(ProfileApi.createAddress.path, u, address(u))).json().Data;
    await post(ProfileApi.createAddress.path, u, address(u, { Address1: '14 Elm St' }));
    const res = await post(ProfileApi.registrationSave.path, u, { ...saveBody(m, { MobilePhone: '4155550123' }), ...address(u, { Address1: '14 Elm St' }) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data.Address).toMatchObject({ AddressID: current.AddressID, Address1: '14 Elm St', IsCurrent: true });
  });

  it('lets one of four adds of the same address at once through, refusing the others: the check and the add are one step', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const answers = await Promise.all(Array.from({ length: 4 }, () => post(ProfileApi.createAddress.path, u, address(u))));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await count(u.memberId)).toBe(1);
  });
});

describe('terminate and reactivate', () => {
  it('sets and clears the termination date, refreshes user/termination and issues a fresh session token', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const res = await post(ProfileApi.terminate.path, u);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().Data;
    expect(data.Termination).toMatchObject({ isTerminated: true, terminationPeriod: 0 });
    expect(data.Member.TerminationDate).not.toBeNull();
    expect(data.Token.refresh_token).not.toBe(u.session.refresh_token);
    expect(data.Token.form_token).toBe(u.session.form_token);
    const fresh = { authorization: `Bearer ${data.Token.access_token}`, 'x-form-token': data.Token.form_token, host: 'card.localhost' };
    const term = await call('GET', KernelApi.termination.path, fresh);
    expect(term.json().Data?.isTerminated, term.body).toBe(true);
    expect((await post(ProfileApi.terminate.path, u)).statusCode).toBe(409);

    const back = await call('POST', ProfileApi.reactivate.path, fresh, {});
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().Data.Termination.isTerminated).toBe(false);
    expect(back.json().Data.Member.TerminationDate).toBeNull();
    const refreshed = await env.server.app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: back.json().Data.Token.refresh_token }).toString(),
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect((await post(ProfileApi.reactivate.path, u)).statusCode).toBe(409);
    expect(await auditCount('profile.member.terminate', u.memberId)).toBe(1);
    expect(await auditCount('profile.member.reactivate', u.memberId)).toBe(1);
  });

  it('stores the termination and its member.terminated job together: when the job cannot be stored, the member is not terminated', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const sql = env.server.database.sql;
    const jobs = async () =>
      (
        await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'member.terminated' AND (data->>'memberId')::int = $1`, [
          u.memberId,
        ])
      )[0]?.n;
    await sql.exec(`CREATE FUNCTION refuse_termination_job() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the job queue refused the job'; END $$;
      CREATE TRIGGER refuse_termination_job BEFORE INSERT ON pgboss.job FOR EACH ROW WHEN (NEW.name = 'member.terminated')
        EXECUTE FUNCTION refuse_termination_job();`);
    try {
      const refused = await post(ProfileApi.terminate.path, u);
      expect(refused.statusCode).toBe(500);
      expect((await load(u)).TerminationDate).toBeNull();
      expect(await auditCount('profile.member.terminate', u.memberId)).toBe(0);
    } finally {
      await sql.exec('DROP TRIGGER refuse_termination_job ON pgboss.job; DROP FUNCTION refuse_termination_job();');
    }
    expect(await jobs()).toBe(0);
    const done = await post(ProfileApi.terminate.path, u);
    expect(done.statusCode, done.body).toBe(200);
    expect((await load(u)).TerminationDate).not.toBeNull();
    expect(await jobs()).toBe(1);
  });

  it('is for CareGuard and CareAssist only', async () => {
    expect((await post(ProfileApi.reactivate.path, finance)).statusCode).toBe(403);
    expect((await post(ProfileApi.terminate.path, support, {}, { 'x-member-id': String(other.memberId) })).statusCode).toBe(403);
    expect((await load(other)).TerminationDate).toBeNull();
  });
});

describe('SMS verification', () => {
  const request = (u: TestUser, phone: string, memberId = u.memberId) =>
    post(ProfileApi.requestCode.path, u, { MemberId: memberId, PhoneNumber: `M-${phone}`, Type: 'SMS' });
  const verify = (u: TestUser, phone: string, code: string) =>
    post(ProfileApi.verifyCode.path, u, { MemberId: u.memberId, PhoneNumber: `M-${phone}`, Code: code });
  async function codeFor(phone: string, afterId = 0) {
    await env.server.jobs.drain();
    const sms = await latestSmsTo(env.sandboxUrl, `+1${phone}`, { afterId });
    return { code: codeIn(sms), id: sms.id };
  }

  it('sends a random code through the queue to the SMS inbox, stores only its hash, and confirms it', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    await withMobile(u, '6465550123');
    await sql().query('UPDATE members SET is_phone_validated = true WHERE member_id = $1', [u.memberId]);
    const res = await request(u, '6465550123');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().MsgText).toBe('A verification code was sent to (646) 555-0123.');
    expect((await load(u)).IsPhoneValidated).toBe(false);
    const { code } = await codeFor('6465550123');
    expect(code).toMatch(/^\d{6}$/);
    const stored = await sql().query<{ code_hash: string }>('SELECT code_hash FROM profile_phone_codes WHERE member_id = $1', [u.memberId]);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.code_hash).not.toContain(code);
    // The text went through a sealed job, deleted once delivered: no job row holds a code or a number in clear.
    const jobs = await sql().query<{ data: object; state: string }>(
      'SELECT data, state::text AS state FROM pgboss.job WHERE name = $1 UNION ALL SELECT data, state::text FROM pgboss.archive WHERE name = $1',
      [SMS_SEND_JOB],
    );
    for (const job of jobs) expect(Object.keys(job.data)).toEqual(['sealed']);
    expect(jobs.filter((j) => j.state === 'completed')).toEqual([]);

    const wrong = await verify(u, '6465550123', code === '000000' ? '111111' : '000000');
    expect(wrong.json().Data, wrong.body).toEqual({ CodeVerified: false });
    const right = await verify(u, '6465550123', code);
    expect(right.json().Data).toEqual({ CodeVerified: true });
    expect((await load(u)).IsPhoneValidated).toBe(true);
    expect((await verify(u, '6465550123', code)).json().Data.CodeVerified).toBe(false); // spent
    expect(await auditCount('profile.phone.code.verify', u.memberId)).toBe(3);
  });

  it(`allows ${CODE_MAX_ATTEMPTS} wrong tries per code, then the code is dead`, async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    await withMobile(u, '6465550124');
    await request(u, '6465550124');
    const { code } = await codeFor('6465550124');
    const wrongCode = code === '999999' ? '999998' : '999999';
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) expect((await verify(u, '6465550124', wrongCode)).json().Data.CodeVerified).toBe(false);
    expect((await verify(u, '6465550124', code)).json().Data.CodeVerified).toBe(false);
    expect((await load(u)).IsPhoneValidated).toBe(false);
  });

  it('refuses an expired code, a superseded code, and a number that is not the saved mobile', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    await withMobile(u, '6465550125');
    const notSaved = await request(u, '6465550126');
    expect(notSaved.statusCode).toBe(400);
    expect(notSaved.json().MsgText).toBe(ProfileMessages.saveMobileFirst);
    await request(u, '6465550125');
    const first = await codeFor('6465550125');
    await request(u, '6465550125');
    const second = await codeFor('6465550125', first.id);
    if (first.code !== second.code) expect((await verify(u, '6465550125', first.code)).json().Data.CodeVerified).toBe(false);
    await sql().query("UPDATE profile_phone_codes SET expires_at = now() - interval '1 second' WHERE member_id = $1", [u.memberId]);
    expect((await verify(u, '6465550125', second.code)).json().Data.CodeVerified).toBe(false);
  });

  it('deletes codes 30 days after they were spent or expired, in a daily job; younger and live ones stay', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const add = async (expires: string, spent: string | null) =>
      (
        await sql().query<{ id: number }>(
          `INSERT INTO profile_phone_codes (member_id, phone, code_hash, expires_at, spent_at)
           VALUES ($1, '6465550199', 'hash', now() + $2::interval, now() + $3::interval) RETURNING id`,
          [u.memberId, expires, spent],
        )
      )[0]?.id;
    const expiredLongAgo = await add('-31 days', null);
    const spentLongAgo = await add('-30 days -1 minute', '-31 days');
    const expiredLately = await add('-29 days', null);
    const spentLately = await add('10 minutes', '-29 days');
    const live = await add('10 minutes', null);
    expect(await pruneCodes(sql())).toBeGreaterThanOrEqual(2);
    const left = await sql().query<{ id: number }>('SELECT id FROM profile_phone_codes WHERE member_id = $1 ORDER BY id', [u.memberId]);
    expect(left.map((r) => r.id)).toEqual([expiredLately, spentLately, live]);
    expect([expiredLongAgo, spentLongAgo].every((id) => typeof id === 'number')).toBe(true);
    expect(await sql().query('SELECT cron FROM pgboss.schedule WHERE name = $1', [CODE_PRUNE_JOB])).toEqual([{ cron: CODE_PRUNE_CRON }]);
  });

  it('refuses landlines and unknown numbers, and another member’s id', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    await withMobile(u, '6465550127');
    await sql().query("UPDATE members SET mobile_phone = '6465559902' WHERE member_id = $1", [u.memberId]);
    const landline = await request(u, '6465559902');
    expect(landline.statusCode).toBe(400);
    expect(landline.json().MsgText).toBe(ProfileMessages.notMobile);
    await sql().query("UPDATE members SET mobile_phone = '6465550000' WHERE member_id = $1", [u.memberId]);
    expect((await request(u, '6465550000')).statusCode).toBe(400);
    const foreign = await request(u, '6465550127', other.memberId ?? 0);
    expect(foreign.statusCode).toBe(404);
    expect(await smsTo(env.sandboxUrl, '+16465559902')).toEqual([]);
  });

  it('throttles codes per number', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    await withMobile(u, '6465550128');
    for (let i = 0; i < PROFILE_THROTTLE.codesPerNumber.max; i++) expect((await request(u, '6465550128')).statusCode).toBe(200);
    const refused = await request(u, '6465550128');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('throttles codes per member across numbers', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    let status = 200;
    for (let i = 0; i <= PROFILE_THROTTLE.codesPerMember.max && status === 200; i++) {
      const phone = `64655502${String(i).padStart(2, '0')}`;
      await withMobile(u, phone);
      status = (await request(u, phone)).statusCode;
      if (i < PROFILE_THROTTLE.codesPerMember.max) expect(status).toBe(200);
    }
    expect(status).toBe(429);
  });

  it('marks the phone verified through phone-validate only after a confirmed code', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    await withMobile(u, '6465550129');
    const early = await post(`${ProfileApi.phoneValidate.path}?validated=true`, u);
    expect(early.statusCode).toBe(400);
    expect(early.json().MsgText).toBe(ProfileMessages.verifyFirst);
    await request(u, '6465550129');
    const { code } = await codeFor('6465550129');
    await verify(u, '6465550129', code);
    const off = await post(`${ProfileApi.phoneValidate.path}?validated=false`, u);
    expect(off.json().Data.IsPhoneValidated).toBe(false);
    const on = await post(`${ProfileApi.phoneValidate.path}?validated=true`, u);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().Data.IsPhoneValidated).toBe(true);
    expect((await post(`${ProfileApi.phoneValidate.path}?validated=maybe`, u)).statusCode).toBe(400);
  });

  it('answers phone-check like a carrier lookup', async () => {
    const check = async (n: string) => (await post(ProfileApi.phoneCheck.path, guard, { PhoneNumber: n })).json().Data;
    expect(await check('(212) 555-0101')).toEqual({ PhoneNumber: '+12125550101', LineType: 'mobile', Carrier: 'Sandbox Wireless' });
    expect((await check('2125559950')).LineType).toBe('landline');
    expect((await check('2125550000')).PhoneNumber).toBeNull();
    expect((await check('0125550101')).PhoneNumber).toBeNull();
    expect((await check('12345')).PhoneNumber).toBeNull();
  });
});

describe('member list (support)', () => {
  it('lists, filters by status and searches by name', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const m = await load(u);
    await post(ProfileApi.save.path, u, saveBody(m, { FirstName: 'Zebulon', LastName: 'Quarry' }));
    const page = await post(ProfileApi.list.path, support, { SearchString: 'zebulon' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().Data.Items.map((i: { MemberID: number }) => i.MemberID)).toEqual([u.memberId]);
    await post(ProfileApi.terminate.path, u);
    expect((await post(ProfileApi.list.path, support, { SearchString: 'zebulon' })).json().Data.ItemCount).toBe(0);
    expect((await post(ProfileApi.list.path, support, { SearchString: 'zebulon', Status: 'Terminated' })).json().Data.ItemCount).toBe(1);
    const byName = await get(`${ProfileApi.searchByName.path}?name=Quarry`, support);
    expect(byName.json().Data.map((i: { MemberID: number }) => i.MemberID)).toEqual([u.memberId]);
    expect((await post(ProfileApi.list.path, support, { PageSize: 7 })).statusCode).toBe(400);
    expect((await get(`${ProfileApi.searchByName.path}?name=Quarry`, guard)).statusCode).toBe(403);
  });
});

describe("messages in the user's language", () => {
  const ES = { cookie: 'cq.lang=es' };

  it('answers a Spanish request in Spanish: refusals with their values, saved toasts and the text message with the code', async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    const m = await load(u);
    const mobile = String(m.MobilePhone);
    const bad = await post(ProfileApi.save.path, u, saveBody(m, { MobilePhone: '2125550000' }), ES);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().MsgText).toBe('(212) 555-0000 no es un número de teléfono válido.');
    const stale = await post(ProfileApi.save.path, u, saveBody(m, { Version: m.Version + 7 }), ES);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().MsgText).toBe('Otra persona cambió este perfil; vuelva a cargar para ver su cambio.');
    const saved = await post(ProfileApi.save.path, u, saveBody(m, { FirstName: 'Lucía' }), ES);
    expect(saved.json()).toMatchObject({ HasError: false, MsgText: 'Su perfil se guardó.', Data: { FirstName: 'Lucía' } });

    const sent = await post(ProfileApi.requestCode.path, u, { MemberId: u.memberId, PhoneNumber: `M-${mobile}`, Type: 'SMS' }, ES);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().MsgText).toBe(`Se envió un código de verificación al (${mobile.slice(0, 3)}) ${mobile.slice(3, 6)}-${mobile.slice(6)}.`);
    await env.server.jobs.drain();
    const sms = await latestSmsTo(env.sandboxUrl, `+1${mobile}`);
    expect(sms.text).toBe(`Amethyst Card: su código de verificación es ${codeIn(sms)}. Vence en 10 minutos.`);
  });

  it("writes the code in the member's language and signs it with the member's brand when staff ask for it acting for the member, and answers staff in theirs", async () => {
    const u = await userOf(env, 'CareGuard', 'card');
    await sql().query("UPDATE users SET language = 'es' WHERE id = $1", [u.userId]);
    const mobile = String((await load(u)).MobilePhone);
    const res = await post(
      ProfileApi.requestCode.path,
      support,
      { MemberId: u.memberId, PhoneNumber: `M-${mobile}`, Type: 'SMS' },
      { 'x-member-id': String(u.memberId) },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().MsgText).toMatch(/^A verification code was sent to /);
    await env.server.jobs.drain();
    const sms = await latestSmsTo(env.sandboxUrl, `+1${mobile}`);
    // The member's brand signs it, not the staff site the request came in on.
    expect(sms.text).toBe(`Amethyst Card: su código de verificación es ${codeIn(sms)}. Vence en 10 minutos.`);
    expect(sms.brand).toBe('card');
  });
});
