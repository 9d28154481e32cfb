import { Roles } from '@portal/core';
import { BANK_TEST_PASSWORD } from '@portal/sandbox';
import type { SqlClient } from '@portal/server';
import { aggregatorConfigFromEnv, SandboxBankAggregator } from '@portal/server/kernel';
import { type SandboxTestEnv, sandboxPassThrough, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BankingApi, type LinkResult } from '../contract';
import { aggregatorAnswerHold, transactionsOf } from './aggregator-hold';
import { aggregatorUser, SYNC_JOB } from './core';
import { bankLogin } from './test-support';

/**
 * A bank removed while a sync of the member runs: it does not come back, and the ledger keeps none of its rows. The
 * sync asks the aggregator outside any transaction, then mirrors and posts to the ledger in one transaction under the
 * member's lock; a removal between the two (window A) makes it ask again, and a removal after its mirror (window B)
 * finds the rows it posted and withdraws them. The sandbox aggregator is reached through a pass-through that can hold
 * its answer of a member's transactions (as termination-jobs.int.test.ts does).
 */
let env: SandboxTestEnv;
let proxy: Awaited<ReturnType<typeof sandboxPassThrough>>;
/** The aggregator's answer of a user's transactions can be held: read, then passed on once released. */
const hold = aggregatorAnswerHold(() => env.sandboxUrl);
/** How many times the aggregator was asked for each user's transactions. */
const asked = new Map<string, number>();

beforeAll(async () => {
  proxy = await sandboxPassThrough(
    () => env?.sandboxUrl,
    async (req, body, res) => {
      const url = req.url ?? '';
      const user = /^\/aggregator\/api\/users\/([^/]+)\/transactions/.exec(url)?.[1];
      if (user && req.method === 'GET') asked.set(user, (asked.get(user) ?? 0) + 1);
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
/** What the member has here and in the ledger; `orphans`: bank rows in the ledger no transaction of ours refers to. */
const state = async (memberId: number) => ({
  links: await count('SELECT count(*)::int AS n FROM banking_links WHERE member_id = $1', [memberId]),
  transactions: await count('SELECT count(*)::int AS n FROM banking_transactions WHERE member_id = $1', [memberId]),
  ledger: await count(`SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`, [memberId]),
  orphans: await count(
    `SELECT count(*)::int AS n FROM ledger_transactions l WHERE l.member_id = $1 AND l.source = 'bank'
       AND NOT EXISTS (SELECT 1 FROM banking_transactions t WHERE t.member_id = l.member_id AND 'bank:' || t.transaction_id = l.external_ref)`,
    [memberId],
  ),
});
const syncJobs = (memberId: number, jobState: string) =>
  count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND (data->>'memberId')::int = $2 AND state = $3`, [SYNC_JOB, memberId, jobState]);
/** A member with one linked bank (Dag Site Bank, 101), its transactions in our tables and in the ledger. */
const linkedMember = async (name: string, ip: string) => {
  const memberId = (await makeUser(env.server, { userName: name, roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
  const session = await signIn(env.server, name, undefined, ip, 'card');
  const added = await call(session, BankingApi.add.path, { ProviderId: 101, ProviderAccountId: null, LoginForm: bankLogin('good') });
  const link = added.json().Data as LinkResult;
  expect(link.Status).toBe('SUCCESS');
  const before = await state(memberId);
  expect(before).toMatchObject({ links: 1, orphans: 0 });
  expect(before.transactions).toBeGreaterThan(0);
  expect(before.ledger).toBe(before.transactions);
  return { memberId, session, linkId: link.ProviderAccountId ?? 0 };
};
const remove = async (session: Session, linkId: number) =>
  expect((await call(session, BankingApi.remove.path, { ProviderAccountId: linkId })).statusCode).toBe(200);

describe('a bank removed while a sync runs', () => {
  it('A: removed while the sync waits on the aggregator, it does not come back; a bank linked meanwhile is mirrored', async () => {
    const { memberId, session, linkId } = await linkedMember('bank-sync-rae', '10.0.3.1');
    const user = aggregatorUser(memberId);
    hold.holdNext(transactionsOf(user));
    const askedBefore = asked.get(user) ?? 0;
    await env.server.jobs.send(SYNC_JOB, { memberId });
    await hold.held();
    // The sync read the links (Dag Site Bank among them) and waits for the transactions. Meanwhile the member links
    // another bank in the hosted frame (at the aggregator only) and removes Dag Site Bank here.
    const frame = await new SandboxBankAggregator(aggregatorConfigFromEnv(env.sandboxUrl)).link(user, 102, {
      fields: [
        { name: 'LOGIN', value: 'good' },
        { name: 'PASSWORD', value: BANK_TEST_PASSWORD },
      ],
    });
    expect(frame.status).toBe('SUCCESS');
    await remove(session, linkId);
    expect(await state(memberId)).toEqual({ links: 0, transactions: 0, ledger: 0, orphans: 0 });

    hold.release();
    await env.server.jobs.drain({ timeoutMs: 60_000 });
    expect(await syncJobs(memberId, 'completed')).toBe(1);
    const links = await sql().query<{ provider_account_id: number; provider_id: number }>(
      'SELECT provider_account_id, provider_id FROM banking_links WHERE member_id = $1',
      [memberId],
    );
    expect(links).toEqual([{ provider_account_id: frame.linkId, provider_id: 102 }]);
    const after = await state(memberId);
    expect(after.transactions).toBeGreaterThan(0);
    expect(after).toEqual({ links: 1, transactions: after.transactions, ledger: after.transactions, orphans: 0 });
    // None of the removed bank's rows: every bank row in the ledger is the new bank's.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1 AND source = 'bank' AND company NOT LIKE 'Amethyst National Bank %'`,
        [memberId],
      ),
    ).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE member_id = $1 AND action = 'banking.link.remove'`, [memberId])).toBe(1);
    // The sync found its answer stale (a removal since it asked) and asked again.
    expect((asked.get(user) ?? 0) - askedBefore).toBe(2);
  });

  it("B: removed between the sync's mirror and its ledger post, no bank row stays in the ledger without a link", async () => {
    const { memberId, session, linkId } = await linkedMember('bank-sync-rob', '10.0.3.2');
    const database = env.server.database.sql;
    const real = database.transaction.bind(database);
    let armed = true;
    let removedAfterMirror = false;
    // The member's remove runs as soon as the transaction that mirrors the member's bank transactions has committed
    // (before the sync goes on): with the ledger posted in a transaction of its own, that is between the two.
    const spy = vi.spyOn(database, 'transaction').mockImplementation(async <T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> => {
      let mirrored = false;
      const out = await real((tx) =>
        fn(
          new Proxy(tx, {
            get(target, key) {
              if (key === 'query')
                return (text: string, params?: unknown[], opts?: object) => {
                  if (text.includes('INSERT INTO banking_transactions') && params?.[0] === memberId) mirrored = true;
                  return target.query(text, params, opts);
                };
              const value = Reflect.get(target, key);
              return typeof value === 'function' ? value.bind(target) : value;
            },
          }),
        ),
      );
      if (mirrored && armed) {
        armed = false;
        await remove(session, linkId);
        removedAfterMirror = true;
      }
      return out;
    });
    try {
      await env.server.jobs.send(SYNC_JOB, { memberId });
      await env.server.jobs.drain({ timeoutMs: 60_000 });
    } finally {
      spy.mockRestore();
    }
    expect(removedAfterMirror).toBe(true);
    expect(await syncJobs(memberId, 'completed')).toBe(1);
    expect(await state(memberId)).toEqual({ links: 0, transactions: 0, ledger: 0, orphans: 0 });
    // The next sync (the aggregator no longer has the link) leaves it so.
    await env.server.jobs.send(SYNC_JOB, { memberId });
    await env.server.jobs.drain({ timeoutMs: 60_000 });
    expect(await state(memberId)).toEqual({ links: 0, transactions: 0, ledger: 0, orphans: 0 });
  });
});
