import { rawManifests } from '@portal/brands';
import { Roles } from '@portal/core';
import { BANK_STALE_NEW_PASSWORD, BANK_TEST_PASSWORD, mailTo } from '@portal/sandbox';
import { aggregatorConfigFromEnv, SandboxBankAggregator } from '@portal/server/kernel';
import { type SandboxTestEnv, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BANK_SEARCH_MIN_MESSAGE, BankingApi, type BankProvider, type LinkedAccounts, type LinkResult } from '../contract';
import { aggregatorUser } from './core';
import { BANK_MESSAGES } from './messages';
import { bankLogin } from './test-support';

/**
 * The finance service against the sandbox aggregator over real HTTP, through the kernel guard: institutions, linking
 * with success, failure, one- and two-step MFA, the duplicate-link guard, stale credentials then a change (the
 * DeactivateBank marker goes), refresh by job, remove, default account, transactions and the support calls.
 */
let env: SandboxTestEnv;
let ann: Session;
let bob: Session;
let support: Session;
let annId: number;
let bobId: number;
const otherBrand = Object.values(rawManifests).find((b) => !b.plugins.includes('banking'))?.id;

type Call = { body?: unknown; session?: Session; brand?: string; headers?: Record<string, string> };
const call = (path: string, o: Call = {}) =>
  env.server.app.inject({
    method: o.body === undefined ? 'GET' : 'POST',
    url: path,
    headers: { ...authHeaders(o.session ?? ann, o.brand ?? 'card'), ...o.headers },
    payload: o.body as object,
  });
const data = async <T>(path: string, o: Call = {}) => {
  const res = await call(path, o);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json().Data as T;
};
const login = bankLogin;
const answer = (value: string) => ({ Fields: [{ Name: 'ANSWER', Value: value }] });
const add = (providerId: number, user: string, o: Call = {}) =>
  data<LinkResult>(BankingApi.add.path, { ...o, body: { ProviderId: providerId, ProviderAccountId: null, LoginForm: login(user) } });
const mfa = (r: LinkResult, value: string, o: Call = {}) =>
  call(BankingApi.mfa.path, { ...o, body: { ProviderId: r.ProviderId, ProviderAccountId: r.ProviderAccountId, LoginForm: answer(value) } });
const accounts = (o: Call = {}) => data<LinkedAccounts>(BankingApi.siteAccounts.path, o);
/**
 * Runs the queue's retry of the member's failed job (a job in state 'retry') now instead of after the job's retry delay
 * (the sync's 10 s and the refresh's 5 s, with backoff): the same job, made due at once and worked as the queue's second
 * attempt; resolves once it ran (the queue drained) with the job's retry count. The jobs' delays are not changed.
 */
const runRetryNow = async (name: string, memberId: number) => {
  const sql = env.server.database.sql;
  const due = await sql.query<{ id: string }>(
    `UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND state = 'retry' AND (data->>'memberId')::int = $2 RETURNING id`,
    [name, memberId],
  );
  expect(due).toHaveLength(1);
  await env.server.jobs.drain();
  return (await sql.query<{ retry_count: number }>('SELECT retry_count FROM pgboss.job WHERE id = $1', [due[0]?.id]))[0]?.retry_count;
};

beforeAll(async () => {
  // The brand sites answer from a built bundle: stand-in pages let the page answers (and their CSP) be checked
  // without building the web app first.
  env = await startSandboxTestEnv({}, { sites: ['card'] });
  annId = (await makeUser(env.server, { userName: 'bank-ann', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
  bobId = (await makeUser(env.server, { userName: 'bank-bob', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
  await makeUser(env.server, { userName: 'bank-support', roles: [Roles.CareSupport], brand: 'staff' });
  ann = await signIn(env.server, 'bank-ann', undefined, '10.0.0.1', 'card');
  bob = await signIn(env.server, 'bank-bob', undefined, '10.0.0.2', 'card');
  support = await signIn(env.server, 'bank-support', undefined, '10.0.0.3', 'staff');
}, 60_000);
afterAll(() => env?.close());

describe('institutions', () => {
  it('lists eight popular banks and searches from 3 characters', async () => {
    const popular = await data<BankProvider[]>(BankingApi.popular.path);
    expect(popular).toHaveLength(8);
    expect(popular[0]?.Form).toBeNull();
    const found = await data<BankProvider[]>(BankingApi.search.path, { body: { Query: 'summit' } });
    expect(found.length).toBeGreaterThan(3);
    expect(found.every((p) => /summit/i.test(p.Name))).toBe(true);
    const short = await call(BankingApi.search.path, { body: { Query: 'su' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().MsgText).toBe(BANK_SEARCH_MIN_MESSAGE);
  });

  it("sends an institution's login form; version 1.1 wraps it into a list", async () => {
    const one = await data<BankProvider>(BankingApi.provider.path, { body: { ProviderId: 101 } });
    expect(one.Name).toBe('Dag Site Bank');
    expect(Array.isArray(one.Form)).toBe(false);
    expect((one.Form as { Fields: { Name: string }[] }).Fields.map((f) => f.Name)).toContain('PASSWORD');
    const list = await data<BankProvider>(`${BankingApi.provider.path}?version=1.1`, { body: { ProviderId: 101 } });
    expect(Array.isArray(list.Form) && list.Form.length).toBe(1);
    expect((await call(BankingApi.provider.path, { body: { ProviderId: 999_999 } })).statusCode).toBe(404);
  });
});

describe('linking', () => {
  it('refuses wrong credentials with FAILED and a message, and stores nothing', async () => {
    const r = await data<LinkResult>(BankingApi.add.path, { body: { ProviderId: 102, LoginForm: login('good', 'wrong') } });
    expect(r.Status).toBe('FAILED');
    expect(r.Message).toMatch(/not correct/);
    expect((await accounts()).Banks).toEqual([]);
  });

  it('links at once with good credentials: banks, accounts with balances, no funding account until the member sets one', async () => {
    const r = await add(101, 'good');
    expect(r.Status).toBe('SUCCESS');
    expect(r.ProviderAccountId).toBeGreaterThan(0);
    const a = await accounts();
    expect(a.Banks.map((b) => b.Name)).toEqual(['Dag Site Bank']);
    expect(a.Accounts.length).toBeGreaterThan(0);
    expect(a.Accounts[0]?.Balance).toBeGreaterThan(0);
    expect(a.Accounts[0]?.RefreshDate).not.toBeNull();
    expect(a.DefaultAccountId).toBeNull();
    expect(a.Banks[0]?.Containers.map((c) => c.AccountId)).toEqual(
      a.Accounts.filter((x) => x.ProviderAccountId === r.ProviderAccountId).map((x) => x.AccountId),
    );
    expect(a.LastAdded).not.toBeNull();
    // Only ids and what we show are stored: no credentials anywhere in our tables.
    const dump = JSON.stringify(await env.server.database.sql.query('SELECT * FROM banking_links'));
    expect(dump).not.toContain(BANK_TEST_PASSWORD);
  });

  it('refuses to link the same institution twice (duplicate-link guard)', async () => {
    const res = await call(BankingApi.add.path, { body: { ProviderId: 101, LoginForm: login('good') } });
    expect(res.statusCode).toBe(409);
    expect(res.json().MsgText).toBe(String(BANK_MESSAGES.alreadyLinked('Dag Site Bank')));
  });

  it('asks one multi-factor step; a wrong answer FAILS and keeps the step; an empty one is refused', async () => {
    const r = await add(103, 'question');
    expect(r.Status).toBe('MFA');
    expect((r.Form as { FormType: string }).FormType).toBe('question');
    const empty = await mfa(r, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().MsgText).toBe(BANK_MESSAGES.mfaEmpty);
    const wrong = (await mfa(r, 'nope')).json().Data as LinkResult;
    expect(wrong.Status).toBe('FAILED');
    expect(wrong.Form).not.toBeNull();
    const ok = (await mfa(r, 'rex')).json().Data as LinkResult;
    expect(ok.Status).toBe('SUCCESS');
    expect((await accounts()).Banks.map((b) => b.Name)).toContain('Bank of the Republic');
  });

  it('an answer the aggregator already took (its reply lost) answers the link as it stands now, not "not waiting for a multi-factor answer"', async () => {
    const { memberId: id } = await makeUser(env.server, { userName: 'bank-mfa-lost', roles: [Roles.CareGuard], brand: 'card', member: true });
    const session = await signIn(env.server, 'bank-mfa-lost', undefined, '10.0.0.4', 'card');
    const r = await add(103, 'question', { session });
    expect(r.Status).toBe('MFA');
    // Our answer reached the aggregator, which linked the bank; its reply never came back to us (a timeout).
    const taken = await new SandboxBankAggregator(aggregatorConfigFromEnv(env.sandboxUrl)).answerMfa(aggregatorUser(id ?? 0), Number(r.ProviderAccountId), {
      fields: [{ name: 'ANSWER', value: 'rex' }],
    });
    expect(taken.status).toBe('SUCCESS');
    expect((await accounts({ session })).Banks).toEqual([]);
    // The member answers again: the aggregator waits for no answer (409), so the link's state after a sync is the answer.
    const again = await mfa(r, 'rex', { session });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().Data).toMatchObject({ Status: 'SUCCESS', ProviderAccountId: r.ProviderAccountId, ProviderId: 103, Form: null });
    const a = await accounts({ session });
    expect(a.Banks.map((b) => [b.Name, b.Status])).toEqual([['Bank of the Republic', 'SUCCESS']]);
    expect(a.Accounts.length).toBeGreaterThan(0);
    expect(a.LastAdded).not.toBeNull();
    const audits = await env.server.database.sql.query<{ detail: { status: string } }>(
      "SELECT detail FROM audit_log WHERE action = 'banking.link.mfa' AND member_id = $1 ORDER BY id",
      [id],
    );
    expect(audits.map((x) => x.detail.status)).toEqual(['SUCCESS']);
    // Re-adding it is the duplicate it now is.
    const readd = await call(BankingApi.add.path, { session, body: { ProviderId: 103, ProviderAccountId: null, LoginForm: login('question') } });
    expect(readd.statusCode).toBe(409);
  });

  it('asks two steps (a question, then a code), with version 1.1 forms as lists', async () => {
    const r = await data<LinkResult>(`${BankingApi.add.path}?version=1.1`, { body: { ProviderId: 104, LoginForm: [login('twostep')] } });
    expect(r.Status).toBe('MFA');
    expect(Array.isArray(r.Form)).toBe(true);
    const second = await data<LinkResult>(`${BankingApi.mfa.path}?version=1.1`, {
      body: { ProviderId: 104, ProviderAccountId: r.ProviderAccountId, LoginForm: [answer('rex')] },
    });
    expect(second.Status).toBe('MFA');
    expect((second.Form as { FormType: string }[])[0]?.FormType).toBe('code');
    const done = await data<LinkResult>(BankingApi.mfa.path, {
      body: { ProviderId: 104, ProviderAccountId: r.ProviderAccountId, LoginForm: { Fields: [{ Name: 'TOKEN', Value: '123456' }] } },
    });
    expect(done.Status).toBe('SUCCESS');
  });

  it('keeps members apart: another member sees none of these and cannot act on them', async () => {
    expect((await accounts({ session: bob })).Banks).toEqual([]);
    const annBank = (await accounts()).Banks[0];
    const res = await call(BankingApi.remove.path, { session: bob, body: { ProviderAccountId: annBank?.ProviderAccountId } });
    expect(res.statusCode).toBe(404);
    const acct = (await accounts()).Accounts[0];
    expect((await call(BankingApi.defaultAccount.path.replace(':id', String(acct?.AccountId)), { session: bob, body: {} })).statusCode).toBe(404);
  });
});

describe('accounts', () => {
  it('sets the default (funding) account', async () => {
    const a = await accounts();
    const other = a.Accounts.find((x) => !x.IsDefault);
    const res = await call(BankingApi.defaultAccount.path.replace(':id', String(other?.AccountId)), { body: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json().MsgText).toBe(BANK_MESSAGES.fundingSet);
    expect((res.json().Data as LinkedAccounts).DefaultAccountId).toBe(other?.AccountId);
    expect((await data<{ IsDefault: boolean; AccountId: number }[]>(BankingApi.accounts.path)).find((x) => x.IsDefault)?.AccountId).toBe(other?.AccountId);
  });

  it('keeps the funding account as it was when its audit row cannot be written (the choice and its audit are one transaction)', async () => {
    const sql = env.server.database.sql;
    const before = await accounts();
    const other = before.Accounts.find((x) => !x.IsDefault);
    if (!other || before.DefaultAccountId === null) throw new Error('needs a default account and another one');
    const audited = async () =>
      (
        await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM audit_log WHERE action = 'banking.account.default' AND member_id = $1 AND entity_id = $2`,
          [annId, String(other.AccountId)],
        )
      )[0]?.n ?? 0;
    const auditedBefore = await audited();
    await sql.exec(`
      CREATE FUNCTION banking_test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$;
      CREATE TRIGGER banking_test_refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW
        WHEN (NEW.action = 'banking.account.default' AND NEW.member_id = ${annId}) EXECUTE FUNCTION banking_test_refuse_audit();`);
    try {
      const res = await call(BankingApi.defaultAccount.path.replace(':id', String(other.AccountId)), { body: {} });
      expect(res.statusCode).toBe(500);
      expect((await accounts()).DefaultAccountId).toBe(before.DefaultAccountId);
      const row = await sql.query<{ default_account_id: number }>('SELECT default_account_id FROM banking_members WHERE member_id = $1', [annId]);
      expect(row).toEqual([{ default_account_id: before.DefaultAccountId }]);
    } finally {
      await sql.exec('DROP TRIGGER banking_test_refuse_audit ON audit_log; DROP FUNCTION banking_test_refuse_audit();');
    }
    expect(await audited()).toBe(auditedBefore);
    // The same choice goes through, with its audit row, once the row can be written.
    const res = await call(BankingApi.defaultAccount.path.replace(':id', String(other.AccountId)), { body: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().Data as LinkedAccounts).DefaultAccountId).toBe(other.AccountId);
    expect(await audited()).toBe(auditedBefore + 1);
  });

  it('refreshes by a job: the balance, the refresh date and the transactions change', async () => {
    const before = await accounts();
    const acct = before.Accounts[0];
    if (!acct) throw new Error('no account');
    const txBefore = await data<{ ItemCount: number }>(BankingApi.transactions.path, { body: { AccountId: acct.AccountId } });
    const res = await call(BankingApi.refresh.path, { body: { AccountIds: [acct.AccountId] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().MsgText).toBe(BANK_MESSAGES.refreshed);
    await env.server.jobs.drain();
    const after = (await accounts()).Accounts.find((x) => x.AccountId === acct.AccountId);
    expect(after?.RefreshDate && acct.RefreshDate && after.RefreshDate > acct.RefreshDate).toBe(true);
    const txAfter = await data<{ ItemCount: number }>(BankingApi.transactions.path, { body: { AccountId: acct.AccountId } });
    expect(txAfter.ItemCount).toBeGreaterThan(txBefore.ItemCount);
    expect((await accounts()).LastRefreshed).toBe(after?.RefreshDate);
  });

  it("feeds the linked accounts' transactions into the ledger's bank view, once each, read-only there", async () => {
    const ledgerRows = async () =>
      (
        await env.server.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`, [
          annId,
        ])
      )[0]?.n ?? 0;
    const bankRows =
      (await env.server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM banking_transactions WHERE member_id = $1', [annId]))[0]?.n ?? 0;
    expect(bankRows).toBeGreaterThan(0);
    expect(await ledgerRows()).toBe(bankRows);
    const search = await data<{ Items: { TransactionID: number; Source: string; Version: number; Company: string }[] }>('/api/transactions/search', {
      body: { PageSize: 100, Query: { From: '2000-01-01', To: '2100-01-01' } },
    });
    const row = search.Items.find((i) => i.Source === 'bank');
    expect(row?.Company).toMatch(/Dag Site Bank|Bank of the Republic|Chase Harbor Bank/);
    const edit = await call('/api/transactions/delete', { body: { TransactionID: row?.TransactionID, Version: row?.Version } });
    expect(edit.statusCode).toBe(409);
    // Another sync adds nothing twice.
    await env.server.jobs.send('banking.sync', { memberId: annId });
    await env.server.jobs.drain();
    expect(await ledgerRows()).toBe(bankRows);
  });

  it('filters transactions by account and keyword, in pages', async () => {
    const all = await data<{ Items: { Description: string; AccountId: number }[]; ItemCount: number }>(BankingApi.transactions.path, {
      body: { PageSize: 5 },
    });
    expect(all.Items.length).toBeLessThanOrEqual(5);
    const word = all.Items[0]?.Description ?? 'x';
    const some = await data<{ Items: { Description: string }[] }>(BankingApi.transactions.path, {
      body: { Keyword: word.slice(0, 4).toUpperCase(), PageSize: 100 },
    });
    expect(some.Items.length).toBeGreaterThan(0);
    expect(some.Items.every((t) => t.Description.toLowerCase().includes(word.slice(0, 4).toLowerCase()))).toBe(true);
  });

  it('refuses a From or To that is not a real calendar day with 400 (not a database error), for members and support', async () => {
    for (const body of [{ From: '2026-02-30' }, { To: '2025-02-29' }, { From: '2026-13-01' }, { To: '2026-04-31' }, { From: '2026-01-01x' }]) {
      const res = await call(BankingApi.transactions.path, { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().MsgText, JSON.stringify(body)).toMatch(/^body\.(From|To): /);
      const staff = await call(BankingApi.supportTransactions.path, { session: support, brand: 'staff', body: { ...body, MemberId: annId } });
      expect(staff.statusCode, JSON.stringify(body)).toBe(400);
    }
    // A leap day is a day: 2024-02-29 filters as usual.
    expect((await call(BankingApi.transactions.path, { body: { From: '2024-02-29', To: '2099-12-31' } })).statusCode).toBe(200);
  });

  it('refuses to refresh an account that is not the member’s', async () => {
    const acct = (await accounts()).Accounts[0];
    expect((await call(BankingApi.refresh.path, { session: bob, body: { AccountIds: [acct?.AccountId] } })).statusCode).toBe(404);
  });
});

describe('stale credentials', () => {
  it('goes stale at a refresh (the DeactivateBank marker is set), then a credential change clears it without a new sign-in', async () => {
    const r = await add(105, 'stale', { session: bob });
    expect(r.Status).toBe('SUCCESS');
    const acct = (await accounts({ session: bob })).Accounts[0];
    await data(BankingApi.refresh.path, { session: bob, body: { AccountIds: [acct?.AccountId] } });
    await env.server.jobs.drain();
    const stale = await accounts({ session: bob });
    expect(stale.Banks[0]?.Status).toBe('STALE');
    expect(
      await env.server.database.sql.query('SELECT role FROM user_roles r JOIN users u ON u.id = r.user_id WHERE u.member_id = $1 ORDER BY role', [bobId]),
    ).toEqual([{ role: 'CareGuard' }, { role: 'DeactivateBank' }]);
    expect(await data(BankingApi.validate.path, { session: bob })).toEqual({ IsValid: true, IsStale: true });

    const failed = await data<LinkResult>(BankingApi.change.path, {
      session: bob,
      body: { ProviderId: 105, ProviderAccountId: r.ProviderAccountId, LoginForm: login('stale', BANK_TEST_PASSWORD) },
    });
    expect(failed.Status).toBe('FAILED');
    expect(failed.Token).toBeNull();

    const res = await call(BankingApi.change.path, {
      session: bob,
      body: { ProviderId: 105, ProviderAccountId: r.ProviderAccountId, LoginForm: login('stale', BANK_STALE_NEW_PASSWORD) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().MsgText).toBe(BANK_MESSAGES.credentialsUpdated);
    const changed = res.json().Data as LinkResult;
    expect(changed.Status).toBe('SUCCESS');
    // The fresh token carries the roles without the marker: the session follows without a new sign-in.
    const claims = JSON.parse(Buffer.from(changed.Token?.access_token.split('.')[1] ?? '', 'base64url').toString()) as { roles: string[] };
    expect(claims.roles).toEqual(['CareGuard']);
    expect((await accounts({ session: bob })).Banks[0]?.Status).toBe('SUCCESS');
    const roles = await env.server.database.sql.query('SELECT role FROM user_roles r JOIN users u ON u.id = r.user_id WHERE u.member_id = $1', [bobId]);
    expect(roles).toEqual([{ role: 'CareGuard' }]);
    // The marker's removal is audited, under the member, for the login that held it (in the change's transaction).
    const removed = await env.server.database.sql.query<{ entity: string; entity_id: string; actor_name: string }>(
      `SELECT entity, entity_id, actor_name FROM audit_log WHERE action = 'banking.marker.remove' AND member_id = $1`,
      [bobId],
    );
    const bobUser = await env.server.database.sql.query<{ id: string }>('SELECT id FROM users WHERE member_id = $1', [bobId]);
    expect(removed.map((r) => [r.entity, r.entity_id])).toEqual([['user', bobUser[0]?.id]]);
    expect(
      await env.server.database.sql.query(
        `SELECT detail->>'status' AS status FROM audit_log WHERE action = 'banking.link.credentials' AND member_id = $1 ORDER BY id`,
        [bobId],
      ),
    ).toEqual([{ status: 'FAILED' }, { status: 'SUCCESS' }]);
    // Refreshing now works.
    await data(BankingApi.refresh.path, { session: bob, body: { AccountIds: [acct?.AccountId] } });
    await env.server.jobs.drain();
    expect((await accounts({ session: bob })).Banks[0]?.Status).toBe('SUCCESS');
  });
});

describe('the sync job', () => {
  const sql = () => env.server.database.sql;
  /** The state of the member's jobs of a kind (pg-boss's own table): 'completed' once a run went through. */
  const jobStates = async (name: string, memberId: number) =>
    (
      await sql().query<{ state: string }>(
        `SELECT state::text AS state FROM pgboss.job WHERE name = $1 AND (data->>'memberId')::int = $2 ORDER BY created_on`,
        [name, memberId],
      )
    ).map((j) => j.state);
  const markerAdds = (memberId: number) =>
    sql().query<{ actor_name: string; entity: string; entity_id: string; role: string }>(
      `SELECT actor_name, entity, entity_id, detail->>'role' AS role FROM audit_log WHERE action = 'banking.marker.add' AND member_id = $1 ORDER BY id`,
      [memberId],
    );
  const roles = async (memberId: number) =>
    (
      await sql().query<{ role: string }>('SELECT role FROM user_roles r JOIN users u ON u.id = r.user_id WHERE u.member_id = $1 ORDER BY role', [memberId])
    ).map((r) => r.role);

  it('audits the DeactivateBank marker a stale link sets, as system with the member, in the change’s transaction, once per login', async () => {
    const dee = await makeUser(env.server, { userName: 'bank-dee', roles: [Roles.CareGuard], brand: 'card', member: true });
    const deeId = dee.memberId ?? 0;
    const session = await signIn(env.server, 'bank-dee', undefined, '10.0.0.6', 'card');
    expect((await add(105, 'stale', { session })).Status).toBe('SUCCESS');
    const acct = (await accounts({ session })).Accounts[0];
    // The audit row cannot be written: the sync's transaction fails whole, so the marker is not set either.
    await sql().exec(`
      CREATE FUNCTION banking_test_refuse_marker_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$;
      CREATE TRIGGER banking_test_refuse_marker_audit BEFORE INSERT ON audit_log FOR EACH ROW
        WHEN (NEW.action = 'banking.marker.add' AND NEW.member_id = ${deeId}) EXECUTE FUNCTION banking_test_refuse_marker_audit();`);
    try {
      await data(BankingApi.refresh.path, { session, body: { AccountIds: [acct?.AccountId] } });
      for (let i = 0; i < 200 && !(await jobStates('banking.refresh', deeId)).includes('retry'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await jobStates('banking.refresh', deeId)).toEqual(['retry']);
      expect(await roles(deeId)).toEqual(['CareGuard']);
      expect((await accounts({ session })).Banks[0]?.Status).toBe('SUCCESS');
      expect(await markerAdds(deeId)).toEqual([]);
    } finally {
      await sql().exec('DROP TRIGGER banking_test_refuse_marker_audit ON audit_log; DROP FUNCTION banking_test_refuse_marker_audit();');
    }
    // The job's retry goes through: the link is stale, the login marked, and the marking audited by 'system'.
    expect(await runRetryNow('banking.refresh', deeId)).toBe(1);
    expect(await jobStates('banking.refresh', deeId)).toEqual(['completed']);
    expect((await accounts({ session })).Banks[0]?.Status).toBe('STALE');
    expect(await roles(deeId)).toEqual(['CareGuard', 'DeactivateBank']);
    expect(await markerAdds(deeId)).toEqual([{ actor_name: 'system', entity: 'user', entity_id: dee.userId, role: 'DeactivateBank' }]);
    // A later sync finds the marker already there: nothing changes, nothing more is audited.
    await env.server.jobs.send('banking.sync', { memberId: deeId });
    await env.server.jobs.drain();
    expect(await roles(deeId)).toEqual(['CareGuard', 'DeactivateBank']);
    expect(await markerAdds(deeId)).toHaveLength(1);
  }, 60_000);

  it('runs the low-balance rule once after posting bank rows that take the balance under $100.00: one mail, audited as system', async () => {
    const fay = await makeUser(env.server, { userName: 'bank-fay', roles: [Roles.CareGuard], brand: 'card', member: true });
    const fayId = fay.memberId ?? 0;
    const session = await signIn(env.server, 'bank-fay', undefined, '10.0.0.7', 'card');
    const inbox = async () => {
      await env.server.jobs.drain();
      return (await mailTo(env.sandboxUrl, 'bank-fay@example.com')).filter((m) => m.subject === 'Low Account Balance');
    };
    const mailAudits = () =>
      sql().query<{ actor_name: string }>(`SELECT actor_name FROM audit_log WHERE action = 'ledger.lowbalance.mail' AND member_id = $1`, [fayId]);
    // Linked with no initial balance yet: the rows enter the ledger, there is no balance to judge.
    expect((await add(101, 'good', { session })).Status).toBe('SUCCESS');
    const expense = (
      await sql().query<{ transaction_id: number; amount_cents: number }>(
        `SELECT transaction_id, amount_cents::float8 AS amount_cents FROM ledger_transactions
         WHERE member_id = $1 AND source = 'bank' AND transaction_type_id = 1 ORDER BY amount_cents, transaction_id LIMIT 1`,
        [fayId],
      )
    )[0];
    if (!expense) throw new Error('the linked accounts have no expense');
    // One expense of the aggregator is not in the ledger yet: the next sync posts it.
    await sql().query('DELETE FROM ledger_transactions WHERE transaction_id = $1', [expense.transaction_id]);
    const flow =
      (
        await sql().query<{ cents: number }>(
          `SELECT COALESCE(sum(CASE WHEN transaction_type_id = 1 THEN -amount_cents ELSE amount_cents END), 0)::float8 AS cents
           FROM ledger_transactions WHERE member_id = $1 AND status NOT IN ('Authorized', 'Captured', 'Voided')`,
          [fayId],
        )
      )[0]?.cents ?? 0;
    // The initial balance leaves exactly $100.00: at the threshold, not under it, so no mail.
    const set = await call('/api/transactions/balance', { session, body: { Amount: ((10_000 - flow) / 100).toFixed(2) } });
    expect(set.statusCode, set.body).toBe(200);
    expect(await inbox()).toEqual([]);

    await env.server.jobs.send('banking.sync', { memberId: fayId });
    const mails = await inbox();
    expect(await jobStates('banking.sync', fayId)).toEqual(['completed']);
    expect(mails).toHaveLength(1);
    const left = 10_000 - expense.amount_cents;
    expect(mails[0]?.text).toContain(
      `The balance of your Medicare set-aside account is ${left < 0 ? '-' : ''}$${(Math.abs(left) / 100).toFixed(2)}, under $100.00.`,
    );
    expect(await mailAudits()).toEqual([{ actor_name: 'system' }]);
    // No request, yet signed by the member's brand (their record names it), not by the portal's generic sender.
    expect(mails[0]?.from).toBe('"Amethyst Card" <support@card.example.com>');
    // Another sync posts nothing new: no second mail.
    await env.server.jobs.send('banking.sync', { memberId: fayId });
    expect(await inbox()).toHaveLength(1);
    expect(await mailAudits()).toHaveLength(1);
  }, 60_000);

  it('posts the bank rows and completes when the low-balance check fails (the check never fails the sync)', async () => {
    const gus = await makeUser(env.server, { userName: 'bank-gus', roles: [Roles.CareGuard], brand: 'card', member: true });
    const gusId = gus.memberId ?? 0;
    const session = await signIn(env.server, 'bank-gus', undefined, '10.0.0.8', 'card');
    expect((await add(101, 'good', { session })).Status).toBe('SUCCESS');
    expect((await call('/api/transactions/balance', { session, body: { Amount: '5000.00' } })).statusCode).toBe(200);
    const bankRows = async () =>
      (await sql().query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`, [gusId]))[0]?.n ?? 0;
    const all = await bankRows();
    await sql().query(
      `DELETE FROM ledger_transactions WHERE transaction_id = (SELECT min(transaction_id) FROM ledger_transactions WHERE member_id = $1 AND source = 'bank')`,
      [gusId],
    );
    await sql().query('ALTER TABLE trends_low_balance RENAME TO trends_low_balance_away');
    try {
      await env.server.jobs.send('banking.sync', { memberId: gusId });
      await env.server.jobs.drain();
    } finally {
      await sql().query('ALTER TABLE trends_low_balance_away RENAME TO trends_low_balance');
    }
    // Completed at its first run: no failure, no retry.
    expect(await jobStates('banking.sync', gusId)).toEqual(['completed']);
    expect(await sql().query(`SELECT retry_count FROM pgboss.job WHERE name = 'banking.sync' AND (data->>'memberId')::int = $1`, [gusId])).toEqual([
      { retry_count: 0 },
    ]);
    expect(await bankRows()).toBe(all);
  }, 60_000);
});

describe('support', () => {
  it('answers IslinkedBank to CareSupport only', async () => {
    expect(await data<boolean>(BankingApi.isLinkedBank.path.replace(':memberId', String(annId)), { session: support, brand: 'staff' })).toBe(true);
    const none = await makeUser(env.server, { userName: 'bank-none', roles: [Roles.CareGuard], brand: 'card', member: true });
    expect(await data<boolean>(BankingApi.isLinkedBank.path.replace(':memberId', String(none.memberId)), { session: support, brand: 'staff' })).toBe(false);
    expect((await call(BankingApi.isLinkedBank.path.replace(':memberId', String(annId)))).statusCode).toBe(403);
  });

  it('reads accounts, several members, validity and transactions of members', async () => {
    const one = await data<LinkedAccounts & { MemberId: number; IsLinked: boolean }>(BankingApi.supportAccounts.path, {
      session: support,
      brand: 'staff',
      body: { MemberId: annId },
    });
    expect(one.IsLinked).toBe(true);
    expect(one.Banks.length).toBe(3);
    const many = await data<{ MemberId: number; IsLinked: boolean }[]>(BankingApi.supportMultipleAccounts.path, {
      session: support,
      brand: 'staff',
      body: { MemberIds: [annId, bobId] },
    });
    expect(many.map((m) => m.MemberId)).toEqual([annId, bobId]);
    expect(await data(`${BankingApi.supportValidate.path}?memberId=${bobId}`, { session: support, brand: 'staff' })).toEqual({ IsValid: true, IsStale: false });
    const tx = await data<{ ItemCount: number }>(BankingApi.supportTransactions.path, { session: support, brand: 'staff', body: { MemberId: annId } });
    expect(tx.ItemCount).toBeGreaterThan(0);
    // Members may not use the support calls; staff without a member are told to choose one.
    expect((await call(BankingApi.supportAccounts.path, { body: { MemberId: annId } })).statusCode).toBe(403);
    expect((await call(BankingApi.siteAccounts.path, { session: support, brand: 'staff' })).statusCode).toBe(403);
  });
});

describe("support's check of many members at once (support/multiple-accounts)", () => {
  type MemberAccounts = LinkedAccounts & { MemberId: number; IsLinked: boolean };
  /** No member has this id: support/accounts answers it with nothing linked. */
  const unknownId = 2_000_000_000;
  let noneId: number;
  let oneId: number;
  let staleId: number;
  let severalId: number;
  let unfinishedId: number;
  let n = 0;
  /** A member on the card site, signed in: its id and session. */
  const member = async (userName: string) => {
    const memberId = (await makeUser(env.server, { userName, roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
    return { memberId, session: await signIn(env.server, userName, undefined, `10.0.2.${++n}`, 'card') };
  };
  const one = (memberId: number, headers: Record<string, string> = {}) =>
    data<MemberAccounts>(BankingApi.supportAccounts.path, { session: support, brand: 'staff', headers, body: { MemberId: memberId } });
  const many = (memberIds: number[], headers: Record<string, string> = {}) =>
    data<MemberAccounts[]>(BankingApi.supportMultipleAccounts.path, { session: support, brand: 'staff', headers, body: { MemberIds: memberIds } });

  beforeAll(async () => {
    noneId = (await member('bank-multi-none')).memberId;
    // One bank, its first account the funding account.
    const single = await member('bank-multi-one');
    oneId = single.memberId;
    expect((await add(101, 'good', { session: single.session })).Status).toBe('SUCCESS');
    const first = (await accounts({ session: single.session })).Accounts[0];
    await data(BankingApi.defaultAccount.path.replace(':id', String(first?.AccountId)), { session: single.session, body: {} });
    // One bank whose credentials went stale at a refresh (its Message is the aggregator's, worded per language).
    const stale = await member('bank-multi-stale');
    staleId = stale.memberId;
    expect((await add(105, 'stale', { session: stale.session })).Status).toBe('SUCCESS');
    const acct = (await accounts({ session: stale.session })).Accounts[0];
    await data(BankingApi.refresh.path, { session: stale.session, body: { AccountIds: [acct?.AccountId] } });
    await env.server.jobs.drain();
    expect((await accounts({ session: stale.session })).Banks[0]?.Status).toBe('STALE');
    // Three banks and a link still waiting for its multi-factor answer (no bank yet), a funding account in the second bank.
    const several = await member('bank-multi-several');
    severalId = several.memberId;
    for (const providerId of [106, 101, 102]) expect((await add(providerId, 'good', { session: several.session })).Status).toBe('SUCCESS');
    expect((await add(103, 'question', { session: several.session })).Status).toBe('MFA');
    const mine = await accounts({ session: several.session });
    const second = mine.Accounts.find((a) => a.ProviderAccountId === mine.Banks[1]?.ProviderAccountId);
    await data(BankingApi.defaultAccount.path.replace(':id', String(second?.AccountId)), { session: several.session, body: {} });
    // Only a link waiting for its multi-factor answer: not linked.
    const unfinished = await member('bank-multi-unfinished');
    unfinishedId = unfinished.memberId;
    expect((await add(104, 'twostep', { session: unfinished.session })).Status).toBe('MFA');
  }, 120_000);

  it('answers each member as support/accounts does, in the order asked, duplicates once, unknown members with nothing linked', async () => {
    const asked = [staleId, unknownId, severalId, noneId, staleId, oneId, unfinishedId, severalId, unknownId];
    const order = [staleId, unknownId, severalId, noneId, oneId, unfinishedId];
    for (const headers of [{}, { cookie: 'cq.lang=es' }] as Record<string, string>[]) {
      const answers = await many(asked, headers);
      expect(answers.map((a) => a.MemberId)).toEqual(order);
      const expected = [];
      for (const memberId of order) expected.push(await one(memberId, headers));
      expect(answers).toEqual(expected);
    }
    // The states are what they were made to be: the comparison is over each kind of member.
    const [stale, unknown, several, none, single, unfinished] = await many(order);
    expect(stale?.Banks.map((b) => b.Status)).toEqual(['STALE']);
    expect(stale?.IsLinked).toBe(true);
    expect(several?.Banks).toHaveLength(3);
    expect(several?.Banks.map((b) => b.ProviderId)).toEqual([106, 101, 102]);
    const secondBank = several?.Banks[1]?.ProviderAccountId;
    expect(several?.DefaultAccountId).toBe(several?.Accounts.find((a) => a.ProviderAccountId === secondBank)?.AccountId);
    expect(single?.Banks).toHaveLength(1);
    expect(single?.Accounts.filter((a) => a.IsDefault)).toHaveLength(1);
    const nothing = { Banks: [], DefaultAccountId: null, Accounts: [], LastRefreshed: null, LastAdded: null, IsLinked: false };
    expect(none).toEqual({ ...nothing, MemberId: noneId });
    expect(unknown).toEqual({ ...nothing, MemberId: unknownId });
    expect(unfinished).toMatchObject({ Banks: [], IsLinked: false });
    expect((await many([staleId], { cookie: 'cq.lang=es' }))[0]?.Banks[0]?.Message).toBe(
      'Sus credenciales de esta institución cambiaron. Por favor, actualícelas.',
    );
  });

  it("audits each member's read once (duplicates once), as support/accounts does", async () => {
    const audited = async () => {
      await env.server.flushAudit();
      const rows = await env.server.database.sql.query<{ member_id: number; n: number }>(
        `SELECT member_id, count(*)::int AS n FROM audit_log
         WHERE action = 'banking.accounts.read' AND actor_name = 'bank-support' AND entity = 'member' AND entity_id = member_id::text AND member_id = ANY($1::int[])
         GROUP BY member_id`,
        [[noneId, oneId, staleId, severalId, unknownId]],
      );
      return new Map(rows.map((r) => [r.member_id, r.n]));
    };
    const before = await audited();
    await many([severalId, noneId, severalId, unknownId, oneId]);
    const after = await audited();
    for (const memberId of [severalId, noneId, unknownId, oneId]) expect(after.get(memberId), String(memberId)).toBe((before.get(memberId) ?? 0) + 1);
    expect(after.get(staleId) ?? 0).toBe(before.get(staleId) ?? 0);
  });

  it('reads the banks of many members in as many statements as of one member', async () => {
    /** The statements the request sent to the database, and those of them on banking's tables. */
    const statements = async (memberIds: number[]) => {
      await env.server.flushAudit();
      const query = vi.spyOn(env.server.database.sql, 'query');
      try {
        const answers = await many(memberIds);
        expect(answers).toHaveLength(new Set(memberIds).size);
        const texts = query.mock.calls.map(([text]) => text).filter((text) => !text.includes('audit_log'));
        return { all: texts.length, banking: texts.filter((text) => text.includes('banking_')).length };
      } finally {
        query.mockRestore();
      }
    };
    const single = await statements([severalId]);
    const all = await statements([staleId, unknownId, severalId, noneId, oneId, unfinishedId, annId, bobId]);
    expect(single.banking).toBeGreaterThan(0);
    expect(single.banking).toBeLessThanOrEqual(3);
    expect(all.banking).toBe(single.banking);
    expect(all.all).toBe(single.all);
  });
});

describe('read audits', () => {
  let superUser: Session;
  beforeAll(async () => {
    await makeUser(env.server, { userName: 'bank-super', roles: [Roles.SuperUser], brand: 'staff' });
    superUser = await signIn(env.server, 'bank-super', undefined, '10.0.0.5', 'staff');
  });
  /** The read-audit rows of an action about a member, by an actor (the buffer flushed first). */
  const reads = async (action: string, memberId: number, actor: string) => {
    await env.server.flushAudit();
    return (
      (
        await env.server.database.sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND member_id = $2 AND actor_name = $3 AND entity = 'member' AND entity_id = $4`,
          [action, memberId, actor, String(memberId)],
        )
      )[0]?.n ?? 0
    );
  };
  const expectAudited = async (action: string, memberId: number, actor: string, read: () => Promise<{ statusCode: number; body: string }>) => {
    const before = await reads(action, memberId, actor);
    const res = await read();
    expect(res.statusCode, res.body).toBe(200);
    expect(await reads(action, memberId, actor), action).toBe(before + 1);
  };

  it("audits each of a member's own reads of bank data (accounts, details, transactions, validity) under that member", async () => {
    await expectAudited('banking.accounts.read', annId, 'bank-ann', () => call(BankingApi.siteAccounts.path));
    await expectAudited('banking.accounts.read', annId, 'bank-ann', () => call(BankingApi.accounts.path));
    await expectAudited('banking.account.details.read', annId, 'bank-ann', () => call(BankingApi.details.path));
    await expectAudited('banking.transactions.read', annId, 'bank-ann', () => call(BankingApi.transactions.path, { body: { PageSize: 5 } }));
    await expectAudited('banking.account.validate.read', annId, 'bank-ann', () => call(BankingApi.validate.path));
  });

  it('audits a read made while impersonating under the impersonated member, with the staff login as actor', async () => {
    const acting = { session: superUser, brand: 'staff', headers: { 'x-member-id': String(bobId) } };
    await expectAudited('banking.accounts.read', bobId, 'bank-super', () => call(BankingApi.siteAccounts.path, acting));
    await expectAudited('banking.account.details.read', bobId, 'bank-super', () => call(BankingApi.details.path, acting));
    await expectAudited('banking.transactions.read', bobId, 'bank-super', () => call(BankingApi.transactions.path, { ...acting, body: {} }));
    await expectAudited('banking.account.validate.read', bobId, 'bank-super', () => call(BankingApi.validate.path, acting));
  });

  it("audits support's reads of a named member: validity and the linked-bank check", async () => {
    const staff = { session: support, brand: 'staff' };
    await expectAudited('banking.account.validate.read', bobId, 'bank-support', () => call(`${BankingApi.supportValidate.path}?memberId=${bobId}`, staff));
    await expectAudited('banking.linked.read', annId, 'bank-support', () => call(BankingApi.isLinkedBank.path.replace(':memberId', String(annId)), staff));
  });
});

describe('a bank linked in the hosted frame (/management/bank-fastlink) reaches our records (review memmoney2 finding 1)', () => {
  const sql = () => env.server.database.sql;
  const bankRows = async (memberId: number) =>
    (await sql().query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`, [memberId]))[0]?.n;
  /** What the frame does: the token from GET token, then the hosted page's login step, which links at the aggregator. */
  const linkInFrame = async (session: Session, institutionId: number) => {
    const t = await data<{ url: string; token: string }>(BankingApi.token.path, { session });
    const page = await fetch(t.url, {
      method: 'POST',
      body: new URLSearchParams({ token: t.token, step: 'login', institutionId: String(institutionId), f_LOGIN: 'good', f_PASSWORD: BANK_TEST_PASSWORD }),
    });
    expect(await page.text()).toContain('data-linked');
  };

  it("the page's site/sync, on the frame's 'linked' message, mirrors the link: the bank, its accounts and its ledger rows appear; audited", async () => {
    const id = (await makeUser(env.server, { userName: 'bank-frame', roles: [Roles.CareGuardFinance], brand: 'card', member: true })).memberId ?? 0;
    const s = await signIn(env.server, 'bank-frame', undefined, '10.0.0.6', 'card');
    await linkInFrame(s, 101);
    // Linked at the aggregator only: nothing here yet.
    expect((await accounts({ session: s })).Banks).toEqual([]);
    expect(await bankRows(id)).toBe(0);

    const res = await call(BankingApi.siteSync.path, { session: s, body: {} });
    expect(res.statusCode).toBe(200);
    const synced = res.json().Data as LinkedAccounts;
    expect(synced.Banks.map((b) => [b.ProviderId, b.Status])).toEqual([[101, 'SUCCESS']]);
    expect(synced.Accounts.length).toBeGreaterThan(0);
    expect(await data(BankingApi.validate.path, { session: s })).toEqual({ IsValid: true, IsStale: false });
    expect(await bankRows(id)).toBeGreaterThan(0);
    expect(await sql().query(`SELECT actor_name, entity, entity_id FROM audit_log WHERE action = 'banking.link.sync' AND member_id = $1`, [id])).toEqual([
      { actor_name: 'bank-frame', entity: 'member', entity_id: String(id) },
    ]);
  });

  it('a link made in the frame whose message never reached the page is mirrored by the sync the token queued', async () => {
    const id = (await makeUser(env.server, { userName: 'bank-lost', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
    const s = await signIn(env.server, 'bank-lost', undefined, '10.0.0.7', 'card');
    await linkInFrame(s, 102);
    // GET token queued one sync of the member for when the token has expired (asked again, still one).
    await data(BankingApi.token.path, { session: s });
    const waiting = await sql().query<{ start_after: Date }>(
      `SELECT start_after FROM pgboss.job WHERE name = 'banking.sync' AND state = 'created' AND (data->>'memberId')::int = $1`,
      [id],
    );
    expect(waiting).toHaveLength(1);
    expect(new Date(waiting[0]?.start_after ?? 0).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    await env.server.jobs.drain();
    expect((await accounts({ session: s })).Banks).toEqual([]);

    // Its time come, it mirrors the link.
    await sql().query(`UPDATE pgboss.job SET start_after = now() WHERE name = 'banking.sync' AND state = 'created' AND (data->>'memberId')::int = $1`, [id]);
    await env.server.jobs.drain();
    expect((await accounts({ session: s })).Banks.map((b) => b.ProviderId)).toEqual([102]);
    expect(await bankRows(id)).toBeGreaterThan(0);
  });
});

describe('remove, terminate, token, brands', () => {
  it('removes a link: its accounts are gone, and with them the funding account', async () => {
    const before = await accounts();
    const bank = before.Banks.find((b) => b.Containers.some((c) => c.AccountId === before.DefaultAccountId));
    const res = await call(BankingApi.remove.path, { body: { ProviderAccountId: bank?.ProviderAccountId } });
    expect(res.statusCode).toBe(200);
    expect(res.json().MsgText).toBe(BANK_MESSAGES.removed);
    const after = res.json().Data as LinkedAccounts;
    expect(after.Banks.length).toBe(before.Banks.length - 1);
    expect(after.DefaultAccountId).toBeNull();
    expect(after.LastAdded).toBeNull();
    expect(after.Accounts.some((a) => a.AccountId === before.DefaultAccountId)).toBe(false);
    // Its transactions left the ledger with it; the other banks' stay.
    const left = await env.server.database.sql.query<{ company: string }>(
      `SELECT DISTINCT company FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`,
      [annId],
    );
    expect(left.some((r) => r.company.startsWith(bank?.Name ?? '?'))).toBe(false);
    expect(left.length).toBeGreaterThan(0);
    // The institution can be linked again now.
    expect((await add(bank?.ProviderId ?? 0, 'good')).Status).toBe('SUCCESS');
  });

  it('answers the hosted linking token (url, rsession, app, token, extra), a page framed only by this site', async () => {
    const t = await data<{ url: string; rsession: string; app: string; token: string; extra: string }>(BankingApi.token.path);
    expect(t.url).toBe(`${env.sandboxUrl}/aggregator/fastlink`);
    expect(t.rsession && t.app && t.token && t.extra).toBeTruthy();
    // Opened as the page opens it: the token posted into the frame, never in its address.
    const page = await fetch(t.url, { method: 'POST', body: new URLSearchParams({ token: t.token, rsession: t.rsession, app: t.app }) });
    expect(page.status).toBe(200);
    expect((await fetch(`${t.url}?token=${t.token}`)).status).toBe(403);
    expect(page.headers.get('content-security-policy')).toContain('frame-ancestors http://card.localhost');
    expect(await page.text()).toContain('Popular banks');
  });

  it('names only the aggregator in frame-src on the bank pages', async () => {
    const res = await env.server.app.inject({ method: 'GET', url: '/payment/bank', headers: { host: 'card.localhost' } });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy'] ?? '');
    expect(csp).toMatch(new RegExp(`frame-src ${new URL(env.sandboxUrl).origin.replace(/[.]/g, '\\.')}(;|$)`));
  });

  it('terminates: every link removed', async () => {
    const res = await call(BankingApi.terminate.path, { body: {} });
    expect(res.statusCode).toBe(200);
    expect((res.json().Data as LinkedAccounts).Banks).toEqual([]);
    expect(await data(BankingApi.validate.path)).toEqual({ IsValid: false, IsStale: false });
  });

  it("removes a member's links at the aggregator and here when support terminates the membership", async () => {
    const cyId = (await makeUser(env.server, { userName: 'bank-cy', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
    const cy = await signIn(env.server, 'bank-cy', undefined, '10.0.0.4', 'card');
    expect((await add(101, 'good', { session: cy })).Status).toBe('SUCCESS');
    expect((await accounts({ session: cy })).Banks).toHaveLength(1);
    const links = () => env.server.database.sql.query('SELECT 1 FROM banking_links WHERE member_id = $1', [cyId]);
    expect(await links()).toHaveLength(1);

    const res = await call('/api/support/terminateMember', { session: support, brand: 'staff', body: { Member: { MemberID: cyId } } });
    expect(res.statusCode).toBe(200);
    await env.server.jobs.drain();
    // Our rows go only after the aggregator has removed each link (a failure there leaves them for the job's retry).
    expect(await links()).toEqual([]);
    expect(await env.server.database.sql.query(`SELECT actor_name FROM audit_log WHERE action = 'banking.terminate' AND member_id = $1`, [cyId])).toEqual([
      { actor_name: 'system' },
    ]);
  });

  it('answers 401 anonymously and 404 on a brand without the plugin', async () => {
    expect((await env.server.app.inject({ method: 'GET', url: BankingApi.siteAccounts.path, headers: { host: 'card.localhost' } })).statusCode).toBe(401);
    if (otherBrand) expect((await call(BankingApi.siteAccounts.path, { brand: otherBrand })).statusCode).toBe(404);
  });
});

describe('unlinking and the withdrawal of its ledger rows are one transaction (remove, terminate, a link gone at the aggregator)', () => {
  const sql = () => env.server.database.sql;
  /** What the member has here and in the ledger: links, accounts, bank transactions (as ledger refs), the ledger's bank rows. */
  const state = async (memberId: number) => {
    const ids = async (text: string) => (await sql().query<{ v: number | string }>(text, [memberId])).map((r) => r.v);
    return {
      links: await ids('SELECT provider_account_id AS v FROM banking_links WHERE member_id = $1 ORDER BY 1'),
      accounts: await ids('SELECT account_id AS v FROM banking_accounts WHERE member_id = $1 ORDER BY 1'),
      transactions: await ids(`SELECT 'bank:' || transaction_id AS v FROM banking_transactions WHERE member_id = $1 ORDER BY 1`),
      ledger: await ids(`SELECT external_ref AS v FROM ledger_transactions WHERE member_id = $1 AND source = 'bank' ORDER BY 1`),
      ledgerHistory: await ids(`SELECT count(*)::int AS v FROM ledger_history WHERE member_id = $1 AND action = 'delete'`),
    };
  };
  const audited = async (action: string, memberId: number) =>
    (await sql().query('SELECT 1 FROM audit_log WHERE action = $1 AND member_id = $2', [action, memberId])).length;
  /** While set, the ledger cannot delete the member's bank rows: the withdrawal fails (a busy or lost database). */
  const refuseWithdraw = (memberId: number) =>
    sql().exec(`
      CREATE FUNCTION banking_test_refuse_withdraw() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'withdrawal refused by the test'; END $$;
      CREATE TRIGGER banking_test_refuse_withdraw BEFORE DELETE ON ledger_transactions FOR EACH ROW
        WHEN (OLD.member_id = ${memberId} AND OLD.source = 'bank') EXECUTE FUNCTION banking_test_refuse_withdraw();`);
  const allowWithdraw = () => sql().exec('DROP TRIGGER banking_test_refuse_withdraw ON ledger_transactions; DROP FUNCTION banking_test_refuse_withdraw();');
  /** A member with one linked bank whose transactions are in the ledger. */
  const linkedMember = async (name: string, ip: string) => {
    const id = (await makeUser(env.server, { userName: name, roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
    const session = await signIn(env.server, name, undefined, ip, 'card');
    expect((await add(101, 'good', { session })).Status).toBe('SUCCESS');
    const before = await state(id);
    expect(before.links).toHaveLength(1);
    expect(before.transactions.length).toBeGreaterThan(0);
    expect(before.ledger).toEqual(before.transactions);
    return { id, session, before };
  };

  it('remove: when the ledger cannot withdraw the rows, the link, its accounts and transactions stay and the ledger is unchanged; asked again, both go', async () => {
    const { id, session, before } = await linkedMember('bank-hal', '10.0.0.9');
    const providerAccountId = before.links[0];
    await refuseWithdraw(id);
    try {
      const res = await call(BankingApi.remove.path, { session, body: { ProviderAccountId: providerAccountId } });
      expect(res.statusCode).toBe(500);
    } finally {
      await allowWithdraw();
    }
    expect(await state(id)).toEqual(before);
    expect(await audited('banking.link.remove', id)).toBe(0);
    expect((await accounts({ session })).Banks.map((b) => b.ProviderAccountId)).toEqual([providerAccountId]);
    // The link is still ours, so the removal can be asked again (the aggregator, which removed it, answers 404: done).
    const again = await call(BankingApi.remove.path, { session, body: { ProviderAccountId: providerAccountId } });
    expect(again.statusCode, again.body).toBe(200);
    expect(await state(id)).toEqual({ links: [], accounts: [], transactions: [], ledger: [], ledgerHistory: [before.ledger.length] });
    expect(await audited('banking.link.remove', id)).toBe(1);
  });

  it('terminate: when the ledger cannot withdraw the rows, every link and transaction stays and the ledger is unchanged; asked again, both go', async () => {
    const { id, session, before } = await linkedMember('bank-ida', '10.0.0.10');
    await refuseWithdraw(id);
    try {
      const res = await call(BankingApi.terminate.path, { session, body: {} });
      expect(res.statusCode).toBe(500);
    } finally {
      await allowWithdraw();
    }
    expect(await state(id)).toEqual(before);
    expect(await audited('banking.terminate', id)).toBe(0);
    const again = await call(BankingApi.terminate.path, { session, body: {} });
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json().Data as LinkedAccounts).Banks).toEqual([]);
    expect(await state(id)).toEqual({ links: [], accounts: [], transactions: [], ledger: [], ledgerHistory: [before.ledger.length] });
    expect(await audited('banking.terminate', id)).toBe(1);
  });

  /** The aggregator itself, over HTTP: what a bank or the member does there without us (a link removed at its end). */
  const aggregator = () => new SandboxBankAggregator(aggregatorConfigFromEnv(env.sandboxUrl));
  const syncNow = async (memberId: number) => {
    await env.server.jobs.send('banking.sync', { memberId });
    await env.server.jobs.drain();
  };
  const syncStates = async (memberId: number) =>
    (
      await sql().query<{ state: string }>(
        `SELECT state::text AS state FROM pgboss.job WHERE name = 'banking.sync' AND (data->>'memberId')::int = $1 ORDER BY created_on`,
        [memberId],
      )
    ).map((j) => j.state);
  const goneAudits = (memberId: number) =>
    sql().query<{ actor_name: string; entity: string; entity_id: string; provider_id: string }>(
      `SELECT actor_name, entity, entity_id, detail->>'providerId' AS provider_id FROM audit_log WHERE action = 'banking.link.gone' AND member_id = $1 ORDER BY id`,
      [memberId],
    );

  it('sync: a link the aggregator no longer lists goes with its accounts and transactions, and its unreported ledger rows are withdrawn', async () => {
    const { id, session } = await linkedMember('bank-jo', '10.0.0.11');
    expect((await add(106, 'good', { session })).Status).toBe('SUCCESS');
    const mine = await accounts({ session });
    const [goneLink, keptLink] = mine.Banks.map((b) => b.ProviderAccountId);
    if (!goneLink || !keptLink) throw new Error('needs two banks');
    const refsOfLink = async (providerAccountId: number) =>
      (
        await sql().query<{ v: string }>(
          `SELECT 'bank:' || t.transaction_id AS v FROM banking_transactions t JOIN banking_accounts a ON a.account_id = t.account_id
           WHERE a.provider_account_id = $1 ORDER BY 1`,
          [providerAccountId],
        )
      ).map((r) => r.v);
    const goneRefs = await refsOfLink(goneLink);
    const keptRefs = await refsOfLink(keptLink);
    expect(goneRefs.length).toBeGreaterThan(1);
    expect(keptRefs.length).toBeGreaterThan(0);
    // One of the gone bank's rows was already reported to the federal payer: it stays in the ledger.
    const report = await sql().query<{ report_id: number }>(
      `INSERT INTO ledger_reports (member_id, period_from, period_to, acknowledgement_id, record_count) VALUES ($1, '2000-01-01', '2100-01-01', 'FP-GONE', 1) RETURNING report_id`,
      [id],
    );
    const reportedRef = goneRefs[0];
    await sql().query(`UPDATE ledger_transactions SET report_id = $3 WHERE member_id = $1 AND source = 'bank' AND external_ref = $2`, [
      id,
      reportedRef,
      report[0]?.report_id,
    ]);
    const before = await state(id);
    expect([...before.ledger].sort()).toEqual([...goneRefs, ...keptRefs].sort());

    // The link is removed at the aggregator, not through us; the next sync finds it no longer listed.
    await aggregator().removeLink(aggregatorUser(id), goneLink);
    await syncNow(id);
    expect(await syncStates(id)).toEqual(['completed']);
    const keptAccounts = before.accounts.filter((a) => mine.Accounts.some((x) => x.AccountId === a && x.ProviderAccountId === keptLink));
    const after = await state(id);
    expect({ ...after, ledger: [...after.ledger].sort() }).toEqual({
      links: [keptLink],
      accounts: keptAccounts,
      transactions: keptRefs,
      ledger: [reportedRef, ...keptRefs].sort(),
      ledgerHistory: [goneRefs.length - 1],
    });
    expect((await accounts({ session })).Banks.map((b) => b.ProviderAccountId)).toEqual([keptLink]);
    expect(await goneAudits(id)).toEqual([{ actor_name: 'system', entity: 'bank_link', entity_id: String(goneLink), provider_id: '101' }]);
    // Another sync brings none of the withdrawn rows back and audits nothing more.
    await syncNow(id);
    expect([...(await state(id)).ledger].sort()).toEqual([reportedRef, ...keptRefs].sort());
    expect(await goneAudits(id)).toHaveLength(1);
  }, 60_000);

  it('sync: when the ledger cannot withdraw a gone link’s rows, the link, its accounts and transactions stay and the ledger is unchanged; the retry withdraws them', async () => {
    const { id, session, before } = await linkedMember('bank-kit', '10.0.0.12');
    const goneLink = before.links[0];
    if (goneLink === undefined) throw new Error('no link');
    await aggregator().removeLink(aggregatorUser(id), Number(goneLink));
    await refuseWithdraw(id);
    try {
      await env.server.jobs.send('banking.sync', { memberId: id });
      for (let i = 0; i < 200 && !(await syncStates(id)).includes('retry'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await syncStates(id)).toEqual(['retry']);
      expect(await state(id)).toEqual(before);
      expect(await goneAudits(id)).toEqual([]);
      expect((await accounts({ session })).Banks.map((b) => b.ProviderAccountId)).toEqual([goneLink]);
    } finally {
      await allowWithdraw();
    }
    // The job's retry goes through: the link, its rows and its ledger rows go together, audited once.
    expect(await runRetryNow('banking.sync', id)).toBe(1);
    expect(await syncStates(id)).toEqual(['completed']);
    expect(await state(id)).toEqual({ links: [], accounts: [], transactions: [], ledger: [], ledgerHistory: [before.ledger.length] });
    expect(await goneAudits(id)).toHaveLength(1);
  }, 60_000);
});

describe("banking in the user's language", () => {
  const spanish = { cookie: 'cq.lang=es' };
  let eva: Session;
  beforeAll(async () => {
    await makeUser(env.server, { userName: 'bank-eva', roles: [Roles.CareGuard], brand: 'card', member: true });
    eva = await signIn(env.server, 'bank-eva', undefined, '10.0.0.4', 'card');
  });
  const es = (path: string, body?: unknown) => call(path, { session: eva, body, headers: spanish });

  it("words the aggregator's refusal, the banks' messages, errors with their values and toasts in Spanish", async () => {
    const wrong = (await es(BankingApi.add.path, { ProviderId: 102, LoginForm: login('good', 'wrong') })).json().Data as LinkResult;
    expect(wrong).toMatchObject({
      Status: 'FAILED',
      Message: 'El ID de usuario o la contraseña que ingresó no son correctos. Revíselos e inténtelo de nuevo.',
    });

    const linked = (await es(BankingApi.add.path, { ProviderId: 105, LoginForm: login('stale') })).json().Data as LinkResult;
    expect(linked.Status).toBe('SUCCESS');
    const acct = (await accounts({ session: eva })).Accounts[0];
    const refreshed = await es(BankingApi.refresh.path, { AccountIds: [acct?.AccountId] });
    expect(refreshed.json().MsgText).toBe('Su cuenta vinculada se ha actualizado. En breve verá su cuenta actualizada.');
    await env.server.jobs.drain();
    const stale = (await es(BankingApi.siteAccounts.path)).json().Data as LinkedAccounts;
    expect(stale.Banks[0]).toMatchObject({ Status: 'STALE', Message: 'Sus credenciales de esta institución cambiaron. Por favor, actualícelas.' });

    const dup = await es(BankingApi.add.path, { ProviderId: 105, LoginForm: login('stale') });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().MsgText).toBe(`${stale.Banks[0]?.Name} ya está vinculado a su cuenta.`);

    const funding = await es(BankingApi.defaultAccount.path.replace(':id', String(acct?.AccountId)), {});
    expect(funding.json().MsgText).toBe('Su cuenta de fondos se estableció correctamente');
    const missing = await es(BankingApi.remove.path, { ProviderAccountId: 99_999_999 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().MsgText).toBe('No se encontró el banco vinculado.');
  });
});

describe('removing a link or an account finds its rows through an index (ON DELETE CASCADE)', () => {
  it('indexes banking_transactions.account_id and banking_accounts.provider_account_id', async () => {
    const sql = env.server.database.sql;
    const indexes = await sql.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN ('banking_transactions_account_idx', 'banking_accounts_link_idx') ORDER BY indexname",
    );
    expect(indexes.map((i) => i.indexname)).toEqual(['banking_accounts_link_idx', 'banking_transactions_account_idx']);
    expect(indexes[0]?.indexdef).toMatch(/ON (public\.)?banking_accounts USING btree \(provider_account_id\)$/);
    expect(indexes[1]?.indexdef).toMatch(/ON (public\.)?banking_transactions USING btree \(account_id\)$/);
    // The cascades' own lookups (by the referencing column) can be answered from them rather than a read of the table.
    const plans = await sql.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const plan = async (text: string) => (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`)).map((r) => r['QUERY PLAN']).join('\n');
      return [await plan('DELETE FROM banking_transactions WHERE account_id = 1'), await plan('DELETE FROM banking_accounts WHERE provider_account_id = 1')];
    });
    expect(plans[0]).toContain('banking_transactions_account_idx');
    expect(plans[1]).toContain('banking_accounts_link_idx');
  });
});

describe("a transaction's day", () => {
  it('answers the stored calendar day, read from the database as text (never a Date a DATE column would become)', async () => {
    const sql = env.server.database.sql;
    const dayId = (await makeUser(env.server, { userName: 'bank-day', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
    const day = await signIn(env.server, 'bank-day', undefined, '10.0.0.9', 'card');
    // One link, account and transaction of this member's, posted on 2026-03-10 (ids far from the sandbox aggregator's).
    await sql.query(
      `INSERT INTO banking_links (provider_account_id, member_id, provider_id, provider_name, status) VALUES (990001, $1, 101, 'Day Bank', 'SUCCESS')`,
      [dayId],
    );
    await sql.query(
      `INSERT INTO banking_accounts (account_id, member_id, provider_account_id, name, account_type, last4, balance_cents) VALUES (990001, $1, 990001, 'Day Checking', 'checking', '0001', 50000)`,
      [dayId],
    );
    await sql.query(
      `INSERT INTO banking_transactions (transaction_id, member_id, account_id, posted_date, description, amount_cents) VALUES (990001, $1, 990001, '2026-03-10', 'Day deposit', 1250)`,
      [dayId],
    );
    const query = vi.spyOn(sql, 'query');
    const body = { From: '2026-03-10', To: '2026-03-10', PageSize: 10 };
    // The reader's zone changes nothing: a posted date is a calendar day, the same everywhere.
    const answers = [];
    for (const zone of ['America/Los_Angeles', 'Europe/Berlin', 'Asia/Tokyo']) {
      answers.push(
        await data<{ Items: { Date: string; Description: string }[] }>(BankingApi.transactions.path, { session: day, headers: { 'x-time-zone': zone }, body }),
      );
    }
    const page = query.mock.calls.findIndex(([text]) => text.includes('ORDER BY t.posted_date DESC'));
    const rows = (await query.mock.results[page]?.value) as Record<string, unknown>[];
    query.mockRestore();
    for (const a of answers) expect(a.Items.map((t) => [t.Date, t.Description])).toEqual([['2026-03-10', 'Day deposit']]);
    // The statement itself answers the day as text: node-pg (PostgreSQL) turns a DATE into a Date at the server's local
    // midnight, which toISOString moved to the day before east of UTC (Berlin, Tokyo: '2026-03-09').
    expect(rows.map((r) => r.posted_date)).toEqual(['2026-03-10']);
  });
});
