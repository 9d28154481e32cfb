import type { StartedServer } from '@portal/app-server/server';
import { BILLING_MESSAGES, BillingApi, type BillingProfile } from '@portal/plugin-billing/contract';
import { createSandbox } from '@portal/sandbox';
import { createPaymentGateway } from '@portal/server/kernel';
import { authHeaders, makeUser, type Session, signIn, startTestServer, TEST_PASSWORD } from '@portal/testing/server';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_MESSAGES, SupportApi, type SupportMoneyResult, type SupportTransaction } from '../contract';
import { displayStatus, isUnsettledRefund, newIdempotencyKey, PENDING_TX_FILTERS, paNumberMatches, UNSETTLED_REFUND_MESSAGE } from '../rules';

/**
 * Support tooling against the sandbox gateway over real HTTP, through the kernel guard: the member adds cards through
 * the hosted form's own call, staff act through api/support/, and money moves through billing's service.
 */
const GATEWAY = { loginId: 'sandbox-merchant', transactionKey: 'sandbox-transaction-key', signatureKey: 'sandbox-signature-key', tickMs: 0 };
const BASIC = `Basic ${Buffer.from(`${GATEWAY.loginId}:${GATEWAY.transactionKey}`).toString('base64')}`;
let sandbox: FastifyInstance;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };
let ann: Session;
let zed: Session;
let staff: Session;
let superUser: Session;
let annId: number;
let zedId: number;
let staffMemberId: number;

type Call = { method?: 'GET' | 'POST' | 'PUT'; body?: unknown; session?: Session; brand?: string; headers?: Record<string, string> };
const call = (path: string, o: Call = {}) =>
  server.app.inject({
    method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
    url: path,
    headers: authHeaders(o.session ?? staff, o.brand ?? 'staff', o.headers),
    payload: o.body as object,
  });
/** A file the call answers with (200), as the test server sent it. */
const file = async (path: string, body: object = {}, o: Call = {}) => {
  const res = await call(path, { ...o, body });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};
const data = async <T>(path: string, o: Call = {}) => {
  const res = await call(path, o);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json().Data as T;
};
const count = async (sqlText: string, params: unknown[] = []) => (await server.database.sql.query<{ n: number }>(sqlText, params))[0]?.n ?? 0;
const settleNow = () => fetch(`${sandboxUrl}/gateway/api/settle-now`, { method: 'POST', headers: { authorization: BASIC } });
/** A PDF's words as read: a narrow column may wrap a header over two lines. */
const pdfText = async (raw: Buffer) => (await extractText(await getDocumentProxy(new Uint8Array(raw)), { mergePages: true })).text.replace(/\s+/g, ' ');
async function sheet(raw: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(raw).buffer);
  const ws = workbook.worksheets[0];
  if (!ws) throw new Error('no sheet');
  return ws;
}
const rowValues = (ws: ExcelJS.Worksheet) => {
  const out: unknown[][] = [];
  ws.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
};

async function addCard(session: Session, cardNumber: string) {
  const t = await data<{ Token: string }>(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`, {
    session,
    brand: 'card',
  });
  const res = await fetch(`${sandboxUrl}/customer/api/save`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: t.Token, cardNumber, expiry: '12/30', cvv: '123' }),
  });
  expect(res.status).toBe(200);
  return data<BillingProfile>(BillingApi.sync.path, { session, brand: 'card' });
}
/** A charge through billing's support call (as the payment service is called): answers the new transaction id. */
async function chargeThroughBilling(memberId: number, profileId: number, amount: number, description: string) {
  const p = await data<BillingProfile>(BillingApi.supportProfile.path, { body: { MemberId: memberId } });
  const r = await data<SupportMoneyResult>(BillingApi.charge.path, {
    body: { customerId: p.CustomerId, profileId, amount, description, IdempotencyKey: newIdempotencyKey('seed') },
  });
  if (r.TransactionID === null) throw new Error('no transaction');
  return r.TransactionID;
}
const search = (body: object = {}) => data<{ Items: SupportTransaction[]; ItemCount: number }>(SupportApi.transactions.path, { body });
const one = async (id: number) =>
  (await search({ Query: { Status: 'All', SearchString: String(id) }, PageSize: 50 })).Items.find((t) => t.TransactionID === id);
const money = (path: string, TransactionID: number, IdempotencyKey = newIdempotencyKey('test')) =>
  data<SupportMoneyResult>(path, { body: { TransactionID, IdempotencyKey } });

let declinedId: number;
let paidId: number;
/** A member whose only card's charges the gateway holds for review (from 'charges the gateway holds for review' on). */
let heldId: number;

beforeAll(async () => {
  sandbox = await createSandbox({ dataDir: null, gateway: { ...GATEWAY, settlementDelayMs: 60 * 60_000 } });
  sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  server = await startTestServer({ sandboxUrl, smtpUrl: null }, { sites: ['card', 'staff'] });
  annId = (await makeUser(server, { userName: 'sup-ann', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  zedId = (await makeUser(server, { userName: 'sup-zed', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  staffMemberId = (await makeUser(server, { userName: 'sup-staffmember', roles: ['CareSupport'], brand: 'staff', member: true })).memberId ?? 0;
  await makeUser(server, { userName: 'sup-staff', roles: ['CareSupport'], brand: 'staff' });
  await makeUser(server, { userName: 'sup-super', roles: ['SuperUser'], brand: 'staff' });
  await server.database.sql.query(`UPDATE members SET first_name = 'Annabel', last_name = 'Quill' WHERE member_id = $1`, [annId]);
  ann = await signIn(server, 'sup-ann', undefined, undefined, 'card');
  zed = await signIn(server, 'sup-zed', undefined, undefined, 'card');
  staff = await signIn(server, 'sup-staff');
  superUser = await signIn(server, 'sup-super');

  // Ann's first card saves but declines every charge; a charge on it is Declined. Then a good card becomes her default.
  const bad = (await addCard(ann, '4000000000000341')).Profiles[0]?.ProfileId ?? 0;
  declinedId = await chargeThroughBilling(annId, bad, 42.5, 'Pharmacy copay');
  const good = (await addCard(ann, '4111111111111111')).Profiles.find((p) => p.CardNumber === 'XXXX1111')?.ProfileId ?? 0;
  await data(BillingApi.setDefaultCard.path, { session: ann, brand: 'card', body: { ProfileId: good } });
  paidId = await chargeThroughBilling(annId, good, 10, 'Office visit');
}, 180_000);
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

describe('support: access', () => {
  it('refuses anonymous callers and every role but CareSupport, on every call', async () => {
    const anon = await server.app.inject({ method: 'POST', url: SupportApi.transactions.path, headers: { host: 'staff.localhost' }, payload: {} });
    expect(anon.statusCode).toBe(401);
    // A member on their brand's site: the plugin is not there (404); SuperUser on the staff site: refused (403).
    for (const [session, brand, status] of [
      [ann, 'card', 404],
      [superUser, 'staff', 403],
    ] as const) {
      expect((await call(SupportApi.transactions.path, { session, brand, body: {} })).statusCode).toBe(status);
      expect((await call(SupportApi.charge.path, { session, brand, body: { TransactionID: declinedId, IdempotencyKey: 'k-00000001' } })).statusCode).toBe(
        status,
      );
      expect((await call(`/api/support/getTerminationDate/${annId}`, { session, brand })).statusCode).toBe(status);
      expect((await call('/api/support/registrationReport/pdf', { session, brand, body: {} })).statusCode).toBe(status);
    }
    expect(await data(SupportApi.verification.path)).toEqual({ IsSupport: true, UserName: 'sup-staff' });
  });

  it('acts only on member accounts', async () => {
    const res = await call(`/api/support/getTerminationDate/${staffMemberId}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().MsgText).toBe(SUPPORT_MESSAGES.notMember);
    expect((await call(SupportApi.terminateMember.path, { body: { Member: { MemberID: staffMemberId } } })).statusCode).toBe(403);
    expect((await call(`/api/support/transactions/${staffMemberId}`, { body: {} })).statusCode).toBe(403);
  });

  it('requires an idempotency key on every money call: 400 naming IdempotencyKey, and the charge is left as it was', async () => {
    const before = await one(declinedId);
    for (const path of [SupportApi.charge.path, SupportApi.refund.path, SupportApi.void.path, SupportApi.capture.path]) {
      const res = await call(path, { body: { TransactionID: declinedId } });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().MsgText, path).toBe('body.IdempotencyKey: is required: one key of your own per payment, sent again unchanged when the call is retried');
    }
    const spanish = await call(SupportApi.charge.path, { body: { TransactionID: declinedId }, headers: { cookie: 'cq.lang=es' } });
    expect(spanish.json().MsgText).toBe(
      'body.IdempotencyKey: es obligatorio: una clave propia por pago, que se envía de nuevo sin cambios cuando se reintenta la llamada',
    );
    expect(await one(declinedId)).toEqual(before);
  });
});

describe('support: transactions list', () => {
  it('defaults to Declined, 20 a page, newest first, with every support field', async () => {
    const page = await search();
    expect(page.Items.map((t) => t.TransactionID)).toContain(declinedId);
    expect(page.Items.every((t) => t.Status === 'Declined')).toBe(true);
    const t = page.Items.find((x) => x.TransactionID === declinedId);
    expect(t).toMatchObject({
      Status: 'Declined',
      Amount: 42.5,
      PANumber: null,
      NCPDPRequestID: null,
      AuthProviderTransactionID: null,
      Member: { MemberID: annId, FirstName: 'Annabel', LastName: 'Quill' },
    });
    expect(t?.ProviderTransactionID).toBeGreaterThan(0);
    expect(t?.CustomerID).toBeGreaterThan(0);
    expect(t?.PaymentProfileID).toBeGreaterThan(0);
    const all = await search({ Query: { Status: 'All' } });
    expect(all.ItemCount).toBe(2);
    expect(all.Items.map((x) => x.TransactionID)).toEqual([paidId, declinedId]);
    const asc = await search({ Query: { Status: 'All' }, SortColumn: 'Amount', SortOrder: 'ASC' });
    expect(asc.Items.map((x) => x.Amount)).toEqual([10, 42.5]);
  });

  it('searches by member name and filters by status; the member tab lists one member', async () => {
    expect((await search({ Query: { Status: 'All', SearchString: 'annabel quill' } })).ItemCount).toBe(2);
    expect((await search({ Query: { Status: 'All', SearchString: 'nobody-like-this' } })).ItemCount).toBe(0);
    expect((await search({ Query: { Status: 'Charged' } })).Items.map((t) => t.TransactionID)).toEqual([paidId]);
    expect((await data<{ ItemCount: number }>(`/api/support/transactions/${annId}`, { body: { Query: { Status: 'All' } } })).ItemCount).toBe(2);
    expect((await data<{ ItemCount: number }>(`/api/support/transactions/${zedId}`, { body: { Query: { Status: 'All' } } })).ItemCount).toBe(0);
    expect((await call(SupportApi.transactions.path, { body: { PageSize: 25 } })).statusCode).toBe(400);
    expect((await call(SupportApi.transactions.path, { body: { Query: { Status: 'Bogus' } } })).statusCode).toBe(400);
  });

  it('maps statuses for display: Charged as Paid, Declined as Declined, Voided and Refund as Refunded', () => {
    expect(displayStatus('Charged')).toBe('Paid');
    expect(displayStatus('Declined')).toBe('Declined');
    expect(displayStatus('Voided')).toBe('Refunded');
    expect(displayStatus('Refund')).toBe('Refunded');
    expect(displayStatus('Refunded')).toBe('Refunded');
    expect(displayStatus('Pending')).toBe('Pending');
    expect(PENDING_TX_FILTERS).toEqual(['All', 'Charged', 'Pending', 'Declined', 'Refunded', 'Authorized']);
  });
});

describe('support: charge, refund and void', () => {
  it('charges a declined transaction once under concurrent duplicate requests, and it becomes Charged', async () => {
    const p = await data<BillingProfile>(BillingApi.supportProfile.path, { body: { MemberId: annId } });
    const gatewayBefore = (await createPaymentGateway(sandboxUrl).listTransactions(p.CustomerId ?? 0)).length;
    const key = newIdempotencyKey('charge');
    // A double click (same key) and a second member of staff at the same moment (another key).
    const results = await Promise.all([
      money(SupportApi.charge.path, declinedId, key),
      money(SupportApi.charge.path, declinedId, key),
      money(SupportApi.charge.path, declinedId),
      money(SupportApi.charge.path, declinedId),
    ]);
    for (const r of results) expect(r).toMatchObject({ StatusString: 'Ok', TransactionID: declinedId });
    const gatewayAfter = await createPaymentGateway(sandboxUrl).listTransactions(p.CustomerId ?? 0);
    expect(gatewayAfter.length - gatewayBefore).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.charge.retry' AND member_id = $1`, [annId])).toBe(1);
    const audit = (
      await server.database.sql.query<{ actor_name: string; member_id: number; outcome: string }>(
        `SELECT actor_name, member_id, outcome FROM audit_log WHERE action = 'billing.charge.retry'`,
      )
    )[0];
    expect(audit).toMatchObject({ actor_name: 'sup-staff', member_id: annId, outcome: 'success' });
    const t = await one(declinedId);
    expect(t?.Status).toBe('Charged');
    expect(displayStatus(t?.Status ?? '')).toBe('Paid');
    // Charging it again later moves no money.
    expect(await money(SupportApi.charge.path, declinedId)).toMatchObject({ StatusString: 'Ok' });
    expect((await createPaymentGateway(sandboxUrl).listTransactions(p.CustomerId ?? 0)).length).toBe(gatewayAfter.length);
    // The declined attempt is still at the gateway: the transaction sync does not take it for a charge of its own (a
    // new Declined row support could charge again), and says it found nothing.
    const rows = await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [annId]);
    expect((await data<{ Count: number }>(BillingApi.transactionSync.path, { body: { MemberId: annId } })).Count).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM billing_transactions WHERE member_id = $1', [annId])).toBe(rows);
  });

  it('an unsettled refund is refused with the gateway message, then a void succeeds', async () => {
    const refused = await money(SupportApi.refund.path, paidId);
    expect(refused).toMatchObject({ StatusString: 'Error', Message: UNSETTLED_REFUND_MESSAGE });
    expect(isUnsettledRefund(refused)).toBe(true);
    expect(refused.Unsettled).toBe(true);
    expect((await one(paidId))?.Status).toBe('Charged');
    const voided = await Promise.all([money(SupportApi.void.path, paidId), money(SupportApi.void.path, paidId)]);
    for (const v of voided) expect(v.StatusString).toBe('Ok');
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.void' AND outcome = 'success' AND member_id = $1`, [annId])).toBe(1);
    const t = await one(paidId);
    expect(t?.Status).toBe('Voided');
    expect(displayStatus(t?.Status ?? '')).toBe('Refunded');
    expect((await search({ Query: { Status: 'Voided' } })).Items.map((x) => x.TransactionID)).toEqual([paidId]);
  });

  it('a settled charge refunds once and becomes Refunded', async () => {
    expect((await settleNow()).status).toBe(200);
    const rs = await Promise.all([money(SupportApi.refund.path, declinedId), money(SupportApi.refund.path, declinedId)]);
    for (const r of rs) expect(r.StatusString).toBe('Ok');
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.refund' AND outcome = 'success' AND member_id = $1`, [annId])).toBe(1);
    expect((await one(declinedId))?.Status).toBe('Refunded');
    expect((await search({ Query: { Status: 'Refunded' } })).Items.map((x) => x.TransactionID)).toEqual([declinedId]);
  });

  it('a prepull retried at once authorizes once and lists as Authorized with its authorization id', async () => {
    const p = await data<BillingProfile>(BillingApi.supportProfile.path, { body: { MemberId: annId } });
    const before = (await createPaymentGateway(sandboxUrl).listTransactions(p.CustomerId ?? 0)).length;
    // The bill the prepull is for: one of the member's own (billing refuses another member's).
    const ClaimID = (
      await server.database.sql.query<{ claim_id: number }>(
        `INSERT INTO claims (claim_number, member_id, payee_name, bill_type_id, billed_cents, service_date_from)
         VALUES ('SUP-PREPULL-1', $1, 'Pharmacy', 21, 1500, current_date) RETURNING claim_id`,
        [annId],
      )
    )[0]?.claim_id as number;
    const body = { MemberId: annId, Amount: '15.00', ClaimID, IdempotencyKey: newIdempotencyKey('prepull') };
    const rs = await Promise.all([data<SupportMoneyResult>(BillingApi.prepull.path, { body }), data<SupportMoneyResult>(BillingApi.prepull.path, { body })]);
    for (const r of rs) expect(r.StatusString).toBe('Ok');
    expect(rs[0]?.TransactionID).toBe(rs[1]?.TransactionID);
    expect((await createPaymentGateway(sandboxUrl).listTransactions(p.CustomerId ?? 0)).length - before).toBe(1);
    const auth = (await search({ Query: { Status: 'Authorized' } })).Items;
    expect(auth.map((t) => t.TransactionID)).toEqual([rs[0]?.TransactionID]);
    expect(auth[0]).toMatchObject({ Amount: 15, ClaimID, Description: 'Charge for future transactions' });
    expect(auth[0]?.AuthProviderTransactionID).toBe(auth[0]?.ProviderTransactionID);
  });

  it('captures a named authorization once (a repeat takes no other one), up to its amount, and releases another by a void', async () => {
    const p = await data<BillingProfile>(BillingApi.supportProfile.path, { body: { MemberId: annId } });
    const gatewayCount = async () => (await createPaymentGateway(sandboxUrl).listTransactions(p.CustomerId ?? 0)).length;
    const prepull = async (Amount: string) =>
      (await data<SupportMoneyResult>(BillingApi.prepull.path, { body: { MemberId: annId, Amount, IdempotencyKey: newIdempotencyKey('prepull') } }))
        .TransactionID as number;
    const [first, second] = [await prepull('20.00'), await prepull('25.00')];
    const capture = (TransactionID: number, Amount?: string) =>
      call(SupportApi.capture.path, { body: { TransactionID, IdempotencyKey: newIdempotencyKey('capture'), ...(Amount ? { Amount } : {}) } });
    // Without a key: refused, and nothing is captured.
    const gatewayBefore = await gatewayCount();
    const keyless = await call(SupportApi.capture.path, { body: { TransactionID: first, Amount: '5.00' } });
    expect(keyless.statusCode).toBe(400);
    expect(keyless.json().MsgText).toMatch(/^body\.IdempotencyKey: /);
    expect(await gatewayCount()).toBe(gatewayBefore);
    expect(await one(first)).toMatchObject({ Status: 'Authorized', Amount: 20 });
    // Over the authorized amount: refused, nothing moves.
    const over = await capture(first, '20.01');
    expect(over.statusCode).toBe(400);
    expect(over.json().MsgText).toBe('Amount: must be at most the authorized $20.00');
    const before = await gatewayCount();
    // Two presses at once: one capture at the gateway, one audit row, the rest of the hold released by the gateway.
    const both = await Promise.all([capture(first, '12.50'), capture(first, '12.50')]);
    for (const r of both) expect(r.json().Data).toMatchObject({ StatusString: 'Ok', TransactionID: first });
    expect(await gatewayCount()).toBe(before + 1);
    expect(await one(first)).toMatchObject({ Status: 'Charged', Amount: 12.5 });
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.capture' AND entity_id = $1`, [String(first)])).toBe(1);
    // Again later, with no amount: answered as captured, and the other authorization is left alone.
    expect((await capture(first)).json().Data).toMatchObject({ StatusString: 'Ok', TransactionID: first });
    expect(await gatewayCount()).toBe(before + 1);
    expect((await one(second))?.Status).toBe('Authorized');
    // Release: the second authorization is voided, and cannot be captured after.
    expect(await money(SupportApi.void.path, second)).toMatchObject({ StatusString: 'Ok' });
    expect((await one(second))?.Status).toBe('Voided');
    const late = await capture(second);
    expect(late.statusCode).toBe(409);
    expect(late.json().MsgText).toBe(BILLING_MESSAGES.notCapturable);
    // A member cannot capture.
    expect(
      (await call(SupportApi.capture.path, { session: ann, brand: 'staff', body: { TransactionID: second, IdempotencyKey: newIdempotencyKey('capture') } }))
        .statusCode,
    ).toBe(403);
  });

  it('answers 404 for an unknown transaction', async () => {
    expect((await call(SupportApi.charge.path, { body: { TransactionID: 999_999, IdempotencyKey: 'missing-0001' } })).statusCode).toBe(404);
  });

  it('refuses Charge on a declined membership payment, pointing to the subscription change, and moves no money', async () => {
    // A membership start the card declined (as billing records it): charged on its own it would not start the membership.
    const membershipId = (
      await server.database.sql.query<{ id: number }>(
        `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message)
         VALUES ($1, 'subscription', 'Declined', 1200, 'Monthly membership', 'This transaction has been declined.') RETURNING id`,
        [annId],
      )
    )[0]?.id as number;
    const p = await data<BillingProfile>(BillingApi.supportProfile.path, { body: { MemberId: annId } });
    const gatewayBefore = (await createPaymentGateway(sandboxUrl).listTransactions(p.CustomerId ?? 0)).length;
    const r = await call(SupportApi.charge.path, { body: { TransactionID: membershipId, IdempotencyKey: 'membership-charge-0001' } });
    expect(r.statusCode).toBe(409);
    expect(r.json().MsgText).toBe(BILLING_MESSAGES.membershipNotChargeable);
    expect((await one(membershipId))?.Status).toBe('Declined');
    expect((await createPaymentGateway(sandboxUrl).listTransactions(p.CustomerId ?? 0)).length).toBe(gatewayBefore);
    await server.database.sql.query('DELETE FROM billing_transactions WHERE id = $1', [membershipId]);
  });
});

describe('support: pending list and PA numbers', () => {
  let pendingId: number;
  let declinedId: number;
  beforeAll(async () => {
    declinedId = (
      await server.database.sql.query<{ id: number }>(
        `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message) VALUES ($1, 'charge', 'Declined', 2999, 'Pharmacy claim', 'This transaction has been declined.') RETURNING id`,
        [zedId],
      )
    )[0]?.id as number;
    pendingId = (
      await server.database.sql.query<{ id: number }>(
        `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message) VALUES ($1, 'charge', 'Pending', 1999, 'Pharmacy claim', 'Pending') RETURNING id`,
        [zedId],
      )
    )[0]?.id as number;
  });

  it('lists declined transactions by default (spec 02 section 4) and pending ones on its Pending filter; Decline makes one Declined and only a pending one', async () => {
    const byDefault = await data<{ Items: SupportTransaction[] }>(`${SupportApi.pendingTransactions.path}?PageSize=50`);
    expect(byDefault.Items.map((t) => t.TransactionID)).toContain(declinedId);
    expect(byDefault.Items.every((t) => t.Status === 'Declined')).toBe(true);
    const page = await data<{ Items: SupportTransaction[] }>(`${SupportApi.pendingTransactions.path}?PageSize=20&Status=Pending`);
    expect(page.Items.map((t) => t.TransactionID)).toEqual([pendingId]);
    expect((await call(`${SupportApi.pendingTransactions.path}?Status=Voided`)).statusCode).toBe(400);
    const saved = await call(SupportApi.saveTransaction.path, { method: 'PUT', body: { TransactionID: pendingId, Status: 'Declined' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ Data: { Status: 'Declined' }, MsgText: SUPPORT_MESSAGES.declined });
    expect((await call(SupportApi.saveTransaction.path, { method: 'PUT', body: { TransactionID: pendingId, Status: 'Declined' } })).statusCode).toBe(409);
  });

  it('stores a PA number and compares the returned number with the submitted one', async () => {
    const r = await data<{ PANumber: string; Message: string }>(SupportApi.addPaNumber.path, { body: { TransactionID: paidId, PANumber: 'PA-1234' } });
    expect(r).toEqual({ PANumber: 'PA-1234', Message: SUPPORT_MESSAGES.paNumberMatches });
    expect(paNumberMatches('PA-1234', r.PANumber)).toBe(true);
    expect(paNumberMatches('PA-9999', r.PANumber)).toBe(false);
    const viaGet = await data<{ PANumber: string }>(`/api/support/createtransaction/${pendingId}/PA-77`);
    expect(viaGet.PANumber).toBe('PA-77');
    const withPa = await search({ Query: { Status: 'PA Number' } });
    expect(withPa.Items.map((t) => t.TransactionID).sort()).toEqual([paidId, pendingId].sort());
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.pa-number' AND actor_name = 'sup-staff'`)).toBe(2);
    expect((await call(SupportApi.addPaNumber.path, { body: { TransactionID: paidId, PANumber: '' } })).statusCode).toBe(400);
  });

  it('needs the anti-forgery token for the GET that stores a PA number, as for any change: an access token alone changes nothing', async () => {
    const { 'x-form-token': _dropped, ...tokenOnly } = authHeaders(staff, 'staff');
    const forged = await server.app.inject({ method: 'GET', url: `/api/support/createtransaction/${pendingId}/PA-FORGED`, headers: tokenOnly });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().MsgText).toMatch(/anti-forgery/);
    const stored = await server.database.sql.query<{ pa_number: string | null }>('SELECT pa_number FROM billing_transactions WHERE id = $1', [pendingId]);
    expect(stored[0]?.pa_number).toBe('PA-77');
  });

  it('keeps a PA number someone else saved meanwhile: a save naming the number it saw is refused once that changed, and the answer names the stored one', async () => {
    const audits = () => count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.pa-number' AND entity_id = '${pendingId}'`);
    const before = await audits();
    const first = await data<{ PANumber: string; Message: string }>(SupportApi.addPaNumber.path, {
      body: { TransactionID: pendingId, PANumber: 'PA-78', PreviousPANumber: 'PA-77' },
    });
    expect(first).toEqual({ PANumber: 'PA-78', Message: SUPPORT_MESSAGES.paNumberMatches });
    // A second member of staff had the list open from before, with PA-77.
    const late = await data<{ PANumber: string; Message: string }>(SupportApi.addPaNumber.path, {
      body: { TransactionID: pendingId, PANumber: 'PA-79', PreviousPANumber: 'PA-77' },
    });
    expect(late).toEqual({ PANumber: 'PA-78', Message: SUPPORT_MESSAGES.paNumberMismatch });
    expect(paNumberMatches('PA-79', late.PANumber)).toBe(false);
    // The first save sent again (its answer lost) finds its own number and answers success, writing nothing more.
    const again = await data<{ PANumber: string; Message: string }>(SupportApi.addPaNumber.path, {
      body: { TransactionID: pendingId, PANumber: 'PA-78', PreviousPANumber: 'PA-77' },
    });
    expect(again).toEqual({ PANumber: 'PA-78', Message: SUPPORT_MESSAGES.paNumberMatches });
    // "None" seen is a number seen too.
    const noneSeen = await data<{ PANumber: string }>(SupportApi.addPaNumber.path, {
      body: { TransactionID: pendingId, PANumber: 'PA-80', PreviousPANumber: null },
    });
    expect(noneSeen.PANumber).toBe('PA-78');
    // The payment service's call keeps the same rule, in its own words.
    const viaPayment = await data<{ PANumber: string; Message: string }>(BillingApi.paNumber.path, {
      body: { TransactionID: pendingId, PANumber: 'PA-81', PreviousPANumber: 'PA-77' },
    });
    expect(viaPayment).toEqual({ PANumber: 'PA-78', Message: BILLING_MESSAGES.paNumberNotSaved });
    const stored = await server.database.sql.query<{ pa_number: string | null }>('SELECT pa_number FROM billing_transactions WHERE id = $1', [pendingId]);
    expect(stored[0]?.pa_number).toBe('PA-78');
    expect(await audits()).toBe(before + 1);
    expect((await call(SupportApi.addPaNumber.path, { body: { TransactionID: pendingId, PANumber: 'PA-82', PreviousPANumber: 7 } })).statusCode).toBe(400);
    // The spec's GET takes the number seen as ?previous= (empty: none seen), with the same rule.
    const staleGet = await data<{ PANumber: string; Message: string }>(`/api/support/createtransaction/${pendingId}/PA-83?previous=PA-77`);
    expect(staleGet).toEqual({ PANumber: 'PA-78', Message: SUPPORT_MESSAGES.paNumberMismatch });
    expect((await data<{ PANumber: string }>(`/api/support/createtransaction/${pendingId}/PA-84?previous=`)).PANumber).toBe('PA-78');
    expect((await data<{ PANumber: string }>(`/api/support/createtransaction/${pendingId}/PA-85?previous=PA-78`)).PANumber).toBe('PA-85');
  });
});

describe('support: members and termination', () => {
  it('lists members by status, FirstName ascending, with their login', async () => {
    const page = await data<{ Items: { MemberID: number; UserId: string | null; FirstName: string }[]; ItemCount: number }>(SupportApi.members.path, {
      body: { Query: { SearchString: 'quill' } },
    });
    expect(page.ItemCount).toBe(1);
    expect(page.Items[0]).toMatchObject({ MemberID: annId, FirstName: 'Annabel' });
    expect(page.Items[0]?.UserId).toMatch(/[0-9a-f-]{36}/);
    const all = await data<{ Items: { FirstName: string; LastName: string }[] }>(SupportApi.members.path, { body: { Query: { Status: 'All' }, PageSize: 50 } });
    const names = all.Items.map((m) => m.FirstName.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('terminates a member once when two terminations arrive at once: one is refused (409), one date, one audit row', async () => {
    const { memberId } = await makeUser(server, { userName: 'sup-twice', roles: ['CareGuard'], brand: 'card', member: true });
    const answers = await Promise.all([1, 2].map(() => call(SupportApi.terminateMember.path, { body: { Member: { MemberID: memberId } } })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const dates = answers.filter((a) => a.statusCode === 200).map((a) => a.json().Data.TerminationDate);
    expect((await data<{ TerminationDate: string }>(`/api/support/getTerminationDate/${memberId}`)).TerminationDate).toBe(dates[0]);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'support.member.terminate' AND member_id = $1`, [memberId])).toBe(1);
  });

  it('terminates a member with their logins (CloseLogins) or not at all: when closing a login fails, the member stays unterminated and nothing is audited', async () => {
    const { memberId } = await makeUser(server, { userName: 'sup-whole', roles: ['CareGuard'], brand: 'card', member: true });
    const sql = server.database.sql;
    // Closing this member's login is refused at the database, after the member row was changed in the same request.
    await sql.query(`CREATE FUNCTION refuse_login_close() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'login close refused'; END $$`);
    await sql.query(
      `CREATE TRIGGER refuse_login_close BEFORE UPDATE OF closed_at ON users FOR EACH ROW WHEN (NEW.member_id = ${memberId} AND NEW.closed_at IS NOT NULL) EXECUTE FUNCTION refuse_login_close()`,
    );
    try {
      const res = await call(SupportApi.terminateMember.path, { body: { Member: { MemberID: memberId }, CloseLogins: true } });
      expect(res.statusCode).toBe(500);
    } finally {
      await sql.query('DROP TRIGGER refuse_login_close ON users');
      await sql.query('DROP FUNCTION refuse_login_close()');
    }
    expect(await data(`/api/support/getTerminationDate/${memberId}`)).toEqual({ MemberID: memberId, TerminationDate: null, IsTerminated: false });
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'support.member.terminate' AND member_id = $1`, [memberId])).toBe(0);
    // Once the login can be closed, the termination goes through whole.
    expect((await call(SupportApi.terminateMember.path, { body: { Member: { MemberID: memberId }, CloseLogins: true } })).statusCode).toBe(200);
    expect(await count(`SELECT count(*)::int AS n FROM users WHERE member_id = $1 AND closed_at IS NOT NULL`, [memberId])).toBe(1);
  });

  it('terminates a member and, when asked (CloseLogins), closes the login (sessions end, sign-in refused); the list moves them to Terminated', async () => {
    expect(await data(`/api/support/getTerminationDate/${zedId}`)).toEqual({ MemberID: zedId, TerminationDate: null, IsTerminated: false });
    expect((await call('/api/members/load', { session: zed, brand: 'card' })).statusCode).toBe(200);
    const done = await data<{ TerminationDate: string; IsTerminated: boolean }>(SupportApi.terminateMember.path, {
      body: { Member: { MemberID: zedId }, CloseLogins: true },
    });
    expect(done.IsTerminated).toBe(true);
    expect(Date.parse(done.TerminationDate)).toBeGreaterThan(Date.now() - 60_000);
    expect((await data<{ TerminationDate: string }>(`/api/support/getTerminationDate/${zedId}`)).TerminationDate).toBe(done.TerminationDate);
    expect((await call('/api/members/load', { session: zed, brand: 'card' })).statusCode).toBe(401);
    // The login is closed: the right password no longer signs in, and the old refresh token is refused.
    const again = await server.app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
      payload: new URLSearchParams({ grant_type: 'password', UserName: 'sup-zed', Password: TEST_PASSWORD }).toString(),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error_description).toBe('This account has been closed. Please contact support if you think this is a mistake.');
    const refresh = await server.app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: zed.refresh_token }).toString(),
    });
    expect(refresh.statusCode).toBe(400);
    expect((await call(SupportApi.terminateMember.path, { body: { Member: { MemberID: zedId } } })).statusCode).toBe(409);
    expect(
      await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'support.member.terminate' AND member_id = $1 AND actor_name = 'sup-staff'`, [
        zedId,
      ]),
    ).toBe(1);
    const terminated = await data<{ Items: { MemberID: number }[] }>(SupportApi.members.path, { body: { Query: { Status: 'Terminated' } } });
    expect(terminated.Items.map((m) => m.MemberID)).toContain(zedId);
    const members = await data<{ Items: { MemberID: number }[] }>(SupportApi.members.path, { body: { Query: { Status: 'Members' }, PageSize: 50 } });
    expect(members.Items.map((m) => m.MemberID)).not.toContain(zedId);
  });

  it('terminates a member and by default keeps their login, as a member ending their own membership does: session, sign-in and their data stay', async () => {
    const { memberId, userId } = await makeUser(server, { userName: 'sup-keep', roles: ['CareGuard'], brand: 'card', member: true });
    const keep = await signIn(server, 'sup-keep', undefined, undefined, 'card');
    const done = await data<{ IsTerminated: boolean }>(SupportApi.terminateMember.path, { body: { Member: { MemberID: memberId } } });
    expect(done.IsTerminated).toBe(true);
    // The login stays open: not closed, its session still works, and the password still signs in.
    expect(await count('SELECT count(*)::int AS n FROM users WHERE id = $1 AND closed_at IS NULL', [userId])).toBe(1);
    const u = await data<{ IsActive: boolean; IsClosed: boolean }>(`/api/users/getById/${userId}`);
    expect({ IsActive: u.IsActive, IsClosed: u.IsClosed }).toEqual({ IsActive: true, IsClosed: false });
    expect((await call('/api/members/load', { session: keep, brand: 'card' })).statusCode).toBe(200);
    const termination = await call('/api/account/user/termination', { session: keep, brand: 'card' });
    expect(termination.statusCode).toBe(200);
    expect(termination.json().Data ?? termination.json()).toMatchObject({ isTerminated: true });
    // Their history stays readable (billing's history of the member's transactions).
    expect((await call(BillingApi.profile.path, { session: keep, brand: 'card' })).statusCode).toBe(200);
    const again = await server.app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
      payload: new URLSearchParams({ grant_type: 'password', UserName: 'sup-keep', Password: TEST_PASSWORD }).toString(),
    });
    expect(again.statusCode, again.body).toBe(200);
    // The choice is audited with the termination; the plugins are told (renewals, banks) as for any termination.
    const audit = await server.database.sql.query<{ detail: { closeLogins: boolean } }>(
      `SELECT detail FROM audit_log WHERE action = 'support.member.terminate' AND member_id = $1`,
      [memberId],
    );
    expect(audit.map((a) => a.detail)).toEqual([{ closeLogins: false }]);
    expect(await count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'member.terminated' AND (data->>'memberId')::int = $1`, [memberId])).toBe(1);
    // What support ended, the member cannot undo from My Profile: told to contact support, nothing changes.
    const member = await call('/api/members/load', { session: keep, brand: 'card' });
    expect(member.json().Data.TerminatedBy).toBe('staff');
    const self = await call('/api/members/reactivate', { session: keep, brand: 'card', method: 'POST', body: {} });
    expect(self.statusCode).toBe(409);
    expect(self.json().MsgText).toBe('Your membership was ended by our support team, so it can be reactivated only by them. Please contact support.');
    expect((await data<{ IsTerminated: boolean }>(`/api/support/getTerminationDate/${memberId}`)).IsTerminated).toBe(true);
    // Support reactivates; the member may then end it and reactivate it themselves.
    expect((await call(SupportApi.reactivateMember.path, { body: { Member: { MemberID: memberId } } })).statusCode).toBe(200);
    expect((await call('/api/members/load', { session: keep, brand: 'card' })).json().Data.TerminatedBy).toBeNull();
  });

  it('reactivates a terminated member: the date clears, the login reopens and signs in, billing is told; the users list shows the login closed until then', async () => {
    const { memberId, userId } = await makeUser(server, { userName: 'sup-back', roles: ['CareGuard'], brand: 'card', member: true });
    const back = memberId ?? 0;
    const signInBack = () =>
      server.app.inject({
        method: 'POST',
        url: '/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
        payload: new URLSearchParams({ grant_type: 'password', UserName: 'sup-back', Password: TEST_PASSWORD }).toString(),
      });
    const status = async () => {
      const u = await data<{ IsActive: boolean; IsClosed: boolean; ClosedDate: string | null }>(`/api/users/getById/${userId}`);
      return { IsActive: u.IsActive, IsClosed: u.IsClosed, closed: u.ClosedDate !== null };
    };
    expect(await status()).toEqual({ IsActive: true, IsClosed: false, closed: false });
    expect((await call(SupportApi.reactivateMember.path, { body: { Member: { MemberID: back } } })).json().MsgText).toBe(SUPPORT_MESSAGES.notTerminated);
    await data(SupportApi.terminateMember.path, { body: { Member: { MemberID: back }, CloseLogins: true } });
    expect(await status()).toEqual({ IsActive: true, IsClosed: true, closed: true });
    expect((await signInBack()).statusCode).toBe(400);
    const res = await call(SupportApi.reactivateMember.path, { body: { Member: { MemberID: back } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ Data: { MemberID: back, TerminationDate: null, IsTerminated: false }, MsgText: SUPPORT_MESSAGES.reactivated });
    expect(await status()).toEqual({ IsActive: true, IsClosed: false, closed: false });
    expect((await signInBack()).statusCode).toBe(200);
    expect((await call(SupportApi.reactivateMember.path, { body: { Member: { MemberID: back } } })).statusCode).toBe(409);
    expect(
      await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'support.member.reactivate' AND member_id = $1 AND actor_name = 'sup-staff'`, [
        back,
      ]),
    ).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'member.reactivated' AND (data->>'memberId')::int = $1`, [back])).toBe(1);
    // Only support: a SuperUser (no CareSupport) and a staff member's login are refused.
    expect((await call(SupportApi.reactivateMember.path, { body: { Member: { MemberID: back } }, session: superUser })).statusCode).toBe(403);
    expect((await call(SupportApi.reactivateMember.path, { body: { Member: { MemberID: staffMemberId } } })).statusCode).toBe(403);
  });

  it("audits staff's read of a member's termination date under that member, and not a refused one", async () => {
    const reads = async (memberId: number) => {
      await server.flushAudit();
      return count(
        `SELECT count(*)::int AS n FROM audit_log
          WHERE action = 'support.member.termination.read' AND member_id = $1 AND entity = 'member' AND entity_id = $2 AND actor_name = 'sup-staff'`,
        [memberId, String(memberId)],
      );
    };
    const before = await reads(annId);
    expect(await data(`/api/support/getTerminationDate/${annId}`)).toMatchObject({ MemberID: annId, IsTerminated: false });
    expect(await reads(annId)).toBe(before + 1);
    // A staff login's member record is refused (403) and read nothing: no read is recorded.
    const refusedBefore = await reads(staffMemberId);
    expect((await call(`/api/support/getTerminationDate/${staffMemberId}`)).statusCode).toBe(403);
    expect(await reads(staffMemberId)).toBe(refusedBefore);
  });
});

describe('support: charges the gateway holds for review', () => {
  const gateway = () => createPaymentGateway(sandboxUrl);
  // A member of their own, whose only card's charges the gateway holds for review.
  let heldMember: Session;
  beforeAll(async () => {
    heldId = (await makeUser(server, { userName: 'sup-held', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    heldMember = await signIn(server, 'sup-held', undefined, undefined, 'card');
  });

  it('lists a held charge as Pending; Charge approves it at the gateway, where the held charge itself settles, once', async () => {
    const p = await addCard(heldMember, '4000000000000259');
    const card = p.Profiles.find((c) => c.CardNumber === 'XXXX0259')?.ProfileId ?? 0;
    const r = await data<SupportMoneyResult>(BillingApi.charge.path, {
      body: { customerId: p.CustomerId, profileId: card, amount: 1250, description: 'Mercy Hospital, inpatient stay', IdempotencyKey: 'held-charge-1' },
    });
    expect(r).toMatchObject({ StatusString: 'Error', Message: 'This transaction is being held for review.' });
    const held = r.TransactionID ?? 0;
    const pending = await data<{ Items: SupportTransaction[] }>(`${SupportApi.pendingTransactions.path}?PageSize=20&Status=Pending`);
    expect(pending.Items.find((t) => t.TransactionID === held)).toMatchObject({ Status: 'Pending', Amount: 1250 });
    const gatewayBefore = await gateway().listTransactions(p.CustomerId ?? 0);

    const approvals = await Promise.all([money(SupportApi.charge.path, held), money(SupportApi.charge.path, held)]);
    for (const a of approvals) expect(a).toMatchObject({ StatusString: 'Ok', TransactionID: held });
    expect(await one(held)).toMatchObject({ Status: 'Charged', Amount: 1250 });
    // No second charge: the held one was approved, and it settles with the next batch.
    expect(await gateway().listTransactions(p.CustomerId ?? 0)).toHaveLength(gatewayBefore.length);
    const gatewayId = (await one(held))?.ProviderTransactionID ?? 0;
    expect((await gateway().getTransaction(gatewayId)).status).toBe('capturedPendingSettlement');
    await settleNow();
    expect((await gateway().getTransaction(gatewayId)).status).toBe('settledSuccessfully');
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.held.approve' AND entity_id = $1`, [String(held)])).toBe(1);
  });

  it('Decline declines a held charge at the gateway too, so it can never be approved there', async () => {
    const p = await data<BillingProfile>(BillingApi.supportProfile.path, { body: { MemberId: heldId } });
    const card = p.Profiles.find((c) => c.CardNumber === 'XXXX0259')?.ProfileId ?? 0;
    const r = await data<SupportMoneyResult>(BillingApi.charge.path, {
      body: { customerId: p.CustomerId, profileId: card, amount: 80, description: 'Lab work', IdempotencyKey: 'held-charge-2' },
    });
    const held = r.TransactionID ?? 0;
    const saved = await call(SupportApi.saveTransaction.path, { method: 'PUT', body: { TransactionID: held, Status: 'Declined' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await one(held)).toMatchObject({ Status: 'Declined' });
    const gatewayId = (await one(held))?.ProviderTransactionID ?? 0;
    expect(await gateway().getTransaction(gatewayId)).toMatchObject({ status: 'declined', responseCode: '2' });
    await expect(gateway().reviewHeld(gatewayId, 'approve')).rejects.toThrow('The transaction is not held for review.');
  });

  it("lists a declined charge that support's retry got held for review as Pending, and the merchant's approval makes it Charged once", async () => {
    const memberId = (await makeUser(server, { userName: 'sup-retry-held', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    const member = await signIn(server, 'sup-retry-held', undefined, undefined, 'card');
    const bad = (await addCard(member, '4000000000000341')).Profiles[0]?.ProfileId ?? 0;
    const declined = await chargeThroughBilling(memberId, bad, 50, 'Copay');
    expect(await one(declined)).toMatchObject({ Status: 'Declined' });
    const p = await addCard(member, '4000000000000259');
    const review = p.Profiles.find((c) => c.CardNumber === 'XXXX0259')?.ProfileId ?? 0;
    await data(BillingApi.setDefaultCard.path, { session: member, brand: 'card', body: { ProfileId: review } });

    expect(await money(SupportApi.charge.path, declined)).toMatchObject({ StatusString: 'Error', Message: 'This transaction is being held for review.' });
    expect(await one(declined)).toMatchObject({ Status: 'Pending', Amount: 50 });
    const pending = await data<{ Items: SupportTransaction[] }>(`${SupportApi.pendingTransactions.path}?PageSize=50&Status=Pending`);
    expect(pending.Items.map((t) => t.TransactionID)).toContain(declined);

    // The merchant approves it on the gateway's own screen; support's Check with the gateway finds the decision.
    const gatewayId = (await one(declined))?.ProviderTransactionID ?? 0;
    await gateway().reviewHeld(gatewayId, 'approve');
    await data(BillingApi.transactionSync.path, { body: { MemberId: memberId } });
    expect(await one(declined)).toMatchObject({ Status: 'Charged', Amount: 50, ProviderTransactionID: gatewayId });
    // Charged: a further Charge answers the charge made, and the gateway took the money once.
    const before = await gateway().listTransactions(p.CustomerId ?? 0);
    expect(await money(SupportApi.charge.path, declined)).toMatchObject({ StatusString: 'Ok', TransactionID: declined });
    expect(await gateway().listTransactions(p.CustomerId ?? 0)).toHaveLength(before.length);
    expect(before.filter((t) => t.responseCode === '1' && t.amountCents === 5000)).toHaveLength(1);
  });

  it('a prepull held for review becomes the authorization it asked for when approved', async () => {
    const r = await data<SupportMoneyResult>(BillingApi.prepull.path, { body: { MemberId: heldId, Amount: 60, IdempotencyKey: 'held-prepull-3' } });
    expect(r.StatusString).toBe('Error');
    const held = r.TransactionID ?? 0;
    expect(await one(held)).toMatchObject({ Status: 'Pending' });
    expect(await money(SupportApi.charge.path, held)).toMatchObject({ StatusString: 'Ok', Message: BILLING_MESSAGES.authorized });
    expect(await one(held)).toMatchObject({ Status: 'Authorized', Amount: 60 });
  });
});

describe("support: the dashboard's work queue", () => {
  type Queue = { Pending: number; Declined: number; Authorized: number; PendingMembers: number };
  const queue = () => data<Queue>(SupportApi.queue.path);
  const listed = async (Status: string) => (await search({ Query: { Status } })).ItemCount;

  it('counts what the lists show: held and declined charges, holds, and members who have not finished registering', async () => {
    const q = await queue();
    expect(q).toEqual({
      Pending: await listed('Pending'),
      Declined: await listed('Declined'),
      Authorized: await listed('Authorized'),
      PendingMembers: (await data<{ ItemCount: number }>(SupportApi.members.path, { body: { Query: { Status: 'Pending' } } })).ItemCount,
    });
    // The earlier tests left some of each charge: the held ones were decided, the test's own pending row declined.
    expect(q.Declined + q.Authorized).toBeGreaterThan(0);

    // A new hold, a new decline and a member who has not activated each count once.
    const cards = (await data<BillingProfile>(BillingApi.supportProfile.path, { body: { MemberId: annId } })).Profiles;
    const declining = cards.find((c) => c.CardNumber === 'XXXX0341')?.ProfileId ?? 0;
    await chargeThroughBilling(annId, declining, 12.34, 'Queue check');
    await data(BillingApi.prepull.path, { body: { MemberId: annId, Amount: 5, IdempotencyKey: newIdempotencyKey('queue') } });
    const review = await data<BillingProfile>(BillingApi.supportProfile.path, { body: { MemberId: heldId } });
    await chargeThroughBilling(heldId, review.Profiles[0]?.ProfileId ?? 0, 99, 'Queue check, held');
    await makeUser(server, { userName: 'sup-unfinished', roles: ['CareGuard'], brand: 'card', member: true, isActive: false });
    expect(await queue()).toEqual({ Pending: q.Pending + 1, Declined: q.Declined + 1, Authorized: q.Authorized + 1, PendingMembers: q.PendingMembers + 1 });
  });

  it('records the read in the audit log with the counts it answered', async () => {
    const q = await queue();
    await server.flushAudit();
    const rows = await server.database.sql.query<{ detail: Queue; actor_name: string }>(
      `SELECT detail, actor_name FROM audit_log WHERE action = 'support.queue' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]).toEqual({ actor_name: 'sup-staff', detail: q });
  });
});

describe('support: the member tabs of other plugins', () => {
  it("profile's support address calls act on a member account by id", async () => {
    const created = await data<{ AddressID: number; Version: number; Address1: string }>('/api/support/members/addresses/createAddress', {
      body: { MemberID: annId, Address1: '1 Main St', City: 'Springfield', State: 'IL', Zip: '62701', AddressTypeID: 4, IsCurrent: true },
    });
    expect(created.Address1).toBe('1 Main St');
    const page = await data<{ Items: { AddressID: number }[]; ItemCount: number }>(`/api/support/members/addresses/${annId}`, { body: {} });
    expect(page.Items.map((a) => a.AddressID)).toEqual([created.AddressID]);
    const updated = await data<{ Address1: string }>('/api/support/members/addresses/updateAddress', {
      body: {
        MemberID: annId,
        AddressID: created.AddressID,
        Version: created.Version,
        Address1: '2 Main St',
        City: 'Springfield',
        State: 'IL',
        Zip: '62701',
        AddressTypeID: 4,
        IsCurrent: true,
      },
    });
    expect(updated.Address1).toBe('2 Main St');
    expect((await call(`/api/support/members/addresses/${staffMemberId}`, { body: {} })).statusCode).toBe(404);
    expect((await call(`/api/support/members/addresses/${annId}`, { session: superUser, body: {} })).statusCode).toBe(403);
  });

  it("claims' support calls: a member's bill by id and a status change through the claims state machine", async () => {
    const claimId = (
      await server.database.sql.query<{ claim_id: number }>(
        `INSERT INTO claims (claim_number, member_id, payee_name, bill_type_id, billed_cents, service_date_from)
         VALUES ('SUP-1', $1, 'Pharmacy', 21, 4250, current_date) RETURNING claim_id`,
        [annId],
      )
    )[0]?.claim_id as number;
    const details = await data<{ Claim: { ClaimID: number; ClaimStatusID: number }; AllowedStatusIDs: number[] }>(
      `/api/support/getClaimById/${claimId}/${annId}`,
    );
    expect(details.Claim).toMatchObject({ ClaimID: claimId, ClaimStatusID: 1 });
    expect((await call(`/api/support/getClaimById/${claimId}/${zedId}`)).statusCode).toBe(404);
    const to = details.AllowedStatusIDs[0] as number;
    const changed = await call('/api/support/changeStatus', { body: { MemberID: annId, Ids: [claimId], NewClaimStatusID: to } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().Data.Items[0].ClaimStatusID).toBe(to);
    // Paid is not reachable from there: the state machine refuses, nothing changes.
    expect((await call('/api/support/changeStatus', { body: { MemberID: annId, Ids: [claimId], NewClaimStatusID: 8 } })).statusCode).toBe(409);
    expect((await call('/api/support/changeStatus', { body: { MemberID: zedId, Ids: [claimId], NewClaimStatusID: to } })).statusCode).toBe(404);
    expect((await call('/api/support/changeStatus', { session: superUser, body: { MemberID: annId, Ids: [claimId], NewClaimStatusID: to } })).statusCode).toBe(
      403,
    );
  });

  it("billing's support sync reads the member's cards back from the gateway", async () => {
    const synced = await data<BillingProfile & { Reactivated: boolean }>(BillingApi.supportSync.path, { body: { MemberId: annId } });
    expect(synced.Profiles.map((p) => p.CardNumber).sort()).toEqual(['XXXX0341', 'XXXX1111']);
  });
});

describe('support: reports', () => {
  it('registration report as PDF text and spreadsheet cells', async () => {
    const pdf = await file('/api/support/registrationReport/pdf');
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(String(pdf.headers['x-filename'] ?? pdf.headers['content-disposition'])).toContain('registration-report');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Registration report');
    expect(text).toContain('Annabel Quill');
    expect(text).toContain('Terminated');
    expect(text).toContain('Page 1 of');
    const ws = await sheet((await file('/api/support/registrationReport/excel')).rawPayload);
    expect(ws.name).toBe('Registrations');
    const rows = rowValues(ws);
    expect(rows[0]).toEqual(['Member ID', 'Member number', 'First name', 'Last name', 'E-mail', 'Brand', 'User name', 'Status', 'Created', 'Terminated']);
    const annRow = rows.find((r) => r[0] === annId);
    expect(annRow?.slice(2, 8)).toEqual(['Annabel', 'Quill', 'sup-ann@example.com', 'card', 'sup-ann', 'Registered']);
    expect(rows.find((r) => r[0] === zedId)?.[7]).toBe('Terminated');
  });

  it('user report as PDF text and spreadsheet cells', async () => {
    const text = await pdfText((await file('/api/support/userReport/pdf')).rawPayload);
    expect(text).toContain('User report');
    expect(text).toContain('sup-staff');
    const rows = rowValues(await sheet((await file('/api/support/userReport/excel')).rawPayload));
    expect(rows[0]?.[0]).toBe('User name');
    const staffRow = rows.find((r) => r[0] === 'sup-staff');
    expect(staffRow?.slice(4, 8)).toEqual(['staff', 'Staff', 'CareSupport', 'Yes']);
    expect(rows.find((r) => r[0] === 'sup-ann')?.[5]).toBe('Member');
    // A terminated member's login is closed: it cannot sign in, whatever its activation.
    expect(rows.find((r) => r[0] === 'sup-zed')?.[7]).toBe('Closed');
  });

  it('exports the transactions of a filter, or the selected ones, with display statuses and amounts', async () => {
    const rows = rowValues(await sheet((await file(SupportApi.transactionExcel.path, { Query: { Status: 'All', SearchString: 'quill' } })).rawPayload));
    expect(rows[0]?.slice(0, 6)).toEqual(['Transaction ID', 'Date', 'Member', 'Member number', 'Status', 'Amount']);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byId.get(declinedId)?.[4]).toBe('Refunded');
    expect(byId.get(declinedId)?.[5]).toBe(42.5);
    expect(byId.get(paidId)?.[4]).toBe('Refunded');
    expect(byId.get(paidId)?.[6]).toBe('PA-1234');
    const selected = rowValues(await sheet((await file(SupportApi.transactionExcel.path, { Query: { Status: 'All' }, TransactionIDs: [paidId] })).rawPayload));
    expect(selected.slice(1).map((r) => r[0])).toEqual([paidId]);
  });
});

describe('support: messages in Spanish', () => {
  const SPANISH = { cookie: 'cq.lang=es' };
  const es = (path: string, o: Call = {}) => call(path, { ...o, headers: SPANISH });

  it('answers refusals, toasts and the texts in its answers in Spanish to a request in Spanish', async () => {
    const notMember = await es(`/api/support/getTerminationDate/${staffMemberId}`);
    expect(notMember.statusCode).toBe(403);
    expect(notMember.json().MsgText).toBe('El soporte solo puede actuar sobre cuentas de miembros.');
    const missing = await es(SupportApi.charge.path, { body: { TransactionID: 999_999, IdempotencyKey: 'missing-0002' } });
    expect(missing.json().MsgText).toBe('No se encontró la transacción.');
    const pendingId = (
      await server.database.sql.query<{ id: number }>(
        `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message) VALUES ($1, 'charge', 'Pending', 500, 'Lab work', 'Pending') RETURNING id`,
        [annId],
      )
    )[0]?.id as number;
    const declined = await es(SupportApi.saveTransaction.path, { method: 'PUT', body: { TransactionID: pendingId, Status: 'Declined' } });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().MsgText).toBe('La transacción se ha rechazado.');
    const again = await es(SupportApi.saveTransaction.path, { method: 'PUT', body: { TransactionID: pendingId, Status: 'Declined' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().MsgText).toBe('Solo se puede rechazar una transacción pendiente.');
    const pa = await es(SupportApi.addPaNumber.path, { body: { TransactionID: pendingId, PANumber: 'PA-ES-1' } });
    expect(pa.json().Data).toEqual({ PANumber: 'PA-ES-1', Message: 'El número de PA se ha guardado.' });
  });

  const download = async (path: string, body: object = {}) => (await file(path, body, { headers: SPANISH })).rawPayload;

  it("lists charges to a Spanish reader with the server's own descriptions and the gateway's messages in Spanish, staff's text as typed", async () => {
    const ids = (
      await server.database.sql.query<{ id: number }>(
        `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message)
         VALUES ($1, 'subscription', 'Charged', 1200, 'Monthly membership', 'This transaction has been approved.'),
                ($1, 'charge', 'Charged', 700, 'Lab work es-check', 'This transaction has been approved.') RETURNING id`,
        [annId],
      )
    ).map((r) => r.id);
    const listed = await es(SupportApi.transactions.path, {
      body: { PageSize: 50, SortColumn: 'TransactionID', SortOrder: 'DESC', Query: { Status: 'All', SearchString: '' } },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const byId = new Map((listed.json().Data.Items as SupportTransaction[]).map((t) => [t.TransactionID, t]));
    expect(byId.get(ids[0] as number)).toMatchObject({ Description: 'Membresía mensual', Message: 'Esta transacción ha sido aprobada.' });
    expect(byId.get(ids[1] as number)).toMatchObject({ Description: 'Lab work es-check', Message: 'Esta transacción ha sido aprobada.' });
  });

  it('writes the registration report in Spanish to a Spanish reader: title, labels, headers, states and page footer', async () => {
    const text = await pdfText(await download('/api/support/registrationReport/pdf'));
    expect(text).toContain('Informe de registros');
    expect(text).toContain('Miembros');
    expect(text).toContain('Generado');
    expect(text).toContain('Correo electrónico');
    expect(text).toContain('Registrado');
    expect(text).toContain('Dado de baja');
    expect(text).toContain('Página 1 de');
    expect(text).not.toContain('Registration report');
    expect(text).not.toContain('Registered');
    const ws = await sheet(await download('/api/support/registrationReport/excel'));
    expect(ws.name).toBe('Registros');
    const rows = rowValues(ws);
    expect(rows[0]).toEqual([
      'ID de miembro',
      'Número de miembro',
      'Nombre',
      'Apellido',
      'Correo electrónico',
      'Marca',
      'Nombre de usuario',
      'Estado',
      'Creado',
      'Dado de baja',
    ]);
    expect(rows.find((r) => r[0] === annId)?.[7]).toBe('Registrado');
    expect(rows.find((r) => r[0] === zedId)?.[7]).toBe('Dado de baja');
  });

  it('writes the user report in Spanish to a Spanish reader: kinds and Yes/No translated, names and roles as they are', async () => {
    const text = await pdfText(await download('/api/support/userReport/pdf'));
    expect(text).toContain('Informe de usuarios');
    expect(text).toContain('Usuarios');
    expect(text).toContain('Tipo');
    expect(text).toContain('Personal');
    expect(text).toContain('Página 1 de');
    const ws = await sheet(await download('/api/support/userReport/excel'));
    expect(ws.name).toBe('Usuarios');
    const rows = rowValues(ws);
    expect(rows[0]).toEqual(['Nombre de usuario', 'Nombre', 'Apellido', 'Correo electrónico', 'Marca', 'Tipo', 'Roles', 'Activo', 'Creado']);
    expect(rows.find((r) => r[0] === 'sup-staff')?.slice(4, 8)).toEqual(['staff', 'Personal', 'CareSupport', 'Sí']);
    expect(rows.find((r) => r[0] === 'sup-ann')?.[5]).toBe('Miembro');
    expect(rows.find((r) => r[0] === 'sup-zed')?.[7]).toBe('Cerrado');
  });

  it('exports transactions in Spanish to a Spanish reader: headers, tab name and display statuses', async () => {
    const ws = await sheet(await download(SupportApi.transactionExcel.path, { Query: { Status: 'All', SearchString: 'quill' } }));
    expect(ws.name).toBe('Transacciones');
    const rows = rowValues(ws);
    expect(rows[0]).toEqual([
      'ID de transacción',
      'Fecha',
      'Miembro',
      'Número de miembro',
      'Estado',
      'Importe',
      'Número de PA',
      'ID de transacción del proveedor',
      'Descripción',
    ]);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byId.get(paidId)?.[4]).toBe('Reembolsada');
    expect(byId.get(paidId)?.[5]).toBe(10);
    expect(rows.slice(1).every((r) => ['Pagada', 'Rechazada', 'Reembolsada', 'Pendiente', 'Autorizada'].includes(String(r[4])))).toBe(true);
  });

  it('says a refund met an unsettled charge by Unsettled, whatever the language of its message', async () => {
    const p = await data<BillingProfile>(BillingApi.supportProfile.path, { body: { MemberId: annId } });
    const good = p.Profiles.find((c) => c.CardNumber === 'XXXX1111')?.ProfileId ?? 0;
    const chargeId = await chargeThroughBilling(annId, good, 12, 'Dental visit');
    const refused = await es(SupportApi.refund.path, { body: { TransactionID: chargeId, IdempotencyKey: newIdempotencyKey('refund') } });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().Data).toMatchObject({ StatusString: 'Error', TransactionID: chargeId, Unsettled: true });
    const charged = await es(SupportApi.charge.path, { body: { TransactionID: chargeId, IdempotencyKey: newIdempotencyKey('charge') } });
    expect(charged.json().Data).toMatchObject({ StatusString: 'Ok', Unsettled: false });
  });
});
