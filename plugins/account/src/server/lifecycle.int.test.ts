import { randomBytes } from 'node:crypto';
import { latestMailTo, linksIn, mailTo } from '@portal/sandbox';
import { identityService } from '@portal/server/kernel';
import { type SandboxTestEnv, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, signIn, TEST_PASSWORD } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountApi } from '../contract';
import { Text } from './common';

/** The account's life past registration: reset links against a password change, a closed login, the address it signs in with. */
let env: SandboxTestEnv;
beforeAll(async () => {
  env = await startSandboxTestEnv();
});
afterAll(() => env?.close());

const NEW_PASSWORD = 'Fresh$Pass42';
const sql = () => env.server.database.sql;
const plainName = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}`;
const address = (tag: string) => `${plainName(tag)}@example.com`;
const someIp = () => `10.11.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

const json = (method: 'GET' | 'POST', url: string, payload?: unknown, brand = 'finance', headers: Record<string, string> = {}) =>
  env.server.app.inject({ method, url, headers: { host: `${brand}.localhost`, ...headers }, remoteAddress: someIp(), payload: payload as object });

const token = (userName: string, password: string, brand = 'finance') =>
  env.server.app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: `${brand}.localhost` },
    remoteAddress: someIp(),
    payload: new URLSearchParams({ grant_type: 'password', UserName: userName, Password: password }).toString(),
  });

const register = (brand: string, userName: string) =>
  env.server.app.inject({
    method: 'POST',
    url: AccountApi.register.path,
    headers: { host: `${brand}.localhost`, 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress: someIp(),
    payload: new URLSearchParams({ UserName: userName, Password: 'Test$pass1', FirstName: 'Ann', LastName: 'Lee' }).toString(),
  });

/** A finance member whose user name is their e-mail address, as registration makes it. */
async function memberByAddress(tag: string) {
  const userName = address(tag);
  const made = await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
  await sql().query('UPDATE users SET email = $2 WHERE id = $1', [made.userId, userName]);
  await sql().query('UPDATE members SET email = $2 WHERE member_id = $1', [made.memberId, userName]);
  return { ...made, userName };
}

async function linkTo(to: string, kind: 'reset' | 'confirm-email', afterId = 0) {
  await env.server.jobs.drain();
  const mail = await latestMailTo(env.sandboxUrl, to, { afterId });
  const link = linksIn(mail).find((l) => l.includes(`/login/${kind}/`)) ?? '';
  const urlId = new RegExp(`/login/${kind}/([\\w-]+)$`).exec(link)?.[1] ?? '';
  expect(urlId, `a ${kind} link to ${to}`).not.toBe('');
  return { urlId, mailId: mail.id };
}

const askEmailChange = (h: Record<string, string>, to: string) =>
  json('POST', AccountApi.updateEmail.path, { email: to, Password: TEST_PASSWORD }, 'finance', h);
const lastAudit = async (action: string) =>
  (
    await sql().query<{ outcome: string; entity_id: string | null; detail: Record<string, unknown> }>(
      'SELECT outcome, entity_id, detail FROM audit_log WHERE action = $1 ORDER BY id DESC LIMIT 1',
      [action],
    )
  )[0];

describe('a password change while signed in', () => {
  it('ends the reset links mailed before it: an earlier link no longer validates or resets', async () => {
    const { userName } = await memberByAddress('change-ends-reset');
    expect((await json('POST', AccountApi.resetSendEmail.path, { UserName: userName })).statusCode).toBe(200);
    const { urlId } = await linkTo(userName, 'reset');
    expect((await json('GET', `/api/account/reset/validate/${urlId}`)).json().Data.IsValid).toBe(true);
    const h = authHeaders(await signIn(env.server, userName, TEST_PASSWORD, someIp(), 'finance'), 'finance');
    const changed = await json(
      'POST',
      AccountApi.updatePassword.path,
      { OldPassword: TEST_PASSWORD, Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD },
      'finance',
      h,
    );
    expect(changed.json().Data.IsValid).toBe(true);
    expect((await json('GET', `/api/account/reset/validate/${urlId}`)).json().Data.IsValid).toBe(false);
    const reset = await json('POST', AccountApi.resetPassword.path, { UrlId: urlId, Password: 'Other$Pass77', ConfirmPassword: 'Other$Pass77' });
    expect(reset.statusCode).toBe(400);
    expect((await token(userName, NEW_PASSWORD)).statusCode).toBe(200);
  });
});

describe('a login closed by support', () => {
  it('gets no reset mail (the refusal is audited), and a link mailed before the close no longer validates or resets', async () => {
    const { userId, userName } = await memberByAddress('closed');
    expect((await json('POST', AccountApi.resetSendEmail.path, { UserName: userName })).statusCode).toBe(200);
    const { urlId } = await linkTo(userName, 'reset');
    await identityService(sql()).close(userId, 'member terminated by support');
    const before = (await mailTo(env.sandboxUrl, userName)).length;
    const asked = await json('POST', AccountApi.resetSendEmail.path, { UserName: userName });
    // The same answer as for any name: nothing tells the asker whether the login exists or is closed.
    expect(asked.json().Data).toEqual({ Sent: true });
    await env.server.jobs.drain();
    await expect.poll(async () => (await lastAudit('account.reset.request'))?.entity_id).toBe(userId);
    expect(await lastAudit('account.reset.request')).toMatchObject({ outcome: 'refused', detail: { reason: 'account closed' } });
    expect((await mailTo(env.sandboxUrl, userName)).length).toBe(before);
    expect((await json('GET', `/api/account/reset/validate/${urlId}`)).json().Data.IsValid).toBe(false);
    const reset = await json('POST', AccountApi.resetPassword.path, { UrlId: urlId, Password: NEW_PASSWORD, ConfirmPassword: NEW_PASSWORD });
    expect(reset.statusCode).toBe(400);
    expect(await lastAudit('account.reset.password')).toMatchObject({ outcome: 'refused' });
  });
});

describe('Forgot Password from a login added by staff', () => {
  it('sends the activation mail while support has not sent it yet (no registration row); the link activates', async () => {
    const userName = plainName('staff-new');
    const to = `${userName}@example.com`;
    const { userId } = await makeUser(env.server, { userName, roles: [], brand: 'staff', isActive: false });
    const asked = await json('POST', AccountApi.resetSendEmail.path, { UserName: userName }, 'staff');
    expect(asked.json().Data).toEqual({ Sent: true });
    await env.server.jobs.drain();
    await expect.poll(async () => (await lastAudit('account.reset.request'))?.entity_id).toBe(userId);
    expect(await lastAudit('account.reset.request')).toMatchObject({ outcome: 'success', detail: { link: 'activate', to } });
    expect(await lastAudit('account.activation.link')).toMatchObject({ entity_id: userId, detail: { to, brand: 'staff' } });
    await env.server.jobs.drain();
    const mail = await latestMailTo(env.sandboxUrl, to);
    expect(mail.subject).toContain('Activate your');
    const link = linksIn(mail).find((l) => l.includes('/login/activate/')) ?? '';
    const urlId = /\/login\/activate\/([\w-]+)$/.exec(link)?.[1] ?? '';
    expect((await json('GET', `/api/account/activate/${urlId}`, undefined, 'staff')).json().Data.IsValid).toBe(true);
    const activated = await json(
      'POST',
      AccountApi.activate.path,
      {
        UrlID: urlId,
        Password: NEW_PASSWORD,
        ConfirmPassword: NEW_PASSWORD,
        Questions: [
          { Id: 1, AnswerText: 'Rex' },
          { Id: 2, AnswerText: 'Reno' },
        ],
      },
      'staff',
    );
    expect(activated.statusCode, activated.body).toBe(200);
    expect((await token(userName, NEW_PASSWORD, 'staff')).statusCode).toBe(200);
  });

  it('sends nothing to a login deactivated after its activation (the refusal is audited)', async () => {
    const userName = plainName('staff-off');
    const to = `${userName}@example.com`;
    const { userId } = await makeUser(env.server, { userName, roles: [], brand: 'staff', isActive: false });
    await sql().query('INSERT INTO account_registrations (user_id, brand, activated_at) VALUES ($1, $2, now())', [userId, 'staff']);
    const asked = await json('POST', AccountApi.resetSendEmail.path, { UserName: userName }, 'staff');
    expect(asked.json().Data).toEqual({ Sent: true });
    await env.server.jobs.drain();
    await expect.poll(async () => (await lastAudit('account.reset.request'))?.entity_id).toBe(userId);
    expect(await lastAudit('account.reset.request')).toMatchObject({ outcome: 'refused', detail: { reason: 'account deactivated' } });
    await env.server.jobs.drain();
    expect(await mailTo(env.sandboxUrl, to)).toHaveLength(0);
  });
});

describe('a confirmed e-mail change and the user name', () => {
  it('moves a user name that was the old address to the new one: the new address signs in, the old does not, and it cannot be registered again', async () => {
    const { userId, memberId, userName: oldAddress } = await memberByAddress('moving');
    const newAddress = address('moved');
    const h = authHeaders(await signIn(env.server, oldAddress, TEST_PASSWORD, someIp(), 'finance'), 'finance');
    expect((await askEmailChange(h, newAddress)).statusCode).toBe(200);
    const { urlId } = await linkTo(newAddress, 'confirm-email');
    const confirmed = await json('POST', AccountApi.confirmEmail.path, { UrlId: urlId });
    expect(confirmed.json()).toMatchObject({ Data: { IsValid: true, Email: newAddress }, HasError: false });
    expect((await sql().query('SELECT user_name, email FROM users WHERE id = $1', [userId]))[0]).toEqual({ user_name: newAddress, email: newAddress });
    expect((await sql().query('SELECT email FROM members WHERE member_id = $1', [memberId]))[0]).toEqual({ email: newAddress });
    expect((await token(newAddress, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await token(newAddress.toUpperCase(), TEST_PASSWORD)).statusCode).toBe(200);
    expect((await token(oldAddress, TEST_PASSWORD)).statusCode).toBe(400);
    // The new address is the member's: another registration with it is refused, on any brand's site.
    const again = await register('assist', newAddress);
    expect(again.statusCode).toBe(409);
    expect(again.json().MsgText).toBe(String(Text.nameTaken(newAddress)));
    // Forgot Password with the new address mails the member there.
    const before = (await mailTo(env.sandboxUrl, newAddress)).length;
    expect((await json('POST', AccountApi.resetSendEmail.path, { UserName: newAddress })).statusCode).toBe(200);
    await env.server.jobs.drain();
    await expect.poll(async () => (await mailTo(env.sandboxUrl, newAddress)).length).toBe(before + 1);
  });

  it('keeps a user name that is not the old address (a staff-made name): only the address changes', async () => {
    const userName = plainName('named');
    const { userId } = await makeUser(env.server, { userName, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    const newAddress = address('named-new');
    const h = authHeaders(await signIn(env.server, userName, TEST_PASSWORD, someIp(), 'finance'), 'finance');
    expect((await askEmailChange(h, newAddress)).statusCode).toBe(200);
    const { urlId } = await linkTo(newAddress, 'confirm-email');
    expect((await json('POST', AccountApi.confirmEmail.path, { UrlId: urlId })).statusCode).toBe(200);
    expect((await sql().query('SELECT user_name, email FROM users WHERE id = $1', [userId]))[0]).toEqual({ user_name: userName, email: newAddress });
    expect((await token(userName, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a change to an address another login signs in with or is mailed at, when asked (no mail) and when confirmed (the link stays unspent)', async () => {
    const { userId, userName: mine } = await memberByAddress('wants');
    const h = authHeaders(await signIn(env.server, mine, TEST_PASSWORD, someIp(), 'finance'), 'finance');
    // Another login's user name, in another case.
    const { userName: theirs } = await memberByAddress('holds');
    const byName = await askEmailChange(h, theirs.toUpperCase());
    expect(byName.statusCode).toBe(409);
    expect(byName.json().MsgText).toBe(String(Text.emailTaken(theirs.toUpperCase())));
    expect(await mailTo(env.sandboxUrl, theirs.toUpperCase())).toHaveLength(0);
    // Another login's e-mail address (its user name is not an address).
    const other = plainName('other');
    const { userId: otherId } = await makeUser(env.server, { userName: other, roles: ['CareGuardFinance'], member: true, brand: 'finance' });
    expect((await askEmailChange(h, `${other}@example.com`)).statusCode).toBe(409);
    expect(await lastAudit('member.email.request')).toMatchObject({ outcome: 'refused', entity_id: userId, detail: { reason: 'address taken' } });

    // A free address is asked for; another login takes it before the link is opened.
    const contested = address('contested');
    expect((await askEmailChange(h, contested)).statusCode).toBe(200);
    const { urlId } = await linkTo(contested, 'confirm-email');
    await sql().query('UPDATE users SET email = $2 WHERE id = $1', [otherId, contested]);
    const confirm = await json('POST', AccountApi.confirmEmail.path, { UrlId: urlId });
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json()).toMatchObject({ HasError: true, MsgText: String(Text.emailTaken(contested)), Data: { IsValid: false, Email: null } });
    expect(await lastAudit('member.email.update')).toMatchObject({ outcome: 'refused', entity_id: userId, detail: { reason: 'address taken' } });
    expect((await sql().query('SELECT user_name, email FROM users WHERE id = $1', [userId]))[0]).toEqual({ user_name: mine, email: mine });
    // Nothing was spent: once the other login lets the address go, the same link confirms it.
    await sql().query('UPDATE users SET email = $2 WHERE id = $1', [otherId, `${other}@example.com`]);
    expect((await json('POST', AccountApi.confirmEmail.path, { UrlId: urlId })).statusCode).toBe(200);
    expect((await sql().query('SELECT user_name, email FROM users WHERE id = $1', [userId]))[0]).toEqual({ user_name: contested, email: contested });
  });
});
