import { BankAggregatorError, SandboxBankAggregator } from '@portal/server/kernel';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTITUTIONS, STALE_NEW_PASSWORD, TEST_PASSWORD, TEST_USERS } from './aggregator-data';
import { createSandbox } from './app';

/** The sandbox bank aggregator through its client adapter and its hosted linking page, over real HTTP. */
let sandbox: FastifyInstance;
let url: string;
let banks: SandboxBankAggregator;
const parentOrigin = 'http://card.localhost:8080';
const login = (user: string, password = TEST_PASSWORD) => ({
  fields: [
    { name: 'LOGIN', value: user },
    { name: 'PASSWORD', value: password },
  ],
});

beforeAll(async () => {
  sandbox = await createSandbox({ dataDir: null });
  url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  banks = new SandboxBankAggregator({ sandboxUrl: url, clientId: 'sandbox-finance', secret: 'sandbox-finance-secret' });
});
afterAll(() => sandbox?.close());

// The sandbox's own embedded database, whichever engine the run tests: the PostgreSQL run skips it rather than repeat it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('sandbox bank aggregator', () => {
  it('has a few hundred institutions with distinct ids and names, eight popular, forms as data', async () => {
    expect(INSTITUTIONS.length).toBeGreaterThanOrEqual(300);
    expect(new Set(INSTITUTIONS.map((i) => i.id)).size).toBe(INSTITUTIONS.length);
    expect(new Set(INSTITUTIONS.map((i) => i.name)).size).toBe(INSTITUTIONS.length);
    expect(await banks.popular()).toHaveLength(8);
    const one = await banks.institution(1001);
    expect(one.form?.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['LOGIN', 'PASSWORD']));
    expect((await banks.search('credit union')).every((i) => /credit union/i.test(i.name))).toBe(true);
    await expect(banks.search('ab')).rejects.toBeInstanceOf(BankAggregatorError);
  });

  it('refuses the client API without the credentials', async () => {
    expect((await fetch(`${url}/aggregator/api/institutions/popular`)).status).toBe(401);
    const wrong = new SandboxBankAggregator({ sandboxUrl: url, clientId: 'sandbox-finance', secret: 'nope' });
    await expect(wrong.popular()).rejects.toMatchObject({ status: 401 });
  });

  it('documents every test user, and each behaves as documented', async () => {
    expect(Object.keys(TEST_USERS).sort()).toEqual(['choice', 'code', 'good', 'question', 'stale', 'twostep']);
    expect((await banks.link('u-doc', 101, login('good', 'bad'))).status).toBe('FAILED');
    expect((await banks.link('u-doc', 101, login('nobody'))).status).toBe('FAILED');
    const choice = await banks.link('u-doc', 102, login('choice'));
    expect(choice.form?.formType).toBe('choice');
    expect((await banks.answerMfa('u-doc', choice.linkId ?? 0, { fields: [{ name: 'IMAGE', value: 'sailboat' }] })).status).toBe('SUCCESS');
    const code = await banks.link('u-doc', 103, login('code'));
    expect((await banks.answerMfa('u-doc', code.linkId ?? 0, { fields: [{ name: 'TOKEN', value: '000000' }] })).status).toBe('FAILED');
    expect((await banks.answerMfa('u-doc', code.linkId ?? 0, { fields: [{ name: 'TOKEN', value: '123456' }] })).status).toBe('SUCCESS');
    await expect(banks.link('u-doc', 103, login('good'))).rejects.toMatchObject({ status: 409 });
  });

  it('grows transactions and moves balances on refresh; a stale link needs the new password', async () => {
    const r = await banks.link('u-stale', 104, login('stale'));
    expect(r.status).toBe('SUCCESS');
    const [link] = await banks.links('u-stale');
    const acct = link?.accounts[0];
    if (!acct) throw new Error('no account');
    expect((await banks.refresh('u-stale', [acct.accountId]))[0]?.status).toBe('STALE');
    expect((await banks.links('u-stale'))[0]?.status).toBe('STALE');
    expect((await banks.updateCredentials('u-stale', r.linkId ?? 0, login('stale'))).status).toBe('FAILED');
    expect((await banks.updateCredentials('u-stale', r.linkId ?? 0, login('stale', STALE_NEW_PASSWORD))).status).toBe('SUCCESS');
    const before = await banks.transactions('u-stale', { accountId: acct.accountId });
    expect((await banks.refresh('u-stale', [acct.accountId]))[0]?.status).toBe('SUCCESS');
    const after = await banks.transactions('u-stale', { accountId: acct.accountId });
    expect(after.total).toBeGreaterThan(before.total);
    const moved = (await banks.links('u-stale'))[0]?.accounts[0];
    const added = after.items.slice(0, after.total - before.total).reduce((s, t) => s + t.amountCents, 0);
    expect(moved?.balanceCents).toBe(acct.balanceCents + added);
    // Another user sees none of it.
    expect(await banks.links('u-other')).toEqual([]);
    expect((await banks.refresh('u-other', [acct.accountId])).length).toBe(0);
  });

  it('serves the hosted linking page for a token only, framed only by its origin, and links through it', async () => {
    const t = await banks.linkToken('u-page', parentOrigin);
    expect(t).toMatchObject({ url: `${url}/aggregator/fastlink`, app: expect.any(String), rsession: expect.any(String), extra: expect.any(String) });
    const post = (fields: Record<string, string>) =>
      fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    const step = (fields: Record<string, string>) => post({ token: t.token, ...fields }).then((r) => r.text());
    expect((await post({ token: 'nope', rsession: t.rsession, app: t.app })).status).toBe(403);
    // Opened as FastLink is, by a POST of the token fields into the frame.
    const page = await post({ token: t.token, rsession: t.rsession, app: t.app });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${parentOrigin}`);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    const html = await page.text();
    expect(html).toContain('Popular banks');
    expect(html).toContain(TEST_PASSWORD);
    expect(html).not.toMatch(/<script>[^<]/);
    const search = await step({ q: 'Dag Site' });
    expect(search).toMatch(/<button type="submit" class="link" name="institutionId" value="101">Dag Site Bank<\/button>/);
    expect(await step({ q: 'Da' })).toContain('Minimum 3 characters are required');
    const form = await step({ institutionId: '105' });
    expect(form).toContain('Back to search');
    const mfa = await step({ step: 'login', institutionId: '105', f_LOGIN: 'question', f_PASSWORD: TEST_PASSWORD });
    expect(mfa).toContain('What was the name of your first pet?');
    const linkId = /name="linkId" value="(\d+)"/.exec(mfa)?.[1] ?? '';
    const done = await step({ step: 'mfa', institutionId: '105', linkId, f_ANSWER: 'rex' });
    expect(done).toContain('Account linked');
    expect((await banks.links('u-page')).map((l) => l.institution?.institutionId)).toEqual([105]);
    // The token is a bearer credential to the member's linking session: no screen puts it in an address (a link, a GET
    // form, a redirect), only in the hidden field its forms post.
    for (const screen of [html, search, form, mfa, done]) {
      expect(screen).not.toContain(`?token=`);
      expect(screen).not.toMatch(/href="[^"]*token/);
      expect(screen).not.toMatch(/method="get"/i);
      expect(screen.match(/<form /g)?.length).toBe(
        screen.match(/<form method="post" action="\/aggregator\/fastlink"[^>]*><input type="hidden" name="token"/g)?.length,
      );
      expect(screen.split(t.token).length - 1).toBe(screen.match(/<form /g)?.length);
    }
  });

  it('opens nothing for a token in an address: a GET answers the expired page, not the member’s session', async () => {
    const t = await banks.linkToken('u-get', parentOrigin);
    for (const address of [`${t.url}?token=${t.token}`, `${t.url}?token=${t.token}&rsession=${t.rsession}&app=${t.app}`]) {
      const r = await fetch(address, { redirect: 'manual' });
      expect(r.status).toBe(403);
      expect(r.headers.get('location')).toBeNull();
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await r.text();
      expect(html).toContain('The linking session has expired.');
      expect(html).not.toContain(t.token);
    }
    // A POST with the token in its address but not its body opens nothing either.
    expect(
      (await fetch(`${t.url}?token=${t.token}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).status,
    ).toBe(403);
  });
});
