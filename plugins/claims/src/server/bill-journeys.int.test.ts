import type { StartedServer } from '@portal/app-server/server';
import { ClaimStatus, Roles } from '@portal/core';
import type { PluginInit } from '@portal/server';
import { membersService } from '@portal/server/kernel';
import { authHeaders, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Claim, ClaimDetails } from '../contract';
import { type ClaimFormValues, formValues, toPayload } from '../web/components/claimPayload';
import plugin from './index';
import { migrations } from './migrations';

/**
 * A bill's life as the pages drive it: every edit here sends exactly what the bill form sends (`webPayload`: the web's
 * own formValues → toPayload), not the whole bill, so fields the form never sends (the bill review received date; a
 * member's payment details) are left out as they are in use.
 */
const S = ClaimStatus;
let server: StartedServer;
type Who = { userId: string; memberId: number | null; headers: Record<string, string> };
const who: Record<'fin' | 'fin2' | 'su' | 'support', Who> = {} as never;

async function login(userName: string, roles: string[], member: boolean): Promise<Who> {
  const u = await makeUser(server, { userName, roles, member });
  const s = await mintSession(server, { ...u, name: userName, roles });
  return { ...u, headers: authHeaders(s) };
}
type Env<T> = { Data: T; MsgText: string | null };
async function call<T = unknown>(as: Who, method: 'GET' | 'POST', url: string, payload?: unknown, extra: Record<string, string> = {}) {
  const res = await server.app.inject({ method, url, headers: { ...as.headers, ...extra }, payload: payload as object | undefined });
  return { status: res.statusCode, body: res.json() as Env<T> };
}
const es = { cookie: 'cq.lang=es' };

/**
 * What the bill form sends for a bill opened on /claims/:id (the web's own formValues → toPayload), with `changes`
 * typed into the form's fields (text as typed; null for an emptied date).
 */
function webPayload(c: Claim, superUser: boolean, changes: Partial<ClaimFormValues> = {}) {
  return { ClaimID: c.ClaimID, Version: c.Version, ...toPayload({ ...formValues(c), ...changes }, superUser) };
}
const details = async (as: Who, id: number) => {
  const r = await call<ClaimDetails>(as, 'POST', '/api/claims/details', { ClaimID: id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.Data;
};
const save = (as: Who, body: unknown, extra: Record<string, string> = {}) => call<Claim>(as, 'POST', '/api/claims/update', body, extra);
const setStatus = (ids: number[], to: number, reason?: string) =>
  call(who.su, 'POST', '/api/claims/changeStatusAM', { Ids: ids, NewClaimStatusID: to, ...(reason ? { Reason: reason } : {}) });

async function addBill(as: Who, fields: Record<string, unknown> = {}): Promise<Claim> {
  const r = await call<Claim>(as, 'POST', '/api/claims/create', {
    MemberID: as === who.su ? who.fin.memberId : undefined,
    PayeeID: 1,
    BillTypeID: 1,
    ClaimTypeID: 2,
    BilledAmount: 100,
    ServiceDateFrom: '2026-01-05',
    ...fields,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.Data;
}
async function walk(id: number, path: number[]) {
  for (const to of path) {
    const r = await setStatus([id], to);
    expect(r.status, `to ${to}: ${r.body.MsgText}`).toBe(200);
  }
}
/** Runs `work` with the clock at `moment` (in the past: the sessions signed in before stay valid). */
async function at<T>(moment: number, work: () => Promise<T>): Promise<T> {
  const clock = vi.spyOn(Date, 'now').mockReturnValue(moment);
  try {
    return await work();
  } finally {
    clock.mockRestore();
  }
}

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: 'America/Chicago' });
  who.fin = await login('journey-fin', [Roles.CareGuardFinance], true);
  who.fin2 = await login('journey-fin2', [Roles.CareGuardFinance], true);
  who.su = await login('journey-su', [Roles.SuperUser], false);
  who.support = await login('journey-support', [Roles.CareSupport], false);
});
afterAll(() => server?.close());

describe('an edit saved from the bill page changes only the fields the form sends', () => {
  it('keeps the bill review received date (the form has no such field), for a member and a SuperUser', async () => {
    const bill = await addBill(who.fin);
    await walk(bill.ClaimID, [S.InReview]);
    const before = (await details(who.fin, bill.ClaimID)).Claim;
    expect(before.BillReviewReceivedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const member = await save(who.fin, webPayload(before, false, { BilledAmount: '120.00' }));
    expect(member.status, member.body.MsgText ?? '').toBe(200);
    expect(member.body.Data).toMatchObject({ BilledAmount: 120, BillReviewReceivedDate: before.BillReviewReceivedDate });
    const su = await save(who.su, webPayload(member.body.Data, true, { ClaimNumber: 'JRN-1' }));
    expect(su.status, su.body.MsgText ?? '').toBe(200);
    expect(su.body.Data).toMatchObject({ ClaimNumber: 'JRN-1', BillReviewReceivedDate: before.BillReviewReceivedDate });
    const found = await call<{ ItemCount: number }>(who.su, 'POST', '/api/claims/search', {
      ClaimID: bill.ClaimID,
      BillReviewReceivedDateFrom: before.BillReviewReceivedDate,
    });
    expect(found.body.Data.ItemCount).toBe(1);
    // The audit row of the edit records only what changed.
    const audit = await server.database.sql.query<{ detail: { changes: Record<string, unknown> } }>(
      `SELECT detail FROM audit_log WHERE action = 'claim.update' AND entity_id = $1 ORDER BY id`,
      [String(bill.ClaimID)],
    );
    expect(audit.map((a) => Object.keys(a.detail.changes).sort())).toEqual([['BilledAmount'], ['ClaimNumber']]);
    // An explicit null clears it (a field the bill may be without).
    const cleared = await save(who.su, { ...webPayload(su.body.Data, true), BillReviewReceivedDate: null });
    expect(cleared.body.Data.BillReviewReceivedDate).toBeNull();
  });

  it("lets a member save a bill whose payment details a SuperUser entered, keeping them; changing them stays SuperUser's", async () => {
    const bill = await addBill(who.fin);
    const su = await save(who.su, webPayload(bill, true, { PaidAmount: '40.00', PaidDate: '2026-02-01', CheckNumber: 'CHK-40' }));
    expect(su.status, su.body.MsgText ?? '').toBe(200);
    const d = await details(who.fin, bill.ClaimID);
    expect(d.CanEdit).toBe(true);
    const member = await save(who.fin, webPayload(d.Claim, false, { ServiceDateTo: '2026-01-06' }));
    expect(member.status, member.body.MsgText ?? '').toBe(200);
    expect(member.body.Data).toMatchObject({ ServiceDateTo: '2026-01-06', PaidAmount: 40, PaidDate: '2026-02-01', CheckNumber: 'CHK-40' });
    // A member who does send payment details that differ is still refused; the same ones are no change.
    const same = await save(who.fin, { ...webPayload(member.body.Data, false), PaidAmount: 40, PaidDate: '2026-02-01', CheckNumber: 'CHK-40' });
    expect(same.status, same.body.MsgText ?? '').toBe(200);
    const changed = await save(who.fin, { ...webPayload(same.body.Data, false), PaidAmount: 90 });
    expect(changed.status).toBe(403);
    expect(changed.body.MsgText).toBe('Only a SuperUser may change the payment details (paid date, paid amount, check number).');
    const cleared = await save(who.fin, { ...webPayload(same.body.Data, false), CheckNumber: null });
    expect(cleared.status).toBe(403);
  });

  it('clears the optional fields emptied in the form, and refuses an emptied claim number or received date with 400', async () => {
    const bill = await addBill(who.fin, { ServiceDateTo: '2026-01-07', SubmittedUNCAmount: 80, ClaimNumber: 'JRN-CLR' });
    const emptied = await save(who.fin, webPayload(bill, false, { ServiceDateTo: null, SubmittedUNCAmount: '' }));
    expect(emptied.status, emptied.body.MsgText ?? '').toBe(200);
    expect(emptied.body.Data).toMatchObject({ ServiceDateTo: null, SubmittedUNCAmount: null, ClaimNumber: 'JRN-CLR' });
    const current = emptied.body.Data;
    const noNumber = await save(who.fin, webPayload(current, false, { ClaimNumber: '' }));
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.MsgText).toBe('body.ClaimNumber: is required; a bill keeps its claim number.');
    const noReceived = await save(who.fin, webPayload(current, false, { ReceivedDate: null }));
    expect(noReceived.status).toBe(400);
    expect(noReceived.body.MsgText).toBe('body.ReceivedDate: is required; a bill keeps its received date.');
    const inSpanish = await save(who.fin, webPayload(current, false, { ReceivedDate: null }), es);
    expect(inSpanish.body.MsgText).toBe('body.ReceivedDate: es obligatoria; una factura conserva su fecha de recepción.');
    expect((await details(who.fin, bill.ClaimID)).Claim).toEqual(current);
    // Left out altogether (an older client), both stay as they are.
    const { ClaimNumber: _n, ReceivedDate: _r, ...rest } = webPayload(current, false, { BilledAmount: '101.00' });
    const kept = await save(who.fin, rest);
    expect(kept.status, kept.body.MsgText ?? '').toBe(200);
    expect(kept.body.Data).toMatchObject({ ClaimNumber: 'JRN-CLR', ReceivedDate: current.ReceivedDate, BilledAmount: 101 });
  });
});

describe("a reimbursement's bill is the member's request: its member cannot edit it", () => {
  const reimbursementBill = async (memberId: number) => {
    const services = { members: membersService(server.database.sql, server.jobs) };
    const svc = plugin.provides?.create({ database: server.database, config: server.config, services } as PluginInit);
    if (!svc) throw new Error('the claims plugin provides its service');
    return server.database.sql.transaction((tx) =>
      svc.recordReimbursement({ memberId, billedCents: 5000, serviceDate: '2026-01-02', createdByUserId: null, createdByName: 'member' }, tx),
    );
  };

  it('answers CanEdit false to its member and refuses the edit with a clear message; SuperUser edits as before', async () => {
    const made = await reimbursementBill(who.fin.memberId as number);
    const d = await details(who.fin, made.ClaimID);
    expect(d.CanEdit).toBe(false);
    const raised = await save(who.fin, webPayload(d.Claim, false, { BilledAmount: '500.00', PayeeName: 'Mayo Clinic' }));
    expect(raised.status).toBe(403);
    expect(raised.body.MsgText).toBe(
      'This bill was made from your reimbursement request: its amount, service date and payee are those of the request and cannot be edited here.',
    );
    const inSpanish = await save(who.fin, webPayload(d.Claim, false, { ServiceDateFrom: '2026-01-01' }), es);
    expect(inSpanish.body.MsgText).toBe(
      'Esta factura se creó a partir de su solicitud de reembolso: su importe, fecha de servicio y beneficiario del pago son los de la solicitud y no se pueden editar aquí.',
    );
    expect((await details(who.fin, made.ClaimID)).Claim).toEqual(d.Claim);
    // Finance (SuperUser) reviews it as any bill.
    const staff = await details(who.su, made.ClaimID);
    expect(staff.CanEdit).toBe(true);
    const su = await save(who.su, webPayload(staff.Claim, true, { PaidAmount: '50.00', PaidDate: '2026-02-01' }));
    expect(su.status, su.body.MsgText ?? '').toBe(200);
    // A bill the member entered is still theirs to edit.
    expect((await details(who.fin, (await addBill(who.fin)).ClaimID)).CanEdit).toBe(true);
  });

  it('marks the bills made before the source column by their first history row, and no bill merely named like one', async () => {
    const old = await reimbursementBill(who.fin.memberId as number);
    const typed = await addBill(who.fin, { PayeeID: null, PayeeName: 'Member reimbursement' });
    await server.database.sql.query(`UPDATE claims SET source = 'bill' WHERE claim_id = $1`, [old.ClaimID]);
    const migration = migrations.find((m) => m.id === '0005_claim_source');
    const text = migration && 'sql' in migration ? migration.sql : '';
    const backfill = text
      .split(';')
      .map((part) => part.replace(/^\s*--.*$/gm, '').trim())
      .filter((part) => part.startsWith('UPDATE'));
    expect(backfill).toHaveLength(1);
    // Run twice: a second run (a filled table, already marked) changes nothing more.
    for (let i = 0; i < 2; i++) await server.database.sql.query(backfill[0] as string);
    const rows = await server.database.sql.query<{ claim_id: number; source: string }>(
      'SELECT claim_id, source FROM claims WHERE claim_id = ANY($1::int[]) ORDER BY claim_id',
      [[old.ClaimID, typed.ClaimID]],
    );
    expect(rows).toEqual([
      { claim_id: old.ClaimID, source: 'reimbursement' },
      { claim_id: typed.ClaimID, source: 'bill' },
    ]);
    expect((await details(who.fin, old.ClaimID)).CanEdit).toBe(false);
  });
});

describe('a reissued or voided payment no longer shows as paid', () => {
  const toPaid = [S.InReview, S.Approved, S.ScheduledForPayment, S.PaymentIssued, S.Paid];

  it("clears the first payment on the reissue, keeps it in the audit, and stamps the reissue's own on → Paid", async () => {
    const bill = await addBill(who.fin);
    await walk(bill.ClaimID, toPaid);
    await server.database.sql.query("UPDATE claims SET paid_date = '2026-02-01', check_number = 'CHK-1' WHERE claim_id = $1", [bill.ClaimID]);
    await walk(bill.ClaimID, [S.NonRedeemedPayment, S.ReadyForReissue]);
    // Until reissued, 29 and 30 show as Paid with the first payment.
    expect((await details(who.fin, bill.ClaimID)).Claim).toMatchObject({ PaidDate: '2026-02-01', PaidAmount: 100, CheckNumber: 'CHK-1' });
    // Dec 1 2026, 03:00 UTC: still Nov 30 in Chicago.
    const moment = Date.parse('2026-12-01T03:00:00Z');
    await at(moment, () => walk(bill.ClaimID, [S.PaymentIssued]));
    expect((await details(who.fin, bill.ClaimID)).Claim).toMatchObject({ PaidDate: null, PaidAmount: null, CheckNumber: null });
    const audit = await server.database.sql.query<{ detail: Record<string, unknown> }>(
      `SELECT detail FROM audit_log WHERE action = 'claim.status' AND outcome = 'success' AND entity_id = $1 AND detail->>'to' = $2 AND detail->>'from' = $3`,
      [String(bill.ClaimID), String(S.PaymentIssued), String(S.ReadyForReissue)],
    );
    // The reissue's row (the bill went to Payment Issued twice: first on its way to Paid, then from Ready for Reissue).
    expect(audit).toHaveLength(1);
    expect(audit[0]?.detail).toMatchObject({
      from: S.ReadyForReissue,
      clearedPayment: { PaidDate: '2026-02-01', PaidAmount: 100, CheckNumber: 'CHK-1' },
    });
    await at(moment, () => walk(bill.ClaimID, [S.Paid]));
    expect((await details(who.fin, bill.ClaimID)).Claim).toMatchObject({ PaidDate: '2026-11-30', PaidAmount: 100, CheckNumber: null });
  });

  it('keeps the payment of a late-cashed check (Non Redeemed Payment → Paid)', async () => {
    const bill = await addBill(who.fin);
    await walk(bill.ClaimID, toPaid);
    await server.database.sql.query("UPDATE claims SET paid_date = '2026-02-01', check_number = 'CHK-2' WHERE claim_id = $1", [bill.ClaimID]);
    await walk(bill.ClaimID, [S.NonRedeemedPayment, S.Paid]);
    expect((await details(who.fin, bill.ClaimID)).Claim).toMatchObject({ PaidDate: '2026-02-01', PaidAmount: 100, CheckNumber: 'CHK-2' });
  });

  it('shows a bill voided after Ready for Reissue (or before any payment) with no payment, in no paid-date range', async () => {
    const bill = await addBill(who.fin);
    await walk(bill.ClaimID, [...toPaid, S.NonRedeemedPayment, S.ReadyForReissue, S.Void]);
    const v = (await details(who.fin, bill.ClaimID)).Claim;
    expect(v).toMatchObject({ ClaimStatusID: S.Void, DisplayStatusID: S.Void, PaidDate: null, PaidAmount: null, CheckNumber: null });
    const paidRange = await call<{ ItemCount: number }>(who.fin, 'POST', '/api/claims/search', { ClaimID: bill.ClaimID, PaidDateFrom: '2000-01-01' });
    expect(paidRange.body.Data.ItemCount).toBe(0);
    const paid = await call<{ ItemCount: number }>(who.fin, 'POST', '/api/claims/search', { ClaimID: bill.ClaimID, IsPaid: true });
    expect(paid.body.Data.ItemCount).toBe(0);
    // A SuperUser's partial payment on a bill voided before it was paid goes too.
    const early = await addBill(who.fin);
    await save(who.su, webPayload(early, true, { PaidAmount: '10.00', PaidDate: '2026-02-01' }));
    await walk(early.ClaimID, [S.Void]);
    expect((await details(who.fin, early.ClaimID)).Claim).toMatchObject({ PaidDate: null, PaidAmount: null });
  });
});

describe('a new bill with payment details', () => {
  const form = {
    ClaimNumber: null,
    PayeeID: 1,
    PayeeName: null,
    BillTypeID: 1,
    ClaimTypeID: 2,
    BilledAmount: '200.00',
    SubmittedUNCAmount: null,
    ServiceDateFrom: '2026-01-05',
    ServiceDateTo: null,
    ReceivedDate: null,
    PaidDate: '2026-01-20',
    PaidAmount: '150.00',
    CheckNumber: 'CHK-9',
  };

  it("stores a SuperUser's paid date, amount and check number", async () => {
    const r = await call<Claim>(who.su, 'POST', '/api/claims/create', { ...form, MemberID: who.fin.memberId });
    expect(r.status, r.body.MsgText ?? '').toBe(200);
    expect(r.body.MsgText).toBe('The bill was added.');
    expect(r.body.Data).toMatchObject({ ClaimStatusID: S.Received, PaidDate: '2026-01-20', PaidAmount: 150, CheckNumber: 'CHK-9' });
  });

  it('refuses them from anyone else (403), adding nothing, as on an edit; bad values are 400', async () => {
    const before = await call<{ ItemCount: number }>(who.fin, 'POST', '/api/claims/search', {});
    const r = await call(who.fin, 'POST', '/api/claims/create', { ...form, MemberID: null });
    expect(r.status).toBe(403);
    expect(r.body.MsgText).toBe('Only a SuperUser may change the payment details (paid date, paid amount, check number).');
    expect((await call<{ ItemCount: number }>(who.fin, 'POST', '/api/claims/search', {})).body.Data.ItemCount).toBe(before.body.Data.ItemCount);
    const bad = await call(who.su, 'POST', '/api/claims/create', { ...form, MemberID: who.fin.memberId, PaidAmount: '-1' });
    expect(bad.status).toBe(400);
    expect(bad.body.MsgText).toMatch(/^body\.PaidAmount: /);
  });
});

describe("received and service dates may not be after the business's today", () => {
  // Mar 1 2026, 03:00 UTC is still Feb 28, 9:00 pm in Chicago (the business's zone here).
  const moment = Date.parse('2026-03-01T03:00:00Z');

  it('refuses a future date on a new bill, per field, in English and Spanish; today is accepted', async () => {
    const post = (fields: Record<string, unknown>, extra: Record<string, string> = {}) =>
      at(moment, () =>
        call<Claim>(who.fin2, 'POST', '/api/claims/create', { PayeeID: 1, BillTypeID: 1, BilledAmount: 10, ServiceDateFrom: '2026-02-01', ...fields }, extra),
      );
    const received = await post({ ReceivedDate: '2026-03-01' });
    expect(received.status).toBe(400);
    expect(received.body.MsgText).toBe('body.ReceivedDate: the received date cannot be after today (2026-02-28).');
    const service = await post({ ServiceDateFrom: '2026-03-01' });
    expect(service.body.MsgText).toBe('body.ServiceDateFrom: the service date cannot be after today (2026-02-28).');
    const serviceTo = await post({ ServiceDateTo: '2030-01-01' }, es);
    expect(serviceTo.status).toBe(400);
    expect(serviceTo.body.MsgText).toBe('body.ServiceDateTo: la fecha de fin del servicio no puede ser posterior a hoy (2026-02-28).');
    const today = await post({ ReceivedDate: '2026-02-28', ServiceDateFrom: '2026-02-28' });
    expect(today.status, today.body.MsgText ?? '').toBe(200);
    expect(today.body.Data).toMatchObject({ ReceivedDate: '2026-02-28', ServiceDateFrom: '2026-02-28' });
  });

  it('refuses a future date on an edit; a date already on the bill does not block a save', async () => {
    const bill = await at(moment, () => addBill(who.fin2, { ServiceDateFrom: '2026-02-01' }));
    const future = await at(moment, () => save(who.fin2, webPayload(bill, false, { ReceivedDate: '2026-03-01' })));
    expect(future.status).toBe(400);
    expect(future.body.MsgText).toBe('body.ReceivedDate: the received date cannot be after today (2026-02-28).');
    const inSpanish = await at(moment, () => save(who.fin2, webPayload(bill, false, { ServiceDateFrom: '2026-03-01' }), es));
    expect(inSpanish.body.MsgText).toBe('body.ServiceDateFrom: la fecha de servicio no puede ser posterior a hoy (2026-02-28).');
    // A bill dated ahead before this rule (stored so) still saves when the edit leaves that date as it is.
    await server.database.sql.query(`UPDATE claims SET received_date = '2026-06-01' WHERE claim_id = $1`, [bill.ClaimID]);
    const stored = (await details(who.fin2, bill.ClaimID)).Claim;
    const kept = await at(moment, () => save(who.fin2, webPayload(stored, false, { BilledAmount: '11.00' })));
    expect(kept.status, kept.body.MsgText ?? '').toBe(200);
  });
});

describe('the trend series leave void bills out', () => {
  it('counts a real bill once beside its voided duplicate', async () => {
    const m = await login('journey-trend', [Roles.CareGuardFinance], true);
    await addBill(m, { BilledAmount: 300 });
    const dup = await addBill(m, { BilledAmount: 300 });
    const denied = await addBill(m, { BilledAmount: 50 });
    await setStatus([dup.ClaimID], S.Void);
    await setStatus([denied.ClaimID], S.Denied);
    const counts = await call<{ Date: string; NumberOfClaims: number }[]>(m, 'GET', '/api/dashboard/claims/month');
    const bills = await call<{ Date: string; Amount: number }[]>(m, 'GET', '/api/dashboard/bills/month');
    expect(counts.status, JSON.stringify(counts.body)).toBe(200);
    // The denied bill was received and billed: it counts; the void duplicate does not.
    expect(counts.body.Data.at(-1)?.NumberOfClaims).toBe(2);
    expect(bills.body.Data.at(-1)?.Amount).toBe(350);
  });
});

describe("the reason support gives for a status change reaches the bill's page", () => {
  it("answers it in the bill's details to the member", async () => {
    const bill = await addBill(who.fin);
    const r = await call(who.support, 'POST', '/api/support/changeStatus', {
      MemberID: who.fin.memberId,
      Ids: [bill.ClaimID],
      NewClaimStatusID: S.PendingInformation,
      Reason: 'Send the itemized bill.',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = await details(who.fin, bill.ClaimID);
    expect(d.StatusHistory[0]).toMatchObject({ FromStatusID: S.Received, ToStatusID: S.PendingInformation, Reason: 'Send the itemized bill.' });
  });
});
