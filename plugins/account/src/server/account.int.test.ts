import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildPath } from '@portal/core';
import { latestMailTo, linksIn, mailTo } from '@portal/sandbox';
import {
  BUSY_MESSAGE,
  BUSY_RETRY_SECONDS,
  HASH_SLOTS,
  hashPassword,
  inHashSlot,
  MAIL_SEND_JOB,
  MAX_OTHER_PASSWORD_HASHES,
  sha256,
} from '@portal/server/kernel';
import { deferred } from '@portal/testing/deferred';
import { type SandboxTestEnv, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, signIn, TEST_PASSWORD } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountApi, AccountMessages } from '../contract';
import { StepRefusals } from '../service';
import { saveAnswers, Text } from './common';
import { endEmailChanges, issueLink, LINK_PRUNE_CRON, LINK_PRUNE_JOB, pruneLinks } from './links';
import { ACCOUNT_THROTTLE } from './throttle';

let env: SandboxTestEnv;
beforeAll(async () => {
  env = await startSandboxTestEnv();
});
afterAll(() => env?.close());

const NEW_PASSWORD = 'Fresh$Pass42';
const REG_PASSWORD = 'Test$pass1';
const sql = () => env.server.database.sql;
const uniqueName = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;
const plainName = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}`;
const someIp = () => `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

function register(brand: string, fields: Record<string, string>, ip = someIp()) {
  return env.server.app.inject({
    method: 'POST',
    url: AccountApi.register.path,
    headers: { host: `${brand}.localhost`, 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress: ip,
    payload: new URLSearchParams({ Password: REG_PASSWORD, FirstName: 'Ann', LastName: 'Lee', ...fields }).toString(),
  });
}
const json = (method: 'GET' | 'POST', url: string, payload?: unknown, brand = 'finance', ip = someIp(), headers: Record<string, string> = {}) =>
  env.server.app.inject({ method, url, headers: { host: `${brand}.localhost`, ...headers }, remoteAddress: ip, payload: payload as object });

const urlIdFrom = (link: string, kind: 'activate' | 'reset') => {
  const m = new RegExp(`/login/${kind}/([\\w-]+)$`).exec(link);
  if (!m?.[1]) throw new Error(`no ${kind} link in ${link}`);
  return m[1];
};

async function registerAndGetLink(brand = 'finance') {
  const userName = uniqueName(brand);
  const res = await register(brand, { UserName: userName });
  expect(res.statusCode, res.body).toBe(200);
  await env.server.jobs.drain(); // mail is delivered by a queued job
  const mail = await latestMailTo(env.sandboxUrl, userName);
  const link = linksIn(mail).find((l) => l.includes('/login/activate/'));
  if (!link) throw new Error('no activation link');
  return { userName, mail, link, urlId: urlIdFrom(link, 'activate') };
}

async function userRow(userName: string) {
  const rows = await sql().query<{ id: string; is_active: boolean; registration_step: number; member_id: number | null; email: string | null }>(
    'SELECT id, is_active, registration_step, member_id, email FROM users WHERE lower(user_name) = lower($1)',
    [userName],
  );
  return rows[0] ?? null;
}

const tokenStatus = async (userName: string, password: string) =>
  (
    await env.server.app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'finance.localhost' },
      remoteAddress: someIp(),
      payload: new URLSearchParams({ grant_type: 'password', UserName: userName, Password: password }).toString(),
    })
  ).statusCode;

const activation = (urlId: string, extra: Record<string, unknown> = {}) => ({
  UrlID: urlId,
  Password: NEW_PASSWORD,
  ConfirmPassword: NEW_PASSWORD,
  Questions: [
    { Id: 1, AnswerText: 'Rex' },
    { Id: 4, AnswerText: 'Volvo' },
  ],
  ...extra,
});

describe('registration', () => {
  it.each([
    ['finance', 'CareGuardFinance', true, false],
    ['card', 'CareGuard', true, false],
    ['quote', 'CareQuote', true, false],
    ['assist', 'CareAssist', true, true],
    ['staff', null, false, false],
  ] as const)('on the %s site gives role %s', async (brand, role, member, activeNow) => {
    const userName = uniqueName(brand);
    const res = await register(brand, { UserName: userName, MemberNumber: 'IGNORED', Role: 'SuperUser' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.HasError).toBe(false);
    expect(body.Data).toMatchObject({ UserName: userName, IsActive: activeNow });
    const u = await userRow(userName);
    // Brands with a registration wizard (finance, card, assist) start at step 0, the others complete.
    expect(u).toMatchObject({ is_active: activeNow, registration_step: brand === 'quote' || brand === 'staff' ? 10 : 0, email: userName });
    const roles = await sql().query<{ role: string }>('SELECT role FROM user_roles WHERE user_id = $1', [u?.id]);
    expect(roles.map((r) => r.role)).toEqual(role ? [role] : []);
    if (member) {
      const m = await sql().query<{ member_number: string; brand: string; email: string; first_name: string }>(
        'SELECT member_number, brand, email, first_name FROM members WHERE member_id = $1',
        [u?.member_id],
      );
      expect(m[0]).toMatchObject({ brand, email: userName, first_name: 'Ann' });
      expect(m[0]?.member_number).toMatch(/^R\d{9}$/);
      expect(m[0]?.member_number).toBe(body.Data.MemberNumber);
    } else {
      expect(u?.member_id).toBeNull();
    }
    // Mail goes out through the job queue: once it is drained, a mail that is not in the inbox was never sent.
    await env.server.jobs.drain();
    if (activeNow) {
      // Assist signs in at once and gets no activation mail.
      expect(await tokenStatus(userName, REG_PASSWORD)).toBe(200);
      expect(await mailTo(env.sandboxUrl, userName)).toEqual([]);
    } else {
      const mail = await latestMailTo(env.sandboxUrl, userName);
      expect(mail.brand).toBe(brand);
      expect(mail.subject).toContain('Activate your');
      const link = linksIn(mail).find((l) => l.includes('/login/activate/')) ?? '';
      expect(link).toMatch(new RegExp(`^http://${brand}\\.localhost/login/activate/[\\w-]{40,}$`));
      expect(await tokenStatus(userName, REG_PASSWORD)).toBe(400);
    }
  });

  it('refuses a taken user name with a clear message and creates nothing', async () => {
    const userName = uniqueName('taken');
    expect((await register('finance', { UserName: userName })).statusCode).toBe(200);
    const count = async () =>
      (await sql().query<{ u: number; m: number }>('SELECT (SELECT count(*)::int FROM users) AS u, (SELECT count(*)::int FROM members) AS m'))[0];
    const before = await count();
    const again = await register('card', { UserName: userName.toUpperCase(), FirstName: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ HasError: true, MsgText: expect.stringContaining('is already registered') });
    expect(await count()).toEqual(before);
  });

  it('refuses incomplete requests, names that are not addresses and weak passwords', async () => {
    const missing = await register('finance', { UserName: uniqueName('x'), FirstName: '' });
    expect(missing.statusCode).toBe(400);
    const notMail = await register('finance', { UserName: 'just-a-name' });
    expect(notMail.json().MsgText).toContain('UserName must be an e-mail address');
    const weak = await register('finance', { UserName: uniqueName('weak'), Password: 'password1' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().MsgText).toContain('Not a commonly used password');
  });

  it('keeps the registration step on the server and only raises it', async () => {
    const userName = uniqueName('steps');
    await register('assist', { UserName: userName });
    const s = await signIn(env.server, userName, REG_PASSWORD);
    const h = authHeaders(s, 'assist');
    const get = async () => (await env.server.app.inject({ method: 'GET', url: AccountApi.registerStatus.path, headers: h })).json().Data;
    const set = async (n: number) => (await env.server.app.inject({ method: 'POST', url: `${AccountApi.registerStatus.path}?status=${n}`, headers: h })).json();
    expect(await get()).toBe(0);
    expect((await set(2)).Data).toBe(2);
    expect((await set(2)).Data).toBe(2);
    // A lower step is refused (409) and leaves the stored one; steps outside 0-4 and 10 are refused (400).
    const lower = await set(1);
    expect(lower).toMatchObject({ HasError: true, MsgText: String(StepRefusals.lower(2)) });
    expect(await get()).toBe(2);
    expect((await set(11)).HasError).toBe(true);
    expect((await set(7)).HasError).toBe(true);
    const noToken = await env.server.app.inject({ method: 'POST', url: `${AccountApi.registerStatus.path}?status=3`, headers: { ...h, 'x-form-token': 'x' } });
    expect(noToken.statusCode).toBe(403);
    const status = await env.server.app.inject({ method: 'POST', url: `${AccountApi.registered.path}?status=false`, headers: h });
    expect(status.json().Data).toEqual({ Registered: false, Step: 2 });
  });

  it('starts accounts of brands without a registration wizard complete', async () => {
    const userName = uniqueName('nowizard');
    await register('quote', { UserName: userName });
    expect((await userRow(userName))?.registration_step).toBe(10);
  });
});

describe('activation', () => {
  it('validates the link, activates once with two questions, then refuses the link', async () => {
    const { userName, mail, urlId } = await registerAndGetLink('finance');
    expect(mail.text).toContain('CareGuard Finance');
    expect(mail.text).toContain('support@finance.example.com');
    const info = await json('GET', buildPath(AccountApi.activateValidate.path, { urlId: urlId }));
    expect(info.json().Data).toMatchObject({ IsValid: true, UrlId: urlId });
    expect(info.json().Data.Questions).toHaveLength(8);

    const done = await json('POST', AccountApi.activate.path, activation(urlId));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ Data: { IsValid: true }, MsgText: AccountMessages.activationSuccess, HasError: false });
    const u = await userRow(userName);
    expect(u?.is_active).toBe(true);
    const answers = await sql().query<{ question_id: number; answer_hash: string }>(
      'SELECT question_id, answer_hash FROM account_security_answers WHERE user_id = $1 ORDER BY 1',
      [u?.id],
    );
    expect(answers.map((a) => a.question_id)).toEqual([1, 4]);
    for (const a of answers) expect(a.answer_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await tokenStatus(userName, NEW_PASSWORD)).toBe(200);

    const again = await json('POST', AccountApi.activate.path, activation(urlId, { Password: 'Other$Pass99', ConfirmPassword: 'Other$Pass99' }));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ HasError: true, MsgText: AccountMessages.activationInvalid, Data: { IsValid: false } });
    expect(await tokenStatus(userName, NEW_PASSWORD)).toBe(200);
    const reread = await json('GET', buildPath(AccountApi.activateValidate.path, { urlId: urlId }));
    expect(reread.json()).toMatchObject({ Data: { IsValid: false, Questions: [] }, MsgText: AccountMessages.activationInvalid });
  });

  it('refuses an expired link and changes nothing', async () => {
    const { userName, urlId } = await registerAndGetLink('quote');
    await sql().query("UPDATE account_links SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE user_name = $1)", [
      userName,
    ]);
    const res = await json('POST', AccountApi.activate.path, activation(urlId), 'quote');
    expect(res.json()).toMatchObject({ HasError: true, MsgText: AccountMessages.activationInvalid });
    expect((await userRow(userName))?.is_active).toBe(false);
    expect(await sql().query('SELECT 1 FROM account_security_answers a JOIN users u ON u.id = a.user_id WHERE u.user_name = $1', [userName])).toEqual([]);
  });

  it('refuses a forged link', async () => {
    const forged = randomBytes(32).toString('base64url');
    const res = await json('POST', AccountApi.activate.path, activation(forged));
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe(AccountMessages.activationInvalid);
    expect((await json('GET', buildPath(AccountApi.activateValidate.path, { urlId: forged }))).json().Data.IsValid).toBe(false);
  });

  it('refuses a bad payload without spending the link', async () => {
    const { userName, urlId } = await registerAndGetLink('card');
    const one = await json('POST', AccountApi.activate.path, activation(urlId, { Questions: [{ Id: 1, AnswerText: 'Rex' }] }), 'card');
    expect(one.statusCode).toBe(400);
    expect(one.json().MsgText).toContain('exactly two security questions');
    const same = await json(
      'POST',
      AccountApi.activate.path,
      activation(urlId, {
        Questions: [
          { Id: 2, AnswerText: 'a' },
          { Id: 2, AnswerText: 'b' },
        ],
      }),
      'card',
    );
    expect(same.statusCode).toBe(400);
    const unknown = await json(
      'POST',
      AccountApi.activate.path,
      activation(urlId, {
        Questions: [
          { Id: 2, AnswerText: 'a' },
          { Id: 99, AnswerText: 'b' },
        ],
      }),
      'card',
    );
    expect(unknown.json().MsgText).toContain('security questions');
    const differ = await json('POST', AccountApi.activate.path, activation(urlId, { ConfirmPassword: 'Nope$1234' }), 'card');
    expect(differ.json().MsgText).toContain('do not match');
    expect((await json('POST', AccountApi.activate.path, activation(urlId), 'card')).json().Data).toEqual({ IsValid: true });
    expect((await userRow(userName))?.is_active).toBe(true);
  });
});

describe('password reset', () => {
  it('mails a reset link, changes the password once and ends the sessions; an unknown name gets the same answer', async () => {
    const userName = plainName('reset');
    await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const session = await signIn(env.server, userName);

    const known = await json('POST', AccountApi.resetSendEmail.path, { UserName: userName });
    const unknown = await json('POST', AccountApi.resetSendEmail.path, { UserName: uniqueName('nobody') });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);

    await env.server.jobs.drain();
    const mail = await latestMailTo(env.sandboxUrl, `${userName}@example.com`);
    expect(mail.subject).toBe('Reset your CareGuard Finance password');
    const link = linksIn(mail).find((l) => l.includes('/login/reset/')) ?? '';
    expect(link).toMatch(/^http:\/\/finance\.localhost\/login\/reset\//);
    const urlId = urlIdFrom(link, 'reset');
    expect((await json('GET', buildPath(AccountApi.resetValidate.path, { urlId: urlId }))).json().Data).toEqual({ IsValid: true, Questions: [], UrlId: urlId });

    const weak = await json('POST', AccountApi.resetPassword.path, { UrlId: urlId, Password: 'short1', ConfirmPassword: 'short1', MemberNumber: '' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().MsgText).toContain('At least 8 characters');

    const done = await json('POST', AccountApi.resetPassword.path, { UrlId: urlId, Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD, MemberNumber: '' });
    expect(done.json()).toMatchObject({ Data: { IsValid: true }, MsgText: AccountMessages.resetSuccess, HasError: false });
    expect(await tokenStatus(userName, TEST_PASSWORD)).toBe(400);
    expect(await tokenStatus(userName, NEW_PASSWORD)).toBe(200);
    const old = await env.server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(session, 'finance') });
    expect(old.statusCode).toBe(401);

    const again = await json('POST', AccountApi.resetPassword.path, {
      UrlId: urlId,
      Password: 'Third$Pass77',
      ConfirmPassword: 'Third$Pass77',
      MemberNumber: '',
    });
    expect(again.json()).toMatchObject({ HasError: true, MsgText: AccountMessages.resetInvalid });
    expect(await tokenStatus(userName, NEW_PASSWORD)).toBe(200);
    expect((await json('GET', buildPath(AccountApi.resetValidate.path, { urlId: urlId }))).json()).toMatchObject({
      Data: { IsValid: false },
      MsgText: AccountMessages.resetInvalid,
    });
  });

  it('refuses expired and forged reset links', async () => {
    const userName = plainName('reset-exp');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareQuote'], member: true, brand: 'quote' });
    await json('POST', AccountApi.resetSendEmail.path, { UserName: userName }, 'quote');
    await env.server.jobs.drain();
    const mail = await latestMailTo(env.sandboxUrl, `${userName}@example.com`);
    const urlId = urlIdFrom(linksIn(mail).find((l) => l.includes('/login/reset/')) ?? '', 'reset');
    await sql().query("UPDATE account_links SET expires_at = now() - interval '1 second' WHERE user_id = $1", [userId]);
    const expired = await json('POST', AccountApi.resetPassword.path, { UrlId: urlId, Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD }, 'quote');
    expect(expired.json().MsgText).toBe(AccountMessages.resetInvalid);
    const forged = await json('POST', AccountApi.resetPassword.path, { UrlId: 'forged-link', Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD }, 'quote');
    expect(forged.json().MsgText).toBe(AccountMessages.resetInvalid);
    expect(await tokenStatus(userName, TEST_PASSWORD)).toBe(200);
  });

  it("asked on another brand's site, the mail is signed by the user's own brand and links to its site (as activation mails are)", async () => {
    const userName = plainName('reset-brand');
    await makeUser(env.server, { userName, roles: ['CareGuard'], member: true, brand: 'card' });
    expect((await json('POST', AccountApi.resetSendEmail.path, { UserName: userName }, 'finance')).statusCode).toBe(200);
    await env.server.jobs.drain();
    const mail = await latestMailTo(env.sandboxUrl, `${userName}@example.com`);
    expect(mail.subject).toBe('Reset your Amethyst Card password');
    expect(mail.from).toContain('Amethyst Card');
    expect(mail.brand).toBe('card');
    expect(mail.text).not.toContain('CareGuard Finance');
    // The card site's address: the server's own port, as an activation mail sent from another site has it.
    expect(linksIn(mail).find((l) => l.includes('/login/reset/'))).toMatch(/^http:\/\/card\.localhost(:\d+)?\/login\/reset\//);
  });

  it('sends a never-activated account a fresh activation link instead', async () => {
    const { userName, mail: first } = await registerAndGetLink('finance');
    await json('POST', AccountApi.resetSendEmail.path, { UserName: userName });
    await env.server.jobs.drain();
    const mail = await latestMailTo(env.sandboxUrl, userName, { afterId: first.id });
    const link = linksIn(mail).find((l) => l.includes('/login/activate/')) ?? '';
    expect((await json('GET', buildPath(AccountApi.activateValidate.path, { urlId: urlIdFrom(link, 'activate') }))).json().Data.IsValid).toBe(true);
  });
});

describe("e-mailed links on a deployment that names its sites' public address (SITE_ADDRESS)", () => {
  let deployed: SandboxTestEnv;
  beforeAll(async () => {
    deployed = await startSandboxTestEnv({ siteAddress: 'https://{marker}.portal.example.com' });
  });
  afterAll(() => deployed?.close());

  it("link to the brand's public site, whatever Host the request came on (a proxy's, a forged one)", async () => {
    const userName = uniqueName('public');
    const registered = await deployed.server.app.inject({
      method: 'POST',
      url: AccountApi.register.path,
      headers: { host: 'card.internal:8080', 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: someIp(),
      payload: new URLSearchParams({ Password: REG_PASSWORD, FirstName: 'Ann', LastName: 'Lee', UserName: userName }).toString(),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const resetFor = plainName('public-reset');
    await makeUser(deployed.server, { userName: resetFor, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const asked = await deployed.server.app.inject({
      method: 'POST',
      url: AccountApi.resetSendEmail.path,
      headers: { host: 'finance.attacker.example' },
      remoteAddress: someIp(),
      payload: { UserName: resetFor },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    await deployed.server.jobs.drain();

    const activation = linksIn(await latestMailTo(deployed.sandboxUrl, userName)).find((l) => l.includes('/login/activate/')) ?? '';
    expect(activation).toMatch(/^https:\/\/card\.portal\.example\.com\/login\/activate\/[\w-]{40,}$/);
    const reset = linksIn(await latestMailTo(deployed.sandboxUrl, `${resetFor}@example.com`)).find((l) => l.includes('/login/reset/')) ?? '';
    expect(reset).toMatch(/^https:\/\/finance\.portal\.example\.com\/login\/reset\/[\w-]{40,}$/);
  });
});

describe('password policy and signed-in changes', () => {
  it('serves rules the client can evaluate', async () => {
    const res = await json('GET', AccountApi.passwordPolicy.path);
    const rules = res.json().Data as { Message: string; Validator: string }[];
    expect(rules.length).toBeGreaterThanOrEqual(5);
    const failing = (p: string) => rules.filter((r) => !new RegExp(r.Validator).test(p)).map((r) => r.Message);
    expect(failing('Abcdef12')).toEqual([]);
    expect(failing('a1!$%@#£€*?&')).toEqual([]);
    expect(failing(`A1${'x'.repeat(62)}`)).toEqual([]);
    expect(failing('short1')).toEqual(['At least 8 characters']);
    expect(failing('abcdefgh')).toEqual(['At least one digit']);
    expect(failing('12345678')).toEqual(['At least one letter']);
    expect(failing('Abcdef1-')).toEqual(['Only letters, digits and ! $ % @ # £ € * ? &']);
    expect(failing('PassWord1')).toEqual(['Not a commonly used password']);
    expect(failing('QWERTY123')).toEqual(['Not a commonly used password']);
    expect(failing('Password1x')).toEqual([]);
    expect(failing(`A1${'x'.repeat(127)}`)).toEqual(['No more than 128 characters']);
  });

  it('changes the password: IsValid false for a wrong old password, true for the right one', async () => {
    const userName = plainName('change');
    await makeUser(env.server, { userName, roles: ['CareGuard'], member: true, brand: 'card' });
    const s = await signIn(env.server, userName);
    const other = await signIn(env.server, userName);
    const h = authHeaders(s, 'card');
    const post = (payload: object) => env.server.app.inject({ method: 'POST', url: AccountApi.updatePassword.path, headers: h, payload });
    const wrong = await post({ OldPassword: 'Wrong-pass-1', Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD });
    expect(wrong.json()).toMatchObject({ Data: { IsValid: false }, HasError: false });
    const weak = await post({ OldPassword: TEST_PASSWORD, Password: 'password', ConfirmPassword: 'password' });
    expect(weak.json().Data.IsValid).toBe(false);
    const ok = await post({ OldPassword: TEST_PASSWORD, Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD });
    expect(ok.json()).toMatchObject({ Data: { IsValid: true }, MsgText: AccountMessages.passwordChanged });
    expect(await tokenStatus(userName, NEW_PASSWORD)).toBe(200);
    // This session goes on; the other one ended.
    expect((await env.server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: h })).statusCode).toBe(200);
    expect((await env.server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(other, 'card') })).statusCode).toBe(401);
    const anon = await json('POST', AccountApi.updatePassword.path, { OldPassword: 'a', Password: 'b', ConfirmPassword: 'b' });
    expect(anon.statusCode).toBe(401);
  });

  it('stores a password change only over the password it checked: of two changes sent at once, the second is refused and the first stays', async () => {
    const userName = plainName('change-race');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareGuard'], member: true, brand: 'card' });
    const h = authHeaders(await signIn(env.server, userName), 'card');
    const change = (to: string) =>
      env.server.app.inject({
        method: 'POST',
        url: AccountApi.updatePassword.path,
        headers: h,
        payload: { OldPassword: TEST_PASSWORD, Password: to, ConfirmPassword: to },
      });
    // Both check the same current password before either stores its own (each hashes twice on the way).
    const [a, b] = await Promise.all([change('First$Pass71'), change('Second$Pass72')]);
    const answers = [a, b].map((r) => r.statusCode).sort();
    expect(answers).toEqual([200, 409]);
    const [won, lost] = a.statusCode === 200 ? ['First$Pass71', b] : ['Second$Pass72', a];
    expect(lost.json()).toMatchObject({ HasError: true, MsgText: Text.passwordChangedMeanwhile });
    expect(await tokenStatus(userName, won)).toBe(200);
    expect(await tokenStatus(userName, won === 'First$Pass71' ? 'Second$Pass72' : 'First$Pass71')).not.toBe(200);
    const audits = await sql().query<{ outcome: string }>(
      `SELECT outcome FROM audit_log WHERE action = 'account.password.change' AND entity_id = $1 ORDER BY id`,
      [userId],
    );
    expect(audits.map((r) => r.outcome).sort()).toEqual(['refused', 'success']);
  });

  it("has every catalogue question in the web namespace's English (word for word) and Spanish", async () => {
    const list = (await json('GET', AccountApi.securityQuestions.path, undefined, 'assist')).json().Data as { Id: number; Text: string }[];
    const strings = (lng: string) => JSON.parse(readFileSync(new URL(`../web/i18n/${lng}.json`, import.meta.url), 'utf8')).securityQuestions;
    const en = strings('en');
    const es = strings('es');
    expect(Object.keys(en).sort()).toEqual(list.map((q) => String(q.Id)).sort());
    for (const q of list) {
      expect(en[q.Id]).toBe(q.Text);
      expect(es[q.Id]).toMatch(/^¿.+\?$/);
    }
  });

  it('lists security questions and saves two answers hashed', async () => {
    const userName = plainName('questions');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareAssist'], member: true, brand: 'assist' });
    const list = (await json('GET', AccountApi.securityQuestions.path, undefined, 'assist')).json().Data;
    expect(list).toHaveLength(8);
    expect(list[0]).toEqual({ Id: 1, Text: 'What was the name of your first pet?' });
    const h = authHeaders(await signIn(env.server, userName), 'assist');
    const save = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateQuestions.path,
      headers: h,
      payload: [
        { Id: 2, AnswerText: 'Boston' },
        { Id: 7, AnswerText: 'Kid' },
      ],
    });
    expect(save.json()).toMatchObject({ HasError: false });
    const rows = await sql().query<{ question_id: number; answer_hash: string }>(
      'SELECT question_id, answer_hash FROM account_security_answers WHERE user_id = $1 ORDER BY 1',
      [userId],
    );
    expect(rows.map((r) => r.question_id)).toEqual([2, 7]);
    expect(rows.some((r) => r.answer_hash.includes('Boston'))).toBe(false);
    const three = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateQuestions.path,
      headers: h,
      payload: [
        { Id: 1, AnswerText: 'a' },
        { Id: 2, AnswerText: 'b' },
        { Id: 3, AnswerText: 'c' },
      ],
    });
    expect(three.statusCode).toBe(400);
    for (const Id of [2_147_483_648, '1e1', '0x2']) {
      const odd = await env.server.app.inject({
        method: 'POST',
        url: AccountApi.updateQuestions.path,
        headers: h,
        payload: [
          { Id, AnswerText: 'a' },
          { Id: 1, AnswerText: 'b' },
        ],
      });
      expect(odd.statusCode, String(Id)).toBe(400);
    }
    const kept = await sql().query<{ question_id: number }>('SELECT question_id FROM account_security_answers WHERE user_id = $1 ORDER BY 1', [userId]);
    expect(kept.map((r) => r.question_id)).toEqual([2, 7]);
  });

  it("changes the signed-in member's e-mail address only with the password and after the new address confirms it", async () => {
    const userName = plainName('email');
    const { userId, memberId } = await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const h = authHeaders(await signIn(env.server, userName), 'finance');
    const newAddress = `${plainName('new')}@example.org`;
    const emails = async () => [
      (await sql().query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]))[0]?.email,
      (await sql().query<{ email: string }>('SELECT email FROM members WHERE member_id = $1', [memberId]))[0]?.email,
    ];
    const before = await emails();
    // The old GET that changed the address at once is gone.
    const oldGet = await env.server.app.inject({ method: 'GET', url: `${AccountApi.updateEmail.path}?email=${encodeURIComponent(newAddress)}`, headers: h });
    expect(oldGet.statusCode).toBe(404);
    // A bearer token alone is not enough: the current password is required, and a wrong one changes nothing.
    const noPassword = await env.server.app.inject({ method: 'POST', url: AccountApi.updateEmail.path, headers: h, payload: { email: newAddress } });
    expect(noPassword.statusCode).toBe(400);
    const wrong = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateEmail.path,
      headers: h,
      payload: { email: newAddress, Password: 'Wrong$Pass1' },
    });
    expect(wrong.statusCode).toBe(400);
    const bad = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateEmail.path,
      headers: h,
      payload: { email: 'not-an-address', Password: TEST_PASSWORD },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().MsgText).toContain('email must be an e-mail address');
    const asked = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateEmail.path,
      headers: h,
      payload: { email: newAddress, Password: TEST_PASSWORD },
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.json().Data).toEqual({ Email: before[0], Pending: newAddress });
    // Until the new address confirms, the account keeps its address (and the reset mail goes there).
    expect(await emails()).toEqual(before);
    await env.server.jobs.drain();
    const confirmation = await latestMailTo(env.sandboxUrl, newAddress);
    const notice = await latestMailTo(env.sandboxUrl, String(before[0]));
    expect(notice.subject).toContain('is being changed');
    const link = linksIn(confirmation).find((l) => l.includes('/login/confirm-email/')) ?? '';
    const urlId = /\/login\/confirm-email\/([\w-]+)$/.exec(link)?.[1] ?? '';
    expect(urlId).not.toBe('');
    const confirmed = await json('POST', AccountApi.confirmEmail.path, { UrlId: urlId });
    expect(confirmed.json()).toMatchObject({ Data: { IsValid: true, Email: newAddress }, HasError: false });
    expect(await emails()).toEqual([newAddress, newAddress]);
    // The link works once.
    const again = await json('POST', AccountApi.confirmEmail.path, { UrlId: urlId });
    expect(again.statusCode).toBe(400);
  });
});

describe('a pending e-mail change and a new password', () => {
  /** Signs in a new member, asks for an e-mail change to `to` and answers the confirmation link's id. */
  async function pendingChange(tag: string) {
    const userName = plainName(tag);
    const { userId } = await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const session = await signIn(env.server, userName);
    const to = `${plainName(`${tag}-evil`)}@attacker.example`;
    const asked = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateEmail.path,
      headers: authHeaders(session, 'finance'),
      payload: { email: to, Password: TEST_PASSWORD },
    });
    expect(asked.statusCode).toBe(200);
    await env.server.jobs.drain();
    const link = linksIn(await latestMailTo(env.sandboxUrl, to)).find((l) => l.includes('/login/confirm-email/')) ?? '';
    const urlId = /\/login\/confirm-email\/([\w-]+)$/.exec(link)?.[1] ?? '';
    expect(urlId).not.toBe('');
    const email = async () => (await sql().query<{ email: string | null }>('SELECT email FROM users WHERE id = $1', [userId]))[0]?.email;
    return { userName, session, urlId, email };
  }

  it('ends the pending change when the owner changes the password: its link no longer confirms the address', async () => {
    const { session, urlId, email } = await pendingChange('email-then-change');
    const before = await email();
    const changed = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updatePassword.path,
      headers: authHeaders(session, 'finance'),
      payload: { OldPassword: TEST_PASSWORD, Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD },
    });
    expect(changed.json().Data.IsValid).toBe(true);
    const confirm = await json('POST', AccountApi.confirmEmail.path, { UrlId: urlId });
    expect(confirm.statusCode).toBe(400);
    expect(await email()).toBe(before);
  });

  it('ends the pending change when the password is reset from a mailed link', async () => {
    const { userName, urlId, email } = await pendingChange('email-then-reset');
    const before = await email();
    expect((await json('POST', AccountApi.resetSendEmail.path, { UserName: userName })).statusCode).toBe(200);
    await env.server.jobs.drain();
    const resetMail = await latestMailTo(env.sandboxUrl, String(before), { subjectIncludes: 'Reset your' });
    const resetLink = linksIn(resetMail).find((l) => l.includes('/login/reset/')) ?? '';
    const reset = await json('POST', AccountApi.resetPassword.path, {
      UrlId: urlIdFrom(resetLink, 'reset'),
      Password: NEW_PASSWORD,
      ConfirmPassword: NEW_PASSWORD,
    });
    expect(reset.json().Data.IsValid).toBe(true);
    expect((await json('POST', AccountApi.confirmEmail.path, { UrlId: urlId })).statusCode).toBe(400);
    expect(await email()).toBe(before);
  });
});

describe('a confirmed e-mail change and reset links', () => {
  it('lets only the newest e-mail change be confirmed: a second request ends the link mailed for the first', async () => {
    const userName = plainName('email-twice');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const h = authHeaders(await signIn(env.server, userName), 'finance');
    const askAndGetLink = async (to: string) => {
      const asked = await env.server.app.inject({
        method: 'POST',
        url: AccountApi.updateEmail.path,
        headers: h,
        payload: { email: to, Password: TEST_PASSWORD },
      });
      expect(asked.statusCode).toBe(200);
      await env.server.jobs.drain();
      const link = linksIn(await latestMailTo(env.sandboxUrl, to)).find((l) => l.includes('/login/confirm-email/')) ?? '';
      return /\/login\/confirm-email\/([\w-]+)$/.exec(link)?.[1] ?? '';
    };
    const typo = await askAndGetLink(`${plainName('typo')}@exmaple.org`);
    const meant = `${plainName('meant')}@example.org`;
    const newest = await askAndGetLink(meant);
    const first = await json('POST', AccountApi.confirmEmail.path, { UrlId: typo });
    expect(first.statusCode).toBe(400);
    expect(first.json().MsgText).toBe('This e-mail confirmation link is not valid. It may have been used already or have expired.');
    expect((await json('POST', AccountApi.confirmEmail.path, { UrlId: newest })).statusCode).toBe(200);
    expect((await sql().query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]))[0]?.email).toBe(meant);
  });

  it('ends the reset links mailed to the old address once the new address is confirmed', async () => {
    const userName = plainName('reset-then-email');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const old = (await sql().query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]))[0]?.email ?? '';
    expect((await json('POST', AccountApi.resetSendEmail.path, { UserName: userName })).statusCode).toBe(200);
    await env.server.jobs.drain();
    const resetId = urlIdFrom(
      linksIn(await latestMailTo(env.sandboxUrl, old, { subjectIncludes: 'Reset your' })).find((l) => l.includes('/login/reset/')) ?? '',
      'reset',
    );
    const to = `${plainName('moved')}@example.org`;
    const h = authHeaders(await signIn(env.server, userName), 'finance');
    expect(
      (await env.server.app.inject({ method: 'POST', url: AccountApi.updateEmail.path, headers: h, payload: { email: to, Password: TEST_PASSWORD } }))
        .statusCode,
    ).toBe(200);
    await env.server.jobs.drain();
    const confirmLink = linksIn(await latestMailTo(env.sandboxUrl, to)).find((l) => l.includes('/login/confirm-email/')) ?? '';
    const urlId = /\/login\/confirm-email\/([\w-]+)$/.exec(confirmLink)?.[1] ?? '';
    expect((await json('POST', AccountApi.confirmEmail.path, { UrlId: urlId })).statusCode).toBe(200);
    const reset = await json('POST', AccountApi.resetPassword.path, { UrlId: resetId, Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD });
    expect(reset.statusCode).toBe(400);
    expect(await tokenStatus(userName, TEST_PASSWORD)).toBe(200);
  });
});

describe('what the database keeps of mailed links', () => {
  it('queues reset, activation and e-mail change mails sealed: once delivered no job row holds a link or an address, and the mails reach the inbox', async () => {
    const activation = await registerAndGetLink();
    const resetName = plainName('sealed-reset');
    await makeUser(env.server, { userName: resetName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    expect((await json('POST', AccountApi.resetSendEmail.path, { UserName: resetName })).statusCode).toBe(200);
    const mover = plainName('sealed-move');
    await makeUser(env.server, { userName: mover, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const to = `${plainName('sealed-new')}@example.org`;
    const asked = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateEmail.path,
      headers: authHeaders(await signIn(env.server, mover), 'finance'),
      payload: { email: to, Password: TEST_PASSWORD },
    });
    expect(asked.statusCode).toBe(200);
    await env.server.jobs.drain();

    const stored = await sql().query<{ t: string | null }>(
      `SELECT string_agg(j::text, ' ') AS t FROM (SELECT data, output FROM pgboss.job WHERE name = $1 UNION ALL SELECT data, output FROM pgboss.archive WHERE name = $1) j`,
      [MAIL_SEND_JOB],
    );
    const text = stored[0]?.t ?? '';
    expect(text).not.toMatch(/\/login\/(reset|activate|confirm-email)\//);
    for (const part of [activation.urlId, activation.userName, resetName, mover, to]) expect(text).not.toContain(part);
    // Delivered all the same.
    expect(linksIn(await latestMailTo(env.sandboxUrl, `${resetName}@example.com`)).some((l) => l.includes('/login/reset/'))).toBe(true);
    expect(linksIn(await latestMailTo(env.sandboxUrl, to)).some((l) => l.includes('/login/confirm-email/'))).toBe(true);
    expect(activation.link).toContain('/login/activate/');
  });

  it("clears an e-mail change's new address once its link is spent, ended or expired, and deletes links 30 days after", async () => {
    const { userId } = await makeUser(env.server, { userName: plainName('links-kept'), roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const row = async (token: string) =>
      (
        await sql().query<{ new_email: string | null; used: boolean }>(
          'SELECT new_email, used_at IS NOT NULL AS used FROM account_links WHERE token_hash = $1',
          [sha256(token)],
        )
      )[0];

    // Confirmed: the confirmed link's address and the older pending one's are cleared at once.
    const older = await issueLink(sql(), userId, 'email', 'older.typo@example.org');
    const newer = await issueLink(sql(), userId, 'email', 'newer@example.org');
    expect(await row(newer)).toEqual({ new_email: 'newer@example.org', used: false });
    expect((await json('POST', AccountApi.confirmEmail.path, { UrlId: newer })).statusCode).toBe(200);
    expect((await sql().query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]))[0]?.email).toBe('newer@example.org');
    expect(await row(newer)).toEqual({ new_email: null, used: true });
    expect(await row(older)).toEqual({ new_email: null, used: true });

    // Ended by a new password: cleared at once.
    const ended = await issueLink(sql(), userId, 'email', 'ended@attacker.example');
    await sql().transaction((tx) => endEmailChanges(tx, userId));
    expect(await row(ended)).toEqual({ new_email: null, used: true });

    // Expired unconfirmed: cleared by the hourly housekeeping; the row stays for now.
    const expired = await issueLink(sql(), userId, 'email', 'expired@attacker.example');
    const live = await issueLink(sql(), userId, 'email', 'pending@example.org');
    await sql().query(`UPDATE account_links SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [sha256(expired)]);
    // Spent or expired more than 30 days ago: deleted; 29 days ago: kept.
    const spentLongAgo = await issueLink(sql(), userId, 'reset');
    const expiredLongAgo = await issueLink(sql(), userId, 'activate');
    const spentLately = await issueLink(sql(), userId, 'reset');
    await sql().query(`UPDATE account_links SET used_at = now() - interval '31 days' WHERE token_hash = $1`, [sha256(spentLongAgo)]);
    await sql().query(`UPDATE account_links SET expires_at = now() - interval '31 days' WHERE token_hash = $1`, [sha256(expiredLongAgo)]);
    await sql().query(`UPDATE account_links SET used_at = now() - interval '29 days' WHERE token_hash = $1`, [sha256(spentLately)]);

    const pruned = await pruneLinks(sql());
    expect(pruned.cleared).toBeGreaterThanOrEqual(1);
    expect(pruned.deleted).toBeGreaterThanOrEqual(2);
    expect(await row(expired)).toEqual({ new_email: null, used: false });
    expect(await row(live)).toEqual({ new_email: 'pending@example.org', used: false });
    expect(await row(spentLongAgo)).toBeUndefined();
    expect(await row(expiredLongAgo)).toBeUndefined();
    expect(await row(spentLately)).toEqual({ new_email: null, used: true });
    expect(await sql().query('SELECT cron FROM pgboss.schedule WHERE name = $1', [LINK_PRUNE_JOB])).toEqual([{ cron: LINK_PRUNE_CRON }]);
  });
});

describe('throttling', () => {
  it('checks at most the allowed number of old passwords when guesses arrive at once', async () => {
    const userName = plainName('guesses');
    await makeUser(env.server, { userName, roles: ['CareGuard'], member: true, brand: 'card' });
    const h = authHeaders(await signIn(env.server, userName), 'card');
    const max = ACCOUNT_THROTTLE.passwordFailuresPerUser.max;
    const guesses = await Promise.all(
      Array.from({ length: max + 10 }, (_, i) =>
        env.server.app.inject({
          method: 'POST',
          url: AccountApi.updatePassword.path,
          headers: h,
          payload: { OldPassword: `Wrong$guess${i}`, Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD },
        }),
      ),
    );
    const statuses = guesses.map((g) => g.statusCode);
    expect(statuses.filter((c) => c === 200)).toHaveLength(max);
    expect(statuses.filter((c) => c === 429)).toHaveLength(10);
    // Even the right password waits now.
    const right = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updatePassword.path,
      headers: h,
      payload: { OldPassword: TEST_PASSWORD, Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD },
    });
    expect(right.statusCode).toBe(429);
    // Each guess counted as an attempt too, so the attempts' limit (checked first) refuses it.
    expect(right.json().MsgText).toMatch(/^Too many password change attempts\. Please try again in \d+ minute\(s\)\.$/);
    // The wrong passwords' count is the user's, whichever change asks for the password: an e-mail change waits too.
    const email = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateEmail.path,
      headers: h,
      payload: { email: `${plainName('after-guesses')}@example.org`, Password: TEST_PASSWORD },
    });
    expect(email.statusCode).toBe(429);
    expect(email.json().MsgText).toMatch(/^Too many wrong passwords were entered\. Please try again in \d+ minute\(s\)\.$/);
  });

  it('limits reset mail per user name, known or not, with the same answer', async () => {
    const name = uniqueName('throttle-unknown');
    const max = ACCOUNT_THROTTLE.resetMailPerName.max;
    for (let i = 0; i < max; i++) expect((await json('POST', AccountApi.resetSendEmail.path, { UserName: name })).statusCode).toBe(200);
    const refused = await json('POST', AccountApi.resetSendEmail.path, { UserName: name });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().MsgText).toMatch(/^Too many password e-mails were requested\. Please try again in \d+ minute\(s\)\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits registrations per address, not counting attempts whose password the policy refuses', async () => {
    const ip = '10.77.0.1';
    const max = ACCOUNT_THROTTLE.registerPerAddress.max;
    // A person mistyping at a shared address: refused for the password each time (400), none counted.
    for (let i = 0; i < max + 2; i++) expect((await register('quote', { UserName: uniqueName('typo'), Password: 'password1' }, ip)).statusCode).toBe(400);
    for (let i = 0; i < max; i++) expect((await register('quote', { UserName: uniqueName('burst') }, ip)).statusCode).toBe(200);
    const name = uniqueName('burst');
    const refused = await register('quote', { UserName: name }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().MsgText).toContain('Too many registration attempts');
    expect(await userRow(name)).toBeNull();
    expect((await register('quote', { UserName: name }, '10.77.0.2')).statusCode).toBe(200);
  });

  it('limits registrations per user name', async () => {
    const name = uniqueName('same-name');
    const max = ACCOUNT_THROTTLE.registerPerName.max;
    expect((await register('finance', { UserName: name })).statusCode).toBe(200);
    for (let i = 1; i < max; i++) expect((await register('finance', { UserName: name })).statusCode).toBe(409);
    expect((await register('finance', { UserName: name })).statusCode).toBe(429);
  });
});

describe('per-user limits on signed-in changes that hash or mail', () => {
  const post = (url: string, headers: Record<string, string>, payload: unknown) =>
    env.server.app.inject({ method: 'POST', url, headers, payload: payload as object });
  const answers = async (userId: string) =>
    sql().query<{ question_id: number; answer_hash: string }>('SELECT question_id, answer_hash FROM account_security_answers WHERE user_id = $1 ORDER BY 1', [
      userId,
    ]);

  it('limits security-question saves per user: the one past the limit is refused with 429 and saves nothing', async () => {
    const userName = plainName('questions-burst');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareAssist'], member: true, brand: 'assist' });
    const h = authHeaders(await signIn(env.server, userName), 'assist');
    const max = ACCOUNT_THROTTLE.questionChangesPerUser.max;
    expect(max).toBe(10);
    for (let i = 0; i < max; i++) {
      const saved = await post(AccountApi.updateQuestions.path, h, [
        { Id: 1, AnswerText: `Pet ${i}` },
        { Id: 2, AnswerText: `Town ${i}` },
      ]);
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const before = await answers(userId);
    const refused = await post(AccountApi.updateQuestions.path, h, [
      { Id: 3, AnswerText: 'Other' },
      { Id: 4, AnswerText: 'Answers' },
    ]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().MsgText).toMatch(/^Too many changes to your security questions\. Please try again in \d+ minute\(s\)\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await answers(userId)).toEqual(before);
    // The limit is the user's: another user saves.
    const otherName = plainName('questions-other');
    await makeUser(env.server, { userName: otherName, roles: ['CareAssist'], member: true, brand: 'assist' });
    const other = await post(AccountApi.updateQuestions.path, authHeaders(await signIn(env.server, otherName), 'assist'), [
      { Id: 3, AnswerText: 'Other' },
      { Id: 4, AnswerText: 'Answers' },
    ]);
    expect(other.statusCode).toBe(200);
  });

  it('limits password changes per user though each had the right old password: the one past the limit is refused with 429 and changes nothing', async () => {
    const userName = plainName('password-burst');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareGuard'], member: true, brand: 'card' });
    const h = authHeaders(await signIn(env.server, userName), 'card');
    const max = ACCOUNT_THROTTLE.passwordChangesPerUser.max;
    expect(max).toBe(10);
    let current = TEST_PASSWORD;
    for (let i = 0; i < max; i++) {
      const next = i % 2 === 0 ? NEW_PASSWORD : 'Second$Pass7';
      const changed = await post(AccountApi.updatePassword.path, h, { OldPassword: current, Password: next, ConfirmPassword: next });
      expect(changed.json(), changed.body).toMatchObject({ Data: { IsValid: true } });
      current = next;
    }
    const hash = async () => (await sql().query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [userId]))[0]?.password_hash;
    const before = await hash();
    const refused = await post(AccountApi.updatePassword.path, h, { OldPassword: current, Password: 'Third$Pass8', ConfirmPassword: 'Third$Pass8' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().MsgText).toMatch(/^Too many password change attempts\. Please try again in \d+ minute\(s\)\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await hash()).toBe(before);
    expect(await tokenStatus(userName, current)).toBe(200);
    expect(await tokenStatus(userName, 'Third$Pass8')).toBe(400);
    // An attempt refused for the number of changes has no password checked: wrong guesses then never reach the
    // wrong-password limit (10 in 15 minutes), however many come; each one is told the limit that refused it.
    for (let i = 0; i <= ACCOUNT_THROTTLE.passwordFailuresPerUser.max; i++) {
      const guess = await post(AccountApi.updatePassword.path, h, { OldPassword: `Wrong$guess${i}`, Password: 'Third$Pass8', ConfirmPassword: 'Third$Pass8' });
      expect(guess.statusCode).toBe(429);
      expect(guess.json().MsgText).toMatch(/^Too many password change attempts\./);
    }
  });

  it('limits e-mail change requests per user though each had the right password: the one past the limit is refused with 429 and mails nothing', async () => {
    const userName = plainName('email-burst');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const current = (await sql().query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]))[0]?.email ?? '';
    const h = authHeaders(await signIn(env.server, userName), 'finance');
    const max = ACCOUNT_THROTTLE.emailChangesPerUser.max;
    expect(max).toBe(5);
    for (let i = 0; i < max; i++) {
      const asked = await post(AccountApi.updateEmail.path, h, { email: `${plainName(`burst${i}`)}@victim.example`, Password: TEST_PASSWORD });
      expect(asked.statusCode, asked.body).toBe(200);
    }
    await env.server.jobs.drain();
    const links = async () =>
      (await sql().query<{ n: number }>("SELECT count(*)::int AS n FROM account_links WHERE user_id = $1 AND purpose = 'email'", [userId]))[0]?.n;
    const linksBefore = await links();
    const noticesBefore = (await mailTo(env.sandboxUrl, current)).length;
    expect(linksBefore).toBe(max);
    const target = `${plainName('one-more')}@victim.example`;
    const refused = await post(AccountApi.updateEmail.path, h, { email: target, Password: TEST_PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().MsgText).toMatch(/^Too many e-mail address changes were requested\. Please try again in \d+ minute\(s\)\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Said in the caller's language.
    const spanish = await post(AccountApi.updateEmail.path, { ...h, cookie: 'cq.lang=es' }, { email: target, Password: TEST_PASSWORD });
    expect(spanish.statusCode).toBe(429);
    expect(spanish.json().MsgText).toMatch(/^Se solicitaron demasiados cambios de correo electrónico\. Inténtelo de nuevo en \d+ minuto\(s\)\.$/);
    await env.server.jobs.drain();
    expect(await mailTo(env.sandboxUrl, target)).toEqual([]);
    expect(await mailTo(env.sandboxUrl, current)).toHaveLength(noticesBefore);
    expect(await links()).toBe(linksBefore);
  });

  it('answers a save 503 busy at once, saving nothing, while the hashes outside sign-in are all taken', async () => {
    const userName = plainName('questions-busy');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareAssist'], member: true, brand: 'assist' });
    const h = authHeaders(await signIn(env.server, userName), 'assist');
    const before = await answers(userId);
    // Every hash slot held, and the queue of hashes outside sign-in full behind them.
    const gate = deferred();
    const held = Array.from({ length: HASH_SLOTS }, () => inHashSlot(() => gate.promise));
    const queued = Array.from({ length: MAX_OTHER_PASSWORD_HASHES }, (_, i) =>
      hashPassword(`Queued$pass${i}`, { memoryCost: 1024, timeCost: 1, parallelism: 1 }),
    );
    try {
      const busy = await post(AccountApi.updateQuestions.path, h, [
        { Id: 5, AnswerText: 'Busy' },
        { Id: 6, AnswerText: 'Hours' },
      ]);
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe(String(BUSY_RETRY_SECONDS));
      expect(busy.json()).toMatchObject({ HasError: true, MsgText: BUSY_MESSAGE });
    } finally {
      gate.release();
      await Promise.all([...held, ...queued]);
    }
    expect(await answers(userId)).toEqual(before);
  });
});

describe("messages in the user's language", () => {
  const ES = { cookie: 'cq.lang=es' };
  const registerEs = (fields: Record<string, string>) =>
    env.server.app.inject({
      method: 'POST',
      url: AccountApi.register.path,
      headers: { host: 'finance.localhost', 'content-type': 'application/x-www-form-urlencoded', ...ES },
      remoteAddress: someIp(),
      payload: new URLSearchParams({ Password: REG_PASSWORD, FirstName: 'Ana', LastName: 'Ruiz', ...fields }).toString(),
    });

  it('registers in Spanish: refusals with their values, the activation e-mail and the language kept for later e-mails', async () => {
    const weak = await registerEs({ UserName: uniqueName('es-weak'), Password: 'password1' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().MsgText).toBe('La contraseña no cumple la política de contraseñas: Que no sea una contraseña de uso común.');
    const short = await registerEs({ UserName: uniqueName('es-short'), Password: 'abc' });
    expect(short.json().MsgText).toBe('La contraseña no cumple la política de contraseñas: Al menos 8 caracteres; Al menos un dígito.');

    const userName = uniqueName('es-reg');
    expect((await registerEs({ UserName: userName })).statusCode).toBe(200);
    const stored = await sql().query<{ language: string }>('SELECT language FROM users WHERE user_name = $1', [userName]);
    expect(stored[0]?.language).toBe('es');
    await env.server.jobs.drain();
    const mail = await latestMailTo(env.sandboxUrl, userName);
    expect(mail.subject).toBe('Active su cuenta de CareGuard Finance');
    expect(mail.text).toContain('Hola, Ana:');
    expect(mail.text).toContain('Gracias por registrarse en CareGuard Finance.');
    expect(mail.text).toContain('El enlace se puede usar una sola vez y vence en 24 horas.');
    expect(mail.text).toContain('¿Tiene preguntas? Comuníquese con nosotros en support@finance.example.com');
    expect(linksIn(mail).some((l) => l.includes('/login/activate/'))).toBe(true);

    const taken = await registerEs({ UserName: userName });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().MsgText).toBe(
      `El nombre de usuario ${userName} ya está registrado. Inicie sesión o use "¿Olvidó su contraseña?" si no recuerda su contraseña.`,
    );
  });

  it('says link outcomes and the password checklist in Spanish, and mails the reset link in Spanish', async () => {
    const forged = await json('GET', buildPath(AccountApi.activateValidate.path, { urlId: 'forged-es' }), undefined, 'finance', someIp(), ES);
    expect(forged.json()).toMatchObject({ Data: { IsValid: false }, MsgText: 'No se pudo activar la cuenta. Inténtelo de nuevo.' });
    const { urlId } = await registerAndGetLink('finance');
    const done = await json('POST', AccountApi.activate.path, activation(urlId), 'finance', someIp(), ES);
    expect(done.json()).toMatchObject({
      Data: { IsValid: true },
      MsgText: 'Su cuenta se activó correctamente. En 5 segundos lo llevaremos a la página de inicio de sesión.',
    });

    const rules = (await json('GET', AccountApi.passwordPolicy.path, undefined, 'finance', someIp(), ES)).json().Data as { Message: string }[];
    expect(rules.map((r) => r.Message)).toEqual([
      'Al menos 8 caracteres',
      'No más de 128 caracteres',
      'Al menos una letra',
      'Al menos un dígito',
      'Solo letras, dígitos y ! $ % @ # £ € * ? &',
      'Que no sea una contraseña de uso común',
    ]);

    const userName = plainName('es-reset');
    await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    await json('POST', AccountApi.resetSendEmail.path, { UserName: userName }, 'finance', someIp(), ES);
    await env.server.jobs.drain();
    const mail = await latestMailTo(env.sandboxUrl, `${userName}@example.com`);
    expect(mail.subject).toBe('Restablezca su contraseña de CareGuard Finance');
    expect(mail.text).toContain('El enlace se puede usar una sola vez y vence en 1 hora.');
  });

  it('answers signed-in changes in Spanish: a refused step with its value, a saved change and the e-mail change mails', async () => {
    const userName = plainName('es-signed');
    await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const h = authHeaders(await signIn(env.server, userName, TEST_PASSWORD, someIp(), 'finance'), 'finance', ES);
    await sql().query('UPDATE users SET registration_step = 2 WHERE user_name = $1', [userName]);
    const lower = await env.server.app.inject({ method: 'POST', url: `${AccountApi.registerStatus.path}?status=1`, headers: h });
    expect(lower.statusCode).toBe(409);
    expect(lower.json().MsgText).toBe('El paso del registro no puede retroceder: ahora es 2.');

    const wrong = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updatePassword.path,
      headers: h,
      payload: { OldPassword: 'Wrong-pass-1', Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD },
    });
    expect(wrong.json()).toMatchObject({ Data: { IsValid: false }, MsgText: 'La contraseña actual es incorrecta.' });
    const saved = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateQuestions.path,
      headers: h,
      payload: [
        { Id: 1, AnswerText: 'Rex' },
        { Id: 2, AnswerText: 'Lima' },
      ],
    });
    expect(saved.json().MsgText).toBe('Sus preguntas de seguridad se guardaron.');

    const newAddress = `${plainName('es-new')}@example.org`;
    const asked = await env.server.app.inject({
      method: 'POST',
      url: AccountApi.updateEmail.path,
      headers: h,
      payload: { email: newAddress, Password: TEST_PASSWORD },
    });
    expect(asked.json().MsgText).toBe(`Enviamos un enlace de confirmación a ${newAddress}. Su correo electrónico cambiará cuando lo abra.`);
    await env.server.jobs.drain();
    expect((await latestMailTo(env.sandboxUrl, newAddress)).subject).toBe('Confirme su nuevo correo electrónico de CareGuard Finance');
    expect((await latestMailTo(env.sandboxUrl, `${userName}@example.com`)).subject).toBe(
      'Se está cambiando el correo electrónico de su cuenta de CareGuard Finance',
    );
  });

  it("writes an administrator's activation e-mail in the language of the account's user, and answers the administrator in theirs", async () => {
    const userName = plainName('es-staff');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareSupport'], brand: 'staff', isActive: false });
    await sql().query("UPDATE users SET language = 'es' WHERE id = $1", [userId]);
    await makeUser(env.server, { userName: `${userName}-admin`, roles: ['CareSupport', 'SystemAdmin'], brand: 'staff' });
    const admin = await signIn(env.server, `${userName}-admin`, TEST_PASSWORD, someIp(), 'staff');
    const sent = await env.server.app.inject({ method: 'POST', url: '/api/users/activate', headers: authHeaders(admin, 'staff'), payload: { Id: userId } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().MsgText).toContain('has been sent');
    await env.server.jobs.drain();
    const mail = await latestMailTo(env.sandboxUrl, `${userName}@example.com`);
    expect(mail.subject).toBe('Active su cuenta de Portal Staff');
    expect(mail.text).toContain('Hola, Test:');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('security answers saved at once on PostgreSQL (PGlite runs one transaction at a time)', () => {
  it('keeps the last save whole: a save that starts while another is uncommitted waits, then replaces it (two answers, never four)', async () => {
    const { userId } = await makeUser(env.server, { userName: plainName('answers-race'), roles: ['CareGuardFinance'], brand: 'finance' });
    const [first, second] = [
      [1, 2],
      [3, 4],
    ].map((ids) => ids.map((id) => ({ id, hash: `hash-${id}` })));
    const firstHolds = deferred();
    const firstInside = deferred();
    // The first save runs its delete and inserts, then holds its transaction open.
    const one = sql().transaction(async (tx) => {
      await saveAnswers(tx, userId, first as { id: number; hash: string }[]);
      firstInside.release();
      await firstHolds.promise;
    });
    await firstInside.promise;
    // The second starts meanwhile; without the per-user lock its delete sees the table as it was before the first.
    const two = sql().transaction((tx) => saveAnswers(tx, userId, second as { id: number; hash: string }[]));
    await new Promise((resolve) => setTimeout(resolve, 200));
    firstHolds.release();
    await Promise.all([one, two]);
    const rows = await sql().query<{ question_id: number }>('SELECT question_id FROM account_security_answers WHERE user_id = $1 ORDER BY question_id', [
      userId,
    ]);
    expect(rows.map((r) => r.question_id)).toEqual([3, 4]);
  });
});
