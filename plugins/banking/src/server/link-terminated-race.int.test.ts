import { Roles } from '@portal/core';
import { aggregatorConfigFromEnv, SandboxBankAggregator } from '@portal/server/kernel';
import { type SandboxTestEnv, sandboxPassThrough, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankingApi, type LinkResult } from '../contract';
import { aggregatorAnswerHold } from './aggregator-hold';
import { aggregatorUser, UNLINK_JOB } from './core';
import { BANK_MESSAGES } from './messages';
import { bankLogin } from './test-support';

/**
 * A termination that commits while an add or an MFA answer is at the aggregator (refuseTerminated ran before it was
 * asked): the link the aggregator made is not saved here, it is removed at the aggregator, and the answer is 409. The
 * sandbox aggregator is reached through a pass-through that lets the aggregator make the link at once and holds its
 * answer until the test released it, the member terminated (and the member.terminated job run) meanwhile.
 */
let env: SandboxTestEnv;
let proxy: Awaited<ReturnType<typeof sandboxPassThrough>>;
/** A POST to a path at the aggregator can go through at once with its answer held until released. */
const hold = aggregatorAnswerHold(() => env.sandboxUrl);
/** How many of the next removals of a link at the aggregator fail (503): an aggregator down at that moment. */
let failRemovals = 0;

beforeAll(async () => {
  proxy = await sandboxPassThrough(
    () => env?.sandboxUrl,
    async (req, body, res) => {
      const url = req.url ?? '';
      if (req.method === 'DELETE' && url.startsWith('/aggregator/api/users/') && failRemovals > 0) {
        failRemovals--;
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}');
        return true;
      }
      return hold.intercept(req, body, res);
    },
  );
  env = await startSandboxTestEnv({ sandboxUrl: proxy.url });
}, 120_000);
afterAll(async () => {
  hold.release();
  await env?.close();
  await proxy?.close();
});

const sql = () => env.server.database.sql;
const count = async (text: string, params: unknown[]) => (await sql().query<{ n: number }>(text, params))[0]?.n ?? 0;
const call = (session: Session, path: string, body?: object) =>
  env.server.app.inject({ method: body === undefined ? 'GET' : 'POST', url: path, headers: authHeaders(session, 'card'), payload: body });
const aggregator = () => new SandboxBankAggregator(aggregatorConfigFromEnv(env.sandboxUrl));
const linksHere = (memberId: number) => count('SELECT count(*)::int AS n FROM banking_links WHERE member_id = $1', [memberId]);
const usersPath = (memberId: number) => `/aggregator/api/users/${encodeURIComponent(aggregatorUser(memberId))}`;

async function member(name: string, ip: string) {
  const memberId = (await makeUser(env.server, { userName: name, roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
  return { memberId, session: await signIn(env.server, name, undefined, ip, 'card') };
}

/** Starts `send`, waits until its call is held at the aggregator, terminates the member there, then lets the answer go. */
async function terminatedMeanwhile(session: Session, memberId: number, path: string, send: () => Promise<{ statusCode: number; body: string }>) {
  // The aggregator makes the link now (before the termination); its answer reaches us only once released.
  hold.holdNext((method, url) => method === 'POST' && url === path);
  const answer = send();
  await hold.held();
  expect((await call(session, '/api/members/terminate', {})).statusCode).toBe(200);
  // member.terminated has run: it removed what it found here, before the link could be saved.
  await env.server.jobs.drain();
  expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'banking.terminate' AND member_id = $1`, [memberId])).toBeLessThanOrEqual(1);
  hold.release();
  return answer;
}

describe('a termination that commits while a link is being made at the aggregator', () => {
  it('an add overtaken by the termination saves no link, removes it at the aggregator and answers 409', async () => {
    const { memberId, session } = await member('bank-race-add', '10.0.9.1');
    const res = await terminatedMeanwhile(session, memberId, `${usersPath(memberId)}/links`, () =>
      call(session, BankingApi.add.path, { ProviderId: 101, ProviderAccountId: null, LoginForm: bankLogin('good') }),
    );
    expect(res.statusCode, res.body).toBe(409);
    expect((JSON.parse(res.body) as { MsgText: string }).MsgText).toBe(BANK_MESSAGES.membershipTerminated);
    await env.server.jobs.drain();
    expect(await linksHere(memberId)).toBe(0);
    expect(await aggregator().links(aggregatorUser(memberId))).toEqual([]);
    expect(await count(`SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`, [memberId])).toBe(0);
    // Audited as the add it was, with why nothing was kept.
    const audit = await sql().query<{ detail: { status: string; membershipTerminated?: boolean } }>(
      `SELECT detail FROM audit_log WHERE action = 'banking.link.add' AND member_id = $1`,
      [memberId],
    );
    expect(audit.map((a) => a.detail)).toEqual([expect.objectContaining({ status: 'SUCCESS', membershipTerminated: true })]);
  });

  it('an MFA answer overtaken by the termination saves no link, removes it at the aggregator and answers 409', async () => {
    const { memberId, session } = await member('bank-race-mfa', '10.0.9.2');
    const first = await call(session, BankingApi.add.path, { ProviderId: 102, ProviderAccountId: null, LoginForm: bankLogin('question') });
    const step = first.json().Data as LinkResult;
    expect(step.Status).toBe('MFA');
    const linkId = step.ProviderAccountId as number;
    const res = await terminatedMeanwhile(session, memberId, `${usersPath(memberId)}/links/${linkId}/mfa`, () =>
      call(session, BankingApi.mfa.path, { ProviderId: 102, ProviderAccountId: linkId, LoginForm: { Fields: [{ Name: 'ANSWER', Value: 'rex' }] } }),
    );
    expect(res.statusCode, res.body).toBe(409);
    expect((JSON.parse(res.body) as { MsgText: string }).MsgText).toBe(BANK_MESSAGES.membershipTerminated);
    await env.server.jobs.drain();
    expect(await linksHere(memberId)).toBe(0);
    expect(await aggregator().links(aggregatorUser(memberId))).toEqual([]);
  });

  it('a removal the aggregator fails at that moment is left to the banking.unlink job, which removes the link', async () => {
    const { memberId, session } = await member('bank-race-down', '10.0.9.3');
    failRemovals = 1;
    const res = await terminatedMeanwhile(session, memberId, `${usersPath(memberId)}/links`, () =>
      call(session, BankingApi.add.path, { ProviderId: 103, ProviderAccountId: null, LoginForm: bankLogin('good') }),
    );
    expect(res.statusCode, res.body).toBe(409);
    expect(failRemovals).toBe(0);
    await env.server.jobs.drain();
    expect(
      await count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND (data->>'memberId')::int = $2 AND state = 'completed'`, [
        UNLINK_JOB,
        memberId,
      ]),
    ).toBe(1);
    expect(await linksHere(memberId)).toBe(0);
    expect(await aggregator().links(aggregatorUser(memberId))).toEqual([]);
  });
});
