import { randomBytes } from 'node:crypto';
import type { StartedServer } from '@portal/app-server/server';
import { AccountApi } from '@portal/plugin-account/contract';
import { StepRefusals } from '@portal/plugin-account/service';
import { BillingApi, type BillingProfile } from '@portal/plugin-billing/contract';
import { COUPON_CHECK_MESSAGES } from '@portal/plugin-coupons/contract';
import { ProfileApi } from '@portal/plugin-profile/contract';
import { createSandbox } from '@portal/sandbox';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistrationApi, RegistrationMessages } from '../contract';

/**
 * The registration step calls (account's endpoints, registration's completion rule), registration-save and the
 * registration question, through the kernel guard, with the sandbox gateway over real HTTP for the card.
 */
const GATEWAY = { loginId: 'sandbox-merchant', transactionKey: 'sandbox-transaction-key', signatureKey: 'sandbox-signature-key', tickMs: 0 };
const REG_PASSWORD = 'Test$pass1';
let sandbox: FastifyInstance;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };

type Call = { method?: 'GET' | 'POST'; body?: unknown; query?: string };
const call = (s: Session, path: string, o: Call = {}) =>
  server.app.inject({
    method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
    url: o.query ? `${path}?${o.query}` : path,
    headers: authHeaders(s),
    payload: o.body as object,
  });
const data = async <T>(s: Session, path: string, o: Call = {}) => {
  const res = await call(s, path, o);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json().Data as T;
};
const setStep = (s: Session, step: number | string) => call(s, AccountApi.raiseRegisterStatus.path, { method: 'POST', query: `status=${step}` });
const getStep = (s: Session) => data<number>(s, AccountApi.registerStatus.path);
const complete = (s: Session) => call(s, AccountApi.registered.path, { method: 'POST', query: 'status=true' });

/** Registers on the assist site, which signs in at once (spec 01 section 4): a new member at step 0. */
async function registerOnAssist(): Promise<Session> {
  const userName = `reg-${randomBytes(4).toString('hex')}@example.com`;
  const res = await server.app.inject({
    method: 'POST',
    url: AccountApi.register.path,
    headers: { host: 'assist.localhost', 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress: `10.7.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
    payload: new URLSearchParams({ UserName: userName, Password: REG_PASSWORD, FirstName: 'Rita', LastName: 'Reg' }).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return signIn(server, userName, REG_PASSWORD, '10.0.0.9', 'assist');
}

/** Opens the hosted form with a token from our API and saves a card the way the form's script does. */
async function addCard(s: Session, cardNumber = '4111111111111111') {
  const t = await data<{ Token: string; Url: string }>(s, BillingApi.token.path, {
    query: `returnUrl=${encodeURIComponent('http://assist.localhost/registration/card')}`,
  });
  const res = await fetch(`${sandboxUrl}/customer/api/save`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: t.Token, cardNumber, expiry: '12/30', cvv: '123' }),
  });
  expect(res.status).toBe(200);
  return data<BillingProfile>(s, BillingApi.sync.path);
}

beforeAll(async () => {
  sandbox = await createSandbox({ dataDir: null, gateway: GATEWAY });
  sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  server = await startTestServer({ sandboxUrl, smtpUrl: null }, { sites: ['assist', 'finance'] });
  await server.database.sql.query(
    `INSERT INTO coupons (code, product, membership_type, discount_type, start_date, end_date, status) VALUES
     ('LIFE-ASSIST', 'CareAssist', 'Lifetime Membership', 'Lifetime', '2020-01-01', NULL, 'Active'),
     ('OLD-ASSIST', 'CareAssist', 'Lifetime Membership', 'Lifetime', '2020-01-01', '2020-12-31', 'Active'),
     ('LIFE-AMETHYST', 'Amethyst', 'Lifetime Membership', 'Lifetime', '2020-01-01', NULL, 'Active')`,
  );
});
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

describe('the registration step', () => {
  it('starts at 0, advances, refuses to go back and refuses steps outside 0-4 and 10', async () => {
    const s = await registerOnAssist();
    expect(await getStep(s)).toBe(0);
    for (const step of [1, 2, 3]) expect((await setStep(s, step)).json().Data).toBe(step);
    // The same step again changes nothing.
    expect((await setStep(s, 3)).json()).toMatchObject({ HasError: false, Data: 3 });
    const lower = await setStep(s, 2);
    expect(lower.statusCode).toBe(409);
    expect(lower.json()).toMatchObject({ HasError: true, MsgText: String(StepRefusals.lower(3)) });
    for (const bad of [5, 9, 11, -1, 'x']) {
      const res = await setStep(s, bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().HasError).toBe(true);
    }
    expect(await getStep(s)).toBe(3);
    expect((await call(s, AccountApi.registered.path, { method: 'POST', query: 'status=false' })).json().Data).toEqual({ Registered: false, Step: 3 });
  });

  it('refuses to complete before a membership and a default card exist, then completes', async () => {
    const s = await registerOnAssist();
    await setStep(s, 4);
    const early = await setStep(s, 10);
    expect(early.statusCode).toBe(409);
    expect(early.json().MsgText).toBe(RegistrationMessages.noSubscription);
    const earlyToo = await complete(s);
    expect(earlyToo.statusCode).toBe(409);
    expect(await getStep(s)).toBe(4);

    // Guided mode: the card is saved at the gateway, the subscription is submitted, then the default card synced.
    const withCard = await addCard(s);
    expect(withCard.Profiles.some((c) => c.IsDefault)).toBe(true);
    expect((await setStep(s, 10)).json().MsgText).toBe(RegistrationMessages.noSubscription);
    const started = await data<{ StatusString: string }>(s, BillingApi.start.path, {
      body: { Type: 1, IdempotencyKey: `reg-${randomBytes(6).toString('hex')}` },
    });
    expect(started.StatusString).toBe('Ok');
    const done = await complete(s);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().Data).toEqual({ Registered: true, Step: 10 });
    expect(await getStep(s)).toBe(10);
    expect((await setStep(s, 4)).statusCode).toBe(409);
  });

  it('lets a lifetime coupon complete without a card', async () => {
    const s = await registerOnAssist();
    await setStep(s, 4);
    const started = await data<{ StatusString: string; SubscriptionType: number }>(s, BillingApi.start.path, {
      body: { Type: 1, Code: 'LIFE-ASSIST', IdempotencyKey: `reg-${randomBytes(6).toString('hex')}` },
    });
    expect(started).toMatchObject({ StatusString: 'Ok', SubscriptionType: 0 });
    expect((await setStep(s, 10)).json()).toMatchObject({ HasError: false, Data: 10 });
  });

  it('refuses a coupon the check does not find valid in a crafted start: the coupon message, no lifetime, no completion', async () => {
    const s = await registerOnAssist();
    await setStep(s, 4);
    for (const [Code, message] of [
      ['OLD-ASSIST', COUPON_CHECK_MESSAGES.expired],
      ['LIFE-AMETHYST', COUPON_CHECK_MESSAGES.otherProduct],
      ['NO-SUCH-CODE', COUPON_CHECK_MESSAGES.notFound],
    ] as const) {
      // What the card screen asks before it decides, and what start answers a request that sends the code anyway.
      const checked = await data<{ Status: number; Message: string }>(s, BillingApi.checkCoupon.path, { body: { Code } });
      expect(checked.Status, Code).not.toBe(0);
      expect(checked.Message).toBe(message);
      const started = await data<{ StatusString: string; Message: string; SubscriptionType: number | null }>(s, BillingApi.start.path, {
        body: { Type: 1, Code, IdempotencyKey: `reg-${randomBytes(6).toString('hex')}` },
      });
      expect(started).toMatchObject({ StatusString: 'Error', Message: message, SubscriptionType: null });
    }
    expect(await data<BillingProfile>(s, BillingApi.profile.path)).toMatchObject({ SubscriptionStatus: null, CouponCode: null });
    expect((await setStep(s, 10)).json().MsgText).toBe(RegistrationMessages.noSubscription);
    expect(await getStep(s)).toBe(4);
  });

  it('completes at once on a brand whose wizard skips the subscription and the card (finance)', async () => {
    const name = `reg-fin-${randomBytes(4).toString('hex')}`;
    const { userId } = await makeUser(server, { userName: name, roles: ['CareGuardFinance'], brand: 'finance', member: true });
    await server.database.sql.query('UPDATE users SET registration_step = 0 WHERE id = $1', [userId]);
    const s = await signIn(server, name, undefined, '10.0.0.8', 'finance');
    // Finance members may not change phones on My Profile, but step 1 requires a mobile: registering, they set it.
    const member = await data<{ MemberID: number; Version: number; Email: string }>(s, ProfileApi.loadOwn.path);
    // The e-mail is the one registration stored: the wizard shows it and sends it unchanged (it changes on the account page).
    const saved = await call(s, ProfileApi.registrationSave.path, {
      body: { ...PERSONAL, Email: member.Email, MemberID: member.MemberID, Version: member.Version },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await setStep(s, 4);
    expect((await setStep(s, 10)).json()).toMatchObject({ HasError: false, Data: 10 });
  });
});

describe("the registration step in the user's language", () => {
  it('refuses completion and a step back in Spanish for a Spanish request, with the stored step in it', async () => {
    const s = await registerOnAssist();
    await setStep(s, 4);
    const spanish = (url: string) => server.app.inject({ method: 'POST', url, headers: authHeaders(s, 'assist', { cookie: 'cq.lang=es' }) });
    const early = await spanish(`${AccountApi.raiseRegisterStatus.path}?status=10`);
    expect(early.statusCode).toBe(409);
    expect(early.json().MsgText).toBe('No se puede completar el registro antes de iniciar una membresía.');
    const earlyToo = await spanish(`${AccountApi.registered.path}?status=true`);
    expect(earlyToo.json()).toMatchObject({ HasError: true, MsgText: 'No se puede completar el registro antes de iniciar una membresía.' });
    const back = await spanish(`${AccountApi.raiseRegisterStatus.path}?status=3`);
    expect(back.statusCode).toBe(409);
    expect(back.json().MsgText).toBe('El paso del registro no puede retroceder: ahora es 4.');
    // The same refusal in English for a request without a Spanish choice.
    expect((await setStep(s, 10)).json().MsgText).toBe(RegistrationMessages.noSubscription);
  });
});

describe('the Link Card screen', () => {
  it('allows only the gateway origin in frame-src there, and on the brands that enable the plugin', async () => {
    const csp = async (host: string, path: string) => {
      const res = await server.app.inject({ method: 'GET', url: path, headers: { host } });
      expect(res.statusCode).toBe(200);
      return String(res.headers['content-security-policy']);
    };
    expect(await csp('assist.localhost', '/registration/card?type=1')).toContain(`frame-src ${new URL(sandboxUrl).origin};`);
    expect(await csp('assist.localhost', '/registration/profile')).toContain("frame-src 'none'");
  });
});

describe('POST /api/members/registration-save (wizard step 1)', () => {
  it('saves the profile and the current address, and refuses a missing required field naming it', async () => {
    const s = await registerOnAssist();
    const member = await data<{ MemberID: number; Version: number; Email: string }>(s, ProfileApi.loadOwn.path);
    const body = { ...PERSONAL, Email: member.Email, MemberID: member.MemberID, Version: member.Version };
    for (const field of ['Address1', 'City', 'Zip', 'MobilePhone'] as const) {
      const res = await call(s, ProfileApi.registrationSave.path, { body: { ...body, [field]: '' } });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().MsgText).toContain(field);
    }
    const saved = await call(s, ProfileApi.registrationSave.path, { body });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().Data).toMatchObject({ Member: { MobilePhone: '5552013344', Email: member.Email }, Address: { City: 'Austin', IsCurrent: true } });
    expect((await setStep(s, 3)).json().Data).toBe(3);
  });
});

describe('the registration question', () => {
  it('is unanswered, then saved and replaced; other answers are refused', async () => {
    const s = await registerOnAssist();
    // Only brands that enable the plugin answer; staff does in every build.
    const staffSession = await signIn(server, await staffMember(), undefined, '10.0.0.7', 'staff');
    expect(await data(staffSession, RegistrationApi.question.path)).toEqual({ Question: null });
    expect(await data(staffSession, RegistrationApi.saveQuestion.path, { body: { Question: 'Broker' } })).toEqual({ Question: 'Broker' });
    expect(await data(staffSession, RegistrationApi.saveQuestion.path, { body: { Question: 'Attorney' } })).toEqual({ Question: 'Attorney' });
    expect(await data(staffSession, RegistrationApi.question.path)).toEqual({ Question: 'Attorney' });
    const bad = await call(staffSession, RegistrationApi.saveQuestion.path, { body: { Question: 'Friend' } });
    expect(bad.statusCode).toBe(400);
    expect(s.access_token).toBeTruthy();
  });

  it('answers 401 without a sign-in and 403 to staff without a member role', async () => {
    expect((await server.app.inject({ method: 'GET', url: RegistrationApi.question.path, headers: { host: 'staff.localhost' } })).statusCode).toBe(401);
    await makeUser(server, { userName: 'reg-support', roles: ['CareSupport'], brand: 'staff' });
    const support = await signIn(server, 'reg-support', undefined, '10.0.0.6', 'staff');
    expect((await call(support, RegistrationApi.question.path)).statusCode).toBe(403);
  });
});

const PERSONAL = {
  FirstName: 'Rita',
  LastName: 'Reg',
  Email: 'rita@example.com',
  MobilePhone: '(555) 201-3344',
  PreferredContactNumber: 'Mobile',
  Address1: '1 Main St',
  City: 'Austin',
  State: 'TX',
  Zip: '73301',
};

let staffMemberName: string | null = null;
async function staffMember(): Promise<string> {
  if (!staffMemberName) {
    staffMemberName = `reg-q-${randomBytes(4).toString('hex')}`;
    await makeUser(server, { userName: staffMemberName, roles: ['CareAssist'], brand: 'staff', member: true });
  }
  return staffMemberName;
}
