import { BillType, ClaimStatus, dayIn, hasAnyRole, type Message, msg, Roles, staleIds, versionsSeen } from '@portal/core';
import { ApiError, badRequest, conflict, countKey, forbidden, keptCountsFor, notFound, type RouteContext, type SqlClient } from '@portal/server';
import { ClaimsAccess } from '../access';
import {
  type ChangeStatus,
  type Claim,
  type ClaimCreate,
  type ClaimDetails,
  type ClaimSearch,
  type ClaimSearchResult,
  type ClaimUpdate,
  claimCreateSchema,
  GLOBAL_SEARCH_LIMIT,
  PENDING_STATUS_IDS,
  RECENT_CLAIMS,
  REIMBURSEMENT_PAYEE,
  type StatusHistoryEntry,
  toCents,
  type Vendor,
} from '../contract';
import type { ReimbursementBill } from '../service';
import { allowedTransitions, EDITABLE_STATUSES, joinMessages, statusLabel, transitionRefusal } from '../statusFlow';
import { buildSearch, CLAIM_COLUMNS, type ClaimScope } from './query';
import { refuseAfterTermination, type TerminationCheck } from './termination';
import { identifierSql, normalIdentifier, payeeCompactSql, payeeMatchSql, payeePatterns, payeeWords } from './textMatch';

type Ctx = Pick<RouteContext, 'user' | 'memberId' | 'impersonating' | 'database' | 'services' | 'audit' | 'config'>;
/** A bill's write (create, update): its refusals write days in the reader's language. */
type WriteCtx = Ctx & Pick<RouteContext, 'language'>;
/** The termination check of a write, in the request's language. */
const terminationCheck = (ctx: WriteCtx): TerminationCheck => ({
  members: ctx.services.members,
  timeZone: ctx.config.businessTimeZone,
  language: ctx.language,
});

/**
 * The business's day now, 'YYYY-MM-DD' (BUSINESS_TIME_ZONE): the day a bill is stamped received, in review or paid, and
 * the year of its generated number. Never the database's current_date, which is the UTC day (already tomorrow in a US
 * evening, next year's on Dec 31), nor the caller's zone. Read through Date.now, the clock the tests move.
 */
export const businessToday = (zone: string, now: number = Date.now()): string => dayIn(zone, new Date(now));
/** A search's context: its reads may go to the read replica (RouteContext.searchSql). */
type SearchCtx = Ctx & Pick<RouteContext, 'searchSql'>;

/**
 * Whose bills a request may see and change:
 * - acting for a member (a member's own login, or staff impersonating one with x-member-id): that member's only;
 * - otherwise SuperUser, CareGuardAdmin and CareSupport work across members;
 * - anyone else (a member role without a member record) is refused.
 */
export function scopeFor(ctx: Pick<RouteContext, 'user' | 'memberId'>): ClaimScope {
  if (ctx.memberId !== null) return { memberId: ctx.memberId };
  if (ctx.user && hasAnyRole(ctx.user.roles, ClaimsAccess.acrossMembers)) return { memberId: null };
  throw forbidden('Your account has no bills of its own. Choose a member to act for first.');
}

const NOT_FOUND = 'The bill was not found.';
const isSuperUser = (ctx: Pick<RouteContext, 'user'>) => !!ctx.user && hasAnyRole(ctx.user.roles, [Roles.SuperUser]);

export async function searchClaims(ctx: SearchCtx, f: ClaimSearch, opts: { pendingOnly?: boolean } = {}): Promise<ClaimSearchResult> {
  const scope = scopeFor(ctx);
  const extra = opts.pendingOnly ? [`c.claim_status_id IN (${PENDING_STATUS_IDS.join(',')})`] : [];
  const q = buildSearch(f, scope, extra);
  const sql = ctx.searchSql;
  // Prepared on PostgreSQL: parsed once per connection, planned for each search's values (db/prepared.ts).
  const hot = { prepare: true };
  // A broad search's total is kept a while (the kernel's KeptCounts), per database, whichever server answers this request.
  const { rows, total } = await keptCountsFor(ctx.database.sql, 'claims').page(countKey(q.count.text, q.count.params), {
    rows: () => sql.query<Claim>(q.list.text, q.list.params, hot),
    rowsWithTotal: async () => {
      // One round trip: the page rows carry the total; only a page past the end needs a count of its own.
      const rows = await sql.query<Claim & { __total?: number }>(q.listWithCount.text, q.listWithCount.params, hot);
      let total: number;
      if (rows.length > 0) total = rows[0]?.__total ?? 0;
      else total = f.PageIndex === 0 ? 0 : ((await sql.query<{ n: number }>(q.count.text, q.count.params, hot))[0]?.n ?? 0);
      for (const r of rows) delete r.__total;
      return { rows, total };
    },
  });
  return { Items: rows, ItemCount: total };
}

async function loadClaim(sql: SqlClient, id: number, scope: ClaimScope, lock = false): Promise<Claim | null> {
  const params: unknown[] = [id];
  let where = 'c.claim_id = $1';
  if (scope.memberId !== null) {
    params.push(scope.memberId);
    where += ' AND c.member_id = $2';
  }
  const rows = await sql.query<Claim>(
    `SELECT ${CLAIM_COLUMNS} FROM claims c JOIN members m ON m.member_id = c.member_id WHERE ${where}${lock ? ' FOR UPDATE OF c' : ''}`,
    params,
  );
  return rows[0] ?? null;
}

export async function getClaim(ctx: Ctx, id: number): Promise<Claim> {
  const claim = await loadClaim(ctx.database.sql, id, scopeFor(ctx));
  if (!claim) throw notFound(NOT_FOUND);
  return claim;
}

/**
 * Whether the caller may edit the bill now: SuperUser in any status but Void; anyone else in the editable statuses, and
 * never a bill made from a reimbursement request (its amount, service date and payee are the request's: finance pays
 * what the reimbursement page shows).
 */
const canEdit = (ctx: Ctx, c: Claim, source: BillSource) =>
  isSuperUser(ctx) ? c.ClaimStatusID !== ClaimStatus.Void : source !== 'reimbursement' && EDITABLE_STATUSES.includes(c.ClaimStatusID);

/** How a bill came to be (claims.source): entered as a bill, or made by recordReimbursement. */
type BillSource = 'bill' | 'reimbursement';
async function billSource(sql: SqlClient, id: number): Promise<BillSource> {
  const r = await sql.query<{ source: BillSource }>('SELECT source FROM claims WHERE claim_id = $1', [id]);
  return r[0]?.source ?? 'bill';
}
const REIMBURSEMENT_LOCKED =
  'This bill was made from your reimbursement request: its amount, service date and payee are those of the request and cannot be edited here.';

/** The latest day a bill's received, service or bill review received date may name: the business's today. */
function refuseFutureDates(b: Partial<Record<(typeof NO_FUTURE_DATES)[number], string | null>>, today: string, cur: Claim | null): void {
  for (const field of NO_FUTURE_DATES) {
    const v = b[field];
    // A date already on the bill is kept as it is (a save that does not change it is not refused for it).
    if (v && v > today && (cur === null || v !== cur[field])) {
      throw badRequest(msg(FUTURE_DATE[field], { today }));
    }
  }
}
const NO_FUTURE_DATES = ['ReceivedDate', 'ServiceDateFrom', 'ServiceDateTo', 'BillReviewReceivedDate'] as const;
const FUTURE_DATE: Record<(typeof NO_FUTURE_DATES)[number], string> = {
  ReceivedDate: 'body.ReceivedDate: the received date cannot be after today ({{today}}).',
  ServiceDateFrom: 'body.ServiceDateFrom: the service date cannot be after today ({{today}}).',
  ServiceDateTo: 'body.ServiceDateTo: the service end date cannot be after today ({{today}}).',
  BillReviewReceivedDate: 'body.BillReviewReceivedDate: the bill review received date cannot be after today ({{today}}).',
};
const PAYMENT_SUPERUSER_ONLY = 'Only a SuperUser may change the payment details (paid date, paid amount, check number).';

export async function claimDetails(ctx: Ctx, id: number): Promise<ClaimDetails> {
  const claim = await getClaim(ctx, id);
  const history = await ctx.database.sql.query<StatusHistoryEntry>(
    `SELECT from_status_id AS "FromStatusID", to_status_id AS "ToStatusID", changed_by_name AS "ChangedBy",
            to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "ChangedAt", reason AS "Reason"
     FROM claim_status_history WHERE claim_id = $1 ORDER BY id DESC`,
    [id],
  );
  const source = await billSource(ctx.database.sql, id);
  return {
    Claim: claim,
    StatusHistory: history,
    AllowedStatusIDs: [...allowedTransitions(claim.ClaimStatusID)],
    CanEdit: canEdit(ctx, claim, source),
  };
}

/** Whether a new payee name on this request's bill becomes a shared payee (staff only). */
const sharesPayees = (ctx: Pick<RouteContext, 'user'>) => !!ctx.user && hasAnyRole(ctx.user.roles, ClaimsAccess.sharedPayees);

/**
 * The payee of a bill: an existing shared payee by id, or by name (reused case-insensitively). A name no
 * shared payee has is added as a shared payee when staff enter it (`share`); a member's stays on the
 * member's bill only (payee id null), so it never shows in anyone's vendor search.
 */
async function resolvePayee(
  sql: SqlClient,
  b: { PayeeID?: number | null; PayeeName?: string | null },
  share: boolean,
): Promise<{ id: number | null; name: string }> {
  if (b.PayeeID) {
    const r = await sql.query<{ payee_id: number; name: string }>('SELECT payee_id, name FROM claim_payees WHERE payee_id = $1', [b.PayeeID]);
    if (!r[0]) throw badRequest(msg('body.PayeeID: there is no payee {{id}}.', { id: b.PayeeID }));
    return { id: r[0].payee_id, name: r[0].name };
  }
  const name = (b.PayeeName ?? '').trim();
  // Two staff saving bills with the same new payee at once would both miss it and both add it: a lock on the name
  // (case-blind), held to the end of the caller's transaction, makes the second find the first's.
  if (share) await sql.query("SELECT pg_advisory_xact_lock(hashtext('claims.payee'), hashtext(lower($1)))", [name]);
  const found = await sql.query<{ payee_id: number; name: string }>(
    'SELECT payee_id, name FROM claim_payees WHERE lower(name) = lower($1) ORDER BY payee_id LIMIT 1',
    [name],
  );
  if (found[0]) return { id: found[0].payee_id, name: found[0].name };
  if (!share) return { id: null, name };
  const added = await sql.query<{ payee_id: number }>(`INSERT INTO claim_payees (name, kind) VALUES ($1, 'Other') RETURNING payee_id`, [name]);
  return { id: added[0]?.payee_id as number, name };
}

/**
 * What a create's IdempotencyKey stands for (the request the kernel's createKeys hashes; it leaves the key out): the bill
 * as the contract parsed it (so 42.5 and '42.50' are the same), its claim number as stored (upper case), with the member
 * it goes to (the one acted for, or the one named) as MemberID. Every field of the create is there, null when not sent,
 * in the contract's order, so a field left out and the same field sent as null stand for the same bill.
 */
export function createRequest(memberId: number, b: ClaimCreate): Record<string, unknown> {
  const bill: Record<string, unknown> = { ...b, MemberID: memberId, ClaimNumber: b.ClaimNumber ? b.ClaimNumber.toUpperCase() : null };
  return Object.fromEntries(Object.keys(claimCreateSchema.shape).map((field) => [field, bill[field] ?? null]));
}

/**
 * Adds a bill (Received). With an IdempotencyKey the key is claimed first, in the transaction of the bill: a create
 * repeated with a key its caller already used (a retried request whose answer was lost, a double press) waits for the
 * first to commit and answers the bill it made, adding nothing; the key with another bill is refused (409). A create
 * refused for any reason claims nothing. A service after the member's termination day is refused (409) in the same
 * transaction, under the member's row read FOR SHARE (termination.ts); a repeat answered by its key is not checked again.
 */
export async function createClaim(ctx: WriteCtx, b: ClaimCreate): Promise<Claim> {
  let memberId: number;
  if (ctx.memberId !== null) {
    if (b.MemberID && b.MemberID !== ctx.memberId)
      throw badRequest(
        msg('body.MemberID: you are acting for member {{memberId}}; a bill for another member cannot be added here.', { memberId: ctx.memberId }),
      );
    memberId = ctx.memberId;
  } else {
    // Only staff who work across members name the member; a member login without a member record adds nothing.
    scopeFor(ctx);
    if (!b.MemberID) throw badRequest('body.MemberID: choose the member the bill belongs to.');
    memberId = b.MemberID;
  }
  const sql = ctx.database.sql;
  const today = businessToday(ctx.config.businessTimeZone);
  refuseFutureDates(b, today, null);
  // Payment details on a new bill: SuperUser's, as on an edit.
  if ((b.PaidDate != null || b.PaidAmount != null || b.CheckNumber != null) && !isSuperUser(ctx)) throw forbidden(PAYMENT_SUPERUSER_ONLY);
  if (!(await ctx.services.members.load(memberId))) throw badRequest(msg('body.MemberID: there is no member {{memberId}}.', { memberId }));
  // The key is its caller's (create needs a role, so a signed-in user): the kernel's createKeys, scope 'claims.bill'.
  const userId = ctx.user?.id;
  if (b.IdempotencyKey && !userId) throw new Error('a create with an IdempotencyKey needs a signed-in user');
  const key = b.IdempotencyKey && userId ? { userId, scope: 'claims.bill', key: b.IdempotencyKey } : null;
  const id = await sql.transaction(async (tx) => {
    if (key) {
      const earlier = await ctx.services.createKeys.claim(tx, key, createRequest(memberId, b));
      if (earlier !== null) return Number(earlier);
    }
    // Before anything is written, in this transaction: a termination committing meanwhile waits for the bill or is seen.
    await refuseAfterTermination(terminationCheck(ctx), tx, memberId, b.ServiceDateFrom);
    const payee = await resolvePayee(tx, b, sharesPayees(ctx));
    const next = await tx.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('claims', 'claim_id'))::int AS id`);
    const claimId = next[0]?.id as number;
    await tx.query(
      `INSERT INTO claims (claim_id, claim_number, member_id, payee_id, payee_name, claim_status_id, bill_type_id, claim_type_id, billed_cents,
         submitted_unc_cents, service_date_from, service_date_to, received_date, bill_review_received_date, created_by, paid_date, paid_cents, check_number)
       VALUES ($1::int, coalesce($2::text, 'CL' || to_char($15::date, 'YY') || lpad($1::int::text, 6, '0')), $3, $4, $5, ${ClaimStatus.Received}, $6, $7, $8,
         $9, $10::date, $11::date, coalesce($12::date, $15::date), $13::date, $14, $16::date, $17, $18)`,
      [
        claimId,
        b.ClaimNumber ? b.ClaimNumber.toUpperCase() : null,
        memberId,
        payee.id,
        payee.name,
        b.BillTypeID,
        b.ClaimTypeID,
        toCents(b.BilledAmount),
        b.SubmittedUNCAmount == null ? null : toCents(b.SubmittedUNCAmount),
        b.ServiceDateFrom,
        b.ServiceDateTo ?? null,
        b.ReceivedDate ?? null,
        b.BillReviewReceivedDate ?? null,
        ctx.user?.id ?? null,
        today,
        b.PaidDate ?? null,
        b.PaidAmount == null ? null : toCents(b.PaidAmount),
        b.CheckNumber ?? null,
      ],
    );
    await tx.query(
      `INSERT INTO claim_status_history (claim_id, from_status_id, to_status_id, changed_by_user_id, changed_by_name, reason) VALUES ($1, NULL, $2, $3, $4, 'Created')`,
      [claimId, ClaimStatus.Received, ctx.user?.id ?? null, ctx.user?.name ?? null],
    );
    if (key) await ctx.services.createKeys.record(tx, key, claimId);
    // In the same transaction: a bill is never added without its audit row.
    await ctx.audit(
      { action: 'claim.create', entity: 'claim', entityId: claimId, memberId, detail: { billed: b.BilledAmount, idempotencyKey: key?.key ?? null } },
      tx,
    );
    return claimId;
  });
  return (await loadClaim(sql, id, { memberId: null })) as Claim;
}

/** The payee a member's own reimbursement request is billed under. */

/**
 * See ClaimsService.recordReimbursement. `today` is the business's day ({@link businessToday}): received then, numbered
 * with its year. A service after the member's termination day is refused (409) in `tx`, as a new bill's.
 */
export async function recordReimbursement(
  r: ReimbursementBill,
  tx: SqlClient,
  today: string,
  check: Omit<TerminationCheck, 'language'>,
): Promise<{ ClaimID: number; ClaimNumber: string }> {
  await refuseAfterTermination({ ...check, language: r.language ?? 'en' }, tx, r.memberId, r.serviceDate);
  const rows = await tx.query<{ claim_id: number; claim_number: string }>(
    `WITH n AS (SELECT nextval(pg_get_serial_sequence('claims', 'claim_id'))::int AS id)
     INSERT INTO claims (claim_id, claim_number, member_id, payee_id, payee_name, claim_status_id, bill_type_id, claim_type_id, billed_cents,
       service_date_from, received_date, created_by, source)
     SELECT n.id, 'RB' || to_char($6::date, 'YY') || lpad(n.id::text, 6, '0'), $1, NULL, $2, ${ClaimStatus.Received}, ${BillType.Misc}, 5, $3,
       $4::date, $6::date, $5, 'reimbursement'
     FROM n RETURNING claim_id, claim_number`,
    [r.memberId, REIMBURSEMENT_PAYEE, r.billedCents, r.serviceDate, r.createdByUserId, today],
  );
  const made = rows[0] as { claim_id: number; claim_number: string };
  await tx.query(
    `INSERT INTO claim_status_history (claim_id, from_status_id, to_status_id, changed_by_user_id, changed_by_name, reason) VALUES ($1, NULL, $2, $3, $4, 'Reimbursement request')`,
    [made.claim_id, ClaimStatus.Received, r.createdByUserId, r.createdByName],
  );
  return { ClaimID: made.claim_id, ClaimNumber: made.claim_number };
}

const STALE =
  'This bill was changed by someone else after you opened it. Your changes were not saved: reload the bill to see the latest version, then make your changes again.';

/**
 * Saves an edit. A field the request leaves out is unchanged (the web form sends no bill review received date, and a
 * member's form no payment details): the stored bill is merged with the fields actually sent. A field sent as null (or
 * '') is cleared where the bill may be without it; the claim number and the received date may not (400). An edit that
 * moves the service day (ServiceDateFrom) after the member's termination day is refused (409) as a new bill would be; one
 * that leaves it as it is saves (a bill already after that day, entered before the termination, is still worked).
 */
export async function updateClaim(ctx: WriteCtx, b: ClaimUpdate): Promise<Claim> {
  const scope = scopeFor(ctx);
  const sql = ctx.database.sql;
  const sent = (field: keyof ClaimUpdate) => Object.hasOwn(b, field) && b[field] !== undefined;
  if (sent('ClaimNumber') && b.ClaimNumber == null) throw badRequest('body.ClaimNumber: is required; a bill keeps its claim number.');
  if (sent('ReceivedDate') && b.ReceivedDate == null) throw badRequest('body.ReceivedDate: is required; a bill keeps its received date.');
  return sql.transaction(async (tx) => {
    const cur = await loadClaim(tx, b.ClaimID, scope, true);
    if (!cur) throw notFound(NOT_FOUND);
    if (cur.Version !== b.Version) throw conflict(STALE);
    const source = await billSource(tx, b.ClaimID);
    if (!canEdit(ctx, cur, source)) {
      if (source === 'reimbursement' && !isSuperUser(ctx)) throw forbidden(REIMBURSEMENT_LOCKED);
      throw conflict(msg('A bill that is {{status}} can no longer be edited.', { status: statusLabel(cur.ClaimStatusID) }));
    }
    const cents = (v: number | null | undefined) => (v == null ? null : toCents(v));
    // The bill as it is to be: the stored one, with the fields sent.
    const next = {
      ClaimNumber: sent('ClaimNumber') ? (b.ClaimNumber as string).toUpperCase() : cur.ClaimNumber,
      SubmittedUNCCents: sent('SubmittedUNCAmount') ? cents(b.SubmittedUNCAmount) : cents(cur.SubmittedUNCAmount),
      ServiceDateTo: sent('ServiceDateTo') ? (b.ServiceDateTo ?? null) : cur.ServiceDateTo,
      ReceivedDate: sent('ReceivedDate') ? (b.ReceivedDate as string) : cur.ReceivedDate,
      BillReviewReceivedDate: sent('BillReviewReceivedDate') ? (b.BillReviewReceivedDate ?? null) : cur.BillReviewReceivedDate,
      PaidDate: sent('PaidDate') ? (b.PaidDate ?? null) : cur.PaidDate,
      PaidCents: sent('PaidAmount') ? cents(b.PaidAmount) : cents(cur.PaidAmount),
      CheckNumber: sent('CheckNumber') ? (b.CheckNumber ?? null) : cur.CheckNumber,
    };
    if (next.ServiceDateTo && next.ServiceDateTo < b.ServiceDateFrom) throw badRequest('body.ServiceDateTo: must not be before ServiceDateFrom');
    refuseFutureDates({ ...b, ServiceDateTo: next.ServiceDateTo }, businessToday(ctx.config.businessTimeZone), cur);
    const paymentChanged = next.PaidDate !== cur.PaidDate || next.PaidCents !== cents(cur.PaidAmount) || next.CheckNumber !== cur.CheckNumber;
    if (paymentChanged && !isSuperUser(ctx)) throw forbidden(PAYMENT_SUPERUSER_ONLY);
    // Only a moved service day is checked (in this transaction, the member's row FOR SHARE): a day already on the bill
    // and left as it is does not block the save, so staff still work a bill entered before the termination was recorded.
    if (b.ServiceDateFrom !== cur.ServiceDateFrom) await refuseAfterTermination(terminationCheck(ctx), tx, cur.MemberID, b.ServiceDateFrom);
    // An unchanged payee stays as it is (a member's own payee name too, even when staff save the bill).
    const samePayee = b.PayeeID ? b.PayeeID === cur.PayeeID : cur.PayeeID === null && b.PayeeName === cur.PayeeName;
    const payee = samePayee ? { id: cur.PayeeID, name: cur.PayeeName } : await resolvePayee(tx, b, sharesPayees(ctx));
    const rows = await tx.query<{ claim_id: number }>(
      `UPDATE claims SET claim_number = $3, payee_id = $4, payee_name = $5, bill_type_id = $6, claim_type_id = $7,
         billed_cents = $8, submitted_unc_cents = $9, service_date_from = $10::date, service_date_to = $11::date,
         received_date = $12::date, bill_review_received_date = $13::date,
         paid_date = $14::date, paid_cents = $15, check_number = $16, version = version + 1, updated_at = now()
       WHERE claim_id = $1 AND version = $2 RETURNING claim_id`,
      [
        b.ClaimID,
        b.Version,
        next.ClaimNumber,
        payee.id,
        payee.name,
        b.BillTypeID,
        b.ClaimTypeID,
        toCents(b.BilledAmount),
        next.SubmittedUNCCents,
        b.ServiceDateFrom,
        next.ServiceDateTo,
        next.ReceivedDate,
        next.BillReviewReceivedDate,
        next.PaidDate,
        next.PaidCents,
        next.CheckNumber,
      ],
    );
    if (rows.length === 0) throw conflict(STALE);
    const after = (await loadClaim(tx, b.ClaimID, { memberId: null })) as Claim;
    const diff = Object.fromEntries(
      (Object.keys(after) as (keyof Claim)[]).filter((k) => k !== 'Version' && after[k] !== cur[k]).map((k) => [k, { from: cur[k], to: after[k] }]),
    );
    await ctx.audit({ action: 'claim.update', entity: 'claim', entityId: b.ClaimID, memberId: after.MemberID, detail: { changes: diff } }, tx);
    return after;
  });
}

const STALE_ONE = 'No status was changed: bill {{ids}} was changed by someone else after you saw it. Reload to see its current status, then choose again.';
const STALE_MANY =
  'No status was changed: bills {{ids}} were changed by someone else after you saw them. Reload to see their current status, then choose again.';

/**
 * Moves every listed bill to one status in a single transaction: the rows are locked, every bill named with a Version is
 * checked to be still at that Version, every transition is checked against the state machine, and one refusal (or one
 * bill out of reach) changes nothing.
 */
export async function changeStatus(ctx: Ctx, b: ChangeStatus): Promise<Claim[]> {
  const scope = scopeFor(ctx);
  // Each bill's Versions as the caller saw them (none for a bill named by its id alone); a bill named twice counts once.
  const seen = versionsSeen(b.Ids);
  const ids = [...seen.keys()].sort((x, y) => x - y);
  const to = b.NewClaimStatusID;
  const sql = ctx.database.sql;
  try {
    await sql.transaction(async (tx) => {
      const params: unknown[] = [ids];
      let where = 'claim_id = ANY($1::int[])';
      if (scope.memberId !== null) {
        params.push(scope.memberId);
        where += ' AND member_id = $2';
      }
      const rows = await tx.query<{
        claim_id: number;
        member_id: number;
        claim_status_id: number;
        version: number;
        paid_date: string | null;
        paid_cents: string | number | null;
        check_number: string | null;
      }>(
        `SELECT claim_id, member_id, claim_status_id, version, to_char(paid_date, 'YYYY-MM-DD') AS paid_date, paid_cents, check_number
         FROM claims WHERE ${where} ORDER BY claim_id FOR UPDATE`,
        params,
      );
      const found = new Set(rows.map((r) => r.claim_id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length === 1) throw notFound(msg('No status was changed: bill {{ids}} not found.', { ids: listIds(missing) }));
      if (missing.length) throw notFound(msg('No status was changed: bills {{ids}} not found.', { ids: listIds(missing) }));
      // Checked against the status the caller saw, not only the current one: a bill changed since (its Version moved on)
      // refuses the whole change, before the state machine would judge a move the caller never chose from that status.
      const stale = staleIds(
        seen,
        rows.map((r) => ({ id: r.claim_id, version: r.version })),
      );
      if (stale.length === 1) throw conflict(msg(STALE_ONE, { ids: listIds(stale) }));
      if (stale.length) throw conflict(msg(STALE_MANY, { ids: listIds(stale) }));
      const refused = rows.flatMap((r) => {
        const reason = transitionRefusal(r.claim_status_id, to);
        return reason === null ? [] : [{ id: r.claim_id, reason }];
      });
      if (refused.length) {
        const lines: Message[] = refused.slice(0, 5).map((r) => msg('bill {{id}}: {{reason}}', { id: r.id, reason: r.reason }));
        if (refused.length > 5) lines.push(msg('and {{count}} more', { count: refused.length - 5 }));
        throw conflict(msg('No status was changed. {{reasons}}', { reasons: joinMessages(lines, ' ') }));
      }
      // A payment that no longer stands is cleared (it stays in the audit row of this change): a reissue (Ready for
      // Reissue → Payment Issued) starts a new payment, whose → Paid stamps its own day and amount; a void bill was not
      // paid. Until the reissue, Non Redeemed Payment and Ready for Reissue show as Paid (spec 02 section 4) with the
      // first payment, and a late-cashed check (Non Redeemed Payment → Paid) keeps it.
      const clears = (from: number) => to === ClaimStatus.Void || (from === ClaimStatus.ReadyForReissue && to === ClaimStatus.PaymentIssued);
      const cleared = rows.filter((r) => clears(r.claim_status_id) && (r.paid_date !== null || r.paid_cents !== null || r.check_number !== null));
      const clearedIds = new Set(cleared.map((r) => r.claim_id));
      await tx.query(
        `UPDATE claims SET claim_status_id = $2::int, version = version + 1, updated_at = now(),
           paid_date = CASE WHEN claim_id = ANY($4::int[]) THEN NULL WHEN $2::int = ${ClaimStatus.Paid} THEN coalesce(paid_date, $3::date) ELSE paid_date END,
           paid_cents = CASE WHEN claim_id = ANY($4::int[]) THEN NULL WHEN $2::int = ${ClaimStatus.Paid} THEN coalesce(paid_cents, billed_cents) ELSE paid_cents END,
           check_number = CASE WHEN claim_id = ANY($4::int[]) THEN NULL ELSE check_number END,
           bill_review_received_date = CASE WHEN $2::int = ${ClaimStatus.InReview} THEN coalesce(bill_review_received_date, $3::date) ELSE bill_review_received_date END
         WHERE claim_id = ANY($1::int[])`,
        [ids, to, businessToday(ctx.config.businessTimeZone), [...clearedIds]],
      );
      await tx.query(
        `INSERT INTO claim_status_history (claim_id, from_status_id, to_status_id, changed_by_user_id, changed_by_name, reason)
         SELECT u.id, u.f, $3::int, $4::uuid, $5::text, $6::text FROM unnest($1::int[], $2::int[]) AS u(id, f)`,
        [rows.map((r) => r.claim_id), rows.map((r) => r.claim_status_id), to, ctx.user?.id ?? null, ctx.user?.name ?? null, b.Reason ?? null],
      );
      // In the same transaction: no status moves without its audit row (all rows in one statement, not one a bill).
      await ctx.audit(
        rows.map((r) => ({
          action: 'claim.status',
          entity: 'claim',
          entityId: r.claim_id,
          memberId: r.member_id,
          detail: {
            from: r.claim_status_id,
            to,
            reason: b.Reason ?? null,
            ...(clearedIds.has(r.claim_id)
              ? {
                  clearedPayment: {
                    PaidDate: r.paid_date,
                    PaidAmount: r.paid_cents === null ? null : Number(r.paid_cents) / 100,
                    CheckNumber: r.check_number,
                  },
                }
              : {}),
          },
        })),
        tx,
      );
    });
  } catch (e) {
    if (e instanceof ApiError) {
      await ctx.audit({
        action: 'claim.status',
        entity: 'claim',
        entityId: ids.slice(0, 20).join(','),
        outcome: 'refused',
        detail: { ids, to, message: e.message },
      });
    }
    throw e;
  }
  return sql.query<Claim>(
    `SELECT ${CLAIM_COLUMNS} FROM claims c JOIN members m ON m.member_id = c.member_id WHERE c.claim_id = ANY($1::int[]) ORDER BY c.claim_id`,
    [ids],
  );
}

const listIds = (ids: number[]): Message =>
  ids.length > 10 ? msg('{{ids}} and {{count}} more', { ids: ids.slice(0, 10).join(', '), count: ids.length - 10 }) : ids.join(', ');

/** The answer's message after a status change: how many bills now have which status. */
export const statusChanged = (count: number, status: number): Message =>
  count === 1
    ? msg('1 bill set to {{status}}.', { status: statusLabel(status) })
    : msg('{{count}} bills set to {{status}}.', { count, status: statusLabel(status) });

export async function recentClaims(ctx: SearchCtx): Promise<Claim[]> {
  const scope = scopeFor(ctx);
  const params: unknown[] = [RECENT_CLAIMS];
  const where = scope.memberId === null ? '' : `WHERE c.member_id = $${params.push(scope.memberId)}`;
  return ctx.searchSql.query<Claim>(
    `SELECT ${CLAIM_COLUMNS}
     FROM (SELECT c.claim_id FROM claims c ${where} ORDER BY c.received_date DESC, c.claim_id DESC LIMIT $1) page
     JOIN claims c ON c.claim_id = page.claim_id JOIN members m ON m.member_id = c.member_id
     ORDER BY c.received_date DESC, c.claim_id DESC`,
    params,
  );
}

/**
 * Global search (limit 5): claim id, claim number prefix, check number (any case, spaces and '-' ignored), or payee
 * name (every word, punctuation ignored: textMatch.ts; a shared payee's name also without its spaces, "riteaid").
 * Each part reads its own index on claims (primary key, number, claims_check_norm_idx, the shared payees' bills newest
 * first, claims_free_text_payee_idx for a member's own payee names), at most 5 rows each.
 */
export async function quickSearch(ctx: SearchCtx, q: string, size: number): Promise<Claim[]> {
  const scope = scopeFor(ctx);
  const params: unknown[] = [Math.min(size, GLOBAL_SEARCH_LIMIT)];
  const mine = scope.memberId === null ? '' : ` AND c.member_id = $${params.push(scope.memberId)}`;
  const parts: string[] = [];
  if (/^\d{1,9}$/.test(q)) parts.push(`(SELECT c.claim_id FROM claims c WHERE c.claim_id = $${params.push(Number(q))}${mine})`);
  const prefix = `${q.toUpperCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  parts.push(`(SELECT c.claim_id FROM claims c WHERE c.claim_number LIKE $${params.push(prefix)}${mine} ORDER BY c.claim_id DESC LIMIT $1)`);
  const check = normalIdentifier(q);
  if (check !== '')
    parts.push(`(SELECT c.claim_id FROM claims c WHERE ${identifierSql('c.check_number')} = $${params.push(check)}${mine} ORDER BY c.claim_id DESC LIMIT $1)`);
  const words = payeeWords(q);
  if (words.length > 0) {
    const patterns = `$${params.push(payeePatterns(words))}`;
    // The EXISTS is evaluated once, before any bill is read: when no shared payee matches, the part reads no bill (the
    // planner walks the bills newest first and would read every one of them, 170-500 ms at 300,000 bills, looking
    // for a payee the empty list holds).
    const shared = `SELECT payee_id FROM claim_payees WHERE ${payeeMatchSql('name', patterns, true)}`;
    parts.push(`(SELECT c.claim_id FROM claims c WHERE EXISTS (${shared}) AND c.payee_id IN (${shared})${mine} ORDER BY c.claim_id DESC LIMIT $1)`);
    // A member's own payee name is on the bill only (claims_free_text_payee_idx holds those bills).
    parts.push(
      `(SELECT c.claim_id FROM claims c WHERE c.payee_id IS NULL AND ${payeeMatchSql('c.payee_name', patterns)}${mine} ORDER BY c.claim_id DESC LIMIT $1)`,
    );
  }
  return ctx.searchSql.query<Claim>(
    `SELECT ${CLAIM_COLUMNS} FROM claims c JOIN members m ON m.member_id = c.member_id
     WHERE c.claim_id IN (${parts.join(' UNION ')}) ORDER BY c.claim_id DESC LIMIT $1`,
    params,
  );
}

/**
 * The shared payees for the bill forms: every word of the text in the name, punctuation ignored on both sides
 * ("walgreens 4127" finds "Walgreens Pharmacy #4127", "St Mary" "St. Mary Regional Medical Center", "Rite-Aid" and
 * "riteaid" "Rite Aid Pharmacy #0911": textMatch.ts). Names that begin with the text first, then by name; 20 at most.
 * The payees are a short list (the reference ones and those staff add): the names are compared on each row.
 */
export async function searchVendors(sql: SqlClient, text: string): Promise<Vendor[]> {
  const words = payeeWords(text);
  if (words.length === 0) return [];
  return sql.query<Vendor>(
    `SELECT payee_id AS "PayeeID", name AS "PayeeName", kind AS "Kind", city AS "City", state AS "State"
     FROM claim_payees WHERE ${payeeMatchSql('name', '$1', true)}
     ORDER BY strpos(${payeeCompactSql('name')}, $2) = 1 DESC, lower(name), payee_id LIMIT 20`,
    [payeePatterns(words), words.join('')],
  );
}
