import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { dayIn, formatIsoDayText, KernelApi, localeOf, Roles } from '@portal/core';
import { LOW_BALANCE_SUBJECT } from '@portal/plugin-trends/contract';
import { mailTo } from '@portal/sandbox';
import { type SandboxTestEnv, sandboxPassThrough, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import ExcelJS from 'exceljs';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays, addMonths, LedgerApi, LedgerMessages, latestToday, PayerMessages } from '../contract';
import { ADMIN_BALANCE_TTL_MS, adminBalance } from './dashboard';
import { CREATE_KEY_PRUNE_CRON, CREATE_KEY_PRUNE_JOB, KEY_REUSED, pruneCreateKeys } from './repo';
import { seed } from './seed';
import { makeLedgerService } from './service';

/**
 * The ledger API through the whole kernel guard, with the sandbox federal payer over real HTTP. The server reaches the
 * sandbox through a pass-through that keeps what each payer submission carried and can hold a submission in flight
 * (the server's call waits for the payer's answer) or answer it as a failing payer.
 */
let env: SandboxTestEnv;
let sandboxProxy: Awaited<ReturnType<typeof sandboxPassThrough>>;
interface PayerBody {
  hicn: string;
  periodFrom: string;
  periodTo: string;
  records: { date: string; code: string | null; company: string | null; description: string | null; type: number; amountCents: number }[];
}
/** Every submission that reached the payer, as the server sent it, in order. */
const submissions: PayerBody[] = [];
/** While set, a submission arriving waits for it before going on to the payer: the server's call stays in flight. */
let payerGate: Promise<void> | null = null;
/** While set, a submission (once its gate opens) is answered 503: a payer that fails. */
let payerFails = false;
/**
 * While set, a submission (once its gate opens) goes on to the payer, which stores it, and its answer is lost: the
 * connection is cut before the server hears it (a network failure or a timeout: the outcome is unknown to us).
 */
let payerAnswerLost = false;
/** Every submission's body as the server sent it, byte for byte, in order. */
const rawSubmissions: string[] = [];
let member: Session;
let memberId: number;
let other: Session;
let otherId: number;
let support: Session;
let assist: Session;
let assistId: number;
let finance: Session;
/** The business's time zone, pinned: the server's today (default ranges, AsOf, an empty date) is its day. */
const BUSINESS_ZONE = 'America/Chicago';
const today = dayIn(BUSINESS_ZONE);

type Json = Record<string, unknown>;
const call = (session: Session | null, path: string, body?: unknown, extra: Record<string, string> = {}, brand = 'card') =>
  env.server.app.inject({
    method: body === undefined ? 'GET' : 'POST',
    url: path,
    headers: session ? authHeaders(session, brand, extra) : { host: `${brand}.localhost` },
    ...(body === undefined ? {} : { payload: body as Json }),
  });
const data = (res: { json(): unknown }) => (res.json() as { Data: unknown }).Data as Json & Json[];
const count = async (id: number) =>
  (await env.server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1', [id]))[0]?.n ?? 0;

/** A create's idempotency key (required): a fresh one per call, so each call is a create of its own. */
const newKey = () => `ledger-test-${randomUUID()}`;
const entry = (over: Json = {}) => ({
  IdempotencyKey: newKey(),
  DateCreated: today,
  Code: '99213',
  Company: 'Riverside Orthopedics',
  Description: 'Office visit',
  TransactionTypeID: 1,
  Amount: 125.4,
  ...over,
});

async function user(name: string, role: string, brand: string, isMember: boolean) {
  const made = await makeUser(env.server, { userName: name, roles: [role], brand, member: isMember });
  return { session: await signIn(env.server, name), memberId: made.memberId ?? 0 };
}

beforeAll(async () => {
  // The payer through a pass-through that records each submission and can hold it or answer it 503.
  sandboxProxy = await sandboxPassThrough(
    () => env?.sandboxUrl,
    async (req, body, res) => {
      if (req.method !== 'POST' || !req.url?.startsWith('/payer/api/submissions')) return false;
      submissions.push(JSON.parse(body.toString()) as PayerBody);
      rawSubmissions.push(body.toString());
      const gate = payerGate;
      if (gate) await gate;
      if (payerAnswerLost) {
        await fetch(`${env.sandboxUrl}${req.url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': String(req.headers['idempotency-key']) },
          body: body.toString(),
        });
        res.destroy();
        return true;
      }
      if (!payerFails) return false;
      // A refusal (4xx): the payer holds nothing new. A 5xx or no answer is an outcome unknown (the claim is kept).
      res.writeHead(422).end('{"error":"the report is refused"}');
      return true;
    },
  );
  env = await startSandboxTestEnv({ sandboxUrl: sandboxProxy.url, businessTimeZone: BUSINESS_ZONE });
  ({ session: member, memberId } = await user('ledger-member', Roles.CareGuard, 'card', true));
  ({ session: other, memberId: otherId } = await user('ledger-other', Roles.CareGuard, 'card', true));
  ({ session: support } = await user('ledger-support', Roles.CareSupport, 'staff', false));
  ({ session: assist, memberId: assistId } = await user('ledger-assist', Roles.CareAssist, 'assist', true));
  ({ session: finance } = await user('ledger-finance', Roles.CareGuardFinance, 'finance', true));
}, 240_000);
afterAll(async () => {
  await env?.close();
  await sandboxProxy?.close();
});

describe('access', () => {
  it('answers 401 without a sign-in and 403 to a role without the ledger', async () => {
    expect((await call(null, LedgerApi.search.path, {})).statusCode).toBe(401);
    expect((await call(finance, LedgerApi.search.path, {}, {}, 'staff')).statusCode).toBe(403);
    expect((await call(finance, LedgerApi.create.path, entry(), {}, 'staff')).statusCode).toBe(403);
  });
  it('answers 404 on a brand that does not enable the ledger', async () => {
    expect((await call(member, LedgerApi.search.path, {}, {}, 'quote')).statusCode).toBe(404);
  });
  it('refuses staff who act for no member (400), and shows CareAssist only the reported view', async () => {
    const res = await call(support, LedgerApi.search.path, {}, {}, 'staff');
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe('Your account has no ledger of its own. Choose a member to act for first.');
    const sql = env.server.database.sql;
    const report = await sql.query<{ report_id: number }>(
      `INSERT INTO ledger_reports (member_id, period_from, period_to, acknowledgement_id, record_count) VALUES ($1, $2, $2, 'FP-TEST', 1) RETURNING report_id`,
      [assistId, today],
    );
    await sql.query(
      `INSERT INTO ledger_transactions (member_id, source, date_created, company, description, transaction_type_id, amount_cents, report_id) VALUES ($1, 'ledger', $2, 'A', 'Not reported', 1, 100, NULL), ($1, 'ledger', $2, 'B', 'Reported', 1, 200, $3)`,
      [assistId, today, report[0]?.report_id],
    );
    const asked = await call(assist, LedgerApi.search.path, { Query: { View: 'ledger' } }, {}, 'assist');
    expect(asked.statusCode).toBe(200);
    expect((data(asked).Items as Json[]).map((t) => t.Description)).toEqual(['Reported']);
    expect((await call(assist, LedgerApi.create.path, entry(), {}, 'assist')).statusCode).toBe(403);
  });
  it('refuses garbage input with 400 and changes nothing', async () => {
    const before = await count(memberId);
    for (const body of [{ PageSize: 7 }, { Query: { From: '2024-02-30' } }, { SortColumn: 'password' }, { Query: { From: '2024-05-01', To: '2024-01-01' } }]) {
      expect((await call(member, LedgerApi.search.path, body)).statusCode).toBe(400);
    }
    expect((await call(member, LedgerApi.update.path, { ...entry(), TransactionID: 'x', Version: 1 })).statusCode).toBe(400);
    expect((await call(member, LedgerApi.create.path, { ...entry(), Description: { a: 1 } })).statusCode).toBe(400);
    expect(await count(memberId)).toBe(before);
  });
});

describe('the five rules, in order (each test breaks its rule and every later one)', () => {
  const refused = async (body: Json, message: string) => {
    const before = await count(memberId);
    const res = await call(member, LedgerApi.create.path, { ...body, IdempotencyKey: newKey() });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().MsgText).toBe(message);
    expect(await count(memberId)).toBe(before);
  };
  it('1. a future date', () =>
    refused(
      { DateCreated: addDays(latestToday(), 1), Description: '', Amount: '' },
      'Future data transaction entry is not allowed. Please enter a valid date.',
    ));
  it('2. no transaction type', () => refused({ DateCreated: today, Description: '', Amount: '' }, 'Please select transaction type'));
  it('3. no amount', () => refused({ DateCreated: today, TransactionTypeID: 1, Description: '', Amount: '' }, 'Please enter amount'));
  it('4. no description', () => refused({ DateCreated: today, TransactionTypeID: 2, Description: '  ', Amount: 'abc' }, 'Please enter description of service'));
  it('5. an amount that is not a number', () =>
    refused({ DateCreated: today, TransactionTypeID: 3, Description: 'Interest', Amount: 'twelve' }, 'Amount has to be number'));
});

describe('the ledger', () => {
  let created: Json;
  /** The audit rows of one action on one transaction, as the kernel's audit_log holds them. */
  const auditsOf = (action: string, transactionId: unknown) =>
    env.server.database.sql.query<{ action: string; member_id: number }>(
      'SELECT action, member_id FROM audit_log WHERE action = $1 AND entity_id = $2 ORDER BY id',
      [action, String(transactionId)],
    );
  it('adds a transaction, stores the amount as its absolute value, and audits it in the same commit', async () => {
    const res = await call(member, LedgerApi.create.path, entry({ Amount: '-125.40' }));
    expect(res.statusCode, res.body).toBe(200);
    created = data(res);
    expect(created).toMatchObject({ DateCreated: today, TransactionTypeID: 1, Amount: 125.4, Source: 'ledger', Status: 'Posted', Version: 1, Balance: null });
    const audit = await env.server.database.sql.query<{ action: string; member_id: number }>(
      "SELECT action, member_id FROM audit_log WHERE action = 'ledger.transaction.create' AND entity_id = $1",
      [String(created.TransactionID)],
    );
    expect(audit).toEqual([{ action: 'ledger.transaction.create', member_id: memberId }]);
  });
  it('an empty date means today; the type may come as text', async () => {
    const res = await call(member, LedgerApi.create.path, entry({ DateCreated: '', TransactionTypeID: '2', Amount: 50 }));
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res)).toMatchObject({ DateCreated: today, TransactionTypeID: 2, Amount: 50 });
  });
  it('edits repeat the future-date and amount checks, refuse a stale version, keep the trail, and audit the one edit made under the member', async () => {
    const id = created.TransactionID;
    let res = await call(member, LedgerApi.update.path, { ...entry(), TransactionID: id, Version: 1, DateCreated: addDays(today, 3) });
    expect(res.json().MsgText).toBe(LedgerMessages.futureDate);
    res = await call(member, LedgerApi.update.path, { ...entry(), TransactionID: id, Version: 1, Amount: 'x1' });
    expect(res.json().MsgText).toBe(LedgerMessages.amountNumber);
    res = await call(member, LedgerApi.update.path, { ...entry(), TransactionID: id, Version: 1, Amount: -99.99, Company: 'Summit Imaging Center' });
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res)).toMatchObject({ Amount: 99.99, Company: 'Summit Imaging Center', Version: 2 });
    res = await call(member, LedgerApi.update.path, { ...entry(), TransactionID: id, Version: 1 });
    expect(res.statusCode).toBe(409);
    const trail = await env.server.database.sql.query<{ action: string }>('SELECT action FROM ledger_history WHERE transaction_id = $1 ORDER BY id', [id]);
    expect(trail.map((t) => t.action)).toEqual(['create', 'update']);
    // One audit row for the one edit that was made (the refused ones wrote none), naming the member whose row it is.
    expect(await auditsOf('ledger.transaction.update', id)).toEqual([{ action: 'ledger.transaction.update', member_id: memberId }]);
  });
  it('does not let another member see, change or delete it', async () => {
    const id = created.TransactionID;
    const theirs = await call(other, LedgerApi.search.path, {});
    expect(data(theirs).Items).toEqual([]);
    expect((await call(other, LedgerApi.update.path, { ...entry(), TransactionID: id, Version: 2 })).statusCode).toBe(404);
    expect((await call(other, LedgerApi.delete.path, { TransactionID: id, Version: 2 })).statusCode).toBe(404);
    expect(await count(memberId)).toBe(2);
    expect(await count(otherId)).toBe(0);
  });
  it('support staff work on it only while impersonating the member', async () => {
    const res = await call(support, LedgerApi.search.path, {}, { 'x-member-id': String(memberId) }, 'staff');
    expect(res.statusCode, res.body).toBe(200);
    expect((data(res).Items as Json[]).map((t) => t.TransactionID)).toContain(created.TransactionID);
    const flags = data(await call(support, LedgerApi.loadMember.path, undefined, { 'x-member-id': String(memberId) }, 'staff'));
    expect(flags).toMatchObject({ MemberID: memberId, isEligible: true, isSuperUser: false, isAmethyst: false });
    expect(data(await call(member, LedgerApi.loadMember.path))).toMatchObject({ isEligible: false, isAmethyst: true });
  });
  it('deletes it, audited: one ledger.transaction.delete row under the member', async () => {
    const res = await call(member, LedgerApi.delete.path, { TransactionID: created.TransactionID, Version: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(await count(memberId)).toBe(1);
    const trail = await env.server.database.sql.query<{ action: string }>('SELECT action FROM ledger_history WHERE transaction_id = $1 ORDER BY id', [
      created.TransactionID,
    ]);
    expect(trail.map((t) => t.action)).toEqual(['create', 'update', 'delete']);
    expect(await auditsOf('ledger.transaction.delete', created.TransactionID)).toEqual([{ action: 'ledger.transaction.delete', member_id: memberId }]);
  });
});

describe('the future-date bound is the latest day anywhere on earth, not the server’s UTC day (spec 02 section 5)', () => {
  it('takes the day of UTC+14 (a member east of UTC entering their own today) on a create and an edit, and refuses the day after', async () => {
    const { session } = await user('ledger-east', Roles.CareGuard, 'card', true);
    const latest = latestToday();
    const res = await call(session, LedgerApi.create.path, entry({ DateCreated: latest }));
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res)).toMatchObject({ DateCreated: latest });
    const { TransactionID, Version } = data(res);
    const edited = await call(session, LedgerApi.update.path, { ...entry({ DateCreated: latest, Amount: 7 }), TransactionID, Version });
    expect(edited.statusCode, edited.body).toBe(200);
    for (const path of [LedgerApi.create.path, LedgerApi.update.path]) {
      const future = await call(session, path, { ...entry({ DateCreated: addDays(latest, 1) }), TransactionID, Version: 2 });
      expect(future.statusCode, path).toBe(400);
      expect(future.json().MsgText).toBe(LedgerMessages.futureDate);
    }
  });
});

describe('a create repeated with its IdempotencyKey adds the row once (a double press on Save)', () => {
  let session: Session;
  let id: number;
  const rows = async () =>
    (await env.server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1', [id]))[0]?.n ?? 0;
  const history = async () =>
    (await env.server.database.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger_history WHERE member_id = $1 AND action = 'create'", [id]))[0]
      ?.n ?? 0;
  beforeAll(async () => {
    ({ session, memberId: id } = await user('ledger-keys', Roles.CareGuard, 'card', true));
  });

  it('two creates with the same key: one row, one history entry, both answered with it', async () => {
    const body = entry({ IdempotencyKey: 'ledger-key-0001', Amount: 40 });
    const first = await call(session, LedgerApi.create.path, body);
    const second = await call(session, LedgerApi.create.path, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    expect(data(second)).toEqual(data(first));
    expect(await rows()).toBe(1);
    expect(await history()).toBe(1);
  });
  it('the key again with other values (the answer was lost, then the row corrected) is refused with 409 and the row the key made, and changes nothing', async () => {
    const body = entry({ IdempotencyKey: 'ledger-key-0008', Amount: 12.34 });
    const first = data(await call(session, LedgerApi.create.path, body));
    const before = { rows: await rows(), history: await history() };
    for (const changed of [{ Amount: 12.43 }, { Description: 'Corrected' }, { Company: 'Other Co' }]) {
      const res = await call(session, LedgerApi.create.path, { ...body, ...changed });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().MsgText).toBe(KEY_REUSED);
      expect(res.json().Data).toEqual({ KeyReused: true, Transaction: first });
    }
    const spanish = await call(session, LedgerApi.create.path, { ...body, Amount: 12.43 }, { cookie: 'cq.lang=es' });
    expect(spanish.json().MsgText).toBe('Esta transacción ya se agregó, con los valores enviados primero. No se guardó nada más.');
    expect({ rows: await rows(), history: await history() }).toEqual(before);
    // The same values again still answer the row: a retry is not a correction.
    expect(data(await call(session, LedgerApi.create.path, body))).toEqual(first);
    await call(session, LedgerApi.delete.path, { TransactionID: first.TransactionID, Version: first.Version });
  });
  it('a key claimed before keys kept their request (no fingerprint) still answers its row, whatever is sent with it', async () => {
    const body = entry({ IdempotencyKey: 'ledger-key-0009', Amount: 7 });
    const first = data(await call(session, LedgerApi.create.path, body));
    await env.server.database.sql.query('UPDATE ledger_create_keys SET request_hash = NULL WHERE member_id = $1 AND idempotency_key = $2', [
      id,
      'ledger-key-0009',
    ]);
    expect(data(await call(session, LedgerApi.create.path, { ...body, Amount: 8 }))).toEqual(first);
    await call(session, LedgerApi.delete.path, { TransactionID: first.TransactionID, Version: first.Version });
  });
  it('two creates with the same key at once: one row', async () => {
    const body = entry({ IdempotencyKey: 'ledger-key-0002', Amount: 41 });
    const both = await Promise.all([call(session, LedgerApi.create.path, body), call(session, LedgerApi.create.path, body)]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(data(both[1] as (typeof both)[0]).TransactionID).toBe(data(both[0] as (typeof both)[0]).TransactionID);
    expect(await rows()).toBe(2);
  });
  it('different keys: a row each', async () => {
    await call(session, LedgerApi.create.path, entry({ IdempotencyKey: 'ledger-key-0003' }));
    await call(session, LedgerApi.create.path, entry({ IdempotencyKey: 'ledger-key-0004' }));
    await call(session, LedgerApi.create.path, entry());
    await call(session, LedgerApi.create.path, entry());
    expect(await rows()).toBe(6);
  });
  it('a create without a key is refused (400, naming IdempotencyKey, in the user’s language) and adds no row, no key and no history', async () => {
    const keys = async () =>
      (await env.server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_create_keys WHERE member_id = $1', [id]))[0]?.n ?? 0;
    const before = { rows: await rows(), history: await history(), keys: await keys() };
    const { IdempotencyKey: _, ...keyless } = entry();
    for (const body of [keyless, { ...keyless, IdempotencyKey: null }, { ...keyless, IdempotencyKey: '' }]) {
      const res = await call(session, LedgerApi.create.path, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().MsgText).toMatch(/^body\.IdempotencyKey: /);
    }
    const missing = await call(session, LedgerApi.create.path, keyless);
    expect(missing.json().MsgText).toBe(
      'body.IdempotencyKey: is required: one key of your own per new transaction, sent again unchanged when the call is retried',
    );
    const spanish = await call(session, LedgerApi.create.path, keyless, { cookie: 'cq.lang=es' });
    expect(spanish.json().MsgText).toBe(
      'body.IdempotencyKey: es obligatorio: una clave propia por cada transacción nueva, que se envía de nuevo sin cambios cuando se reintenta la llamada',
    );
    expect({ rows: await rows(), history: await history(), keys: await keys() }).toEqual(before);
  });
  it("a key is the member's own: another member's create with it adds their row", async () => {
    const res = await call(other, LedgerApi.create.path, entry({ IdempotencyKey: 'ledger-key-0001' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res).TransactionID).not.toBe(
      data(await call(session, LedgerApi.create.path, entry({ IdempotencyKey: 'ledger-key-0001', Amount: 40 }))).TransactionID,
    );
    await call(other, LedgerApi.delete.path, { TransactionID: data(res).TransactionID, Version: 1 });
  });
  it('a repeat after its row was deleted does not add it again (404), and a malformed key is refused (400)', async () => {
    const made = data(await call(session, LedgerApi.create.path, entry({ IdempotencyKey: 'ledger-key-0005' })));
    await call(session, LedgerApi.delete.path, { TransactionID: made.TransactionID, Version: made.Version });
    const before = await rows();
    expect((await call(session, LedgerApi.create.path, entry({ IdempotencyKey: 'ledger-key-0005' }))).statusCode).toBe(404);
    for (const IdempotencyKey of ['short', 'has spaces in it', 'x'.repeat(101)])
      expect((await call(session, LedgerApi.create.path, entry({ IdempotencyKey }))).statusCode, IdempotencyKey).toBe(400);
    expect(await rows()).toBe(before);
  });
  it("keys go once they are older than the kernel's window for its own (30 days), in a daily job; younger ones still answer their row", async () => {
    const sql = env.server.database.sql;
    const old = data(await call(session, LedgerApi.create.path, entry({ IdempotencyKey: 'ledger-key-0006' })));
    const young = data(await call(session, LedgerApi.create.path, entry({ IdempotencyKey: 'ledger-key-0007' })));
    const age = (key: string, days: number) =>
      sql.query(`UPDATE ledger_create_keys SET created_at = now() - make_interval(days => $3) WHERE member_id = $1 AND idempotency_key = $2`, [id, key, days]);
    await age('ledger-key-0006', 31);
    await age('ledger-key-0007', 29);
    expect(await pruneCreateKeys(sql)).toBeGreaterThanOrEqual(1);
    const keys = await sql.query<{ idempotency_key: string }>(
      `SELECT idempotency_key FROM ledger_create_keys WHERE member_id = $1 AND idempotency_key IN ('ledger-key-0006', 'ledger-key-0007')`,
      [id],
    );
    expect(keys.map((k) => k.idempotency_key)).toEqual(['ledger-key-0007']);
    expect(data(await call(session, LedgerApi.create.path, entry({ IdempotencyKey: 'ledger-key-0007' }))).TransactionID).toBe(young.TransactionID);
    expect(old.TransactionID).not.toBe(young.TransactionID);
    expect(await sql.query('SELECT cron FROM pgboss.schedule WHERE name = $1', [CREATE_KEY_PRUNE_JOB])).toEqual([{ cron: CREATE_KEY_PRUNE_CRON }]);
  });
});

describe("the low-balance e-mail on the ledger's own balance (trends' rule, spec 01 section 7)", () => {
  let session: Session;
  let email: string;
  const inbox = async () => {
    await env.server.jobs.drain();
    return (await mailTo(env.sandboxUrl, email)).filter((m) => m.subject === LOW_BALANCE_SUBJECT);
  };
  beforeAll(async () => {
    ({ session } = await user('ledger-low', Roles.CareGuard, 'card', true));
    email = 'ledger-low@example.com';
  });

  it('a change that takes the balance under $100.00 queues one mail to the member; a second change still under sends none', async () => {
    expect((await call(session, LedgerApi.balance.path, { Amount: 150 })).statusCode).toBe(200);
    const first = await call(session, LedgerApi.create.path, entry({ Amount: 60 }));
    expect(first.statusCode, first.body).toBe(200);
    expect(await inbox()).toHaveLength(1);
    expect((await call(session, LedgerApi.create.path, entry({ Amount: 10 }))).statusCode).toBe(200);
    const mails = await inbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('The balance of your Medicare set-aside account is $90.00, under $100.00.');
    expect(mails[0]?.brand).toBe('card');
  });
  it('an edit or a delete that brings it back over re-arms it; the next drop under sends again', async () => {
    const rows = data(await call(session, LedgerApi.search.path, {})).Items as Json[];
    const ten = rows.find((r) => r.Amount === 10) as Json;
    expect((await call(session, LedgerApi.delete.path, { TransactionID: ten.TransactionID, Version: ten.Version })).statusCode).toBe(200);
    const sixty = rows.find((r) => r.Amount === 60) as Json;
    let res = await call(session, LedgerApi.update.path, { ...entry({ Amount: 20 }), TransactionID: sixty.TransactionID, Version: sixty.Version });
    expect(data(res)).toMatchObject({ Balance: 130 });
    expect(await inbox()).toHaveLength(1);
    res = await call(session, LedgerApi.update.path, { ...entry({ Amount: 55.5 }), TransactionID: sixty.TransactionID, Version: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const mails = await inbox();
    expect(mails).toHaveLength(2);
    expect(mails.map((m) => m.text).join('\n')).toContain('$94.50');
  });
  it('a failing check does not fail the change: the row is added and answered', async () => {
    const sql = env.server.database.sql;
    await sql.query('ALTER TABLE trends_low_balance RENAME TO trends_low_balance_away');
    try {
      const res = await call(session, LedgerApi.create.path, entry({ Amount: 1, Description: 'While the check fails' }));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().MsgText).toBe('The transaction was added.');
    } finally {
      await sql.query('ALTER TABLE trends_low_balance_away RENAME TO trends_low_balance');
    }
    const items = data(await call(session, LedgerApi.search.path, {})).Items as Json[];
    expect(items.map((r) => r.Description)).toContain('While the check fails');
  });
  it("is signed by the member's brand when staff change the balance from the staff site", async () => {
    const { memberId } = await user('ledger-low-staffed', Roles.CareGuard, 'card', true);
    const { session: staff } = await user('ledger-low-super', Roles.SuperUser, 'staff', false);
    const set = await call(staff, LedgerApi.balance.path, { Amount: 40 }, { 'x-member-id': String(memberId) }, 'staff');
    expect(set.statusCode, set.body).toBe(200);
    await env.server.jobs.drain();
    const mails = (await mailTo(env.sandboxUrl, 'ledger-low-staffed@example.com')).filter((m) => m.subject === LOW_BALANCE_SUBJECT);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.brand).toBe('card');
    expect(mails[0]?.from).toBe('"Amethyst Card" <support@card.example.com>');
  });
  it('follows the language the member picked after signing in (the language menu), not the one they signed in with', async () => {
    const { session: switched, memberId: switchedId } = await user('ledger-low-switch', Roles.CareGuard, 'card', true);
    const language = async (id: number) =>
      (await env.server.database.sql.query<{ language: string }>('SELECT language FROM users WHERE member_id = $1', [id]))[0]?.language;
    expect(await language(switchedId)).toBe('en');
    // Staff acting for the member pick a language of their own: the member's stays.
    const staffPick = await call(support, KernelApi.language.path, { Language: 'es' }, { 'x-member-id': String(switchedId), cookie: 'cq.lang=es' }, 'staff');
    expect(staffPick.statusCode, staffPick.body).toBe(200);
    expect(await language(switchedId)).toBe('en');
    // The member switches to Spanish in the application: their account keeps it.
    const picked = await call(switched, KernelApi.language.path, { Language: 'es' }, { cookie: 'cq.lang=es' });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(await language(switchedId)).toBe('es');
    expect((await call(switched, KernelApi.language.path, { Language: 'fr' })).statusCode).toBe(400);
    // A mail written to them later (here the low-balance mail) is in Spanish.
    expect((await call(switched, LedgerApi.balance.path, { Amount: 50 }, { cookie: 'cq.lang=es' })).statusCode).toBe(200);
    await env.server.jobs.drain();
    const mails = await mailTo(env.sandboxUrl, 'ledger-low-switch@example.com');
    expect(mails.map((m) => m.subject)).toEqual(['Saldo bajo en la cuenta']);
  });
  it('writes the account type in the language of the member', async () => {
    const { session: es, memberId: esId } = await user('ledger-low-es', Roles.CareGuard, 'card', true);
    await env.server.database.sql.query(`UPDATE users SET language = 'es' WHERE member_id = $1`, [esId]);
    // Set in English by the request; the e-mail follows the member's language.
    expect((await call(es, LedgerApi.balance.path, { Amount: 50 })).statusCode).toBe(200);
    await env.server.jobs.drain();
    const mails = (await mailTo(env.sandboxUrl, 'ledger-low-es@example.com')).filter((m) => m.subject === 'Saldo bajo en la cuenta');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('El saldo de su cuenta del fondo reservado de Medicare es de $50.00, por debajo de $100.00.');
  });
});

describe('edits repeat only the amount and future-date checks (spec 02 section 5)', () => {
  let session: Session;
  let id: number;
  let version = 1;
  const created = addDays(today, -5);
  const update = (over: Json, extra: Record<string, string> = {}) =>
    call(session, LedgerApi.update.path, { ...entry({ DateCreated: created }), TransactionID: id, Version: version, ...over }, extra);
  const stored = async () =>
    (
      await env.server.database.sql.query<{ day: string; description: string | null; type: number; cents: number; version: number }>(
        `SELECT to_char(date_created, 'YYYY-MM-DD') AS day, description, transaction_type_id AS type, amount_cents::int AS cents, version
         FROM ledger_transactions WHERE transaction_id = $1`,
        [id],
      )
    )[0];
  beforeAll(async () => {
    ({ session } = await user('ledger-edit', Roles.CareGuard, 'card', true));
    id = data(await call(session, LedgerApi.create.path, entry({ DateCreated: created }))).TransactionID as number;
  });

  it('an edit may clear the description (stored as none, which the report check finds); creating still refuses it', async () => {
    const res = await update({ Description: '   ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res)).toMatchObject({ TransactionID: id, Description: null, Version: 2 });
    version = 2;
    expect(await stored()).toMatchObject({ description: null, version: 2 });
    const incomplete = data(await call(session, LedgerApi.search.path, { Query: { EmptyFields: true } })).Items as Json[];
    expect(incomplete.map((t) => t.TransactionID)).toEqual([id]);
    const add = await call(session, LedgerApi.create.path, entry({ Description: '' }));
    expect(add.statusCode).toBe(400);
    expect(add.json().MsgText).toBe(LedgerMessages.description);
  });

  it('still refuses a future or impossible date and a missing or non-number amount, and changes nothing', async () => {
    const before = await stored();
    for (const [over, message] of [
      [{ DateCreated: addDays(latestToday(), 1), Amount: '' }, LedgerMessages.futureDate],
      [{ DateCreated: '2025-02-30' }, LedgerMessages.invalidDate],
      [{ Amount: '', Description: '' }, LedgerMessages.amount],
      [{ Amount: 0 }, LedgerMessages.amount],
      [{ Amount: 'abc', Description: '' }, LedgerMessages.amountNumber],
    ] as const) {
      const res = await update(over);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().MsgText).toBe(message);
    }
    expect(await stored()).toEqual(before);
  });

  it('keeps the stored date and type when an edit leaves them empty (both columns need a value)', async () => {
    let res = await update({ DateCreated: '', TransactionTypeID: null, Amount: 10 });
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res)).toMatchObject({ DateCreated: created, TransactionTypeID: 1, Amount: 10, Version: 3 });
    version = 3;
    res = await update({ DateCreated: undefined, TransactionTypeID: '', Amount: 11 });
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res)).toMatchObject({ DateCreated: created, TransactionTypeID: 1, Amount: 11, Version: 4 });
    version = 4;
    res = await update({ TransactionTypeID: '2', Amount: 12 });
    expect(data(res)).toMatchObject({ TransactionTypeID: 2, Version: 5 });
    version = 5;
  });

  it('refuses a type that is not 1, 2 or 3 with the contract’s 400 (in the user’s language), and changes nothing', async () => {
    const before = await stored();
    for (const TransactionTypeID of [7, 'abc', 1.5]) {
      const res = await update({ TransactionTypeID });
      expect(res.statusCode, String(TransactionTypeID)).toBe(400);
      expect(res.json().MsgText).toBe('body.TransactionTypeID: must be 1 (Expense), 2 (Deposit) or 3 (Interest)');
    }
    const es = await update({ TransactionTypeID: 7 }, { cookie: 'cq.lang=es' });
    expect(es.json().MsgText).toBe('body.TransactionTypeID: debe ser 1 (Gasto), 2 (Depósito) o 3 (Interés)');
    expect(await stored()).toEqual(before);
  });
});

describe('the initial balance', () => {
  it('is null until set, is set once, and refuses a non-number', async () => {
    expect(data(await call(member, LedgerApi.loadBalance.path))).toEqual({ Amount: null, CurrentBalance: null });
    let res = await call(member, LedgerApi.balance.path, { Amount: 'lots' });
    expect(res.json().MsgText).toBe('Balance has to be number');
    res = await call(member, LedgerApi.balance.path, { Amount: '1,000.25' });
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res)).toEqual({ Amount: 1000.25, CurrentBalance: 1050.25 });
    res = await call(member, LedgerApi.balance.path, { Amount: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json().MsgText).toBe(LedgerMessages.balanceSet);
    expect(data(await call(member, LedgerApi.loadBalance.path))).toEqual({ Amount: 1000.25, CurrentBalance: 1050.25 });
  });
});

describe('views over the one ledger', () => {
  beforeAll(async () => {
    const sql = env.server.database.sql;
    for (const [status, day, amount] of [
      ['Settled', addDays(today, -10), 4000],
      ['Authorized', addDays(today, -1), 700],
      ['Voided', addDays(today, -20), 900],
      ['Captured', addDays(today, -2), 300],
    ] as const) {
      await sql.query(
        `INSERT INTO ledger_transactions (member_id, source, status, date_created, code, company, description, transaction_type_id, amount_cents)
         VALUES ($1, 'card', $2, $3, 'NDC', 'CVS Pharmacy', 'Card purchase', 1, $4)`,
        [memberId, status, day, amount],
      );
    }
    await sql.query(
      `INSERT INTO ledger_transactions (member_id, source, date_created, company, description, transaction_type_id, amount_cents) VALUES ($1, 'ledger', $2, 'Old', 'Too old', 2, 100)`,
      [memberId, addMonths(today, -13)],
    );
  });
  it('the ledger: one year to today, no holds or voids, DateCreated ascending, with the running balance', async () => {
    const res = await call(member, LedgerApi.search.path, {});
    expect(res.statusCode, res.body).toBe(200);
    const d = data(res);
    expect(d.From).toBe(addMonths(today, -12));
    expect(d.To).toBe(today);
    const items = d.Items as Json[];
    expect(items.map((t) => [t.Status, t.Source])).toEqual([
      ['Settled', 'card'],
      ['Posted', 'ledger'],
    ]);
    // Initial 1000.25, the old deposit +1.00, card -40.00, deposit +50.00.
    expect(items.map((t) => t.Balance)).toEqual([961.25, 1011.25]);
  });
  it('sorts and pages', async () => {
    const d = data(await call(member, LedgerApi.search.path, { SortColumn: 'Amount', SortOrder: 'desc', PageSize: 5 }));
    expect((d.Items as Json[]).map((t) => t.Amount)).toEqual([50, 40]);
    expect(d.ItemCount).toBe(2);
  });
  it('card-variant transactions: every card status, CREDIT or DEBIT', async () => {
    const d = data(await call(member, LedgerApi.amethystSearch.path, {}));
    expect((d.Items as Json[]).map((t) => [t.Type, t.status])).toEqual([
      ['DEBIT', 'Authorized'],
      ['DEBIT', 'Captured'],
      ['DEBIT', 'Settled'],
      ['DEBIT', 'Voided'],
    ]);
  });
  it('activity: newest entry first, signed amounts', async () => {
    const d = data(await call(member, LedgerApi.financialsSearch.path, {}));
    expect(d.From).toBe(addMonths(today, -1));
    expect((d.Items as Json[]).length).toBeGreaterThan(0);
    // Spec 02 section 3: "Activity transaction: CreatedDate, type, text", in the spec's casing.
    expect((d.Items as Json[]).every((t) => typeof t.type === 'string' && typeof t.text === 'string')).toBe(true);
    expect((d.Items as Json[]).some((t) => 'Type' in t || 'Text' in t)).toBe(false);
  });
  it('activity sorts by the lower-case type and text the client sends; the old names are refused', async () => {
    const texts = async (SortColumn: string, SortOrder: string) => {
      const res = await call(member, LedgerApi.financialsSearch.path, { SortColumn, SortOrder });
      expect(res.statusCode, res.body).toBe(200);
      return (data(res).Items as Json[]).map((t) => `${t.type}|${t.text}|${t.TransactionID}`);
    };
    const asc = await texts('text', 'asc');
    expect(asc.length).toBeGreaterThan(1);
    expect(await texts('text', 'desc')).toEqual([...asc].reverse());
    expect((await texts('type', 'asc')).length).toBe(asc.length);
    for (const SortColumn of ['Type', 'Text']) expect((await call(member, LedgerApi.financialsSearch.path, { SortColumn })).statusCode).toBe(400);
  });
  it('dashboard: balance, months, spending series and the recent six', async () => {
    expect(data(await call(member, LedgerApi.accountBalance.path))).toEqual({ Balance: 1011.25, InitialBalance: 1000.25, AsOf: today });
    const months = data(await call(member, LedgerApi.balanceMonth.path)) as unknown as Json[];
    expect(months).toHaveLength(12);
    expect(months.at(-1)?.Balance).toBe(1011.25);
    expect(data(await call(member, LedgerApi.transactionsMonth.path))).toHaveLength(12);
    expect(data(await call(member, LedgerApi.transactionsQuarter.path))).toHaveLength(8);
    expect(data(await call(member, LedgerApi.transactionsTime.path))).toHaveLength(30);
    expect(data(await call(member, LedgerApi.transactionsBalanceMonth.path))).toHaveLength(12);
    expect((data(await call(member, LedgerApi.recent.path)) as unknown as Json[]).length).toBe(3);
    expect((await call(member, LedgerApi.adminBalance.path)).statusCode).toBe(403);
  });
  it('admin balance: every set-aside summed only for a SuperUser acting for nobody; a finance member sees only their own', async () => {
    const sql = env.server.database.sql;
    const shape = (d: Json) => Object.keys(d).sort();
    // A self-registered finance member with a set-aside of their own: $500.00, less a $20.50 expense.
    const { session: own, memberId: ownId } = await user('ledger-finance-own', Roles.CareGuardFinance, 'finance', true);
    await sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 50000)', [ownId]);
    await sql.query(
      "INSERT INTO ledger_transactions (member_id, source, date_created, company, description, transaction_type_id, amount_cents) VALUES ($1, 'ledger', $2, 'C', 'D', 1, 2050)",
      [ownId, today],
    );
    const mine = await call(own, LedgerApi.adminBalance.path, undefined, {}, 'finance');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(data(mine)).toEqual({ Balance: 479.5, InitialBalance: 500, Members: 1, AsOf: today });
    // A finance member without a set-aside sees none, not anyone else's.
    const none = await call(finance, LedgerApi.adminBalance.path, undefined, {}, 'staff');
    expect(none.statusCode, none.body).toBe(200);
    expect(data(none)).toEqual({ Balance: 0, InitialBalance: 0, Members: 0, AsOf: today });

    // A SuperUser acting for nobody: every set-aside with an initial balance, in the same shape.
    const { session: superUser } = await user('ledger-super', Roles.SuperUser, 'staff', false);
    const all = await call(superUser, LedgerApi.adminBalance.path, undefined, {}, 'staff');
    expect(all.statusCode, all.body).toBe(200);
    const sums = (
      await sql.query<{ initial: string; members: number }>(
        'SELECT COALESCE(sum(initial_balance_cents), 0)::text AS initial, count(*)::int AS members FROM ledger_accounts WHERE initial_balance_cents IS NOT NULL',
      )
    )[0];
    const d = data(all);
    expect(d.InitialBalance).toBe(Number(sums?.initial) / 100);
    expect(d.Members).toBe(sums?.members);
    expect(d.Members).toBeGreaterThan(1);
    expect(d.Balance).toBeGreaterThan(0);
    expect(shape(d)).toEqual(shape(data(mine)));
    // Acting for a member, a SuperUser gets that member's own.
    const actingFor = await call(superUser, LedgerApi.adminBalance.path, undefined, { 'x-member-id': String(ownId) }, 'staff');
    expect(actingFor.statusCode, actingFor.body).toBe(200);
    expect(data(actingFor)).toEqual(data(mine));

    // Each read is audited; a member's with the member.
    await env.server.flushAudit();
    const audits = await sql.query<{ member_id: number | null }>("SELECT member_id FROM audit_log WHERE action = 'ledger.dashboard.admin-balance' ORDER BY id");
    expect(audits.map((a) => a.member_id)).toEqual(expect.arrayContaining([ownId, null]));
    expect(audits.filter((a) => a.member_id === ownId)).toHaveLength(2);
  });
  it('admin balance: every member’s is kept for a minute; a member’s own is always fresh', async () => {
    const sql = env.server.database.sql;
    const { session: own, memberId: ownId } = await user('ledger-finance-kept', Roles.CareGuardFinance, 'finance', true);
    await sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 30000)', [ownId]);
    const { session: superUser } = await user('ledger-super-kept', Roles.SuperUser, 'staff', false);
    const everyone = async () => {
      const res = await call(superUser, LedgerApi.adminBalance.path, undefined, {}, 'staff');
      expect(res.statusCode, res.body).toBe(200);
      return data(res);
    };
    const first = await everyone();
    expect(data(await call(own, LedgerApi.adminBalance.path, undefined, {}, 'finance'))).toEqual({
      Balance: 300,
      InitialBalance: 300,
      Members: 1,
      AsOf: today,
    });
    // A $12.34 expense: the member's own admin balance shows it at once, every member's not within the minute.
    await sql.query(
      "INSERT INTO ledger_transactions (member_id, source, date_created, company, description, transaction_type_id, amount_cents) VALUES ($1, 'ledger', $2, 'C', 'D', 1, 1234)",
      [ownId, today],
    );
    expect(data(await call(own, LedgerApi.adminBalance.path, undefined, {}, 'finance'))).toEqual({
      Balance: 287.66,
      InitialBalance: 300,
      Members: 1,
      AsOf: today,
    });
    expect(await everyone()).toEqual(first);
    const now = await adminBalance(sql, null, today);
    expect(now.Balance).not.toBe(first.Balance);
    // A minute later it is summed again.
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + ADMIN_BALANCE_TTL_MS + 1_000);
    try {
      expect(await everyone()).toEqual(now);
    } finally {
      clock.mockRestore();
    }
  });
});

describe('money sums exact to the cent', () => {
  it('over thousands of rows: the balance, the running balance and the dashboard agree with a sum in integers', async () => {
    const { session, memberId: id } = await user('ledger-many', Roles.CareGuard, 'card', true);
    let state = 12345;
    const next = () => {
      state = (state * 48271) % 2147483647;
      return state;
    };
    const sql = env.server.database.sql;
    let expected = 0n;
    for (let batch = 0; batch < 6; batch++) {
      const params: unknown[] = [];
      const values: string[] = [];
      for (let i = 0; i < 500; i++) {
        const type = (next() % 3) + 1;
        const cents = next() % 10_000_000;
        expected += type === 1 ? -BigInt(cents) : BigInt(cents);
        params.push(id, addDays(today, -(next() % 360)), type, cents);
        const b = params.length - 4;
        values.push(`($${b + 1}, 'ledger', $${b + 2}, 'Co', 'Row', $${b + 3}, $${b + 4})`);
      }
      await sql.query(
        `INSERT INTO ledger_transactions (member_id, source, date_created, company, description, transaction_type_id, amount_cents) VALUES ${values.join(',')}`,
        params,
      );
    }
    // A few through the API too, with amounts that are inexact in binary.
    for (const amount of ['0.10', '0.20', '1234567.89']) {
      expect((await call(session, LedgerApi.create.path, entry({ Amount: amount, TransactionTypeID: 2 }))).statusCode).toBe(200);
      expected += BigInt(Math.round(Number(amount) * 100));
    }
    expect((await call(session, LedgerApi.balance.path, { Amount: '0.07' })).statusCode).toBe(200);
    expected += 7n;
    const balance = data(await call(session, LedgerApi.loadBalance.path));
    expect(BigInt(Math.round((balance.CurrentBalance as number) * 100))).toBe(expected);
    const last = data(await call(session, LedgerApi.search.path, { SortColumn: 'DateCreated', SortOrder: 'desc', PageSize: 5 }));
    expect(last.ItemCount).toBe(3003);
    const newest = (last.Items as Json[])[0];
    expect(BigInt(Math.round((newest?.Balance as number) * 100))).toBe(expected);
    expect(BigInt(Math.round((data(await call(session, LedgerApi.accountBalance.path)).Balance as number) * 100))).toBe(expected);
  }, 60_000);
});

describe('a send holds the rows it sends until the payer answers', () => {
  const period = { From: addMonths(today, -1), To: today };
  const sql = () => env.server.database.sql;
  /** Holds the submissions that arrive from now on in flight; the answer lets them go on to the payer. */
  const holdPayer = () => {
    let open = () => {};
    payerGate = new Promise<void>((resolve) => {
      open = resolve;
    });
    return () => {
      payerGate = null;
      open();
    };
  };
  /** Whether `done` comes true within `ms`. */
  const until = async (done: () => boolean, ms = 5000) => {
    for (const end = Date.now() + ms; !done() && Date.now() < end; ) await sleep(10);
    return done();
  };
  /** The report header each member's page holds (the check saves none of it; each send brings it, as the page does). */
  const headers = new Map<Session, Json>();
  /** A member with an expense and a deposit in the period and the report's header checked: ready to send. */
  const readyToSend = async (name: string, hicn: string) => {
    const { session, memberId: id } = await user(name, Roles.CareGuard, 'card', true);
    const rows: Json[] = [];
    for (const over of [{ Amount: 10 }, { TransactionTypeID: 2, Code: null, Description: 'Deposit', Amount: 500 }]) {
      const res = await call(session, LedgerApi.create.path, entry(over));
      expect(res.statusCode, res.body).toBe(200);
      rows.push(data(res));
    }
    const check = await call(session, LedgerApi.reportCheck.path, {
      Query: { ...period, HICN: hicn, DateOfInjury: '2021-03-04', DateOfSettlement: '2024-06-01' },
    });
    expect(data(check)).toEqual([]);
    headers.set(session, { HICN: hicn, DateOfInjury: '2021-03-04', DateOfSettlement: '2024-06-01' });
    return { session, id, rows: rows as [Json, Json] };
  };
  const send = (session: Session, query: Json = period, extra: Record<string, string> = {}) =>
    call(session, LedgerApi.reportSend.path, { Query: { ...headers.get(session), ...query } }, extra);
  const hicnOf = async (id: number) => (await sql().query<{ hicn: string | null }>('SELECT hicn FROM ledger_accounts WHERE member_id = $1', [id]))[0]?.hicn;
  const reports = (id: number) =>
    sql().query<{ report_id: number; status: string; acknowledgement_id: string | null }>(
      'SELECT report_id, status, acknowledgement_id FROM ledger_reports WHERE member_id = $1 ORDER BY report_id',
      [id],
    );
  const marks = async (id: number) =>
    (await sql().query<{ report_id: number | null }>('SELECT report_id FROM ledger_transactions WHERE member_id = $1 ORDER BY transaction_id', [id])).map(
      (r) => r.report_id,
    );
  const payerRecords = (body: PayerBody | undefined) => body?.records.map((r) => [r.type, r.description, r.amountCents]);

  it('refuses an edit and a delete while the payer has the rows, sends them unchanged, and shows them reported only once the payer answered', async () => {
    const { session, id, rows } = await readyToSend('ledger-inflight', '111111111A');
    const [expense, deposit] = rows;
    const before = submissions.length;
    const release = holdPayer();
    let sending: ReturnType<typeof send> | null = null;
    try {
      sending = send(session);
      expect(await until(() => submissions.length === before + 1)).toBe(true);
      const edit = await call(session, LedgerApi.update.path, { ...entry({ Amount: 999 }), TransactionID: expense.TransactionID, Version: expense.Version });
      expect(edit.statusCode, edit.body).toBe(409);
      expect(edit.json()).toMatchObject({ MsgText: PayerMessages.sending, Data: { Sending: true } });
      const remove = await call(session, LedgerApi.delete.path, { TransactionID: deposit.TransactionID, Version: deposit.Version });
      expect(remove.statusCode, remove.body).toBe(409);
      expect(remove.json().MsgText).toBe(PayerMessages.sending);
      // A SuperUser, who may correct reported rows, waits for the payer too.
      const { session: superUser } = await user('ledger-inflight-su', Roles.SuperUser, 'staff', false);
      const forced = await call(
        superUser,
        LedgerApi.update.path,
        { ...entry({ Amount: 998 }), TransactionID: expense.TransactionID, Version: expense.Version },
        { 'x-member-id': String(id) },
        'staff',
      );
      expect(forced.statusCode, forced.body).toBe(409);
      expect(forced.json().MsgText).toBe(PayerMessages.sending);
      // Locked, but not reported yet: the reported view and ReportedDate wait for the payer's acknowledgement.
      expect(data(await call(session, LedgerApi.search.path, { Query: { ...period, View: 'reported' } })).ItemCount).toBe(0);
      const shown = data(await call(session, LedgerApi.search.path, { Query: period })).Items as Json[];
      expect(shown.map((t) => [t.TransactionID, t.ReportedDate])).toEqual([
        [expense.TransactionID, null],
        [deposit.TransactionID, null],
      ]);
      expect((await reports(id)).map((r) => [r.status, r.acknowledgement_id])).toEqual([['sending', null]]);
    } finally {
      release();
    }
    const res = await sending;
    expect(res?.statusCode, res?.body).toBe(200);
    expect(data(res as NonNullable<typeof res>)).toMatchObject({ AlreadySent: false, RecordCount: 2 });
    expect(submissions).toHaveLength(before + 1);
    expect(payerRecords(submissions[before])).toEqual([
      [1, 'Office visit', 1000],
      [2, 'Deposit', 50000],
    ]);
    // Reported as the payer got them, on the day it answered.
    const reported = data(await call(session, LedgerApi.search.path, { Query: { ...period, View: 'reported' } })).Items as Json[];
    expect(reported.map((t) => [t.TransactionID, t.Amount, t.Description, t.ReportedDate])).toEqual([
      [expense.TransactionID, 10, 'Office visit', today],
      [deposit.TransactionID, 500, 'Deposit', today],
    ]);
    const [report] = await reports(id);
    expect(report).toMatchObject({ status: 'sent', acknowledgement_id: data(res as NonNullable<typeof res>).AcknowledgementId });
    expect(await marks(id)).toEqual([report?.report_id, report?.report_id]);
  });

  it('a payer that refuses the report leaves no report and no marked row: the rows can be edited and the period sent again', async () => {
    const { session, id, rows } = await readyToSend('ledger-payer-fails', '222222222A');
    const [expense] = rows;
    const before = submissions.length;
    const release = holdPayer();
    let res: Awaited<ReturnType<typeof send>>;
    try {
      const sending = send(session);
      expect(await until(() => submissions.length === before + 1)).toBe(true);
      expect(
        (await call(session, LedgerApi.update.path, { ...entry({ Amount: 20 }), TransactionID: expense.TransactionID, Version: expense.Version })).statusCode,
      ).toBe(409);
      payerFails = true;
      release();
      res = await sending;
    } finally {
      payerFails = false;
      release();
    }
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().MsgText).toBe(PayerMessages.error);
    expect(await reports(id)).toEqual([]);
    expect(await marks(id)).toEqual([null, null]);
    const edit = await call(session, LedgerApi.update.path, { ...entry({ Amount: 20 }), TransactionID: expense.TransactionID, Version: expense.Version });
    expect(edit.statusCode, edit.body).toBe(200);
    const again = await send(session);
    expect(again.statusCode, again.body).toBe(200);
    expect(data(again)).toMatchObject({ AlreadySent: false, RecordCount: 2 });
    expect(payerRecords(submissions.at(-1))).toEqual([
      [1, 'Office visit', 2000],
      [2, 'Deposit', 50000],
    ]);
    expect((await reports(id)).map((r) => r.status)).toEqual(['sent']);
  });

  it('a send whose answer is lost keeps its claim and rows; the next send re-sends the same submission, which the payer answers with its first acknowledgement, and records it once', async () => {
    const { session, id, rows } = await readyToSend('ledger-answer-lost', '555555555A');
    const [expense] = rows;
    const before = submissions.length;
    const atPayer = async () => (await (await fetch(`${env.sandboxUrl}/payer/api/submissions?hicn=555555555A`)).json()) as Json[];
    let lost: Awaited<ReturnType<typeof send>>;
    try {
      payerAnswerLost = true;
      lost = await send(session);
    } finally {
      payerAnswerLost = false;
    }
    // The payer got it; we do not know: "Error sending", nothing recorded, but the claim and its rows are kept.
    expect(lost.statusCode, lost.body).toBe(502);
    expect(lost.json().MsgText).toBe(PayerMessages.error);
    const held = await atPayer();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ recordCount: 2, totalCents: { expense: 1000, deposit: 50000, interest: 0 } });
    const [claim] = await reports(id);
    expect(claim).toMatchObject({ status: 'sending', acknowledgement_id: null });
    expect(await marks(id)).toEqual([claim?.report_id, claim?.report_id]);
    // The rows stay what the payer may hold: the member cannot correct the expense meanwhile.
    const edit = await call(session, LedgerApi.update.path, { ...entry({ Amount: 11 }), TransactionID: expense.TransactionID, Version: expense.Version });
    expect(edit.statusCode, edit.body).toBe(409);
    expect(edit.json()).toMatchObject({ MsgText: PayerMessages.sending, Data: { Sending: true } });
    // The next send (at once: the first one is over) sends the very same bytes with the same key; the payer answers
    // the acknowledgement it gave, and the period is recorded with it.
    const again = await send(session);
    expect(again.statusCode, again.body).toBe(200);
    expect(data(again)).toMatchObject({ AlreadySent: false, RecordCount: 2, AcknowledgementId: held[0]?.acknowledgementId });
    expect(submissions).toHaveLength(before + 2);
    expect(rawSubmissions.at(-1)).toBe(rawSubmissions.at(-2));
    expect(await atPayer()).toHaveLength(1);
    const recorded = await reports(id);
    expect(recorded).toEqual([{ report_id: claim?.report_id, status: 'sent', acknowledgement_id: held[0]?.acknowledgementId }]);
    expect(await marks(id)).toEqual([claim?.report_id, claim?.report_id]);
    const history = await sql().query("SELECT 1 FROM ledger_history WHERE member_id = $1 AND action = 'report'", [id]);
    expect(history).toHaveLength(1);
    const audits = await sql().query<{ outcome: string }>("SELECT outcome FROM audit_log WHERE member_id = $1 AND action = 'ledger.report.send' ORDER BY id", [
      id,
    ]);
    // The send recorded once (the failure before is audited through the buffer, later).
    expect(audits.filter((a) => a.outcome === 'success')).toHaveLength(1);
    // And once more: already sent, nothing goes to the payer.
    const third = await send(session);
    expect(data(third)).toMatchObject({ AlreadySent: true, AcknowledgementId: held[0]?.acknowledgementId });
    expect(submissions).toHaveLength(before + 2);
  });

  it("a payer that already holds a different report under the period's key (409) is named as such, in the user's language, and releases the claim", async () => {
    const { session, id } = await readyToSend('ledger-other-report', '666666666A');
    const key = `ledger-${id}-${period.From}-${period.To}`;
    const other = await fetch(`${env.sandboxUrl}/payer/api/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({
        memberNumber: 'M-OTHER',
        hicn: '666666666A',
        dateOfInjury: '2021-03-04',
        dateOfSettlement: '2024-06-01',
        periodFrom: period.From,
        periodTo: period.To,
        records: [],
      }),
    });
    expect(other.status).toBe(201);
    const res = await send(session);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ MsgText: PayerMessages.otherReport, Data: { OtherReport: true } });
    expect(await reports(id)).toEqual([]);
    expect(await marks(id)).toEqual([null, null]);
    const spanish = await send(session, period, { cookie: 'cq.lang=es' });
    expect(spanish.statusCode).toBe(409);
    expect(spanish.json().MsgText).toBe(
      'El pagador federal ya tiene un reporte distinto de este período, así que no se volvió a enviar. Por favor, comuníquese con soporte.',
    );
  });

  it('a second send while the first waits for the payer is refused (409) and submits nothing; once the first is recorded, a send is AlreadySent', async () => {
    const { session, id } = await readyToSend('ledger-twice', '333333333A');
    const before = submissions.length;
    const release = holdPayer();
    let first: ReturnType<typeof send> | null = null;
    try {
      first = send(session);
      expect(await until(() => submissions.length === before + 1)).toBe(true);
      const second = await Promise.race([send(session), until(() => submissions.length > before + 1).then(() => null)]);
      expect(second?.statusCode, second?.body).toBe(409);
      expect(second?.json()).toMatchObject({ MsgText: PayerMessages.sending, Data: { Sending: true } });
      // The first send saved its header with its claim; a send refused as 'sending' saves none of its own.
      expect(await hicnOf(id)).toBe('333333333A');
      const refused = await Promise.race([
        send(session, { ...period, HICN: '999999999Z', DateOfInjury: '2020-01-01' }),
        until(() => submissions.length > before + 1).then(() => null),
      ]);
      expect(refused?.statusCode, refused?.body).toBe(409);
      expect(await hicnOf(id)).toBe('333333333A');
      expect(
        (await sql().query<{ d: string }>("SELECT to_char(date_of_injury, 'YYYY-MM-DD') AS d FROM ledger_accounts WHERE member_id = $1", [id]))[0]?.d,
      ).toBe('2021-03-04');
      expect((await send(session, period, { cookie: 'cq.lang=es' })).json().MsgText).toBe(
        'Se están enviando registros de este período al pagador federal. Vuelva a intentarlo en unos minutos.',
      );
      // An overlapping period holds the same rows: refused as well, while the first send waits.
      const overlapping = await Promise.race([
        send(session, { From: addMonths(today, -2), To: today }),
        until(() => submissions.length > before + 1).then(() => null),
      ]);
      expect(overlapping?.statusCode, overlapping?.body).toBe(409);
      expect(submissions).toHaveLength(before + 1);
    } finally {
      release();
    }
    const res = await first;
    expect(res?.statusCode, res?.body).toBe(200);
    const ack = data(res as NonNullable<typeof res>).AcknowledgementId;
    const again = await send(session);
    expect(again.statusCode).toBe(200);
    expect(again.json().MsgText).toBe(PayerMessages.alreadySent);
    expect(data(again)).toMatchObject({ AlreadySent: true, AcknowledgementId: ack });
    expect(submissions).toHaveLength(before + 1);
    expect((await reports(id)).map((r) => r.status)).toEqual(['sent']);
  });

  it('a claim older than the timeout (a send that stopped) is taken over by the next send, which the payer answers with the same acknowledgement', async () => {
    const { session, id } = await readyToSend('ledger-stale', '444444444A');
    const before = submissions.length;
    const releaseStuck = holdPayer();
    let stuck: ReturnType<typeof send> | null = null;
    let next: ReturnType<typeof send> | null = null;
    let releaseNext = () => {};
    try {
      stuck = send(session);
      expect(await until(() => submissions.length === before + 1)).toBe(true);
      const [claim] = await reports(id);
      await sql().query("UPDATE ledger_reports SET claimed_at = now() - interval '10 minutes' WHERE report_id = $1", [claim?.report_id]);
      releaseNext = holdPayer();
      next = send(session);
      expect(await until(() => submissions.length === before + 2)).toBe(true);
      // The next send took the stale claim over (with the submission stored with it); its rows are still locked.
      const [taken] = await reports(id);
      expect(taken).toMatchObject({ status: 'sending' });
      expect(taken?.report_id).toBe(claim?.report_id);
      expect(await marks(id)).toEqual([taken?.report_id, taken?.report_id]);
      releaseNext();
      const res = await next;
      expect(res?.statusCode, res?.body).toBe(200);
      expect(data(res as NonNullable<typeof res>)).toMatchObject({ AlreadySent: false, RecordCount: 2 });
    } finally {
      releaseNext();
      releaseStuck();
    }
    // The stopped send comes back late: the payer knows its key, and the period is recorded once, by the send that took over.
    const late = await stuck;
    expect(late?.statusCode, late?.body).toBe(200);
    const recorded = await reports(id);
    expect(recorded.map((r) => r.status)).toEqual(['sent']);
    expect(data(late as NonNullable<typeof late>)).toMatchObject({ AlreadySent: true, AcknowledgementId: recorded[0]?.acknowledgement_id });
    expect(payerRecords(submissions[before])).toEqual(payerRecords(submissions[before + 1]));
    expect(rawSubmissions[before + 1]).toBe(rawSubmissions[before]);
    const atPayer = (await (await fetch(`${env.sandboxUrl}/payer/api/submissions?hicn=444444444A`)).json()) as Json[];
    expect(atPayer.map((s) => s.acknowledgementId)).toEqual([recorded[0]?.acknowledgement_id]);
    expect(await marks(id)).toEqual([recorded[0]?.report_id, recorded[0]?.report_id]);
    expect(data(await call(session, LedgerApi.search.path, { Query: { ...period, View: 'reported' } })).ItemCount).toBe(2);
  });
});

// Before 'the report to the federal payer': one of its tests closes the sandbox payer for good.
describe("the report header's version: a send refuses a header someone changed since it was loaded (HeaderVersion)", () => {
  let session: Session;
  let id: number;
  const sql = () => env.server.database.sql;
  /** One expense a day on these days, each its own one-day period: every send below is of a period not sent before. */
  const days = [10, 20, 30, 40, 50, 60].map((n) => addDays(today, -n));
  const on = (i: number) => ({ From: days[i], To: days[i] });
  const dates = { DateOfInjury: '2021-03-04', DateOfSettlement: '2024-06-01' };
  const staff = () => ({ 'x-member-id': String(id) });
  /** The page's loadMember: the header and its HeaderVersion, for the member or for staff acting for them. */
  const loaded = async (asStaff = false) =>
    data(await call(asStaff ? support : session, LedgerApi.loadMember.path, undefined, asStaff ? staff() : {}, asStaff ? 'staff' : 'card'));
  const send = (body: Json, asStaff = false, extra: Record<string, string> = {}) =>
    call(asStaff ? support : session, LedgerApi.reportSend.path, body, asStaff ? { ...staff(), ...extra } : extra, asStaff ? 'staff' : 'card');
  const stored = async () =>
    (
      await sql().query<{ hicn: string | null; settlement: string | null; version: number }>(
        "SELECT hicn, to_char(date_of_settlement, 'YYYY-MM-DD') AS settlement, header_version AS version FROM ledger_accounts WHERE member_id = $1",
        [id],
      )
    )[0];
  const headerAudits = async () =>
    (
      await sql().query<{ detail: { fields: string[]; HeaderVersion: number } }>(
        'SELECT detail FROM audit_log WHERE action = $1 AND member_id = $2 ORDER BY id',
        ['ledger.report.header', id],
      )
    ).map((r) => r.detail);
  const claims = async () => (await sql().query('SELECT 1 FROM ledger_reports WHERE member_id = $1', [id])).length;

  beforeAll(async () => {
    ({ session, memberId: id } = await user('ledger-header', Roles.CareGuard, 'card', true));
    for (const day of days) expect((await call(session, LedgerApi.create.path, entry({ DateCreated: day }))).statusCode).toBe(200);
  });

  it("refuses (409, nothing sent, saved or claimed) a stale page's send after a colleague corrected the HICN; reloaded, it sends theirs", async () => {
    // Before any send the header is empty at version 1; the first send saves one (version 2).
    expect(await loaded()).toMatchObject({ HICN: null, DateOfInjury: null, DateOfSettlement: null, HeaderVersion: 1 });
    const first = await send({ Query: { ...on(0), HICN: '100000000A', ...dates }, HeaderVersion: 1 });
    expect(first.statusCode, first.body).toBe(200);
    // Both pages load that header: the member's and staff's acting for them.
    const mine = await loaded();
    const theirs = await loaded(true);
    expect([mine.HICN, mine.HeaderVersion, theirs.HeaderVersion]).toEqual(['100000000A', 2, 2]);
    // Staff correct the HICN with their send.
    const corrected = await send({ Query: { ...on(1), HICN: '200000000B', ...dates }, HeaderVersion: theirs.HeaderVersion }, true);
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await stored()).toMatchObject({ hicn: '200000000B', version: 3 });
    expect(submissions.at(-1)?.hicn).toBe('200000000B');
    // The member's page still holds the old HICN and sends it back with every report: refused, the correction stays.
    const before = { submitted: submissions.length, claims: await claims(), audits: (await headerAudits()).length };
    const stale = await send({ Query: { ...on(2), HICN: mine.HICN, ...dates }, HeaderVersion: mine.HeaderVersion });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ MsgText: PayerMessages.headerChanged, Data: { HeaderChanged: true } });
    const spanish = await send({ Query: { ...on(2), HICN: mine.HICN, ...dates }, HeaderVersion: mine.HeaderVersion }, false, { cookie: 'cq.lang=es' });
    expect(spanish.statusCode).toBe(409);
    expect(spanish.json().MsgText).toBe(
      'Otra persona cambió mientras tanto el HICN o las fechas de este reporte, así que no se envió. Revise los que están guardados ahora y vuelva a enviarlo.',
    );
    // A stale page's send that brings no header of its own is refused too: it reports from a header it has not seen.
    expect((await send({ Query: on(2), HeaderVersion: mine.HeaderVersion })).statusCode).toBe(409);
    expect(await stored()).toMatchObject({ hicn: '200000000B', version: 3 });
    expect(submissions).toHaveLength(before.submitted);
    expect(await claims()).toBe(before.claims);
    expect(await headerAudits()).toHaveLength(before.audits);
    expect(await sql().query('SELECT 1 FROM ledger_transactions WHERE member_id = $1 AND date_created = $2 AND report_id IS NOT NULL', [id, days[2]])).toEqual(
      [],
    );
    // Reloaded, the page holds the corrected header and its version: the period goes with it.
    const reloaded = await loaded();
    expect(reloaded).toMatchObject({ HICN: '200000000B', HeaderVersion: 3 });
    const again = await send({ Query: { ...on(2), HICN: reloaded.HICN, ...dates }, HeaderVersion: reloaded.HeaderVersion });
    expect(again.statusCode, again.body).toBe(200);
    expect(submissions.at(-1)?.hicn).toBe('200000000B');
    expect(await stored()).toMatchObject({ hicn: '200000000B', version: 3 });
  });

  it('a send that brings the header as stored writes nothing: the version stays and no header change is audited; a change moves it by one', async () => {
    const start = await stored();
    const audits = (await headerAudits()).length;
    const { HICN, HeaderVersion } = await loaded();
    expect(HeaderVersion).toBe(start?.version);
    // The page sends the header it loaded with every report: unchanged, it is no change.
    for (const i of [3, 4]) {
      const res = await send({ Query: { ...on(i), HICN, ...dates }, HeaderVersion });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await stored()).toEqual(start);
    expect(await headerAudits()).toHaveLength(audits);
    expect((await loaded()).HeaderVersion).toBe(HeaderVersion);
    // One field changed: written once, the version one up, the audit naming that field.
    const res = await send({ Query: { ...on(5), HICN, ...dates, DateOfSettlement: '2024-07-01' }, HeaderVersion });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored()).toEqual({ hicn: HICN, settlement: '2024-07-01', version: Number(HeaderVersion) + 1 });
    expect((await headerAudits()).slice(audits)).toEqual([{ fields: ['DateOfSettlement'], HeaderVersion: Number(HeaderVersion) + 1 }]);
  });

  it('refuses a HeaderVersion that is not a positive whole number with 400, and changes nothing', async () => {
    const start = await stored();
    const claimed = await claims();
    for (const HeaderVersion of [0, -1, 'abc', 1.5]) {
      const res = await send({ Query: { From: addMonths(today, -3), To: today, HICN: '300000000C', ...dates }, HeaderVersion });
      expect(res.statusCode, `${HeaderVersion}: ${res.body}`).toBe(400);
      expect(res.json().MsgText).toContain('HeaderVersion');
    }
    expect(await stored()).toEqual(start);
    expect(await claims()).toBe(claimed);
  });
});

describe('the report to the federal payer', () => {
  let session: Session;
  let id: number;
  const period = { From: addMonths(today, -12), To: today };
  beforeAll(async () => {
    ({ session, memberId: id } = await user('ledger-report', Roles.CareGuard, 'card', true));
    await call(session, LedgerApi.create.path, entry({ Code: null }));
    await call(session, LedgerApi.create.path, entry({ TransactionTypeID: 3, Code: null, Description: 'Interest', Amount: 3.21 }));
  });
  it('reportCheck answers the missing header fields and incomplete records, then nothing once complete', async () => {
    let res = await call(session, LedgerApi.reportCheck.path, { Query: period });
    expect(res.statusCode, res.body).toBe(200);
    const issues = data(res) as unknown as { TransactionID: number | null; Fields: string[] }[];
    expect(issues[0]).toMatchObject({ TransactionID: null, Fields: ['HICN', 'DateOfInjury', 'DateOfSettlement'] });
    expect(issues.slice(1).map((i) => i.Fields)).toEqual([['Code']]);
    expect((await call(session, LedgerApi.reportSend.path, { Query: period })).statusCode).toBe(400);
    // The refused send leaves no claim on the period and no marked row.
    expect(await env.server.database.sql.query('SELECT 1 FROM ledger_reports WHERE member_id = $1', [id])).toEqual([]);
    expect(await env.server.database.sql.query('SELECT 1 FROM ledger_transactions WHERE member_id = $1 AND report_id IS NOT NULL', [id])).toEqual([]);
    const missing = issues[1]?.TransactionID;
    const row = (data(await call(session, LedgerApi.search.path, { Query: { EmptyFields: true } })).Items as Json[])[0];
    expect(row?.TransactionID).toBe(missing);
    expect((await call(session, LedgerApi.update.path, { ...entry(), TransactionID: missing, Version: row?.Version })).statusCode).toBe(200);
    res = await call(session, LedgerApi.reportCheck.path, {
      Query: { ...period, HICN: '123456789A', DateOfInjury: '2021-03-04', DateOfSettlement: '2024-06-01' },
    });
    expect(data(res)).toEqual([]);
  });
  it('the check and a refused send save no header: only a send that passed its checks saves it, with its claim', async () => {
    const account = async () =>
      (
        await env.server.database.sql.query<Json>(
          "SELECT hicn, to_char(date_of_injury, 'YYYY-MM-DD') AS injury, to_char(date_of_settlement, 'YYYY-MM-DD') AS settlement FROM ledger_accounts WHERE member_id = $1",
          [id],
        )
      )[0];
    const headerAudits = async () =>
      (await env.server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1 AND member_id = $2', ['ledger.report.header', id])).length;
    // The complete check above was given the whole header: it answered from it and saved none of it.
    expect(await account()).toEqual({ hicn: null, injury: null, settlement: null });
    expect(await headerAudits()).toBe(0);
    // A send refused as incomplete (the header without its dates) changes no HICN.
    const incomplete = await call(session, LedgerApi.reportSend.path, { Query: { ...period, HICN: '555555555B' } });
    expect(incomplete.statusCode, incomplete.body).toBe(400);
    expect(incomplete.json().Data).toEqual({ Incomplete: true });
    expect(await account()).toEqual({ hicn: null, injury: null, settlement: null });
    expect(await headerAudits()).toBe(0);
    expect(await env.server.database.sql.query('SELECT 1 FROM ledger_reports WHERE member_id = $1', [id])).toEqual([]);
  });
  it('sends once per period over HTTP; a resend says it was already sent and sends nothing', async () => {
    const first = await call(session, LedgerApi.reportSend.path, {
      Query: { ...period, HICN: '123456789A', DateOfInjury: '2021-03-04', DateOfSettlement: '2024-06-01' },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().MsgText).toBe(PayerMessages.sent);
    expect(first.json().MsgText).toBe('Successfully sent. Thank you.');
    const ack = data(first);
    expect(ack).toMatchObject({ AlreadySent: false, RecordCount: 2, From: period.From, To: period.To });
    // The send that passed its checks saved the header it brought, audited.
    expect((await env.server.database.sql.query<Json>('SELECT hicn FROM ledger_accounts WHERE member_id = $1', [id]))[0]?.hicn).toBe('123456789A');
    expect(await env.server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1 AND member_id = $2', ['ledger.report.header', id])).toHaveLength(1);
    const stored = (await (await fetch(`${env.sandboxUrl}/payer/api/submissions?hicn=123456789A`)).json()) as Json[];
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ acknowledgementId: ack.AcknowledgementId, recordCount: 2, totalCents: { expense: 12540, deposit: 0, interest: 321 } });
    const again = await call(session, LedgerApi.reportSend.path, { Query: period });
    expect(again.statusCode).toBe(200);
    expect(again.json().MsgText).toBe(PayerMessages.alreadySent);
    expect(data(again)).toMatchObject({ AlreadySent: true, AcknowledgementId: ack.AcknowledgementId });
    expect((await (await fetch(`${env.sandboxUrl}/payer/api/submissions?hicn=123456789A`)).json()) as Json[]).toHaveLength(1);
    const reported = data(await call(session, LedgerApi.search.path, { Query: { View: 'reported' } }));
    expect(reported.ItemCount).toBe(2);
    // Reported rows are locked for a member.
    const row = (reported.Items as Json[])[0];
    expect((await call(session, LedgerApi.delete.path, { TransactionID: row?.TransactionID, Version: row?.Version })).statusCode).toBe(409);
    const audit = await env.server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1 AND member_id = $2', ['ledger.report.send', id]);
    expect(audit).toHaveLength(1);
  });
  it('the sandbox payer is idempotent on its own: the same key answers the first acknowledgement', async () => {
    const body = {
      memberNumber: 'M1',
      hicn: '999999999A',
      dateOfInjury: '2020-01-01',
      dateOfSettlement: '2021-01-01',
      periodFrom: '2024-01-01',
      periodTo: '2024-12-31',
      records: [],
    };
    const post = (b: Json) =>
      fetch(`${env.sandboxUrl}/payer/api/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'test-key-1' },
        body: JSON.stringify(b),
      });
    const a = await post(body);
    expect(a.status).toBe(201);
    const b = await post(body);
    expect(b.status).toBe(200);
    expect(((await b.json()) as Json).acknowledgementId).toBe(((await a.json()) as Json).acknowledgementId);
    expect((await post({ ...body, hicn: '888888888A' })).status).toBe(409);
  });
  it('a payer that cannot be reached is "Error sending. Please contact support." and records nothing; the claim waits for a send again', async () => {
    await env.sandbox.close();
    const res = await call(session, LedgerApi.reportSend.path, { Query: { From: addMonths(today, -1), To: today } });
    expect(res.statusCode).toBe(502);
    expect(res.json().MsgText).toBe(PayerMessages.error);
    // No answer: the outcome is unknown, so the claim stays (unconfirmed) beside the report sent before.
    const kept = await env.server.database.sql.query<{ status: string; unconfirmed: boolean }>(
      'SELECT status, unconfirmed FROM ledger_reports WHERE member_id = $1 ORDER BY report_id',
      [id],
    );
    expect(kept).toEqual([
      { status: 'sent', unconfirmed: false },
      { status: 'sending', unconfirmed: true },
    ]);
  });
  it('downloads the report as a PDF or a spreadsheet', async () => {
    const pdf = await call(session, LedgerApi.report.path, { Query: period });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['x-filename']).toBe(`ledger-report-${period.From}-to-${period.To}.pdf`);
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const xlsx = await call(session, LedgerApi.report.path, { Query: period, Format: 'xlsx' });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  const pdfText = async (raw: Buffer) => (await extractText(await getDocumentProxy(new Uint8Array(raw)), { mergePages: true })).text;

  it('right-aligns the PDF’s Amount and Balance columns, as statements do: amounts of different widths end at one edge', async () => {
    const res = await call(session, LedgerApi.report.path, { Query: period });
    expect(res.statusCode).toBe(200);
    const page = await (await getDocumentProxy(new Uint8Array(res.rawPayload))).getPage(1);
    const items = (await page.getTextContent()).items.flatMap((i) =>
      'str' in i && i.str.trim() !== ''
        ? [{ text: i.str.trim(), left: i.transform[4] as number, right: (i.transform[4] as number) + i.width, y: i.transform[5] as number }]
        : [],
    );
    const header = items.find((i) => i.text === 'Amount');
    expect(header).toBeDefined();
    // The table's money cells (below its header row), by row: a row's first is its Amount, the next its Balance.
    const money = items.filter((i) => i.y < (header?.y ?? 0) - 1 && /\$[\d,]+\.\d\d\)?$/.test(i.text));
    const byRow = new Map<number, typeof money>();
    for (const m of money) byRow.set(Math.round(m.y), [...(byRow.get(Math.round(m.y)) ?? []), m]);
    const rows = [...byRow.values()].map((cells) => cells.sort((a, b) => a.left - b.left));
    const edges = (xs: number[]) => new Set(xs.map((x) => Math.round(x * 2) / 2)).size;
    for (const column of [0, 1]) {
      const cells = rows.flatMap((r) => (r[column] ? [r[column]] : []));
      if (column === 0) expect(new Set(cells.map((c) => c.text.length)).size, JSON.stringify(cells)).toBeGreaterThan(1);
      if (cells.length < 2) continue;
      expect(edges(cells.map((c) => c.right)), JSON.stringify(cells)).toBe(1);
      if (new Set(cells.map((c) => c.text.length)).size > 1) expect(edges(cells.map((c) => c.left))).toBeGreaterThan(1);
    }
  });

  const sheetOf = async (raw: Buffer) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(raw as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    const cells = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    return { name: sheet.name, header: cells(1), rows: Array.from({ length: sheet.rowCount - 1 }, (_, i) => cells(i + 2)) };
  };

  it("writes the report in the reader's language: the title, labels, type names and footers; the data as entered", async () => {
    const english = await pdfText((await call(session, LedgerApi.report.path, { Query: period })).rawPayload);
    for (const words of ['Medicare set-aside ledger report', 'Expenses', 'Expense', 'Office visit', '$125.40', 'Page 1 of']) expect(english).toContain(words);
    const spanish = await pdfText((await call(session, LedgerApi.report.path, { Query: period }, { cookie: 'cq.lang=es' })).rawPayload);
    for (const words of ['Reporte del libro de cuentas del fondo reservado de Medicare', 'Gastos', 'Gasto', 'Interés', 'Período', 'Página 1 de'])
      expect(spanish).toContain(words);
    // What the member typed stays as typed; amounts keep the US form of dollars (es-US).
    expect(spanish).toContain('Office visit');
    expect(spanish).toContain('$125.40');
    expect(spanish).not.toContain('Expenses');
    // The period's days as each language writes a day.
    const day = (iso: string, language: 'en' | 'es') => formatIsoDayText(iso, 'medium', localeOf(language));
    expect(english).toContain(`${day(period.From, 'en')} to ${day(period.To, 'en')}`);
    expect(spanish).toContain(day(period.From, 'es'));

    const sheet = await sheetOf(
      (await call(session, LedgerApi.report.path, { Query: period, Format: 'xlsx' }, { 'accept-language': 'es-MX,es;q=0.9' })).rawPayload,
    );
    expect(sheet.name).toBe('Libro de cuentas');
    expect(sheet.header).toEqual(['Fecha', 'Código', 'Empresa', 'Descripción', 'Tipo', 'Importe', 'Saldo']);
    expect(sheet.rows.map((r) => r[4])).toContain('Gasto');
    const englishSheet = await sheetOf((await call(session, LedgerApi.report.path, { Query: period, Format: 'xlsx' })).rawPayload);
    expect(englishSheet.header).toEqual(['Date', 'Code', 'Company', 'Description', 'Type', 'Amount', 'Balance']);
    expect(englishSheet.rows.map((r) => r[4])).toContain('Expense');
  });
});

describe('the seed', () => {
  it('gives CareGuard, CareAssist and CareGuardFinance members a set-aside, leaves the two open-balance demo users without an initial balance', async () => {
    const { memberId: a } = await user('seed-guard', Roles.CareGuard, 'card', true);
    const { memberId: b } = await user('card.careguard', Roles.CareGuard, 'card', true);
    const { memberId: c } = await user('quote.careguard', Roles.CareGuard, 'quote', true);
    const sql = env.server.database.sql;
    await sql.query('DELETE FROM ledger_accounts');
    let s = 7;
    await seed({
      sql,
      scale: 1,
      members: [
        { memberId: a, brand: 'card', roles: [Roles.CareGuard], userName: 'seed-guard' },
        { memberId: b, brand: 'card', roles: [Roles.CareGuard], userName: 'card.careguard' },
        { memberId: c, brand: 'quote', roles: [Roles.CareGuard], userName: 'quote.careguard' },
        { memberId: 1, brand: 'finance', roles: [Roles.CareGuardFinance], userName: null },
      ],
      random: () => {
        s = (s * 48271) % 2147483647;
        return s / 2147483647;
      },
      log: () => {},
    });
    const accounts = await sql.query<{ member_id: number; initial: string | null }>(
      'SELECT member_id, initial_balance_cents::text AS initial FROM ledger_accounts ORDER BY member_id',
    );
    // The finance member (statements and documents come from the ledger) too, drawn after the card holders.
    expect(accounts.map((r) => [r.member_id, r.initial === null])).toEqual([
      [1, false],
      [a, false],
      [b, true],
      [c, true],
    ]);
    expect(await count(a)).toBeGreaterThan(40);
    const reported = await sql.query('SELECT 1 FROM ledger_transactions WHERE member_id = $1 AND report_id IS NOT NULL', [a]);
    expect(reported.length).toBeGreaterThan(0);
  });
});

describe("the ledger in the user's language", () => {
  const spanish = { cookie: 'cq.lang=es' };
  let session: Session;
  let id: number;
  beforeAll(async () => {
    ({ session, memberId: id } = await user('ledger-es', Roles.CareGuard, 'card', true));
  });

  it('words refusals, toasts, the activity types (with their values) and the payer refusal in Spanish', async () => {
    const future = await call(session, LedgerApi.create.path, entry({ DateCreated: addDays(today, 3) }), spanish);
    expect(future.statusCode).toBe(400);
    expect(future.json().MsgText).toBe('No se permite registrar transacciones con fecha futura. Por favor, ingrese una fecha válida.');
    const added = await call(session, LedgerApi.create.path, entry({ Code: null }), spanish);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().MsgText).toBe('La transacción se agregó.');
    expect((await call(session, LedgerApi.create.path, entry())).json().MsgText).toBe('The transaction was added.');

    await env.server.database.sql.query(
      `INSERT INTO ledger_transactions (member_id, source, status, date_created, code, company, description, transaction_type_id, amount_cents)
       VALUES ($1, 'card', 'Settled', $2, 'NDC', 'CVS Pharmacy', 'Card purchase', 1, 500)`,
      [id, today],
    );
    const types = async (extra: Record<string, string>) =>
      ((data(await call(session, LedgerApi.financialsSearch.path, {}, extra)).Items as Json[]).map((t) => t.type) as string[]).sort();
    expect(await types(spanish)).toEqual(['Gasto', 'Gasto', 'Tarjeta: Liquidada']);
    expect(await types({})).toEqual(['Card Settled', 'Expense', 'Expense']);

    const incomplete = await call(session, LedgerApi.reportSend.path, { Query: { From: addMonths(today, -1), To: today } }, spanish);
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json()).toMatchObject({
      MsgText: 'Algunos registros están incompletos. Revise todos los registros antes de enviar.',
      Data: { Incomplete: true },
    });
  });
});

describe('bank transactions', () => {
  it("posts a bank transaction once to each member's ledger, also when two members' links carry the same aggregator id", async () => {
    const ledger = makeLedgerService(env.server.database.sql);
    const row = { ref: 'bank:joint-account-77', date: today, company: 'Joint Savings', description: 'Pharmacy', signedCents: -4250 };
    const bankRows = async (id: number) =>
      (
        await env.server.database.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1 AND source = 'bank' AND external_ref = $2",
          [id, row.ref],
        )
      )[0]?.n ?? 0;
    expect(await ledger.postBankTransactions(memberId, [row])).toBe(1);
    expect(await ledger.postBankTransactions(otherId, [row])).toBe(1);
    // Posted again (the next sync), nothing is added for either.
    expect(await ledger.postBankTransactions(memberId, [row])).toBe(0);
    expect(await ledger.postBankTransactions(otherId, [row])).toBe(0);
    expect([await bankRows(memberId), await bankRows(otherId)]).toEqual([1, 1]);
    // Unlinking takes the row out of that member's ledger only.
    expect(await ledger.withdrawBankTransactions(memberId, [row.ref])).toBe(1);
    expect([await bankRows(memberId), await bankRows(otherId)]).toEqual([0, 1]);
    expect(await ledger.withdrawBankTransactions(otherId, [row.ref])).toBe(1);
  });

  it("withdraws in the caller's transaction when given one (a bank's unlink): rolled back with it, committed with it", async () => {
    const sql = env.server.database.sql;
    const ledger = makeLedgerService(sql);
    const { memberId: id } = await user('ledger-bank-unlink', Roles.CareGuard, 'card', true);
    const row = { ref: 'bank:unlink-1', date: today, company: 'Unlink Bank', description: 'Deposit', signedCents: 5000 };
    expect(await ledger.postBankTransactions(id, [row])).toBe(1);
    const kept = async () =>
      (
        await sql.query<{ rows: number; deletes: number }>(
          `SELECT (SELECT count(*)::int FROM ledger_transactions WHERE member_id = $1 AND source = 'bank') AS rows,
             (SELECT count(*)::int FROM ledger_history WHERE member_id = $1 AND action = 'delete') AS deletes`,
          [id],
        )
      )[0];
    // The caller's transaction fails after the withdrawal: the row and its history are as they were.
    await expect(
      sql.transaction(async (tx) => {
        expect(await ledger.withdrawBankTransactions(id, [row.ref], tx)).toBe(1);
        throw new Error('the caller failed after the withdrawal');
      }),
    ).rejects.toThrow('the caller failed after the withdrawal');
    expect(await kept()).toEqual({ rows: 1, deletes: 0 });
    await sql.transaction(async (tx) => {
      expect(await ledger.withdrawBankTransactions(id, [row.ref], tx)).toBe(1);
    });
    expect(await kept()).toEqual({ rows: 0, deletes: 1 });
  });

  it('posts a whole sync at once: each new row once, with one history row naming it; a reference sent twice counts once', async () => {
    const ledger = makeLedgerService(env.server.database.sql);
    const { memberId: id } = await user('ledger-bank-batch', Roles.CareGuard, 'card', true);
    const rows = Array.from({ length: 300 }, (_, i) => ({
      ref: `bank:batch-${i}`,
      date: today,
      company: 'Batch Bank ····1234',
      // Quotes, a backslash and accents travel as they are.
      description: i === 7 ? 'Café "Central" \\ refund' : `Purchase ${i}`,
      signedCents: i % 2 ? 1000 + i : -(1000 + i),
    }));
    const first = rows[0] as (typeof rows)[number];
    expect(await ledger.postBankTransactions(id, [...rows, { ...first, description: 'the same reference again' }])).toBe(300);
    const sql = env.server.database.sql;
    const kept = await sql.query<{ n: number; history: number }>(
      `SELECT count(*)::int AS n, (SELECT count(*)::int FROM ledger_history h WHERE h.member_id = $1 AND h.action = 'create') AS history
       FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`,
      [id],
    );
    expect(kept[0]).toEqual({ n: 300, history: 300 });
    const seventh = await sql.query<{ description: string; type: number; cents: string; after: { ref: string; description: string; signedCents: number } }>(
      `SELECT t.description, t.transaction_type_id AS type, t.amount_cents::text AS cents, h.after FROM ledger_transactions t
       JOIN ledger_history h ON h.transaction_id = t.transaction_id WHERE t.member_id = $1 AND t.external_ref = 'bank:batch-7'`,
      [id],
    );
    expect(seventh).toEqual([
      {
        description: 'Café "Central" \\ refund',
        type: 2,
        cents: '1007',
        after: expect.objectContaining({ ref: 'bank:batch-7', description: 'Café "Central" \\ refund', signedCents: 1007 }),
      },
    ]);
    const zeroth = await sql.query<{ description: string; type: number }>(
      "SELECT description, transaction_type_id AS type FROM ledger_transactions WHERE member_id = $1 AND external_ref = 'bank:batch-0'",
      [id],
    );
    expect(zeroth).toEqual([{ description: 'Purchase 0', type: 1 }]);
    // The next sync posts nothing again, and writes no history.
    expect(await ledger.postBankTransactions(id, rows)).toBe(0);
    expect((await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger_history WHERE member_id = $1 AND action = 'create'", [id]))[0]?.n).toBe(300);
  });
});

describe('change mark', () => {
  it("moves with every create, edit and delete of the member's rows, a bank posting and withdrawal and the initial balance; not with a read, a report marking rows or another member's change", async () => {
    const sql = env.server.database.sql;
    const ledger = makeLedgerService(sql);
    const { session, memberId: id } = await user('ledger-mark', Roles.CareGuard, 'card', true);
    const marks: string[] = [await ledger.changeMark(id)];
    const moved = async () => {
      const mark = await ledger.changeMark(id);
      expect(marks).not.toContain(mark);
      marks.push(mark);
    };
    const created = data(await call(session, LedgerApi.create.path, entry({ Description: 'Mark create' })));
    await moved();
    expect(
      (await call(session, LedgerApi.update.path, { ...entry({ Description: 'Mark edit' }), TransactionID: created.TransactionID, Version: 1 })).statusCode,
    ).toBe(200);
    await moved();
    // Reading, another member's row and a report marking the row change nothing the mark stands for.
    await call(session, LedgerApi.search.path, {});
    await call(other, LedgerApi.create.path, entry({ Description: 'Not the marked member' }));
    await sql.query('UPDATE ledger_transactions SET report_id = -1 WHERE member_id = $1', [id]);
    await sql.query('UPDATE ledger_transactions SET report_id = NULL WHERE member_id = $1', [id]);
    expect(await ledger.changeMark(id)).toBe(marks.at(-1));
    expect((await call(session, LedgerApi.delete.path, { TransactionID: created.TransactionID, Version: 2 })).statusCode).toBe(200);
    await moved();
    const row = { ref: 'bank:mark-1', date: today, company: 'Mark Bank', description: 'Deposit', signedCents: 5000 };
    expect(await ledger.postBankTransactions(id, [row])).toBe(1);
    await moved();
    expect(await ledger.withdrawBankTransactions(id, [row.ref])).toBe(1);
    await moved();
    expect((await call(session, LedgerApi.balance.path, { Amount: 100 })).statusCode).toBe(200);
    await moved();
  });
});
