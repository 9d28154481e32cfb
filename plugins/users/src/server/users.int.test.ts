import { randomUUID } from 'node:crypto';
import type { StartedServer } from '@portal/app-server/server';
import { rawManifests } from '@portal/brands';
import { AccountApi } from '@portal/plugin-account/contract';
import { createSandbox, latestMailTo, linksIn, mailTo } from '@portal/sandbox';
import { CREATE_KEY_REUSED } from '@portal/server';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamsApi, UsersApi, UsersMessages } from '../contract';
import { seed } from './seed';

/** The users and teams API through the whole kernel guard, with mail delivered to a sandbox inbox. */
let server: StartedServer;
let sandbox: FastifyInstance;
let sandboxUrl: string;
let admin: Session; // CareSupport + SystemAdmin
let lead: Session; // CareSupport + TeamLead
let support: Session; // CareSupport only
let outsider: Session; // SuperUser: not in USERS_ACCESS
let adminId: string;
let superId: string;
const otherBrand = Object.values(rawManifests).find((brand) => !brand.plugins.includes('users'))?.id;
const sql = () => server.database.sql;

beforeAll(async () => {
  sandbox = await createSandbox({ dataDir: null });
  sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  server = await startTestServer({ sandboxUrl, smtpUrl: null });
  let n = 7;
  await seed({
    sql: server.database.sql,
    scale: 6,
    members: [],
    random: () => {
      n = (n * 48271) % 2147483647;
      return n / 2147483647;
    },
    log: () => {},
  });
  adminId = (await makeUser(server, { userName: 'ua-admin', roles: ['CareSupport', 'SystemAdmin'], brand: 'staff' })).userId;
  await makeUser(server, { userName: 'ua-lead', roles: ['CareSupport', 'TeamLead'], brand: 'staff' });
  await makeUser(server, { userName: 'ua-support', roles: ['CareSupport'], brand: 'staff' });
  superId = (await makeUser(server, { userName: 'ua-super', roles: ['SuperUser'], brand: 'staff' })).userId;
  admin = await signIn(server, 'ua-admin');
  lead = await signIn(server, 'ua-lead');
  support = await signIn(server, 'ua-support');
  outsider = await signIn(server, 'ua-super');
});
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

const call = (s: Session | null, method: 'GET' | 'POST', url: string, payload?: unknown, brand = 'staff') =>
  server.app.inject({ method, url, headers: s ? authHeaders(s, brand) : { host: `${brand}.localhost` }, payload: payload as object });
const ok = async (s: Session, method: 'GET' | 'POST', url: string, payload?: unknown) => {
  const res = await call(s, method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: the tests read many shapes of JSON answers
  return res.json() as { Data: any; MsgText: string | null };
};

async function companyWithContacts(index = 0) {
  const companies = (await ok(support, 'GET', UsersApi.companies.path)).Data as { Id: number; Name: string }[];
  const company = companies[index];
  if (!company) throw new Error('no company');
  const contacts = (await ok(support, 'GET', `/api/users/companies/${company.Id}/contacts`)).Data as { Id: number; Email: string }[];
  return { company, contacts };
}

let contactCursor = 0;
/** The next unused contact of the second company (the first one's are counted out for the tests that use them). */
let otherCursor = 0;
/** A new staff user made from the next unused contact of the first company (or of the second, `other`). */
async function newUser(by: Session = support, other = false) {
  const { company, contacts } = await companyWithContacts(other ? 1 : 0);
  const contact = contacts[other ? otherCursor++ : contactCursor++];
  if (!contact) throw new Error('out of contacts');
  const data = (
    await ok(by, 'POST', UsersApi.save.path, { Id: null, FirstName: 'Dana', LastName: 'Reyes', CompanyId: company.Id, ContactId: contact.Id, IsNew: true })
  ).Data;
  return { user: data as { Id: string; Version: number; UserName: string; CompanyId: number; ContactId: number }, company, contact };
}

const version = async (id: string) => (await sql().query<{ version: number }>('SELECT version FROM users WHERE id = $1', [id]))[0]?.version ?? -1;
const rolesOf = async (id: string) =>
  (await sql().query<{ role: string }>('SELECT role FROM user_roles WHERE user_id = $1 ORDER BY role', [id])).map((r) => r.role);
const ROLE_ID = { SystemAdmin: 1, Adjuster: 2, Broker: 3, TeamLead: 4 } as const;

describe('access', () => {
  it('answers 401 without a sign-in, 403 outside CareSupport, 404 on a brand without the plugin', async () => {
    expect((await call(null, 'GET', UsersApi.get.path)).statusCode).toBe(401);
    expect((await call(outsider, 'GET', UsersApi.get.path)).statusCode).toBe(403);
    expect((await call(outsider, 'POST', TeamsApi.save.path, { TeamName: 'X', CompanyId: 1 })).statusCode).toBe(403);
    if (otherBrand) expect((await call(support, 'GET', UsersApi.get.path, undefined, otherBrand)).statusCode).toBe(404);
  });

  it('answers 400, never 5xx, to empty or garbage bodies', async () => {
    for (const path of [
      UsersApi.save.path,
      UsersApi.activate.path,
      UsersApi.teamAdd.path,
      UsersApi.quotaSave.path,
      UsersApi.roleSave.path,
      TeamsApi.delete.path,
    ]) {
      for (const payload of [{}, { Id: 'x', Version: 'y', Models: 'z' }, []]) expect((await call(admin, 'POST', path, payload)).statusCode, path).toBe(400);
    }
    const { user } = await newUser();
    const overflow = await call(admin, 'POST', UsersApi.quotaSave.path, {
      Id: user.Id,
      Version: 2_147_483_648,
      Models: [{ MonthNumber: 1, MinimumCases: 1, MaximumCases: 2 }],
    });
    expect(overflow.statusCode).toBe(400);
    expect(overflow.json().MsgText).toContain('Version');
    expect((await call(admin, 'GET', '/api/users/getById/not-a-uuid')).statusCode).toBe(400);
    expect((await call(admin, 'GET', `/api/users/getById/${randomUUID()}`)).statusCode).toBe(404);
  });
});

describe('users', () => {
  it('lists 15 per page by default, sorted by UserName, and filters by attribute', async () => {
    for (let i = 0; i < 16; i++) await makeUser(server, { userName: `list-${String(i).padStart(2, '0')}`, roles: [], brand: 'staff' });
    const page1 = (await ok(support, 'GET', `${UsersApi.get.path}?pageNum=1`)).Data;
    expect(page1.Items).toHaveLength(15);
    const names = page1.Items.map((u: { UserName: string }) => u.UserName.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(page1.ItemCount).toBeGreaterThanOrEqual(20);
    const filtered = (await ok(support, 'GET', `${UsersApi.get.path}?filter=${encodeURIComponent(JSON.stringify({ UserName: 'LIST-1' }))}&sortDir=desc`)).Data;
    expect(filtered.Items.map((u: { UserName: string }) => u.UserName)).toEqual(['list-15', 'list-14', 'list-13', 'list-12', 'list-11', 'list-10']);
    expect(filtered.ItemCount).toBe(6);
    const second = (await ok(support, 'GET', `${UsersApi.get.path}?pageSize=4&pageNum=2&filter=${encodeURIComponent(JSON.stringify({ UserName: 'list-' }))}`))
      .Data;
    expect(second.Items.map((u: { UserName: string; Index: number }) => [u.UserName, u.Index])).toEqual([
      ['list-04', 4],
      ['list-05', 5],
      ['list-06', 6],
      ['list-07', 7],
    ]);
    const byRole = (await ok(support, 'GET', `${UsersApi.get.path}?filter=${encodeURIComponent(JSON.stringify({ Role: 'TeamLead' }))}`)).Data;
    expect(byRole.Items.map((u: { UserName: string }) => u.UserName)).toEqual(['ua-lead']);
    // The Role filter takes what a person types: part of a key, spaces and case aside, or the name the page shows; a
    // text that names no role finds no one (never a 400).
    const withRole = async (Role: string) =>
      (await ok(support, 'GET', `${UsersApi.get.path}?filter=${encodeURIComponent(JSON.stringify({ Role }))}`)).Data.Items.map(
        (u: { UserName: string }) => u.UserName,
      );
    for (const role of ['team lead', ' TEAMLEAD ', 'lead', 'Team lead (TeamLead)', 'Líder de equipo (TeamLead)'])
      expect(await withRole(role), role).toEqual(['ua-lead']);
    expect(await withRole('admin')).toEqual(['ua-admin']);
    expect(await withRole('System administrator (SystemAdmin)')).toEqual(['ua-admin']);
    expect(await withRole('brok')).toEqual([]);
    // The Spanish names alone find their role too.
    expect(await withRole('Líder de equipo')).toEqual(['ua-lead']);
    expect(await withRole('lider')).toEqual(['ua-lead']);
    expect(await withRole('Administrador del sistema')).toEqual(['ua-admin']);
    expect(await withRole('Janitor')).toEqual([]);
    expect((await call(support, 'GET', `${UsersApi.get.path}?filter=${encodeURIComponent('{"Password":"x"}')}`)).statusCode).toBe(400);
    expect((await call(support, 'GET', `${UsersApi.get.path}?filter=not-json`)).statusCode).toBe(400);
    expect((await call(support, 'GET', `${UsersApi.get.path}?pageSize=0`)).statusCode).toBe(400);
  });

  it('creates a user from a company contact (user name = contact e-mail), inactive, audited', async () => {
    const { user, company, contact } = await newUser();
    expect(user).toMatchObject({ UserName: contact.Email, CompanyId: company.Id, ContactId: contact.Id, IsActive: false, IsMember: false, IsNew: false });
    const fetched = (await ok(support, 'GET', `/api/users/getById/${user.Id}`)).Data;
    expect(fetched).toMatchObject({ Id: user.Id, CompanyName: company.Name, FirstName: 'Dana', Version: user.Version });
    const audit = await sql().query<{ detail: { after: { userName: string } } }>(
      "SELECT detail FROM audit_log WHERE action = 'users.user.create' AND entity_id = $1",
      [user.Id],
    );
    expect(audit[0]?.detail.after.userName).toBe(contact.Email);
    const byCompany = (await ok(support, 'GET', `${UsersApi.get.path}?filter=${encodeURIComponent(JSON.stringify({ CompanyName: company.Name.slice(0, 6) }))}`))
      .Data;
    expect(byCompany.Items.map((u: { Id: string }) => u.Id)).toContain(user.Id);
  });

  it('refuses a contact of another company, a missing name and a taken contact, creating nothing', async () => {
    const companies = (await ok(support, 'GET', UsersApi.companies.path)).Data as { Id: number }[];
    const [a, b] = companies;
    if (!a || !b) throw new Error('two companies expected');
    const otherContacts = (await ok(support, 'GET', `/api/users/companies/${b.Id}/contacts`)).Data as { Id: number }[];
    const before = (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]?.n;
    const wrong = await call(support, 'POST', UsersApi.save.path, { FirstName: 'A', LastName: 'B', CompanyId: a.Id, ContactId: otherContacts[0]?.Id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().MsgText).toBe(UsersMessages.contactNotInCompany);
    const noName = await call(support, 'POST', UsersApi.save.path, { FirstName: ' ', LastName: 'B', CompanyId: b.Id, ContactId: otherContacts[0]?.Id });
    expect(noName.statusCode).toBe(400);
    const { user } = await newUser();
    const again = await call(support, 'POST', UsersApi.save.path, { FirstName: 'A', LastName: 'B', CompanyId: user.CompanyId, ContactId: user.ContactId });
    expect(again.statusCode).toBe(409);
    expect(again.json().MsgText).toBe(String(UsersMessages.nameTaken(user.UserName)));
    expect((await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]?.n).toBe((before ?? 0) + 1);
  });

  it('changes a user with its Version and refuses a stale Version, changing nothing', async () => {
    const { user, company, contact } = await newUser();
    const changed = await ok(support, 'POST', UsersApi.save.path, { ...user, FirstName: 'Dina', CompanyId: company.Id, ContactId: contact.Id });
    expect(changed.Data).toMatchObject({ FirstName: 'Dina', Version: user.Version + 1 });
    const stale = await call(support, 'POST', UsersApi.save.path, { ...user, FirstName: 'Stale', CompanyId: company.Id, ContactId: contact.Id });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().MsgText).toBe(UsersMessages.stale);
    expect((await ok(support, 'GET', `/api/users/getById/${user.Id}`)).Data.FirstName).toBe('Dina');
    const audit = await sql().query<{ detail: { before: { firstName: string }; after: { firstName: string } } }>(
      "SELECT detail FROM audit_log WHERE action = 'users.user.update' AND entity_id = $1",
      [user.Id],
    );
    expect(audit.map((a) => [a.detail.before.firstName, a.detail.after.firstName])).toEqual([['Dana', 'Dina']]);
  });

  it("mails the old and the new address when a contact change gives the user a new sign-in name, in the user's language, audited; nothing when the name stays", async () => {
    const { user, company, contact: before } = await newUser();
    const after = (await companyWithContacts()).contacts[contactCursor++];
    if (!after) throw new Error('out of contacts');
    const mailsBefore = { old: (await mailTo(sandboxUrl, before.Email)).length, new: (await mailTo(sandboxUrl, after.Email)).length };
    const changed = await ok(support, 'POST', UsersApi.save.path, { ...user, CompanyId: company.Id, ContactId: after.Id, Language: 'es' });
    expect(changed.Data).toMatchObject({ UserName: after.Email, Version: user.Version + 1 });
    expect(changed.MsgText).toBe(String(UsersMessages.savedNewName(after.Email)));
    await server.jobs.drain();
    for (const [address, count] of [
      [before.Email, mailsBefore.old],
      [after.Email, mailsBefore.new],
    ] as const) {
      const mails = await mailTo(sandboxUrl, address);
      expect(mails, address).toHaveLength(count + 1);
      const mail = await latestMailTo(sandboxUrl, address);
      expect(mail.subject).toContain('Cambió su nombre de inicio de sesión');
      expect(mail.text).toContain(after.Email);
      expect(mail.brand).toBe('staff');
    }
    const audit = await sql().query<{ actor_user_id: string; detail: { from: string; to: string; sentTo: string[] } }>(
      "SELECT actor_user_id, detail FROM audit_log WHERE action = 'account.signin-name.notice' AND entity_id = $1",
      [user.Id],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.detail).toMatchObject({ from: before.Email, to: after.Email, sentTo: [before.Email, after.Email] });
    // A change that keeps the contact (so the sign-in name) sends nothing and answers the usual toast.
    const same = await ok(support, 'POST', UsersApi.save.path, { ...changed.Data, FirstName: 'Dora', CompanyId: company.Id, ContactId: after.Id });
    expect(same.MsgText).toBe(UsersMessages.saved);
    await server.jobs.drain();
    expect(await mailTo(sandboxUrl, before.Email)).toHaveLength(mailsBefore.old + 1);
    expect(await mailTo(sandboxUrl, after.Email)).toHaveLength(mailsBefore.new + 1);
  });

  it('lists users by role', async () => {
    const data = (await ok(support, 'GET', '/api/users/getByRole/SystemAdmin')).Data as { UserName: string }[];
    expect(data.map((u) => u.UserName)).toEqual(['ua-admin']);
    expect((await call(support, 'GET', '/api/users/getByRole/Janitor')).statusCode).toBe(400);
  });

  it("audits every read of a member's login (list, by id, by role), one users.member.read row per member", async () => {
    const member = await makeUser(server, { userName: 'ua-read-member', roles: ['CareGuard', 'Broker'], brand: 'card', member: true });
    const memberId = member.memberId as number;
    const reads = async () => {
      await server.flushAudit();
      return (
        (
          await sql().query<{ n: number }>(
            `SELECT count(*)::int AS n FROM audit_log WHERE action = 'users.member.read' AND member_id = $1 AND entity = 'member' AND entity_id = $2 AND actor_name = 'ua-support'`,
            [memberId, String(memberId)],
          )
        )[0]?.n ?? 0
      );
    };
    expect(await reads()).toBe(0);
    const list = (await ok(support, 'GET', `${UsersApi.get.path}?filter=${encodeURIComponent(JSON.stringify({ UserName: 'ua-read-member' }))}`)).Data;
    expect(list.Items.map((u: { MemberId: number | null }) => u.MemberId)).toEqual([memberId]);
    expect(await reads()).toBe(1);
    expect((await ok(support, 'GET', `/api/users/getById/${member.userId}`)).Data.MemberId).toBe(memberId);
    expect(await reads()).toBe(2);
    const byRole = (await ok(support, 'GET', '/api/users/getByRole/Broker')).Data as { MemberId: number | null }[];
    expect(byRole.some((u) => u.MemberId === memberId)).toBe(true);
    expect(await reads()).toBe(3);
    // A staff login is no member data: reading one writes no member read row.
    const before = (await sql().query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'users.member.read'`))[0]?.n;
    await ok(support, 'GET', `/api/users/getById/${adminId}`);
    await server.flushAudit();
    expect((await sql().query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'users.member.read'`))[0]?.n).toBe(before);
  });

  it("sends a member's activation e-mail from the staff site under the member's brand, linking to the member's site", async () => {
    const member = await makeUser(server, { userName: 'ua-card-inactive', roles: ['CareGuard'], brand: 'card', member: true, isActive: false });
    await ok(support, 'POST', UsersApi.activate.path, { Id: member.userId });
    await server.jobs.drain();
    const mail = await latestMailTo(sandboxUrl, 'ua-card-inactive@example.com');
    expect(mail.brand).toBe('card');
    expect(mail.from).toBe('"Amethyst Card" <support@card.example.com>');
    expect(linksIn(mail).find((l) => l.includes('/login/activate/'))).toMatch(/^http:\/\/card\.localhost(:\d+)?\/login\/activate\/[\w-]{40,}$/);
  });

  it('sends the activation e-mail through the account link; the user activates and signs in', async () => {
    const { user } = await newUser();
    const res = await ok(support, 'POST', UsersApi.activate.path, { Id: user.Id });
    expect(res.MsgText).toBe(String(UsersMessages.activationSent(user.UserName)));
    await server.jobs.drain();
    const mail = await latestMailTo(sandboxUrl, user.UserName);
    expect(mail.subject).toContain('Activate your');
    const link = linksIn(mail).find((l) => l.includes('/login/activate/')) ?? '';
    expect(link).toMatch(/^http:\/\/staff\.localhost\/login\/activate\/[\w-]{40,}$/);
    const urlId = link.split('/').pop() ?? '';
    const password = 'Fresh$Pass42';
    const activated = await server.app.inject({
      method: 'POST',
      url: AccountApi.activate.path,
      headers: { host: 'staff.localhost' },
      payload: {
        UrlID: urlId,
        Password: password,
        ConfirmPassword: password,
        Questions: [
          { Id: 1, AnswerText: 'Rex' },
          { Id: 2, AnswerText: 'Reno' },
        ],
      },
    });
    expect(activated.statusCode, activated.body).toBe(200);
    await signIn(server, user.UserName, password);
    const again = await call(support, 'POST', UsersApi.activate.path, { Id: user.Id });
    expect(again.statusCode).toBe(409);
    expect(again.json().MsgText).toBe('This account is already active; the user can sign in, or use Forgot Password.');
    // A closed login (support ended the member's access) is said to be closed, not active.
    await sql().query('UPDATE users SET closed_at = now() WHERE id = $1', [user.Id]);
    const closed = await call(support, 'POST', UsersApi.activate.path, { Id: user.Id });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().MsgText).toBe('This account has been closed; reopen it (reactivate the member) before sending an activation link.');
    await sql().query('UPDATE users SET closed_at = NULL WHERE id = $1', [user.Id]);
    const audit = await sql().query("SELECT 1 FROM audit_log WHERE action IN ('users.activation.send', 'account.activation.link') AND entity_id = $1", [
      user.Id,
    ]);
    expect(audit).toHaveLength(2);
  });

  it('ends the activation and reset links mailed to the old address when a contact change renames the user; a new activation goes to the new address', async () => {
    const { user, company, contact: wrong } = await newUser(support, true);
    await ok(support, 'POST', UsersApi.activate.path, { Id: user.Id });
    // A reset link issued before the change (the sign-in's Forgot Password) ends the same way.
    await sql().query(`INSERT INTO account_links (token_hash, purpose, user_id, expires_at) VALUES ($1, 'reset', $2, now() + interval '1 hour')`, [
      `ua-reset-${user.Id}`,
      user.Id,
    ]);
    await server.jobs.drain();
    const oldLink = (linksIn(await latestMailTo(sandboxUrl, wrong.Email)).find((l) => l.includes('/login/activate/')) ?? '').split('/').pop() ?? '';
    const right = (await companyWithContacts(1)).contacts[otherCursor++];
    if (!right) throw new Error('out of contacts');
    const changed = await ok(support, 'POST', UsersApi.save.path, { ...user, CompanyId: company.Id, ContactId: right.Id });
    expect(changed.Data.UserName).toBe(right.Email);
    const live = await sql().query("SELECT purpose FROM account_links WHERE user_id = $1 AND purpose IN ('activate', 'reset') AND used_at IS NULL", [user.Id]);
    expect(live).toEqual([]);
    const activate = (urlId: string, password: string) =>
      server.app.inject({
        method: 'POST',
        url: AccountApi.activate.path,
        headers: { host: 'staff.localhost' },
        payload: {
          UrlID: urlId,
          Password: password,
          ConfirmPassword: password,
          Questions: [
            { Id: 1, AnswerText: 'Rex' },
            { Id: 2, AnswerText: 'Reno' },
          ],
        },
      });
    const refused = await activate(oldLink, 'Wrong$Person9');
    expect(refused.statusCode, refused.body).not.toBe(200);
    expect((await sql().query<{ is_active: boolean }>('SELECT is_active FROM users WHERE id = $1', [user.Id]))[0]?.is_active).toBe(false);
    // The administrator sends the activation again: it goes to the new address, and that link works.
    expect((await ok(support, 'POST', UsersApi.activate.path, { Id: user.Id })).Data.SentTo).toBe(right.Email);
    await server.jobs.drain();
    const newLink = (linksIn(await latestMailTo(sandboxUrl, right.Email)).find((l) => l.includes('/login/activate/')) ?? '').split('/').pop() ?? '';
    const activated = await activate(newLink, 'Right$Person9');
    expect(activated.statusCode, activated.body).toBe(200);
    await signIn(server, right.Email, 'Right$Person9');
  });
});

describe('teams', () => {
  it('creates, renames, reads, lists and deletes a team; names are unique in a company', async () => {
    const { company } = await companyWithContacts();
    const created = (await ok(admin, 'POST', TeamsApi.save.path, { TeamName: 'Night Shift', CompanyId: company.Id })).Data;
    expect(created).toMatchObject({ TeamName: 'Night Shift', CompanyId: company.Id });
    const dup = await call(admin, 'POST', TeamsApi.save.path, { TeamName: 'night shift', CompanyId: company.Id });
    expect(dup.statusCode).toBe(409);
    const renamed = (await ok(admin, 'POST', TeamsApi.save.path, { Id: created.Id, Version: created.Version, TeamName: 'Late Shift', CompanyId: company.Id }))
      .Data;
    expect(renamed).toMatchObject({ TeamName: 'Late Shift', Version: created.Version + 1 });
    expect((await ok(admin, 'GET', `/api/teams/getById/${created.Id}`)).Data.TeamName).toBe('Late Shift');
    expect(((await ok(support, 'GET', `/api/teams/get/${company.Id}`)).Data as { Id: number }[]).map((t) => t.Id)).toContain(created.Id);
    expect((await call(support, 'POST', TeamsApi.save.path, { TeamName: 'Nope', CompanyId: company.Id })).statusCode).toBe(403);
    const { user } = await newUser();
    await ok(admin, 'POST', UsersApi.teamAdd.path, { Id: user.Id, Version: user.Version, Models: { CompanyId: company.Id, Team: { Id: created.Id } } });
    expect((await ok(admin, 'POST', TeamsApi.delete.path, { Id: created.Id, Version: renamed.Version })).MsgText).toBe(
      String(UsersMessages.teamDeleted('Late Shift')),
    );
    expect((await call(admin, 'GET', `/api/teams/getById/${created.Id}`)).statusCode).toBe(404);
    expect((await ok(admin, 'GET', `/api/users/team/get/${user.Id}`)).Data.Models).toEqual([]);
    const audit = await sql().query<{ detail: { before: { members: string[] } } }>(
      "SELECT detail FROM audit_log WHERE action = 'users.team.delete' AND entity_id = $1",
      [String(created.Id)],
    );
    expect(audit[0]?.detail.before.members).toEqual([user.Id]);
  });

  it("refuses a rename or delete of a team holding someone who outranks the caller; a delete moves each member's Version", async () => {
    const { company } = await companyWithContacts();
    const high = await makeUser(server, { userName: 'ua-team-admin', roles: ['CareSupport', 'SystemAdmin'], brand: 'staff' });
    await sql().query('UPDATE users SET company_id = $2 WHERE id = $1', [high.userId, company.Id]);
    const team = (await ok(admin, 'POST', TeamsApi.save.path, { TeamName: 'Admins only', CompanyId: company.Id })).Data;
    await ok(admin, 'POST', UsersApi.teamAdd.path, {
      Id: high.userId,
      Version: await version(high.userId),
      Models: { CompanyId: company.Id, Team: { Id: team.Id } },
    });
    const rename = await call(lead, 'POST', TeamsApi.save.path, { Id: team.Id, Version: team.Version, TeamName: 'Renamed by lead', CompanyId: company.Id });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().MsgText).toBe(UsersMessages.teamOutranked);
    const remove = await call(lead, 'POST', TeamsApi.delete.path, { Id: team.Id, Version: team.Version });
    expect(remove.statusCode).toBe(403);
    expect(remove.json().MsgText).toBe(UsersMessages.teamOutranked);
    expect((await ok(admin, 'GET', `/api/teams/getById/${team.Id}`)).Data).toMatchObject({ TeamName: 'Admins only', Version: team.Version });
    // A SystemAdmin may; the member's Version moves with the team they lost.
    const before = await version(high.userId);
    await ok(admin, 'POST', TeamsApi.delete.path, { Id: team.Id, Version: team.Version });
    expect(await version(high.userId)).toBe(before + 1);
    expect((await ok(admin, 'GET', `/api/users/team/get/${high.userId}`)).Data.Models).toEqual([]);
  });

  it("refuses a rename or delete made from an old view of the team (409), and a rename or delete without the team's Version (400): the other change stays", async () => {
    const { company } = await companyWithContacts();
    const created = (await ok(admin, 'POST', TeamsApi.save.path, { TeamName: 'Day Shift', CompanyId: company.Id })).Data;
    const rename = (TeamName: string, Version?: number) =>
      call(admin, 'POST', TeamsApi.save.path, { Id: created.Id, Version, TeamName, CompanyId: company.Id });
    const missing = await rename('Early Shift');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().MsgText).toBe(UsersMessages.teamVersionRequired);
    // Two administrators opened the team at the same Version: the first rename lands, the second is refused.
    expect((await rename('Early Shift', created.Version)).statusCode).toBe(200);
    const second = await rename('Morning Shift', created.Version);
    expect(second.statusCode).toBe(409);
    expect(second.json().MsgText).toBe(UsersMessages.teamStale);
    const stored = (await ok(admin, 'GET', `/api/teams/getById/${created.Id}`)).Data;
    expect(stored).toMatchObject({ TeamName: 'Early Shift', Version: created.Version + 1 });
    // A delete names the Version it saw: without one it is refused (400) and the team stays, whatever changed since.
    for (const Version of [undefined, null, 'x']) {
      const unversioned = await call(admin, 'POST', TeamsApi.delete.path, { Id: created.Id, Version });
      expect(unversioned.statusCode, String(Version)).toBe(400);
      expect(unversioned.json().MsgText, String(Version)).toMatch(/^body\.Version: /);
    }
    expect((await call(admin, 'POST', TeamsApi.delete.path, { Id: created.Id })).json().MsgText).toBe(
      `body.Version: ${UsersMessages.teamDeleteVersionRequired}`,
    );
    expect((await ok(admin, 'GET', `/api/teams/getById/${created.Id}`)).Data).toMatchObject({ TeamName: 'Early Shift', Version: created.Version + 1 });
    // A delete from the view before the rename is refused too; from the current view it goes through.
    const staleDelete = await call(admin, 'POST', TeamsApi.delete.path, { Id: created.Id, Version: created.Version });
    expect(staleDelete.statusCode).toBe(409);
    expect((await call(admin, 'GET', `/api/teams/getById/${created.Id}`)).statusCode).toBe(200);
    expect((await ok(admin, 'POST', TeamsApi.delete.path, { Id: created.Id, Version: stored.Version })).MsgText).toBe(
      String(UsersMessages.teamDeleted('Early Shift')),
    );
    const updates = await sql().query<{ detail: { after: { TeamName: string } } }>(
      "SELECT detail FROM audit_log WHERE action = 'users.team.update' AND entity_id = $1",
      [String(created.Id)],
    );
    expect(updates.map((u) => u.detail.after.TeamName)).toEqual(['Early Shift']);
  });

  it('assigns a team once: a duplicate assignment is ignored', async () => {
    const { user, company } = await newUser();
    const teams = (await ok(admin, 'GET', `/api/teams/get/${company.Id}`)).Data as { Id: number; TeamName: string }[];
    const team = teams[0];
    if (!team) throw new Error('no team');
    const body = (v: number) => ({ Id: user.Id, Version: v, Models: { CompanyId: company.Id, Team: { Id: team.Id, TeamName: team.TeamName } } });
    const first = await ok(admin, 'POST', UsersApi.teamAdd.path, body(user.Version));
    expect(first.Data.Models).toEqual([{ Id: team.Id, TeamName: team.TeamName }]);
    const second = await ok(admin, 'POST', UsersApi.teamAdd.path, body(first.Data.Version));
    expect(second.MsgText).toBe(String(UsersMessages.teamAlready(team.TeamName)));
    expect(second.Data.Models).toEqual([{ Id: team.Id, TeamName: team.TeamName }]);
    expect(second.Data.Version).toBe(first.Data.Version);
    expect((await sql().query('SELECT 1 FROM users_team_members WHERE user_id = $1', [user.Id])).length).toBe(1);
    const removed = await ok(admin, 'POST', UsersApi.teamRemove.path, body(second.Data.Version));
    expect(removed.Data.Models).toEqual([]);
    expect((await call(admin, 'POST', UsersApi.teamRemove.path, body(removed.Data.Version))).statusCode).toBe(400);
  });

  /** Two new teams of the user's company, named apart from every other test's. */
  const twoTeams = async (companyId: number) => {
    const tag = randomUUID().slice(0, 8);
    const make = async (name: string) =>
      (await ok(admin, 'POST', TeamsApi.save.path, { TeamName: `${name} ${tag}`, CompanyId: companyId })).Data as { Id: number };
    return [await make('Stale A'), await make('Stale B')] as const;
  };
  const teamIdsOf = async (userId: string) =>
    (await sql().query<{ team_id: number }>('SELECT team_id FROM users_team_members WHERE user_id = $1 ORDER BY team_id', [userId])).map((r) => r.team_id);
  const teamAudits = async (action: string, userId: string) =>
    (await sql().query("SELECT 1 FROM audit_log WHERE action = $1 AND entity_id = $2 AND outcome = 'success'", [action, userId])).length;

  it("refuses a team assignment sent with the user's Version from before a save (stale, 409): the team stays unassigned, the Version unmoved, nothing audited", async () => {
    const { user, company } = await newUser(support, true);
    const [a, b] = await twoTeams(company.Id);
    const add = (teamId: number, v: number) =>
      call(admin, 'POST', UsersApi.teamAdd.path, { Id: user.Id, Version: v, Models: { CompanyId: company.Id, Team: { Id: teamId } } });
    const saved = await add(a.Id, user.Version);
    expect(saved.statusCode, saved.body).toBe(200);
    const savedVersion = saved.json().Data.Version as number;
    expect(savedVersion).toBe(user.Version + 1);
    // The first Version sent again (a page opened before the save): another team, so the duplicate rule does not answer first.
    const stale = await add(b.Id, user.Version);
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().MsgText).toBe(UsersMessages.stale);
    expect(await teamIdsOf(user.Id)).toEqual([a.Id]);
    expect(await version(user.Id)).toBe(savedVersion);
    expect(await teamAudits('users.team.add', user.Id)).toBe(1);
  });

  it("refuses a team removal sent with the user's Version from before a save (stale, 409): the team stays assigned, the Version unmoved, nothing audited", async () => {
    const { user, company } = await newUser(support, true);
    const [a, b] = await twoTeams(company.Id);
    const change = (path: string, teamId: number, v: number) =>
      call(admin, 'POST', path, { Id: user.Id, Version: v, Models: { CompanyId: company.Id, Team: { Id: teamId } } });
    const v1 = (await change(UsersApi.teamAdd.path, a.Id, user.Version)).json().Data.Version as number;
    const v2 = (await change(UsersApi.teamAdd.path, b.Id, v1)).json().Data.Version as number;
    const removed = await change(UsersApi.teamRemove.path, a.Id, v2);
    expect(removed.statusCode, removed.body).toBe(200);
    const v3 = removed.json().Data.Version as number;
    expect(v3).toBe(v2 + 1);
    // The Version before the removal sent again, removing the other team.
    const stale = await change(UsersApi.teamRemove.path, b.Id, v2);
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().MsgText).toBe(UsersMessages.stale);
    expect(await teamIdsOf(user.Id)).toEqual([b.Id]);
    expect(await version(user.Id)).toBe(v3);
    expect(await teamAudits('users.team.remove', user.Id)).toBe(1);
  });

  it("refuses a team of another company than the user's, and a plain CareSupport", async () => {
    const { user } = await newUser();
    const companies = (await ok(support, 'GET', UsersApi.companies.path)).Data as { Id: number }[];
    const other = companies.find((c) => c.Id !== user.CompanyId);
    if (!other) throw new Error('no other company');
    const otherTeam = ((await ok(admin, 'GET', `/api/teams/get/${other.Id}`)).Data as { Id: number }[])[0];
    const res = await call(admin, 'POST', UsersApi.teamAdd.path, {
      Id: user.Id,
      Version: user.Version,
      Models: { CompanyId: other.Id, Team: { Id: otherTeam?.Id } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe(UsersMessages.teamOtherCompany);
    const plain = await call(support, 'POST', UsersApi.teamAdd.path, {
      Id: user.Id,
      Version: user.Version,
      Models: { CompanyId: other.Id, Team: { Id: otherTeam?.Id } },
    });
    expect(plain.statusCode).toBe(403);
  });
});

describe('quotas', () => {
  it('saves monthly quotas and reads twelve months back', async () => {
    const { user } = await newUser();
    const res = await ok(lead, 'POST', UsersApi.quotaSave.path, {
      Id: user.Id,
      Version: user.Version,
      Models: [
        { MonthNumber: 1, MinimumCases: 5, MaximumCases: 10 },
        { MonthNumber: 2, MinimumCases: 0, MaximumCases: 0 },
        { MonthNumber: 3, MinimumCases: 7, MaximumCases: 7 },
      ],
    });
    expect(res.MsgText).toBe(UsersMessages.quotasSaved);
    const got = (await ok(support, 'GET', `/api/users/quota/get/${user.Id}`)).Data;
    expect(got.Version).toBe(user.Version + 1);
    expect(got.Models).toHaveLength(12);
    expect(got.Models.slice(0, 4)).toEqual([
      { MonthNumber: 1, MinimumCases: 5, MaximumCases: 10 },
      { MonthNumber: 2, MinimumCases: 0, MaximumCases: 0 },
      { MonthNumber: 3, MinimumCases: 7, MaximumCases: 7 },
      { MonthNumber: 4, MinimumCases: null, MaximumCases: null },
    ]);
    const cleared = await ok(lead, 'POST', UsersApi.quotaSave.path, {
      Id: user.Id,
      Version: got.Version,
      Models: [{ MonthNumber: 2, MinimumCases: null, MaximumCases: null }],
    });
    expect(cleared.Data.Models[1]).toEqual({ MonthNumber: 2, MinimumCases: null, MaximumCases: null });
    const audit = await sql().query<{ detail: { before: unknown[]; after: unknown[] } }>(
      "SELECT detail FROM audit_log WHERE action = 'users.quota.save' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [user.Id],
    );
    expect(audit[0]?.detail).toEqual({
      before: [{ MonthNumber: 2, MinimumCases: 0, MaximumCases: 0 }],
      after: [{ MonthNumber: 2, MinimumCases: null, MaximumCases: null }],
    });
  });

  it.each([
    ['a minimum above the maximum', { MonthNumber: 1, MinimumCases: 11, MaximumCases: 10 }, 'The minimum number of cases cannot be more than the maximum.'],
    ['a negative number', { MonthNumber: 1, MinimumCases: -1, MaximumCases: 10 }, 'cannot be negative'],
    ['a fraction', { MonthNumber: 1, MinimumCases: 1.5, MaximumCases: 10 }, 'must be a whole number'],
    ['text', { MonthNumber: 1, MinimumCases: '3', MaximumCases: 10 }, 'must be a whole number'],
    ['only one number', { MonthNumber: 1, MinimumCases: 3, MaximumCases: null }, 'Enter both the minimum and the maximum, or neither.'],
    ['month 13', { MonthNumber: 13, MinimumCases: 1, MaximumCases: 2 }, 'MonthNumber must be 1 to 12'],
  ])('refuses %s and changes nothing', async (_label, quota, message) => {
    const { user } = await newUser();
    const res = await call(admin, 'POST', UsersApi.quotaSave.path, { Id: user.Id, Version: user.Version, Models: [quota] });
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toContain(message);
    expect(await version(user.Id)).toBe(user.Version);
    expect(await sql().query('SELECT 1 FROM users_quotas WHERE user_id = $1', [user.Id])).toEqual([]);
  });

  it('refuses a month given twice, a stale Version (409) and a plain CareSupport (403)', async () => {
    const { user } = await newUser();
    const q = { MonthNumber: 1, MinimumCases: 1, MaximumCases: 2 };
    expect((await call(admin, 'POST', UsersApi.quotaSave.path, { Id: user.Id, Version: user.Version, Models: [q, q] })).statusCode).toBe(400);
    const stale = await call(admin, 'POST', UsersApi.quotaSave.path, { Id: user.Id, Version: user.Version - 1, Models: [q] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().MsgText).toBe(UsersMessages.stale);
    expect((await call(support, 'POST', UsersApi.quotaSave.path, { Id: user.Id, Version: user.Version, Models: [q] })).statusCode).toBe(403);
    expect(await sql().query('SELECT 1 FROM users_quotas WHERE user_id = $1', [user.Id])).toEqual([]);
  });
});

describe('roles', () => {
  const saveRoles = (s: Session, id: string, v: number, roles: number[]) =>
    call(s, 'POST', UsersApi.roleSave.path, { Id: id, Version: v, Models: { Roles: roles } });

  it('saves an allowed set, reads it back with IsSelected, and audits before and after', async () => {
    const { user } = await newUser();
    const res = await saveRoles(admin, user.Id, user.Version, [ROLE_ID.SystemAdmin, ROLE_ID.Broker]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await rolesOf(user.Id)).toEqual(['Broker', 'SystemAdmin']);
    const got = (await ok(support, 'GET', `/api/users/role/get/${user.Id}`)).Data;
    expect(got.Models.ContactId).toBe(user.ContactId);
    expect(got.Models.Roles).toEqual([
      { Id: 1, Key: 'SystemAdmin', IsSelected: true },
      { Id: 2, Key: 'Adjuster', IsSelected: false },
      { Id: 3, Key: 'Broker', IsSelected: true },
      { Id: 4, Key: 'TeamLead', IsSelected: false },
    ]);
    const second = await saveRoles(admin, user.Id, got.Version, [ROLE_ID.Adjuster, ROLE_ID.TeamLead]);
    expect(second.statusCode, second.body).toBe(200);
    expect(await rolesOf(user.Id)).toEqual(['Adjuster', 'TeamLead']);
    const audit = await sql().query<{ detail: unknown }>(
      "SELECT detail FROM audit_log WHERE action = 'users.role.save' AND entity_id = $1 AND outcome = 'success' ORDER BY id",
      [user.Id],
    );
    expect(audit.map((a) => a.detail)).toEqual([
      { before: [], after: ['SystemAdmin', 'Broker'] },
      { before: ['Broker', 'SystemAdmin'], after: ['Adjuster', 'TeamLead'] },
    ]);
  });

  it('rule 1: SystemAdmin keeps only Broker (SystemAdmin with TeamLead is refused, not rewritten)', async () => {
    const { user } = await newUser();
    const res = await saveRoles(admin, user.Id, user.Version, [ROLE_ID.SystemAdmin, ROLE_ID.TeamLead]);
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe('SystemAdmin cannot be combined with TeamLead (only with Broker).');
    expect(await rolesOf(user.Id)).toEqual([]);
    expect(await version(user.Id)).toBe(user.Version);
  });

  it('rule 2: Adjuster keeps only TeamLead (Adjuster with SystemAdmin is refused)', async () => {
    const { user } = await newUser();
    const res = await saveRoles(admin, user.Id, user.Version, [ROLE_ID.Adjuster, ROLE_ID.SystemAdmin]);
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toContain('Adjuster cannot be combined with SystemAdmin (only with TeamLead).');
    expect(await rolesOf(user.Id)).toEqual([]);
  });

  it('rule 3: Broker clears Adjuster (Broker with Adjuster is refused)', async () => {
    const { user } = await newUser();
    const res = await saveRoles(admin, user.Id, user.Version, [ROLE_ID.Broker, ROLE_ID.Adjuster]);
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toContain('Broker cannot be combined with Adjuster (only with SystemAdmin or TeamLead).');
    expect(await rolesOf(user.Id)).toEqual([]);
  });

  it('refuses a role escalation: a TeamLead cannot grant SystemAdmin, nor change a SystemAdmin', async () => {
    const { user } = await newUser();
    const res = await saveRoles(lead, user.Id, user.Version, [ROLE_ID.SystemAdmin]);
    expect(res.statusCode).toBe(403);
    expect(res.json().MsgText).toBe(String(UsersMessages.higherRole(['SystemAdmin'])));
    expect(await rolesOf(user.Id)).toEqual([]);
    expect((await saveRoles(lead, user.Id, user.Version, [ROLE_ID.Broker])).statusCode).toBe(200);
    const outranked = await saveRoles(lead, adminId, await version(adminId), []);
    expect(outranked.statusCode).toBe(403);
    expect(outranked.json().MsgText).toBe(UsersMessages.outranked);
    expect(await rolesOf(adminId)).toEqual(['CareSupport', 'SystemAdmin']);
    const refused = await sql().query("SELECT 1 FROM audit_log WHERE action = 'users.role.save' AND outcome = 'refused' AND entity_id = $1", [user.Id]);
    expect(refused).toHaveLength(1);
  });

  it("refuses a plain CareSupport and a TeamLead who would re-address a SuperUser's login; a SystemAdmin may", async () => {
    const { company, contacts } = await companyWithContacts();
    const contact = contacts[contactCursor++];
    if (!contact) throw new Error('out of contacts');
    const before = (await sql().query<{ user_name: string }>('SELECT user_name FROM users WHERE id = $1', [superId]))[0]?.user_name;
    const change = () => ({ Id: superId, FirstName: 'Mallory', LastName: 'Reyes', CompanyId: company.Id, ContactId: contact.Id, IsNew: false });
    for (const by of [support, lead]) {
      const res = await call(by, 'POST', UsersApi.save.path, { ...change(), Version: await version(superId) });
      expect(res.statusCode).toBe(403);
      expect(res.json().MsgText).toBe(UsersMessages.outranked);
    }
    expect((await sql().query<{ user_name: string }>('SELECT user_name FROM users WHERE id = $1', [superId]))[0]?.user_name).toBe(before);
    await ok(admin, 'POST', UsersApi.save.path, { ...change(), Version: await version(superId) });
    expect((await sql().query<{ user_name: string }>('SELECT user_name FROM users WHERE id = $1', [superId]))[0]?.user_name).toBe(contact.Email);
  });

  it('refuses a plain CareSupport, your own roles, an unknown role, a foreign ContactId and a stale Version', async () => {
    const { user } = await newUser();
    expect((await saveRoles(support, user.Id, user.Version, [ROLE_ID.Broker])).statusCode).toBe(403);
    const own = await saveRoles(admin, adminId, await version(adminId), [ROLE_ID.SystemAdmin, ROLE_ID.Broker]);
    expect(own.statusCode).toBe(403);
    expect(own.json().MsgText).toBe(UsersMessages.ownRoles);
    expect((await saveRoles(admin, user.Id, user.Version, [99])).statusCode).toBe(400);
    const foreign = await call(admin, 'POST', UsersApi.roleSave.path, { Id: user.Id, Version: user.Version, Models: { ContactId: 999999, Roles: [] } });
    expect(foreign.statusCode).toBe(400);
    const stale = await saveRoles(admin, user.Id, user.Version + 5, [ROLE_ID.Broker]);
    expect(stale.statusCode).toBe(409);
    expect(await rolesOf(user.Id)).toEqual([]);
  });

  it('refuses your own quotas, teams and permissions as your own roles; your own details you may change, whatever your standing', async () => {
    const leadId = (await sql().query<{ id: string }>("SELECT id FROM users WHERE user_name = 'ua-lead'"))[0]?.id ?? '';
    const quotas = await call(lead, 'POST', UsersApi.quotaSave.path, {
      Id: leadId,
      Version: await version(leadId),
      Models: [{ MonthNumber: 1, MinimumCases: 1, MaximumCases: 999 }],
    });
    expect(quotas.statusCode, quotas.body).toBe(403);
    expect(quotas.json().MsgText).toBe(UsersMessages.ownQuotas);
    const { company } = await companyWithContacts();
    const team = (await ok(admin, 'POST', TeamsApi.save.path, { TeamName: 'Self service', CompanyId: company.Id })).Data;
    const teams = await call(lead, 'POST', UsersApi.teamAdd.path, {
      Id: leadId,
      Version: await version(leadId),
      Models: { CompanyId: company.Id, Team: { Id: team.Id } },
    });
    expect(teams.statusCode).toBe(403);
    expect(teams.json().MsgText).toBe(UsersMessages.ownTeams);
    const permissions = await call(admin, 'POST', UsersApi.permissionSave.path, { Id: adminId, Version: await version(adminId), Models: [] });
    expect(permissions.statusCode).toBe(403);
    expect(permissions.json().MsgText).toBe(UsersMessages.ownPermissions);
    const spanish = await server.app.inject({
      method: 'POST',
      url: UsersApi.quotaSave.path,
      headers: authHeaders(lead, 'staff', { cookie: 'cq.lang=es' }),
      payload: { Id: leadId, Version: await version(leadId), Models: [] },
    });
    expect(spanish.json().MsgText).toBe('No puede cambiar sus propias cuotas; pídaselo a otro administrador.');
    // A CareSupport who is also a SuperUser (no administration rank) changes their own details; a plain CareSupport cannot change theirs.
    const { user, contact } = await newUser(support, true);
    await sql().query("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE user_name = 'ua-support'), is_active = true WHERE id = $1", [
      user.Id,
    ]);
    await sql().query("INSERT INTO user_roles (user_id, role) VALUES ($1, 'CareSupport'), ($1, 'SuperUser')", [user.Id]);
    const me = await signIn(server, user.UserName);
    expect((await ok(me, 'GET', `/api/users/getById/${user.Id}`)).Data.Standing).toBe(3);
    const saved = await ok(me, 'POST', UsersApi.save.path, { ...user, FirstName: 'Dina', CompanyId: user.CompanyId, ContactId: contact.Id });
    expect(saved.Data.FirstName).toBe('Dina');
    const other = await call(support, 'POST', UsersApi.save.path, { ...saved.Data, FirstName: 'Dora', ContactId: contact.Id });
    expect(other.statusCode).toBe(403);
    expect(other.json().MsgText).toBe(UsersMessages.outranked);
  });

  it('refuses changes to a member login: those belong to the support member screens', async () => {
    const member = await makeUser(server, { userName: 'ua-member', roles: ['CareGuard'], brand: 'card', member: true });
    const res = await saveRoles(admin, member.userId, await version(member.userId), [ROLE_ID.Broker]);
    expect(res.statusCode).toBe(409);
    expect(res.json().MsgText).toBe(UsersMessages.memberAccount);
  });
});

describe('permissions', () => {
  it('saves and reads permissions; only a SystemAdmin may', async () => {
    const { user } = await newUser();
    expect((await call(lead, 'POST', UsersApi.permissionSave.path, { Id: user.Id, Version: user.Version, Models: [1] })).statusCode).toBe(403);
    const saved = await ok(admin, 'POST', UsersApi.permissionSave.path, { Id: user.Id, Version: user.Version, Models: [1, 5] });
    expect(saved.Data.Models.filter((p: { IsSelected: boolean }) => p.IsSelected).map((p: { Key: string }) => p.Key)).toEqual(['ViewCases', 'ViewReports']);
    const got = (await ok(support, 'GET', `/api/users/permission/get/${user.Id}`)).Data;
    expect(got.Version).toBe(user.Version + 1);
    expect(got.Models).toHaveLength(6);
    expect((await call(admin, 'POST', UsersApi.permissionSave.path, { Id: user.Id, Version: got.Version, Models: [77] })).statusCode).toBe(400);
    const audit = await sql().query<{ detail: unknown }>("SELECT detail FROM audit_log WHERE action = 'users.permission.save' AND entity_id = $1", [user.Id]);
    // Never saved before: the user held every permission (heldPermissions), and now holds only the saved ones.
    const all = ['ViewCases', 'EditCases', 'AssignCases', 'ApproveQuotes', 'ViewReports', 'ExportData'];
    expect(audit.map((a) => a.detail)).toEqual([{ before: all, after: ['ViewCases', 'ViewReports'] }]);
    // Saved empty, they hold none (not every one again).
    const none = await ok(admin, 'POST', UsersApi.permissionSave.path, { Id: user.Id, Version: got.Version, Models: [] });
    expect(none.Data.Models.filter((p: { IsSelected: boolean }) => p.IsSelected)).toEqual([]);
  });
  it("refuses permissions sent with the user's Version from before a save (stale, 409): the saved permissions, the Version and the audit stay", async () => {
    const { user } = await newUser(support, true);
    const saved = await ok(admin, 'POST', UsersApi.permissionSave.path, { Id: user.Id, Version: user.Version, Models: [1, 5] });
    expect(saved.Data.Version).toBe(user.Version + 1);
    const stale = await call(admin, 'POST', UsersApi.permissionSave.path, { Id: user.Id, Version: user.Version, Models: [2] });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().MsgText).toBe(UsersMessages.stale);
    const held = (
      await sql().query<{ permission_id: number }>('SELECT permission_id FROM users_permissions WHERE user_id = $1 ORDER BY permission_id', [user.Id])
    ).map((r) => r.permission_id);
    expect(held).toEqual([1, 5]);
    const got = (await ok(support, 'GET', `/api/users/permission/get/${user.Id}`)).Data;
    expect(got.Version).toBe(saved.Data.Version);
    expect(got.Models.filter((p: { IsSelected: boolean }) => p.IsSelected).map((p: { Key: string }) => p.Key)).toEqual(['ViewCases', 'ViewReports']);
    expect(await sql().query("SELECT 1 FROM audit_log WHERE action = 'users.permission.save' AND entity_id = $1", [user.Id])).toHaveLength(1);
  });
});

describe('messages in Spanish', () => {
  const es = (s: Session, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    server.app.inject({ method, url, headers: authHeaders(s, 'staff', { cookie: 'cq.lang=es' }), payload: payload as object });

  it("writes a new user's activation e-mail in the language chosen for them, else the caller's, and keeps it on a change", async () => {
    const { company, contacts } = await companyWithContacts();
    const create = async (contact: { Id: number } | undefined, language: 'en' | 'es' | undefined, by: typeof ok | typeof es = ok) => {
      if (!contact) throw new Error('out of contacts');
      const body = {
        Id: null,
        FirstName: 'Lucía',
        LastName: 'Peña',
        CompanyId: company.Id,
        ContactId: contact.Id,
        IsNew: true,
        ...(language ? { Language: language } : {}),
      };
      const res = by === ok ? (await ok(admin, 'POST', UsersApi.save.path, body)).Data : (await es(admin, 'POST', UsersApi.save.path, body)).json().Data;
      return res as { Id: string; Version: number; UserName: string; Language: string };
    };
    const chosen = await create(contacts[contactCursor++], 'es');
    expect(chosen.Language).toBe('es');
    const fromCaller = await create(contacts[contactCursor++], undefined, es);
    expect(fromCaller.Language).toBe('es');
    const plain = await create(contacts[contactCursor++], undefined);
    expect(plain.Language).toBe('en');

    await ok(support, 'POST', UsersApi.activate.path, { Id: chosen.Id });
    expect((await latestMailTo(sandboxUrl, chosen.UserName)).subject).toContain('Active su cuenta de');
    await ok(support, 'POST', UsersApi.activate.path, { Id: plain.Id });
    expect((await latestMailTo(sandboxUrl, plain.UserName)).subject).toContain('Activate your');

    // A change without Language keeps it; with one, sets it (audited before and after).
    const kept = (await ok(admin, 'GET', `/api/users/getById/${chosen.Id}`)).Data;
    const renamed = (await ok(admin, 'POST', UsersApi.save.path, { ...kept, FirstName: 'Lucia', Language: undefined })).Data;
    expect(renamed.Language).toBe('es');
    const english = (await ok(admin, 'POST', UsersApi.save.path, { ...renamed, Language: 'en' })).Data;
    expect(english.Language).toBe('en');
    const audit = await sql().query<{ detail: { before: { language: string }; after: { language: string } } }>(
      "SELECT detail FROM audit_log WHERE action = 'users.user.update' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [chosen.Id],
    );
    expect(audit[0]?.detail).toMatchObject({ before: { language: 'es' }, after: { language: 'en' } });
    const refused = await call(admin, 'POST', UsersApi.save.path, { ...english, Language: 'fr' });
    expect(refused.statusCode).toBe(400);
    expect((await ok(admin, 'GET', `/api/users/getById/${chosen.Id}`)).Data).toMatchObject({ Language: 'en', Version: english.Version });
  });

  it('answers errors, refusals with values and toasts in Spanish to a request in Spanish', async () => {
    const { user, company } = await newUser();
    const missing = await es(admin, 'GET', `/api/users/getById/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().MsgText).toBe('El usuario no existe.');
    const teams = (await ok(admin, 'GET', `/api/teams/get/${company.Id}`)).Data as { Id: number; TeamName: string }[];
    const team = teams[0];
    if (!team) throw new Error('no team');
    const added = await es(admin, 'POST', UsersApi.teamAdd.path, {
      Id: user.Id,
      Version: user.Version,
      Models: { CompanyId: company.Id, Team: { Id: team.Id } },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().MsgText).toBe(`El usuario ahora está en el equipo ${team.TeamName}.`);
    const quotas = await es(lead, 'POST', UsersApi.quotaSave.path, {
      Id: user.Id,
      Version: added.json().Data.Version,
      Models: [{ MonthNumber: 1, MinimumCases: 1, MaximumCases: 2 }],
    });
    expect(quotas.json().MsgText).toBe('Las cuotas se han guardado.');
    const combined = await es(admin, 'POST', UsersApi.roleSave.path, { Id: user.Id, Version: await version(user.Id), Models: { Roles: [2, 3] } });
    expect(combined.statusCode).toBe(400);
    expect(combined.json().MsgText).toBe(
      'Adjuster no se puede combinar con Broker (solo con TeamLead). Broker no se puede combinar con Adjuster (solo con SystemAdmin o TeamLead).',
    );
    const escalation = await es(lead, 'POST', UsersApi.roleSave.path, { Id: user.Id, Version: await version(user.Id), Models: { Roles: [1] } });
    expect(escalation.statusCode).toBe(403);
    expect(escalation.json().MsgText).toBe('No puede otorgar ni quitar SystemAdmin: es superior a su propio rol.');
    const needsAdmin = await es(lead, 'POST', UsersApi.permissionSave.path, { Id: user.Id, Version: await version(user.Id), Models: [1] });
    expect(needsAdmin.statusCode).toBe(403);
    expect(needsAdmin.json().MsgText).toBe('Solo un SystemAdmin puede hacer este cambio.');
    const roles = await es(support, 'POST', UsersApi.roleSave.path, { Id: user.Id, Version: await version(user.Id), Models: { Roles: [3] } });
    expect(roles.json().MsgText).toBe('Solo un SystemAdmin o TeamLead puede hacer este cambio.');
  });
});

describe('creates with an IdempotencyKey (a save sent again after its answer was lost)', () => {
  const count = async (table: 'users' | 'users_teams') => (await sql().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n ?? 0;
  const audits = async (action: string, entityId: string) =>
    (await sql().query('SELECT 1 FROM audit_log WHERE action = $1 AND entity_id = $2', [action, entityId])).length;
  /** A new user's save from the next unused contact of the first company. */
  async function newUserBody(extra: Record<string, unknown> = {}) {
    const { company, contacts } = await companyWithContacts();
    const contact = contacts[contactCursor++];
    if (!contact) throw new Error('out of contacts');
    return { Id: null, FirstName: 'Kim', LastName: 'Ortiz', CompanyId: company.Id, ContactId: contact.Id, IsNew: true, Language: 'en', ...extra };
  }

  it('adds a new user once for a key sent twice, answers the same user both times, audits once and sends no mail', async () => {
    const body = await newUserBody({ IdempotencyKey: 'user-key-0001' });
    const before = await count('users');
    const first = await ok(support, 'POST', UsersApi.save.path, body);
    const again = await ok(support, 'POST', UsersApi.save.path, body);
    expect(again).toEqual(first);
    expect(first.MsgText).toBe(UsersMessages.saved);
    expect(await count('users')).toBe(before + 1);
    expect(await audits('users.user.create', first.Data.Id)).toBe(1);
    // Adding a user sends nothing (the activation e-mail is its own call); the replay queued nothing either.
    await server.jobs.drain();
    expect(await mailTo(sandboxUrl, first.Data.UserName)).toEqual([]);
    // Sent again after the user was changed, the key answers the user as it is now, still adding none.
    const changed = (await ok(support, 'POST', UsersApi.save.path, { ...first.Data, FirstName: 'Kym', ContactId: body.ContactId, IdempotencyKey: null })).Data;
    const later = await ok(support, 'POST', UsersApi.save.path, body);
    expect(later.Data).toMatchObject({ Id: first.Data.Id, FirstName: 'Kym', Version: changed.Version });
    expect(await count('users')).toBe(before + 1);
  });

  it("refuses a new user's key sent with another user (409), adding nothing", async () => {
    const body = await newUserBody({ IdempotencyKey: 'user-key-0002' });
    const first = await ok(support, 'POST', UsersApi.save.path, body);
    const before = await count('users');
    const other = await newUserBody({ IdempotencyKey: 'user-key-0002' });
    const reused = await call(support, 'POST', UsersApi.save.path, other);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().MsgText).toBe(CREATE_KEY_REUSED);
    const renamed = await call(support, 'POST', UsersApi.save.path, { ...body, FirstName: 'Kimberly' });
    expect(renamed.statusCode).toBe(409);
    expect(await count('users')).toBe(before);
    expect((await ok(support, 'GET', `/api/users/getById/${first.Data.Id}`)).Data.FirstName).toBe('Kim');
    // The other contact is still free: with a new key it is added.
    expect((await ok(support, 'POST', UsersApi.save.path, { ...other, IdempotencyKey: 'user-key-0003' })).Data.Id).not.toBe(first.Data.Id);
  });

  it('without a key each save adds a user, as before: the same one sent twice is refused as a taken user name', async () => {
    const before = await count('users');
    const body = await newUserBody();
    const first = await ok(support, 'POST', UsersApi.save.path, body);
    const again = await call(support, 'POST', UsersApi.save.path, { ...body, IdempotencyKey: null });
    expect(again.statusCode).toBe(409);
    expect(again.json().MsgText).toBe(String(UsersMessages.nameTaken(first.Data.UserName)));
    const second = await ok(support, 'POST', UsersApi.save.path, await newUserBody({ IdempotencyKey: null }));
    expect(second.Data.Id).not.toBe(first.Data.Id);
    expect(await count('users')).toBe(before + 2);
  });

  it('refuses a key that is no key (400), adding nothing', async () => {
    const before = await count('users');
    const body = await newUserBody();
    for (const bad of ['x', 'has spaces in it', 42, 'k'.repeat(101)]) {
      const res = await call(support, 'POST', UsersApi.save.path, { ...body, IdempotencyKey: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().MsgText, String(bad)).toMatch(/^body\.IdempotencyKey: must be/);
      const team = await call(admin, 'POST', TeamsApi.save.path, { TeamName: 'Keyless', CompanyId: body.CompanyId, IdempotencyKey: bad });
      expect(team.statusCode, String(bad)).toBe(400);
    }
    expect(await count('users')).toBe(before);
    expect((await sql().query("SELECT 1 FROM users_teams WHERE name = 'Keyless'")).length).toBe(0);
  });

  it('adds a new team once for a key sent twice, answering the same team and auditing once; another team with the key is refused', async () => {
    const { company } = await companyWithContacts();
    const body = { TeamName: 'Swing Shift', CompanyId: company.Id, IdempotencyKey: 'team-key-0001' };
    const before = await count('users_teams');
    const first = await ok(admin, 'POST', TeamsApi.save.path, body);
    const again = await ok(admin, 'POST', TeamsApi.save.path, body);
    expect(again).toEqual(first);
    expect(first.MsgText).toBe(UsersMessages.teamSaved);
    expect(await count('users_teams')).toBe(before + 1);
    expect(await audits('users.team.create', String(first.Data.Id))).toBe(1);
    const reused = await call(admin, 'POST', TeamsApi.save.path, { ...body, TeamName: 'Graveyard Shift' });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().MsgText).toBe(CREATE_KEY_REUSED);
    expect((await sql().query("SELECT 1 FROM users_teams WHERE name = 'Graveyard Shift'")).length).toBe(0);
    // A rename is no create: the key is not used, the Version check decides.
    const renamed = await ok(admin, 'POST', TeamsApi.save.path, { ...body, Id: first.Data.Id, Version: first.Data.Version, TeamName: 'Swing Team' });
    expect(renamed.Data).toMatchObject({ Id: first.Data.Id, TeamName: 'Swing Team', Version: first.Data.Version + 1 });
    // The team deleted since: the key's create answers that it is gone, and adds none.
    await ok(admin, 'POST', TeamsApi.delete.path, { Id: first.Data.Id, Version: renamed.Data.Version });
    const gone = await call(admin, 'POST', TeamsApi.save.path, body);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().MsgText).toBe(UsersMessages.teamNotFound);
    expect(await count('users_teams')).toBe(before);
  });

  it('without a key each team create adds, as before: the same one sent twice is refused as a taken name', async () => {
    const { company } = await companyWithContacts();
    const before = await count('users_teams');
    await ok(admin, 'POST', TeamsApi.save.path, { TeamName: 'Relief Shift', CompanyId: company.Id });
    const again = await call(admin, 'POST', TeamsApi.save.path, { TeamName: 'Relief Shift', CompanyId: company.Id, IdempotencyKey: null });
    expect(again.statusCode).toBe(409);
    expect(again.json().MsgText).toBe(String(UsersMessages.teamNameTaken('Relief Shift')));
    await ok(admin, 'POST', TeamsApi.save.path, { TeamName: 'Relief Shift 2', CompanyId: company.Id });
    expect(await count('users_teams')).toBe(before + 2);
  });
});
