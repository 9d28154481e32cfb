import { Roles } from '@portal/core';
import { type SandboxTestEnv, sandboxPassThrough, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankingApi } from '../contract';
import { aggregatorUser } from './core';
import { BANK_MESSAGES } from './messages';
import { bankLogin } from './test-support';

/**
 * A terminated membership links no bank: add, change and MFA are refused (409, in the user's language) before the
 * aggregator is asked, for the member and for staff acting for them. The sandbox aggregator is reached through a
 * pass-through that counts the requests naming the member's aggregator user.
 */
let env: SandboxTestEnv;
let proxy: Awaited<ReturnType<typeof sandboxPassThrough>>;
const asked: string[] = [];

beforeAll(async () => {
  proxy = await sandboxPassThrough(
    () => env?.sandboxUrl,
    (req) => {
      if ((req.url ?? '').startsWith('/aggregator/')) asked.push(`${req.method} ${req.url}`);
      return false;
    },
  );
  env = await startSandboxTestEnv({ sandboxUrl: proxy.url });
}, 120_000);
afterAll(async () => {
  await env?.close();
  await proxy?.close();
});

const call = (session: Session, path: string, body?: object, headers: Record<string, string> = {}, brand = 'card') =>
  env.server.app.inject({ method: body === undefined ? 'GET' : 'POST', url: path, headers: authHeaders(session, brand, headers), payload: body });
const links = async (memberId: number) =>
  (await env.server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM banking_links WHERE member_id = $1', [memberId]))[0]?.n ?? 0;

describe('bank linking while the membership is terminated', () => {
  it('refuses add, change and MFA (409) before the aggregator is asked, for the member and for staff acting for them', async () => {
    const memberId = (await makeUser(env.server, { userName: 'bank-ended', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
    await makeUser(env.server, { userName: 'bank-ended-su', roles: [Roles.SuperUser], brand: 'staff' });
    const member = await signIn(env.server, 'bank-ended', undefined, '10.0.7.1', 'card');
    const staff = await signIn(env.server, 'bank-ended-su', undefined, '10.0.7.2');
    // Before the termination a bank links (so the refusal below is the termination's, not the form's).
    const first = await call(member, BankingApi.add.path, { ProviderId: 101, ProviderAccountId: null, LoginForm: bankLogin('good') });
    expect(first.statusCode, first.body).toBe(200);
    expect((await call(member, '/api/members/terminate', {})).statusCode).toBe(200);
    await env.server.jobs.drain();
    expect(await links(memberId)).toBe(0);

    const user = aggregatorUser(memberId);
    asked.length = 0;
    const tries: [Session, string, object, string][] = [
      [member, BankingApi.add.path, { ProviderId: 102, ProviderAccountId: null, LoginForm: bankLogin('good') }, 'card'],
      [member, BankingApi.change.path, { ProviderAccountId: 1, LoginForm: bankLogin('good') }, 'card'],
      [member, BankingApi.mfa.path, { ProviderId: 102, ProviderAccountId: 1, LoginForm: { Fields: [{ Name: 'ANSWER', Value: '1234' }] } }, 'card'],
      [staff, BankingApi.add.path, { ProviderId: 102, ProviderAccountId: null, LoginForm: bankLogin('good') }, 'staff'],
    ];
    for (const [session, path, body, brand] of tries) {
      const headers: Record<string, string> = session === staff ? { 'x-member-id': String(memberId) } : {};
      const res = await call(session, path, body, headers, brand);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(409);
      expect(res.json().MsgText).toBe(BANK_MESSAGES.membershipTerminated);
    }
    // In Spanish for a Spanish reader.
    const es = await call(member, BankingApi.add.path, { ProviderId: 102, ProviderAccountId: null, LoginForm: bankLogin('good') }, { 'accept-language': 'es' });
    expect(es.statusCode).toBe(409);
    expect(es.json().MsgText).toBe(
      'Su membresía está dada de baja, por lo que no se puede vincular ningún banco. Podrá vincular un banco de nuevo cuando se reactive la membresía.',
    );
    // The aggregator was never asked for this member (no institution, link, credentials or MFA call), and nothing is linked.
    expect(asked.filter((a) => a.includes(encodeURIComponent(user)) || a.includes('/institutions/'))).toEqual([]);
    expect(await links(memberId)).toBe(0);

    // Reactivated, the member links a bank again.
    expect((await call(member, '/api/members/reactivate', {})).statusCode).toBe(200);
    await env.server.jobs.drain();
    const again = await call(member, BankingApi.add.path, { ProviderId: 102, ProviderAccountId: null, LoginForm: bankLogin('good') });
    expect(again.statusCode, again.body).toBe(200);
    expect(await links(memberId)).toBe(1);
  });
});
