import { setTimeout as sleep } from 'node:timers/promises';
import { Roles } from '@portal/core';
import { aggregatorConfigFromEnv, SandboxBankAggregator } from '@portal/server/kernel';
import { type SandboxTestEnv, sandboxPassThrough, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankingApi, type LinkResult } from '../contract';
import { aggregatorAnswerHold, transactionsOf } from './aggregator-hold';
import { aggregatorUser, SYNC_JOB } from './core';
import { bankLogin } from './test-support';

/**
 * The banking jobs and a membership that ends: a sync that asked the aggregator before the termination writes nothing
 * back after the member.terminated job removed the member's banks; the termination hook run again (the kernel's job
 * retried for another plugin's failure) writes no second audit row; sends of the sync for one member leave one waiting.
 * The sandbox aggregator is reached through a pass-through that can hold its answer of a member's transactions.
 */
let env: SandboxTestEnv;
let proxy: Awaited<ReturnType<typeof sandboxPassThrough>>;
/** The aggregator's answer of a user's transactions can be held: read, then passed on once released. */
const hold = aggregatorAnswerHold(() => env.sandboxUrl);

beforeAll(async () => {
  proxy = await sandboxPassThrough(
    () => env?.sandboxUrl,
    (req, body, res) => hold.intercept(req, body, res),
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
const audits = (action: string, memberId: number) => count('SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND member_id = $2', [action, memberId]);
/** What the member has here and in the ledger. */
const state = async (memberId: number) => ({
  links: await count('SELECT count(*)::int AS n FROM banking_links WHERE member_id = $1', [memberId]),
  accounts: await count('SELECT count(*)::int AS n FROM banking_accounts WHERE member_id = $1', [memberId]),
  transactions: await count('SELECT count(*)::int AS n FROM banking_transactions WHERE member_id = $1', [memberId]),
  ledger: await count(`SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`, [memberId]),
});
/** A member with one linked bank, its transactions in our tables and in the ledger. */
const linkedMember = async (name: string, ip: string) => {
  const memberId = (await makeUser(env.server, { userName: name, roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
  const session = await signIn(env.server, name, undefined, ip, 'card');
  const added = await call(session, BankingApi.add.path, {
    ProviderId: 101,
    ProviderAccountId: null,
    LoginForm: bankLogin('good'),
  });
  expect((added.json().Data as LinkResult).Status).toBe('SUCCESS');
  const before = await state(memberId);
  expect(before.links).toBe(1);
  expect(before.transactions).toBeGreaterThan(0);
  expect(before.ledger).toBe(before.transactions);
  return { memberId, session };
};
/** The member ends their membership (the profile's terminate), which queues the kernel's member.terminated job. */
const terminate = async (session: Session) => expect((await call(session, '/api/members/terminate', {})).statusCode).toBe(200);

describe('the banking jobs and a membership that ends', () => {
  it('a sync held at the aggregator while the member is terminated writes nothing back: links, bank transactions and ledger rows stay gone', async () => {
    const { memberId, session } = await linkedMember('bank-rae', '10.0.2.1');
    hold.holdNext(transactionsOf(aggregatorUser(memberId)));
    await env.server.jobs.send(SYNC_JOB, { memberId });
    await hold.held();
    // The sync waits for the aggregator's answer; the member terminates and member.terminated removes the banks.
    await terminate(session);
    while ((await audits('banking.terminate', memberId)) === 0) await sleep(50);
    expect(await state(memberId)).toEqual({ links: 0, accounts: 0, transactions: 0, ledger: 0 });

    hold.release();
    await env.server.jobs.drain({ timeoutMs: 60_000 });
    expect(
      await count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND (data->>'memberId')::int = $2 AND state = 'completed'`, [SYNC_JOB, memberId]),
    ).toBe(1);
    expect(await state(memberId)).toEqual({ links: 0, accounts: 0, transactions: 0, ledger: 0 });
    expect(await count('SELECT count(*)::int AS n FROM banking_members WHERE member_id = $1 AND default_account_id IS NOT NULL', [memberId])).toBe(0);
    // Nothing is linked at the aggregator either.
    expect(await new SandboxBankAggregator(aggregatorConfigFromEnv(env.sandboxUrl)).links(aggregatorUser(memberId))).toEqual([]);
  });

  it('the termination hook run again (the member.terminated job retried) removes nothing more and writes one audit row', async () => {
    const { memberId, session } = await linkedMember('bank-ray', '10.0.2.2');
    await terminate(session);
    await env.server.jobs.drain();
    expect(await state(memberId)).toEqual({ links: 0, accounts: 0, transactions: 0, ledger: 0 });
    expect(await audits('banking.terminate', memberId)).toBe(1);
    // A retry runs every plugin's hook again from the start: banking's finds nothing left to remove.
    await env.server.jobs.send('member.terminated', { memberId });
    await env.server.jobs.drain();
    expect(
      await count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'member.terminated' AND (data->>'memberId')::int = $1 AND state = 'completed'`, [
        memberId,
      ]),
    ).toBe(2);
    expect(await audits('banking.terminate', memberId)).toBe(1);
    expect(await state(memberId)).toEqual({ links: 0, accounts: 0, transactions: 0, ledger: 0 });
  });

  it("two sends of the sync with a member's singleton key leave one waiting job", async () => {
    const memberId = 987_654;
    const later = { singletonKey: String(memberId), startAfter: 3600 };
    const first = await env.server.jobs.send(SYNC_JOB, { memberId }, later);
    const second = await env.server.jobs.send(SYNC_JOB, { memberId }, later);
    try {
      expect(first).not.toBeNull();
      expect(second).toBeNull();
      expect(await count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND singleton_key = $2`, [SYNC_JOB, String(memberId)])).toBe(1);
    } finally {
      await sql().query('DELETE FROM pgboss.job WHERE name = $1 AND singleton_key = $2', [SYNC_JOB, String(memberId)]);
    }
  });
});
