import { buildPath } from '@portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, ProfileApi, ProfileMessages } from '../contract';
import { type ProfileTestEnv, startProfileTestEnv, type TestUser, userOf } from './test-support';

/**
 * A member's e-mail address changes only on the account page (password, a link to the new address, a notice to the
 * old one): My Profile and the wizard's Personal Info keep it. Support saving a member by id may change it, and the
 * member's login takes it too.
 */
let env: ProfileTestEnv;
let finance: TestUser; // CareGuardFinance member
let support: TestUser; // CareSupport staff, no member record

beforeAll(async () => {
  env = await startProfileTestEnv();
  finance = await userOf(env, 'CareGuardFinance', 'finance');
  support = await userOf(env, 'CareSupport', 'staff', false);
});
afterAll(() => env?.close());

const sql = () => env.server.database.sql;
const post = (url: string, u: TestUser, body: unknown, extra: Record<string, string> = {}) =>
  env.server.app.inject({ method: 'POST', url, headers: u.headers(extra), payload: body as object });
const get = (url: string, u: TestUser, extra: Record<string, string> = {}) => env.server.app.inject({ method: 'GET', url, headers: u.headers(extra) });

async function load(u: TestUser): Promise<Member> {
  const res = await get(ProfileApi.loadOwn.path, u);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data as Member;
}
function saveBody(m: Member, change: Record<string, unknown> = {}) {
  return {
    MemberID: m.MemberID,
    Version: m.Version,
    FirstName: m.FirstName,
    LastName: m.LastName,
    Email: m.Email,
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
const address = { Address1: '1 Main St', City: 'Austin', State: 'TX', Zip: '73301' };
async function stored(u: TestUser) {
  const [member] = await sql().query<{ email: string | null; version: number }>('SELECT email, version FROM members WHERE member_id = $1', [u.memberId]);
  const [user] = await sql().query<{ email: string | null }>('SELECT email FROM users WHERE id = $1', [u.userId]);
  return { member: member?.email, memberVersion: member?.version, user: user?.email };
}

describe("a member's own save keeps the e-mail address", () => {
  it('refuses another address on My Profile and in the wizard, and changes nothing', async () => {
    const m = await load(finance);
    const before = await stored(finance);
    expect(before.member).toBe(before.user);
    for (const [path, extra] of [
      [ProfileApi.save.path, {}],
      [ProfileApi.registrationSave.path, address],
    ] as const) {
      const res = await post(path, finance, saveBody(m, { ...extra, Email: 'attacker@evil.example', FirstName: 'Changed' }));
      expect(res.statusCode, path).toBe(400);
      expect(res.json().MsgText, path).toBe(ProfileMessages.emailChangeElsewhere);
      expect(await stored(finance), path).toEqual(before);
    }
    expect((await load(finance)).FirstName).toBe(m.FirstName);
  });

  it('refuses it to staff acting for the member too (the account page refuses an impersonated change)', async () => {
    const m = await load(finance);
    const before = await stored(finance);
    const res = await post(ProfileApi.save.path, support, saveBody(m, { Email: 'other@example.com' }), { 'x-member-id': String(finance.memberId) });
    expect(res.statusCode, res.body).toBe(400);
    expect(await stored(finance)).toEqual(before);
  });

  it('passes with the same address in another case and with spaces, keeping the stored one', async () => {
    const m = await load(finance);
    const before = await stored(finance);
    const sent = `  ${String(m.Email).toUpperCase()}  `;
    const res = await post(ProfileApi.save.path, finance, saveBody(m, { Email: sent, LastName: 'Samecase' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data).toMatchObject({ Email: before.member, LastName: 'Samecase' });
    const after = await stored(finance);
    expect([after.member, after.user]).toEqual([before.member, before.user]);
    const wizard = await post(ProfileApi.registrationSave.path, finance, saveBody(await load(finance), { ...address, Email: sent }));
    expect(wizard.statusCode, wizard.body).toBe(200);
    expect(wizard.json().Data.Member.Email).toBe(before.member);
  });
});

describe("support saving a member's profile by id", () => {
  it("changes the member's address and the login's together", async () => {
    const member = await userOf(env, 'CareGuardFinance', 'finance');
    const m = (await get(buildPath(ProfileApi.load.path, { id: String(member.memberId) }), support)).json().Data as Member;
    const next = `moved-${member.memberId}@example.com`;
    const res = await post(ProfileApi.save.path, support, saveBody(m, { Email: next }));
    expect(res.statusCode, res.body).toBe(200);
    const after = await stored(member);
    expect([after.member, after.user]).toEqual([next, next]);
  });
});
