import { Roles } from '@portal/core';
import { aggregatorConfigFromEnv, SandboxBankAggregator } from '@portal/server/kernel';
import { type SandboxTestEnv, sandboxPassThrough, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankingApi, type LinkedAccounts, type LinkResult } from '../contract';
import { aggregatorUser } from './core';
import { bankLogin } from './test-support';

/**
 * A link the aggregator still lists, but FAILED (a passing failure at the bank), is not a link gone: the sync keeps the
 * link, its accounts and its transactions as the last good sync left them (neither deleted nor refreshed) and its rows
 * in the ledger, so a remove, a termination or its later disappearance at the aggregator withdraws them from the ledger;
 * when the link recovers, its rows are updated in place, each once. The sandbox aggregator is reached through a
 * pass-through that answers its link list with the chosen links FAILED.
 */
let env: SandboxTestEnv;
let proxy: Awaited<ReturnType<typeof sandboxPassThrough>>;
/** Links the aggregator lists as FAILED while here. */
const failing = new Set<number>();
/** Accounts the aggregator leaves out of their links while here (closed at the bank). */
const closedAccounts = new Set<number>();

beforeAll(async () => {
  proxy = await sandboxPassThrough(
    () => env?.sandboxUrl,
    async (req, _body, res) => {
      if (req.method !== 'GET' || !/^\/aggregator\/api\/users\/[^/]+\/links$/.test(req.url ?? '')) return false;
      const real = await fetch(`${env.sandboxUrl}${req.url}`, { headers: { authorization: String(req.headers.authorization ?? '') } });
      const links = (await real.json()) as { linkId: number; status: string; accounts: { accountId: number }[] }[];
      const listed = links
        .map((l) => ({ ...l, accounts: l.accounts.filter((a) => !closedAccounts.has(a.accountId)) }))
        .map((l) => (failing.has(l.linkId) ? { ...l, status: 'FAILED', message: 'The bank could not be reached.' } : l));
      res.writeHead(real.status, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
      return true;
    },
  );
  env = await startSandboxTestEnv({ sandboxUrl: proxy.url });
}, 120_000);
afterAll(async () => {
  await env?.close();
  await proxy?.close();
});

describe('the sync and a link the aggregator lists FAILED', () => {
  const sql = () => env.server.database.sql;
  const refs = async (text: string, memberId: number) => (await sql().query<{ v: string }>(text, [memberId])).map((r) => r.v).sort();
  const ledgerRefs = (memberId: number) => refs(`SELECT external_ref AS v FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`, memberId);
  const bankRefs = (memberId: number) => refs(`SELECT 'bank:' || transaction_id AS v FROM banking_transactions WHERE member_id = $1`, memberId);
  const count = async (text: string, memberId: number) => (await sql().query<{ n: number }>(text, [memberId]))[0]?.n ?? 0;
  const syncNow = async (memberId: number) => {
    await env.server.jobs.send('banking.sync', { memberId });
    await env.server.jobs.drain();
  };

  /** The aggregator itself, over HTTP (not through the pass-through): what happens there without us. */
  const aggregator = () => new SandboxBankAggregator(aggregatorConfigFromEnv(env.sandboxUrl));
  const call = (session: Session, path: string, body?: object) =>
    env.server.app.inject({ method: body === undefined ? 'GET' : 'POST', url: path, headers: authHeaders(session, 'card'), payload: body });
  const linkedAccounts = async (session: Session) => (await call(session, BankingApi.siteAccounts.path)).json().Data as LinkedAccounts;
  /** What the member has here and in the ledger. */
  const state = async (memberId: number) => ({
    links: await sql().query('SELECT provider_account_id, provider_id, status, message, last_refreshed_at FROM banking_links WHERE member_id = $1', [memberId]),
    accounts: await sql().query(
      'SELECT account_id, provider_account_id, name, balance_cents::text AS balance_cents, refreshed_at FROM banking_accounts WHERE member_id = $1 ORDER BY account_id',
      [memberId],
    ),
    transactions: await bankRefs(memberId),
    ledger: await ledgerRefs(memberId),
    ledgerDeletes: await count(`SELECT count(*)::int AS n FROM ledger_history WHERE member_id = $1 AND action = 'delete'`, memberId),
  });
  const audits = async (action: string, memberId: number) =>
    (await sql().query('SELECT 1 FROM audit_log WHERE action = $1 AND member_id = $2', [action, memberId])).length;
  /** A member with one linked bank, its transactions in our tables and in the ledger. */
  const linkedMember = async (name: string, ip: string) => {
    const memberId = (await makeUser(env.server, { userName: name, roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
    const session = await signIn(env.server, name, undefined, ip, 'card');
    const added = await call(session, BankingApi.add.path, {
      ProviderId: 101,
      ProviderAccountId: null,
      LoginForm: bankLogin('good'),
    });
    const link = (added.json().Data as LinkResult).ProviderAccountId ?? 0;
    const before = await state(memberId);
    expect(before.accounts.length).toBeGreaterThan(0);
    expect(before.transactions.length).toBeGreaterThan(0);
    expect(before.ledger).toEqual(before.transactions);
    return { memberId, session, link, before };
  };
  /** linkedMember, then its link listed FAILED and synced. */
  const failedMember = async (name: string, ip: string) => {
    const member = await linkedMember(name, ip);
    failing.add(member.link);
    await syncNow(member.memberId);
    return member;
  };

  it('keeps a FAILED link’s accounts (balances, refresh dates, the funding account) and transactions as they were, shown on its page, and takes none of its new rows', async () => {
    const { memberId, session, link } = await linkedMember('bank-may', '10.0.1.2');
    const funding = (await linkedAccounts(session)).Accounts[0]?.AccountId ?? 0;
    expect((await call(session, BankingApi.defaultAccount.path.replace(':id', String(funding)), {})).statusCode).toBe(200);
    const before = await state(memberId);
    const page = await linkedAccounts(session);
    expect(page.DefaultAccountId).toBe(funding);
    expect(page.Accounts.length).toBe(before.accounts.length);

    failing.add(link);
    try {
      // At the aggregator the accounts move on (new transactions, new balances) while it lists the link FAILED.
      await aggregator().refresh(
        aggregatorUser(memberId),
        before.accounts.map((a) => Number(a.account_id)),
      );
      const atAggregator = (await aggregator().transactions(aggregatorUser(memberId), { limit: 500 })).items.map((t) => `bank:${t.transactionId}`);
      expect(atAggregator.length).toBeGreaterThan(before.transactions.length);
      await syncNow(memberId);
      await syncNow(memberId);
      expect(await state(memberId)).toEqual(before);
      // The member's page shows the bank with its accounts as last refreshed (their refresh dates say when), the
      // funding account still chosen; the link keeps the status it had (FAILED is not stored: it passes).
      expect(await linkedAccounts(session)).toEqual(page);
      expect(await audits('banking.link.gone', memberId)).toBe(0);
    } finally {
      failing.delete(link);
    }
  }, 60_000);

  it('an account a listed link no longer has (closed at the bank) goes with its transactions, its unreported ledger rows withdrawn', async () => {
    const { memberId, before } = await linkedMember('bank-lux', '10.0.1.9');
    const accountIds = before.accounts.map((a) => Number(a.account_id));
    // The first account closes; the link stays listed, with the others (none when it had one).
    const [closed, ...kept] = accountIds;
    const ofAccount = async (ids: number[]) =>
      (
        await sql().query<{ v: string }>(
          `SELECT 'bank:' || transaction_id AS v FROM banking_transactions WHERE member_id = $1 AND account_id = ANY($2::int[])`,
          [memberId, ids],
        )
      )
        .map((r) => r.v)
        .sort();
    const closedRefs = await ofAccount([closed as number]);
    const keptRefs = await ofAccount(kept);
    expect(closedRefs.length).toBeGreaterThan(0);
    closedAccounts.add(closed as number);
    try {
      await syncNow(memberId);
      const after = await state(memberId);
      expect(after.accounts.map((a) => Number(a.account_id))).toEqual(kept);
      expect(after.transactions).toEqual(keptRefs);
      expect(after.ledger).toEqual(keptRefs);
      expect(after.ledgerDeletes).toBe(closedRefs.length);
    } finally {
      closedAccounts.delete(closed as number);
    }
  }, 60_000);

  it('removes a FAILED link: its unreported ledger rows are withdrawn with it', async () => {
    const { memberId, session, link, before } = await failedMember('bank-ned', '10.0.1.3');
    try {
      const res = await call(session, BankingApi.remove.path, { ProviderAccountId: link });
      expect(res.statusCode, res.body).toBe(200);
      expect(await state(memberId)).toEqual({ links: [], accounts: [], transactions: [], ledger: [], ledgerDeletes: before.ledger.length });
      expect(await audits('banking.link.remove', memberId)).toBe(1);
    } finally {
      failing.delete(link);
    }
  }, 60_000);

  it('terminates with a FAILED link: its unreported ledger rows are withdrawn with it', async () => {
    const { memberId, session, link, before } = await failedMember('bank-ola', '10.0.1.4');
    try {
      const res = await call(session, BankingApi.terminate.path, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(await state(memberId)).toEqual({ links: [], accounts: [], transactions: [], ledger: [], ledgerDeletes: before.ledger.length });
      expect(await audits('banking.terminate', memberId)).toBe(1);
    } finally {
      failing.delete(link);
    }
  }, 60_000);

  it('a FAILED link the aggregator then no longer lists is gone, its unreported ledger rows withdrawn', async () => {
    const { memberId, link, before } = await failedMember('bank-pia', '10.0.1.5');
    try {
      await aggregator().removeLink(aggregatorUser(memberId), link);
      await syncNow(memberId);
      expect(await state(memberId)).toEqual({ links: [], accounts: [], transactions: [], ledger: [], ledgerDeletes: before.ledger.length });
      expect(await sql().query(`SELECT actor_name, entity_id FROM audit_log WHERE action = 'banking.link.gone' AND member_id = $1`, [memberId])).toEqual([
        { actor_name: 'system', entity_id: String(link) },
      ]);
    } finally {
      failing.delete(link);
    }
  }, 60_000);

  it('a FAILED link that recovers has its accounts updated in place and each transaction once, here and in the ledger', async () => {
    const { memberId, link, before } = await failedMember('bank-quin', '10.0.1.6');
    try {
      await aggregator().refresh(
        aggregatorUser(memberId),
        before.accounts.map((a) => Number(a.account_id)),
      );
      await syncNow(memberId);
    } finally {
      failing.delete(link);
    }
    await syncNow(memberId);
    await syncNow(memberId);
    const atAggregator = await aggregator().links(aggregatorUser(memberId));
    const aggregatorAccounts = atAggregator.flatMap((l) => l.accounts);
    const aggregatorRefs = (await aggregator().transactions(aggregatorUser(memberId), { limit: 500 })).items.map((t) => `bank:${t.transactionId}`).sort();
    expect(aggregatorRefs.length).toBeGreaterThan(before.transactions.length);
    const after = await state(memberId);
    expect(after.links).toEqual([expect.objectContaining({ provider_account_id: link, status: 'SUCCESS' })]);
    // The same accounts (the aggregator's ids), with the aggregator's new balances.
    expect(after.accounts.map((a) => [a.account_id, a.provider_account_id, a.balance_cents])).toEqual(
      aggregatorAccounts.map((a) => [a.accountId, link, String(a.balanceCents)]).sort((x, y) => Number(x[0]) - Number(y[0])),
    );
    // Every transaction of the aggregator once here and once in the ledger, each posted to the ledger once (one
    // 'create' in its history, none withdrawn).
    expect(after.transactions).toEqual(aggregatorRefs);
    expect(after.ledger).toEqual(aggregatorRefs);
    expect(after.ledgerDeletes).toBe(0);
    expect(
      await sql().query<{ ref: string; n: number }>(
        `SELECT t.external_ref AS ref, count(*)::int AS n FROM ledger_history h JOIN ledger_transactions t ON t.transaction_id = h.transaction_id
         WHERE h.member_id = $1 AND h.action = 'create' GROUP BY t.external_ref HAVING count(*) <> 1`,
        [memberId],
      ),
    ).toEqual([]);
  }, 60_000);

  it('keeps the link and its ledger rows while FAILED, and on recovery its transactions are back in the ledger once each', async () => {
    const memberId = (await makeUser(env.server, { userName: 'bank-lou', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
    const session = await signIn(env.server, 'bank-lou', undefined, '10.0.1.1', 'card');
    const res = await env.server.app.inject({
      method: 'POST',
      url: BankingApi.add.path,
      headers: authHeaders(session, 'card'),
      payload: {
        ProviderId: 101,
        ProviderAccountId: null,
        LoginForm: bankLogin('good'),
      },
    });
    const link = (res.json().Data as LinkResult).ProviderAccountId ?? 0;
    const before = { transactions: await bankRefs(memberId), ledger: await ledgerRefs(memberId) };
    expect(before.transactions.length).toBeGreaterThan(0);
    expect(before.ledger).toEqual(before.transactions);

    failing.add(link);
    try {
      await syncNow(memberId);
      expect(await sql().query('SELECT provider_account_id FROM banking_links WHERE member_id = $1', [memberId])).toEqual([{ provider_account_id: link }]);
      expect(await ledgerRefs(memberId)).toEqual(before.ledger);
      expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'banking.link.gone' AND member_id = $1`, memberId)).toBe(0);
    } finally {
      failing.delete(link);
    }

    // Recovered: its accounts and transactions are ours again, and the ledger holds each of its rows once.
    await syncNow(memberId);
    expect(await bankRefs(memberId)).toEqual(before.transactions);
    expect(await ledgerRefs(memberId)).toEqual(before.ledger);
    expect(await count(`SELECT count(*)::int AS n FROM ledger_history WHERE member_id = $1 AND action = 'delete'`, memberId)).toBe(0);
  }, 60_000);
});
