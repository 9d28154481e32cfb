import { Roles } from '@portal/core';
import { BANK_TEST_PASSWORD } from '@portal/sandbox';
import { type SandboxTestEnv, sandboxPassThrough, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankingApi, type LinkResult } from '../contract';

/**
 * A link the aggregator still lists, but FAILED (a passing failure at the bank), is not a link gone: the sync keeps it
 * and its rows in the ledger, and when the link recovers its transactions come back into the ledger once each. The
 * sandbox aggregator is reached through a pass-through that answers its link list with the chosen links FAILED.
 */
let env: SandboxTestEnv;
let proxy: Awaited<ReturnType<typeof sandboxPassThrough>>;
/** Links the aggregator lists as FAILED while here. */
const failing = new Set<number>();

beforeAll(async () => {
  proxy = await sandboxPassThrough(
    () => env?.sandboxUrl,
    async (req, _body, res) => {
      if (req.method !== 'GET' || !/^\/aggregator\/api\/users\/[^/]+\/links$/.test(req.url ?? '')) return false;
      const real = await fetch(`${env.sandboxUrl}${req.url}`, { headers: { authorization: String(req.headers.authorization ?? '') } });
      const links = (await real.json()) as { linkId: number; status: string }[];
      const listed = links.map((l) => (failing.has(l.linkId) ? { ...l, status: 'FAILED', message: 'The bank could not be reached.' } : l));
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
        LoginForm: {
          Fields: [
            { Name: 'LOGIN', Value: 'good' },
            { Name: 'PASSWORD', Value: BANK_TEST_PASSWORD },
          ],
        },
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
