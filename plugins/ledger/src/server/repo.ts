import { dayIn, formatIsoDayText, localeOf } from '@portal/core';
import {
  ApiError,
  badRequest,
  conflict,
  type Message,
  msg,
  notFound,
  PayerError,
  type PayerSubmission,
  pruneKeyTable,
  type RouteContext,
  requestFingerprint,
  type SqlClient,
} from '@portal/server';
import { ledgerFlags } from '../access';
import {
  type ActivitySearch,
  type ActivitySortColumn,
  type CardSearch,
  type CardTransaction,
  checkBalance,
  checkLedgerEdit,
  checkLedgerEntry,
  DefaultRange,
  EXCLUDED_STATUSES,
  type LedgerBalance,
  type LedgerCreate,
  type LedgerMember,
  LedgerMessages,
  type LedgerQuery,
  type LedgerSearch,
  type LedgerSearchResult,
  type LedgerTransaction,
  type LedgerUpdate,
  latestToday,
  PayerMessages,
  RECENT_TRANSACTIONS,
  type ReportIssue,
  type ReportSend,
  TransactionType,
} from '../contract';

export type Ctx = Pick<RouteContext, 'user' | 'memberId' | 'impersonating' | 'database' | 'services' | 'audit' | 'auditRead' | 'config' | 'timeZone'>;

/**
 * The business's today, 'YYYY-MM-DD' (BUSINESS_TIME_ZONE): the server's "today" members see (the widgets' AsOf, the
 * dashboard's periods, the default ranges of the views over the rows' own dates, the day an empty date stands for).
 * Never the UTC day: in a US evening that is already tomorrow. The future-date check keeps its own bound (latestToday).
 */
export const businessToday = (ctx: Pick<RouteContext, 'config'>): string => dayIn(ctx.config.businessTimeZone);

/** Whose ledger a request works on: the member it acts for (own login, or staff impersonating). Staff acting for nobody get 400. */
export function memberOf(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw badRequest(NO_MEMBER_MESSAGE);
  return ctx.memberId;
}

export const NO_MEMBER_MESSAGE = 'Your account has no ledger of its own. Choose a member to act for first.';
const STALE = 'Someone else changed this transaction; reload to see their change.';
const NOT_FOUND = 'The transaction was not found.';
/** A create's key sent again with other values: the row was added, with the values first sent (the page keeps the new ones). */
export const KEY_REUSED = 'This transaction was already added, with the values first sent. Nothing else was saved.';
const CARD_READ_ONLY = 'Card transactions come from the card and cannot be changed here.';
const BANK_READ_ONLY = 'Bank transactions come from your linked bank account and cannot be changed here.';
const REPORTED_LOCKED = 'This transaction was already reported to the federal payer and cannot be changed.';
const TERMINATED_MESSAGE = 'The membership ended on {{date}}: a transaction dated after that day cannot be added or saved.';
const excluded = `(${EXCLUDED_STATUSES.map((s) => `'${s}'`).join(', ')})`;
/** The ledger's rows: everything but card holds and voids. */
export const LEDGER_ROWS = `status NOT IN ${excluded}`;
const signed = `CASE WHEN transaction_type_id = ${TransactionType.Expense} THEN -amount_cents ELSE amount_cents END`;
/** Rows the federal payer's report needs a field of: code on expenses, company and description on all. */
const EMPTY_FIELDS = `((code IS NULL AND transaction_type_id = ${TransactionType.Expense}) OR company IS NULL OR description IS NULL)`;

interface DbRow {
  transaction_id: number;
  date_created: string;
  code: string | null;
  company: string | null;
  description: string | null;
  transaction_type_id: number;
  amount_cents: number;
  balance_cents: number | null;
  status: string;
  source: 'ledger' | 'card' | 'bank';
  reported_date: string | null;
  version: number;
  report_id: number | null;
}
const toWire = (r: DbRow): LedgerTransaction => ({
  TransactionID: r.transaction_id,
  DateCreated: r.date_created,
  Code: r.code,
  Company: r.company,
  Description: r.description,
  TransactionTypeID: r.transaction_type_id,
  Amount: Number(r.amount_cents) / 100,
  Balance: r.balance_cents === null ? null : Number(r.balance_cents) / 100,
  Status: r.status,
  Source: r.source,
  ReportedDate: r.reported_date,
  Version: r.version,
});

/**
 * The member's ledger with the running balance after each row (date order), as a subquery named l. reported_date is
 * the day the payer acknowledged the row's report, in the business's time zone (`zoneParam`: the parameter holding
 * config.businessTimeZone): a row of a send still waiting for the payer (a 'sending' report) is locked against edits
 * (report_id is set) but not yet reported, so it has none.
 */
function ledgerWith(memberParam: string, zoneParam: string): string {
  return `WITH l AS (
    SELECT t.transaction_id, to_char(t.date_created, 'YYYY-MM-DD') AS date_created, t.date_created AS day, t.code, t.company, t.description,
      t.transaction_type_id, t.amount_cents::float8 AS amount_cents, t.status, t.source, t.version, t.report_id, t.created_at,
      to_char(r.sent_at AT TIME ZONE ${zoneParam}, 'YYYY-MM-DD') AS reported_date,
      ((SELECT a.initial_balance_cents FROM ledger_accounts a WHERE a.member_id = ${memberParam})
        + sum(CASE WHEN t.transaction_type_id = ${TransactionType.Expense} THEN -t.amount_cents ELSE t.amount_cents END) OVER (ORDER BY t.date_created, t.transaction_id))::float8 AS balance_cents
    FROM ledger_transactions t LEFT JOIN ledger_reports r ON r.report_id = t.report_id AND r.status = 'sent'
    WHERE t.member_id = ${memberParam} AND t.${LEDGER_ROWS})`;
}
const ROW_COLUMNS =
  'transaction_id, date_created, code, company, description, transaction_type_id, amount_cents, balance_cents, status, source, reported_date, version, report_id';

const LEDGER_SORT: Record<string, string> = {
  DateCreated: 'day',
  // Text sorts ignore case (the database's collation is C: 'acme' would follow 'Zeta').
  Code: 'lower(code)',
  Company: 'lower(company)',
  Description: 'lower(description)',
  TransactionTypeID: 'transaction_type_id',
  Amount: 'amount_cents',
};

/** The query's From and To, each defaulting to `fallback`'s range ending on `today` (the caller says whose today). */
export function rangeOf(q: { From?: string | null; To?: string | null }, fallback: (today: string) => { From: string; To: string }, today: string) {
  const d = fallback(today);
  return { From: q.From ?? d.From, To: q.To ?? d.To };
}

/**
 * The ledger view (default: one year to the business's today, DateCreated ascending) or the reported view, a page with
 * the count. From and To are calendar days over the rows' own dates (a date column): no time zone applies.
 */
export async function searchLedger(ctx: Ctx & Pick<RouteContext, 'searchSql'>, s: LedgerSearch): Promise<LedgerSearchResult> {
  const memberId = memberOf(ctx);
  const { From, To } = rangeOf(s.Query, DefaultRange.ledger, businessToday(ctx));
  const params: unknown[] = [memberId, From, To, ctx.config.businessTimeZone];
  const where = ['day BETWEEN $2::date AND $3::date'];
  // Reported: in a report the payer acknowledged. A row whose send is still waiting for the payer is not shown yet.
  if (s.Query.View === 'reported') where.push('reported_date IS NOT NULL');
  if (s.Query.EmptyFields) where.push(EMPTY_FIELDS);
  const column = LEDGER_SORT[s.SortColumn ?? 'DateCreated'] ?? 'day';
  const dir = (s.SortOrder ?? 'asc') === 'desc' ? 'DESC' : 'ASC';
  params.push(s.PageSize, s.PageIndex * s.PageSize);
  const rows = await ctx.searchSql.query<DbRow & { total: number }>(
    `${ledgerWith('$1', '$4')} SELECT ${ROW_COLUMNS}, count(*) OVER ()::int AS total FROM l WHERE ${where.join(' AND ')}
     ORDER BY ${column} ${dir} NULLS LAST, transaction_id ${dir} LIMIT $5 OFFSET $6`,
    params,
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && s.PageIndex > 0) {
    total =
      (
        await ctx.searchSql.query<{ n: number }>(`${ledgerWith('$1', '$4')} SELECT count(*)::int AS n FROM l WHERE ${where.join(' AND ')}`, params.slice(0, 4))
      )[0]?.n ?? 0;
  }
  return { Items: rows.map(toWire), ItemCount: total, From, To };
}

/** One row of the member's ledger as the views answer it; `zone` is the business's (its ReportedDate's day). */
async function loadRow(sql: SqlClient, memberId: number, id: number, zone: string): Promise<LedgerTransaction> {
  const rows = await sql.query<DbRow>(`${ledgerWith('$1', '$3')} SELECT ${ROW_COLUMNS} FROM l WHERE transaction_id = $2`, [memberId, id, zone]);
  const row = rows[0];
  if (row) return toWire(row);
  // A card hold is outside the ledger's rows; answer it without a running balance.
  const held = await sql.query<DbRow>(
    `SELECT transaction_id, to_char(date_created, 'YYYY-MM-DD') AS date_created, code, company, description, transaction_type_id, amount_cents::float8 AS amount_cents,
       NULL::float8 AS balance_cents, status, source, NULL AS reported_date, version, report_id FROM ledger_transactions WHERE member_id = $1 AND transaction_id = $2`,
    [memberId, id],
  );
  if (!held[0]) throw notFound(NOT_FOUND);
  return toWire(held[0]);
}

async function ensureAccount(sql: SqlClient, memberId: number): Promise<void> {
  await sql.query('INSERT INTO ledger_accounts (member_id) VALUES ($1) ON CONFLICT (member_id) DO NOTHING', [memberId]);
}

async function history(sql: SqlClient, ctx: Ctx, memberId: number, transactionId: number, action: string, before: unknown, after: unknown) {
  await sql.query('INSERT INTO ledger_history (transaction_id, member_id, action, before, after, actor_user_id) VALUES ($1, $2, $3, $4, $5, $6)', [
    transactionId,
    memberId,
    action,
    before === null ? null : JSON.stringify(before),
    after === null ? null : JSON.stringify(after),
    ctx.user?.id ?? null,
  ]);
}

const snapshot = (t: LedgerTransaction) => ({
  DateCreated: t.DateCreated,
  Code: t.Code,
  Company: t.Company,
  Description: t.Description,
  TransactionTypeID: t.TransactionTypeID,
  Amount: t.Amount,
});

/**
 * The rules of a create. A date is in the future once it is after today everywhere on earth (latestToday: the server
 * does not know the member's time zone); the page always sends its own day, so the business's today stands in for an
 * empty date only for other callers.
 */
function checked(ctx: Pick<RouteContext, 'config'>, body: LedgerCreate) {
  const r = checkLedgerEntry(body, latestToday(), businessToday(ctx));
  if (!r.ok) throw badRequest(r.message);
  return r.entry;
}

/**
 * A terminated membership's ledger takes no row dated after the day it ended (the termination's calendar day in the
 * business's time zone): a create or an edit that would leave a row dated after it is refused with 409 (Data
 * `{ Terminated: true }`, which the page reads), whoever asks (the member, staff acting for them). A row dated on or
 * before that day may still be added or corrected (finance staff closing the set-aside's books), and any row deleted.
 * Read in the write's transaction with the member's row FOR SHARE: a termination committing meanwhile waits for this
 * write, which was checked against the membership as it was.
 */
async function refuseAfterTermination(tx: SqlClient, ctx: Ctx & Pick<RouteContext, 'language'>, memberId: number, day: string): Promise<void> {
  const ended = await ctx.services.members.terminationDay(memberId, ctx.config.businessTimeZone, tx, { share: true });
  if (ended === null || day <= ended) return;
  // The day in the reader's language ('Feb 3, 2026', '3 feb 2026'), as claims and reimbursement word their refusals.
  throw new ApiError(409, msg(TERMINATED_MESSAGE, { date: formatIsoDayText(ended, 'medium', localeOf(ctx.language)) }), { Terminated: true });
}

/**
 * Adds the member's transaction. Its IdempotencyKey (required) is claimed first, in the same transaction: a create
 * repeated with a key the member already used (a double press on Save, a retried request) waits for the first one to
 * commit and answers its row, adding nothing (404 once that row was deleted). The key with other values (the answer
 * was lost and the member then corrected the row) is refused with 409 (KEY_REUSED, as the kernel's keys refuse theirs), with Data
 * `{ KeyReused: true, Transaction }`: the row as the first request made it, so the page can offer the correction as an
 * edit of that row. Nothing is changed.
 */
export async function createTransaction(ctx: Ctx & Pick<RouteContext, 'language'>, body: LedgerCreate): Promise<LedgerTransaction> {
  const memberId = memberOf(ctx);
  const entry = checked(ctx, body);
  const key = body.IdempotencyKey;
  return ctx.database.sql.transaction(async (tx) => {
    await ensureAccount(tx, memberId);
    const hash = requestFingerprint(body);
    const claimed = await tx.query(
      `INSERT INTO ledger_create_keys (member_id, idempotency_key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT (member_id, idempotency_key) DO NOTHING RETURNING member_id`,
      [memberId, key, hash],
    );
    if (claimed.length === 0) {
      const first = (
        await tx.query<{ transaction_id: number | null; request_hash: string | null }>(
          'SELECT transaction_id, request_hash FROM ledger_create_keys WHERE member_id = $1 AND idempotency_key = $2',
          [memberId, key],
        )
      )[0];
      if (!first?.transaction_id) throw notFound(NOT_FOUND);
      const row = await loadRow(tx, memberId, first.transaction_id, ctx.config.businessTimeZone);
      if (first.request_hash !== null && first.request_hash !== hash) throw new ApiError(409, KEY_REUSED, { KeyReused: true, Transaction: row });
      return row;
    }
    await refuseAfterTermination(tx, ctx, memberId, entry.DateCreated);
    const id = (
      await tx.query<{ transaction_id: number }>(
        `INSERT INTO ledger_transactions (member_id, source, date_created, code, company, description, transaction_type_id, amount_cents)
         VALUES ($1, 'ledger', $2, $3, $4, $5, $6, $7) RETURNING transaction_id`,
        [memberId, entry.DateCreated, body.Code ?? null, body.Company ?? null, String(body.Description).trim(), entry.TransactionTypeID, entry.AmountCents],
      )
    )[0]?.transaction_id;
    if (!id) throw new Error('insert returned no id');
    await tx.query('UPDATE ledger_create_keys SET transaction_id = $3 WHERE member_id = $1 AND idempotency_key = $2', [memberId, key, id]);
    const row = await loadRow(tx, memberId, id, ctx.config.businessTimeZone);
    await history(tx, ctx, memberId, id, 'create', null, snapshot(row));
    await ctx.audit({ action: 'ledger.transaction.create', entity: 'ledger_transaction', entityId: id, memberId, detail: snapshot(row) }, tx);
    return row;
  });
}

export const CREATE_KEY_PRUNE_JOB = 'ledger.prune-create-keys';
/** Once a day, at a quiet hour (UTC), with the kernel's own create keys. */
export const CREATE_KEY_PRUNE_CRON = '17 3 * * *';

/** Deletes creates' keys older than the kernel's window for its own, in the daily `ledger.prune-create-keys` job. */
export const pruneCreateKeys = (sql: SqlClient, retentionDays?: number) => pruneKeyTable(sql, 'ledger_create_keys', retentionDays);

async function lockForChange(tx: SqlClient, ctx: Ctx, memberId: number, id: number, version: number): Promise<LedgerTransaction> {
  const rows = await tx.query<{ version: number; source: string; report_id: number | null; report_status: string | null }>(
    `SELECT t.version, t.source, t.report_id, r.status AS report_status
     FROM ledger_transactions t LEFT JOIN ledger_reports r ON r.report_id = t.report_id
     WHERE t.transaction_id = $1 AND t.member_id = $2 FOR UPDATE OF t`,
    [id, memberId],
  );
  const row = rows[0];
  if (!row) throw notFound(NOT_FOUND);
  if (row.source === 'card') throw new ApiError(409, CARD_READ_ONLY);
  if (row.source === 'bank') throw new ApiError(409, BANK_READ_ONLY);
  // While its send waits for the payer a row stays what the payer gets, for everyone: a SuperUser's right to correct
  // reported rows starts once the report is recorded.
  if (row.report_status === 'sending') throw new ApiError(409, PayerMessages.sending, { Sending: true });
  if (row.report_id !== null && !ledgerFlags(ctx.user?.roles ?? []).isSuperUser) throw conflict(REPORTED_LOCKED);
  if (row.version !== version) throw conflict(STALE);
  return loadRow(tx, memberId, id, ctx.config.businessTimeZone);
}

/**
 * Edits repeat only the amount and future-date checks (spec 02 section 5). The description may be cleared (stored as
 * none: the nullable column the report check looks at); an empty date or type keeps the stored one (NOT NULL
 * columns), and the contract refuses a type other than 1, 2 or 3. A stale Version is refused with 409.
 */
export async function updateTransaction(ctx: Ctx & Pick<RouteContext, 'language'>, body: LedgerUpdate): Promise<LedgerTransaction> {
  const memberId = memberOf(ctx);
  const r = checkLedgerEdit(body, latestToday());
  if (!r.ok) throw badRequest(r.message);
  const entry = r.entry;
  const description = typeof body.Description === 'string' ? body.Description.trim() || null : null;
  return ctx.database.sql.transaction(async (tx) => {
    const before = await lockForChange(tx, ctx, memberId, body.TransactionID, body.Version);
    // The date the row keeps: the one typed, else the stored one (an edit of a row dated after the end is refused too).
    await refuseAfterTermination(tx, ctx, memberId, entry.DateCreated ?? before.DateCreated);
    await tx.query(
      `UPDATE ledger_transactions SET date_created = COALESCE($3::date, date_created), code = $4, company = $5, description = $6,
         transaction_type_id = COALESCE($7::smallint, transaction_type_id), amount_cents = $8, version = version + 1, updated_at = now()
       WHERE transaction_id = $1 AND member_id = $2`,
      [
        body.TransactionID,
        memberId,
        entry.DateCreated,
        body.Code ?? null,
        body.Company ?? null,
        description,
        body.TransactionTypeID ?? null,
        entry.AmountCents,
      ],
    );
    const after = await loadRow(tx, memberId, body.TransactionID, ctx.config.businessTimeZone);
    await history(tx, ctx, memberId, body.TransactionID, 'update', snapshot(before), snapshot(after));
    await ctx.audit(
      {
        action: 'ledger.transaction.update',
        entity: 'ledger_transaction',
        entityId: body.TransactionID,
        memberId,
        detail: { before: snapshot(before), after: snapshot(after) },
      },
      tx,
    );
    return after;
  });
}

export async function deleteTransaction(ctx: Ctx, id: number, version: number): Promise<void> {
  const memberId = memberOf(ctx);
  await ctx.database.sql.transaction(async (tx) => {
    const before = await lockForChange(tx, ctx, memberId, id, version);
    await tx.query('DELETE FROM ledger_transactions WHERE transaction_id = $1 AND member_id = $2', [id, memberId]);
    await history(tx, ctx, memberId, id, 'delete', snapshot(before), null);
    await ctx.audit({ action: 'ledger.transaction.delete', entity: 'ledger_transaction', entityId: id, memberId, detail: snapshot(before) }, tx);
  });
}

/**
 * The one definition of the member's balance: the initial balance plus the rows dated up to `asOf` (the business's
 * today, `businessToday`), as the ledger list's running balance and the balance chart count them. A row dated after it
 * (a bank's item dated by the aggregator's UTC day, a member's row dated up to the UTC+14 day) counts from its own day:
 * in the tile, the chart and the low-balance rule alike. No initial balance: no balance (null) anywhere.
 */
export async function loadBalance(sql: SqlClient, memberId: number, asOf: string): Promise<LedgerBalance> {
  const row = (
    await sql.query<{ initial: number | null; flow: number }>(
      `SELECT (SELECT initial_balance_cents::float8 FROM ledger_accounts WHERE member_id = $1) AS initial,
              COALESCE((SELECT sum(${signed}) FROM ledger_transactions WHERE member_id = $1 AND ${LEDGER_ROWS} AND date_created <= $2::date), 0)::float8 AS flow`,
      [memberId, asOf],
    )
  )[0];
  const initial = row?.initial ?? null;
  return {
    Amount: initial === null ? null : Number(initial) / 100,
    CurrentBalance: initial === null ? null : (Number(initial) + Number(row?.flow ?? 0)) / 100,
  };
}

/** Sets the initial balance once; a second attempt is refused and changes nothing. */
export async function setBalance(ctx: Ctx, amount: unknown): Promise<LedgerBalance> {
  const memberId = memberOf(ctx);
  const r = checkBalance(amount);
  if (!r.ok) throw badRequest(r.message);
  return ctx.database.sql.transaction(async (tx) => {
    await ensureAccount(tx, memberId);
    const updated = await tx.query<{ member_id: number }>(
      'UPDATE ledger_accounts SET initial_balance_cents = $2, balance_set_at = now() WHERE member_id = $1 AND initial_balance_cents IS NULL RETURNING member_id',
      [memberId, r.cents],
    );
    if (updated.length === 0) throw conflict(LedgerMessages.balanceSet);
    await history(tx, ctx, memberId, 0, 'balance', null, { Amount: r.cents / 100 });
    await ctx.audit({ action: 'ledger.balance.set', entity: 'ledger_account', entityId: memberId, memberId, detail: { Amount: r.cents / 100 } }, tx);
    return loadBalance(tx, memberId, businessToday(ctx));
  });
}

export interface AccountRow {
  hicn: string | null;
  date_of_injury: string | null;
  date_of_settlement: string | null;
}
/** The account's stored header with its version (1, the column's default, while the member has no account row yet). */
export interface StoredHeader extends AccountRow {
  header_version: number;
}
/** The stored header; `lock` takes the account row FOR UPDATE (a send checks and saves it in its transaction). */
async function loadAccount(sql: SqlClient, memberId: number, lock = false): Promise<StoredHeader> {
  const rows = await sql.query<StoredHeader>(
    `SELECT hicn, to_char(date_of_injury, 'YYYY-MM-DD') AS date_of_injury, to_char(date_of_settlement, 'YYYY-MM-DD') AS date_of_settlement, header_version
     FROM ledger_accounts WHERE member_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [memberId],
  );
  return rows[0] ?? { hicn: null, date_of_injury: null, date_of_settlement: null, header_version: 1 };
}

export async function loadMember(ctx: Ctx): Promise<LedgerMember> {
  const memberId = memberOf(ctx);
  const m = await ctx.services.members.load(memberId);
  if (!m) throw notFound('The member was not found.');
  const a = await loadAccount(ctx.database.sql, memberId);
  return {
    MemberID: m.memberId,
    MemberNumber: m.memberNumber,
    FirstName: m.firstName,
    LastName: m.lastName,
    IsMSA: m.isMsa,
    HICN: a.hicn,
    DateOfInjury: a.date_of_injury,
    DateOfSettlement: a.date_of_settlement,
    HeaderVersion: a.header_version,
    ...ledgerFlags(ctx.user?.roles ?? []),
  };
}

/** The header fields a query brings (HICN, date of injury, date of settlement); null where it leaves one out. */
const givenHeader = (q: LedgerQuery): AccountRow => ({
  hicn: q.HICN ?? null,
  date_of_injury: q.DateOfInjury ?? null,
  date_of_settlement: q.DateOfSettlement ?? null,
});
const bringsHeader = (given: AccountRow) => given.hicn !== null || given.date_of_injury !== null || given.date_of_settlement !== null;

/** The report's header: what the query brings, else what the account holds. Reads only: nothing is saved. */
export function headerOf(account: AccountRow, q: LedgerQuery): AccountRow {
  const given = givenHeader(q);
  return {
    hicn: given.hicn ?? account.hicn,
    date_of_injury: given.date_of_injury ?? account.date_of_injury,
    date_of_settlement: given.date_of_settlement ?? account.date_of_settlement,
  };
}

const HEADER_FIELDS = [
  ['hicn', 'HICN'],
  ['date_of_injury', 'DateOfInjury'],
  ['date_of_settlement', 'DateOfSettlement'],
] as const;

/**
 * Saves the header the query brings (audited), in the caller's transaction, over `stored` (read there FOR UPDATE):
 * only a send that passed its checks does, so a refused send or a check changes nothing. Only a header that changes
 * is written: the version goes up by one and the audit row names the fields changed; the same header again writes
 * nothing, so a page that loaded the header before keeps a version that is still current.
 */
async function saveHeader(tx: SqlClient, ctx: Ctx, memberId: number, stored: StoredHeader, q: LedgerQuery): Promise<void> {
  if (!bringsHeader(givenHeader(q))) return;
  const next = headerOf(stored, q);
  const changed = HEADER_FIELDS.filter(([column]) => next[column] !== stored[column]).map(([, field]) => field);
  if (changed.length === 0) return;
  const saved = await tx.query<{ header_version: number }>(
    `UPDATE ledger_accounts SET hicn = $2, date_of_injury = $3::date, date_of_settlement = $4::date, header_version = header_version + 1
     WHERE member_id = $1 RETURNING header_version`,
    [memberId, next.hicn, next.date_of_injury, next.date_of_settlement],
  );
  await ctx.audit(
    {
      action: 'ledger.report.header',
      entity: 'ledger_account',
      entityId: memberId,
      memberId,
      detail: { fields: changed, HeaderVersion: saved[0]?.header_version ?? null },
    },
    tx,
  );
}

interface ReportRow {
  transaction_id: number;
  date_created: string;
  code: string | null;
  company: string | null;
  description: string | null;
  transaction_type_id: number;
  amount_cents: number;
  report_id: number | null;
}
/** The period's rows in date order; `lock` takes them FOR UPDATE (a send marks what it read, after any edit already under way). */
async function periodRows(sql: SqlClient, memberId: number, from: string, to: string, lock = false): Promise<ReportRow[]> {
  return sql.query<ReportRow>(
    `SELECT transaction_id, to_char(date_created, 'YYYY-MM-DD') AS date_created, code, company, description, transaction_type_id,
       amount_cents::float8 AS amount_cents, report_id
     FROM ledger_transactions WHERE member_id = $1 AND ${LEDGER_ROWS} AND date_created BETWEEN $2::date AND $3::date
     ORDER BY date_created, transaction_id${lock ? ' FOR UPDATE' : ''}`,
    [memberId, from, to],
  );
}

function issuesOf(header: AccountRow, rows: ReportRow[]): ReportIssue[] {
  const issues: ReportIssue[] = [];
  const missing = [header.hicn ? null : 'HICN', header.date_of_injury ? null : 'DateOfInjury', header.date_of_settlement ? null : 'DateOfSettlement'].filter(
    (f): f is string => f !== null,
  );
  if (missing.length) issues.push({ TransactionID: null, DateCreated: null, Fields: missing });
  for (const r of rows) {
    const fields = [
      r.code === null && r.transaction_type_id === TransactionType.Expense ? 'Code' : null,
      r.company === null ? 'Company' : null,
      r.description === null ? 'Description' : null,
    ].filter((f): f is string => f !== null);
    if (fields.length) issues.push({ TransactionID: r.transaction_id, DateCreated: r.date_created, Fields: fields });
  }
  return issues;
}

/**
 * Checks all records of the period and the report's header (the query's, else the account's); answers what is missing
 * (empty: ready to report). Only a check: it saves nothing, the header included (the send saves it).
 */
export async function reportCheck(ctx: Ctx, s: LedgerSearch): Promise<ReportIssue[]> {
  const memberId = memberOf(ctx);
  const { From, To } = rangeOf(s.Query, DefaultRange.ledger, businessToday(ctx));
  const header = headerOf(await loadAccount(ctx.database.sql, memberId), s.Query);
  return issuesOf(header, await periodRows(ctx.database.sql, memberId, From, To));
}

export interface SendOutcome {
  AcknowledgementId: string;
  AlreadySent: boolean;
  SentAt: string;
  RecordCount: number;
  From: string;
  To: string;
}
interface ReportRecord {
  report_id: number;
  status: 'sending' | 'sent';
  acknowledgement_id: string | null;
  sent_at: string | null;
  record_count: number | null;
}
const REPORT_COLUMNS = `report_id, status, acknowledgement_id, to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS sent_at, record_count`;

/** The period's report: sent, or claimed by a send that waits for the payer ('sending'); undefined when neither. */
async function periodReport(sql: SqlClient, memberId: number, from: string, to: string): Promise<ReportRecord | undefined> {
  return (
    await sql.query<ReportRecord>(`SELECT ${REPORT_COLUMNS} FROM ledger_reports WHERE member_id = $1 AND period_from = $2 AND period_to = $3`, [
      memberId,
      from,
      to,
    ])
  )[0];
}

/** A sent report's answer (the table's check makes a 'sent' report carry its acknowledgement, count and time). */
const outcomeOf = (r: ReportRecord, alreadySent: boolean, From: string, To: string): SendOutcome => ({
  AcknowledgementId: r.acknowledgement_id ?? '',
  AlreadySent: alreadySent,
  SentAt: r.sent_at ?? '',
  RecordCount: r.record_count ?? 0,
  From,
  To,
});

/**
 * How long a send's claim on its period holds. The payer call gives up after 15 seconds (SandboxFederalPayer), so an
 * older claim belongs to a send that stopped between its claim and its record (the process crashed or lost the
 * database). The next send of the same period takes it over and re-sends the submission stored with it, with the same
 * idempotency key, so the payer answers the acknowledgement it gave the first time, if it got that far.
 */
export const SEND_CLAIM_TIMEOUT = '2 minutes';

/** Another send of these records waits for the payer's answer: the data tells the web so (the text is in the user's language). */
const sendingRefusal = () => new ApiError(409, PayerMessages.sending, { Sending: true });
/** The header changed since the caller loaded it (its HeaderVersion is stale): the data tells the web so. */
const headerChangedRefusal = () => new ApiError(409, PayerMessages.headerChanged, { HeaderChanged: true });

/**
 * What a send goes on with: the period sent before, or its claim with the exact submission to give the payer (built
 * now and stored with the claim, or, `resumed`, the one stored by an earlier send whose outcome is unknown).
 */
type Claim = { sent: ReportRecord } | { reportId: number; submission: PayerSubmission; resumed: boolean };

/** The idempotency key of a member's period at the payer: the same for every send of that period. */
const payerKey = (memberId: number, from: string, to: string) => `ledger-${memberId}-${from}-${to}`;

/** The submission of the period's rows under `header`, as the payer gets it. */
function submissionOf(memberId: number, memberNumber: string, header: AccountRow, rows: ReportRow[], From: string, To: string): PayerSubmission {
  return {
    idempotencyKey: payerKey(memberId, From, To),
    memberNumber,
    hicn: header.hicn ?? '',
    dateOfInjury: header.date_of_injury ?? '',
    dateOfSettlement: header.date_of_settlement ?? '',
    periodFrom: From,
    periodTo: To,
    records: rows.map((r) => ({
      date: r.date_created,
      code: r.code,
      company: r.company,
      description: r.description,
      type: r.transaction_type_id,
      amountCents: Number(r.amount_cents),
    })),
  };
}

/**
 * A send's first step, one short transaction: claims the period with a 'sending' report, reads its rows FOR UPDATE (an
 * edit already under way commits first and is what gets sent), checks them and marks the ones not yet reported with
 * the claim. From its commit on, lockForChange refuses edits and deletes of the marked rows, so they stay what the
 * payer gets. The header the query brings is checked with the rows and saved (audited) only once every check passed,
 * in the same transaction: a refusal (incomplete records, another send waiting for the payer, a period already sent)
 * rolls the claim back with the rest and changes no HICN or date. `headerVersion` (the HeaderVersion the caller's
 * header was loaded at) is checked against the stored one, read FOR UPDATE in this transaction: another version means
 * someone changed the header meanwhile, and the send is refused (409) rather than sending or saving a stale copy.
 *
 * The submission built from the header and rows is stored with the claim before the payer is called. A claim of the
 * period left by a send whose outcome is unknown (unconfirmed, or older than SEND_CLAIM_TIMEOUT: the payer may hold
 * it) is taken over instead: its stored submission is sent again as it was, whatever header the query brings now.
 */
async function claimPeriod(ctx: Ctx, memberId: number, memberNumber: string, q: LedgerQuery, From: string, To: string, headerVersion?: number): Promise<Claim> {
  return ctx.database.sql.transaction(async (tx) => {
    // Claims of sends that stopped before this kind of claim kept its submission, of any of the member's periods:
    // released, their rows unmarked. A claim with its submission stays until a send of its period completes it.
    await tx.query(
      `WITH stale AS (
         DELETE FROM ledger_reports WHERE member_id = $1 AND status = 'sending' AND submission IS NULL AND claimed_at < now() - interval '${SEND_CLAIM_TIMEOUT}'
         RETURNING report_id)
       UPDATE ledger_transactions SET report_id = NULL WHERE member_id = $1 AND report_id IN (SELECT report_id FROM stale)`,
      [memberId],
    );
    const claimed = await tx.query<{ report_id: number }>(
      `INSERT INTO ledger_reports (member_id, period_from, period_to, status, claimed_at, sent_at, sent_by) VALUES ($1, $2, $3, 'sending', now(), NULL, $4)
       ON CONFLICT (member_id, period_from, period_to) DO NOTHING RETURNING report_id`,
      [memberId, From, To, ctx.user?.id ?? null],
    );
    const reportId = claimed[0]?.report_id;
    if (!reportId) {
      // Sent before; or a send of the period whose outcome is unknown, taken over (one send at a time: the update
      // clears what made it resumable); or a send of the period waiting for the payer right now.
      const existing = await periodReport(tx, memberId, From, To);
      if (existing?.status === 'sent') return { sent: existing };
      const resumed = await tx.query<{ report_id: number; submission: string }>(
        `UPDATE ledger_reports SET unconfirmed = false, claimed_at = now()
         WHERE member_id = $1 AND period_from = $2 AND period_to = $3 AND status = 'sending' AND submission IS NOT NULL
           AND (unconfirmed OR claimed_at < now() - interval '${SEND_CLAIM_TIMEOUT}')
         RETURNING report_id, submission`,
        [memberId, From, To],
      );
      const taken = resumed[0];
      if (taken) return { reportId: taken.report_id, submission: JSON.parse(taken.submission) as PayerSubmission, resumed: true };
      throw sendingRefusal();
    }
    // The account row exists and is locked before its header is read: a send (or a first header) committing meanwhile
    // is waited for, and its version then seen.
    await ensureAccount(tx, memberId);
    const stored = await loadAccount(tx, memberId, true);
    if (headerVersion !== undefined && stored.header_version !== headerVersion) throw headerChangedRefusal();
    const header = headerOf(stored, q);
    const rows = await periodRows(tx, memberId, From, To, true);
    // Incomplete: the answer's data says so (the web words it by that, not by the text, which is in the user's language).
    if (issuesOf(header, rows).length > 0) throw badRequest(PayerMessages.incomplete, { Incomplete: true });
    // Rows an overlapping period's send has marked and waits for the payer with: that send may still fail and unmark
    // them, and they would then be open to edits while this report holds them.
    const marked = [...new Set(rows.map((r) => r.report_id).filter((id): id is number => id !== null))];
    if (marked.length > 0) {
      const busy = await tx.query("SELECT 1 FROM ledger_reports WHERE status = 'sending' AND report_id = ANY($1::int[]) LIMIT 1", [marked]);
      if (busy.length > 0) throw sendingRefusal();
    }
    await tx.query('UPDATE ledger_transactions SET report_id = $1 WHERE member_id = $2 AND report_id IS NULL AND transaction_id = ANY($3::int[])', [
      reportId,
      memberId,
      rows.map((r) => r.transaction_id),
    ]);
    await saveHeader(tx, ctx, memberId, stored, q);
    const submission = submissionOf(memberId, memberNumber, header, rows, From, To);
    // Stored as the JSON text it is sent as: a re-send gives the payer the same bytes.
    await tx.query('UPDATE ledger_reports SET submission = $2 WHERE report_id = $1', [reportId, JSON.stringify(submission)]);
    return { reportId, submission, resumed: false };
  });
}

/**
 * A send whose outcome is unknown: the claim and its rows stay as they are (the payer may hold the submission), marked
 * unconfirmed, so the next send of the period takes it over at once and sends the same submission again.
 */
async function keepUnconfirmed(sql: SqlClient, reportId: number): Promise<void> {
  await sql.query("UPDATE ledger_reports SET unconfirmed = true WHERE report_id = $1 AND status = 'sending'", [reportId]);
}

/**
 * Whether the payer refused a send for certain (it answered a 4xx: it holds nothing new), as opposed to an outcome we
 * cannot know: no answer at all (a network error, a timeout), an answer that could not be read, or a 5xx (the payer,
 * or a proxy before it, failing: it may have stored the report before it failed).
 */
const definiteRefusal = (e: unknown): e is PayerError => e instanceof PayerError && e.status !== null && e.status >= 400 && e.status < 500;

/** Gives a claim up: its rows unmarked (open to edits again) and its 'sending' report gone, as if the send never began. */
async function releaseClaim(sql: SqlClient, memberId: number, reportId: number): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('UPDATE ledger_transactions SET report_id = NULL WHERE member_id = $1 AND report_id = $2', [memberId, reportId]);
    await tx.query("DELETE FROM ledger_reports WHERE report_id = $1 AND status = 'sending'", [reportId]);
  });
}

/**
 * Sends the period's records to the federal payer over HTTP, once per member and period, in three steps so that no
 * transaction stays open across the call (on PGlite one open transaction holds up every other query): claim the
 * period and mark its rows (claimPeriod), send exactly the rows read then, record the acknowledgement. The payer gets
 * the same idempotency key for the same period; a period already sent answers its first acknowledgement
 * (AlreadySent); a period whose send waits for the payer is refused (409), and so is a send whose HeaderVersion is not
 * the stored header's (someone changed the header since the caller loaded it). A send the payer refused (an error
 * status) releases its claim; one whose outcome is unknown (no answer) keeps it and its rows locked, and the next send
 * of the period re-sends the stored submission (the payer answers `duplicate` with its first acknowledgement when it
 * had it). A payer that holds a different report under the period's key (409) is named as such (OtherReport).
 */
export async function reportSend(ctx: Ctx, s: ReportSend): Promise<SendOutcome> {
  const memberId = memberOf(ctx);
  const { From, To } = rangeOf(s.Query, DefaultRange.ledger, businessToday(ctx));
  const sql = ctx.database.sql;
  const sent = await periodReport(sql, memberId, From, To);
  if (sent?.status === 'sent') return outcomeOf(sent, true, From, To);
  const member = await ctx.services.members.load(memberId);
  if (!member) throw notFound('The member was not found.');
  // The header the query brings is checked first and saved by the claim, in its transaction, once the send may go on.
  const claim = await claimPeriod(ctx, memberId, member.memberNumber, s.Query, From, To, s.HeaderVersion);
  if ('sent' in claim) return outcomeOf(claim.sent, true, From, To);
  const { reportId, submission, resumed } = claim;
  const recordCount = submission.records.length;
  const failed = (error: string, status = 502, message: string = PayerMessages.error, data?: Record<string, unknown>) => {
    ctx.auditRead({ action: 'ledger.report.send', entity: 'ledger_report', memberId, outcome: 'failure', detail: { From, To, error, resumed } });
    return new ApiError(status, message, data);
  };
  let ack: Awaited<ReturnType<typeof ctx.services.payer.submit>>;
  try {
    ack = await ctx.services.payer.submit(submission);
  } catch (e) {
    if (!definiteRefusal(e)) {
      // The payer may hold it: nothing is released. Should the mark fail too (the database gone), the claim holds the
      // rows until SEND_CLAIM_TIMEOUT and the next send of the period takes it over just the same.
      const error = failed(`outcome unknown: ${(e as Error).message}`);
      await keepUnconfirmed(sql, reportId);
      throw error;
    }
    // Refused: nothing is recorded and the rows are open to edits again. Should this fail too (the database gone), the
    // claim holds the rows until the next send of the period, which sends the stored submission again.
    const error = e.status === 409 ? failed(e.message, 409, PayerMessages.otherReport, { OtherReport: true }) : failed(e.message);
    await releaseClaim(sql, memberId, reportId);
    throw error;
  }
  return sql.transaction(async (tx) => {
    const recorded = await tx.query<ReportRecord>(
      `UPDATE ledger_reports SET status = 'sent', acknowledgement_id = $2, record_count = $3, sent_at = now() WHERE report_id = $1 AND status = 'sending'
       RETURNING ${REPORT_COLUMNS}`,
      [reportId, ack.acknowledgementId, recordCount],
    );
    const report = recorded[0];
    if (!report) {
      // This send outlived its claim (SEND_CLAIM_TIMEOUT) and a later send took it over and recorded the period first
      // (with the same acknowledgement: the same submission under the same key), or released it on a refusal.
      const current = await periodReport(tx, memberId, From, To);
      if (current?.status === 'sent') return outcomeOf(current, true, From, To);
      if (current) throw sendingRefusal();
      throw failed('the claim was released before the acknowledgement was recorded');
    }
    await history(tx, ctx, memberId, 0, 'report', null, {
      ReportID: report.report_id,
      AcknowledgementId: ack.acknowledgementId,
      From,
      To,
      RecordCount: recordCount,
    });
    await ctx.audit(
      {
        action: 'ledger.report.send',
        entity: 'ledger_report',
        entityId: report.report_id,
        memberId,
        detail: { From, To, RecordCount: recordCount, ack: ack.acknowledgementId, duplicate: ack.duplicate },
      },
      tx,
    );
    return outcomeOf(report, false, From, To);
  });
}

/** Every row of the period for the report file, in date order, with the running balance; `zone` is the business's. */
export async function reportRows(sql: SqlClient, memberId: number, from: string, to: string, zone: string): Promise<LedgerTransaction[]> {
  const rows = await sql.query<DbRow>(
    `${ledgerWith('$1', '$4')} SELECT ${ROW_COLUMNS} FROM l WHERE day BETWEEN $2::date AND $3::date ORDER BY day, transaction_id`,
    [memberId, from, to, zone],
  );
  return rows.map(toWire);
}
export { loadAccount };

const TYPE_NAMES: Record<number, string> = { 1: 'Expense', 2: 'Deposit', 3: 'Interest' };
export const typeName = (id: number) => TYPE_NAMES[id] ?? String(id);

/** An activity row's type as the member reads it ('Expense', 'Card Settled', 'Bank Deposit'): the route words it in their language. */
function activityType(source: string, status: string, typeId: number): Message {
  if (source === 'card') return msg('Card {{status}}', { status: msg(status) });
  if (source === 'bank') return msg('Bank {{type}}', { type: msg(typeName(typeId)) });
  return msg(typeName(typeId));
}

/** The columns of the activity's sort names (the spec's wire names: CreatedDate, type, text). */
const ACTIVITY_SORT = new Map<ActivitySortColumn, string>([
  ['CreatedDate', 'created_at'],
  ['type', 'transaction_type_id'],
  ['text', "lower(concat_ws(' - ', company, description))"],
]);

/** The activity's rows of the member ($1) entered from day $2 to day $3 in the zone the parameter `zone` names. */
const activityWhere = (zone: string) =>
  `member_id = $1 AND created_at >= ($2::date::timestamp AT TIME ZONE ${zone}) AND created_at < (($3::date + 1)::timestamp AT TIME ZONE ${zone})`;
/** The card view's rows of the member ($1) dated from $2 to $3. */
const CARD_WHERE = "member_id = $1 AND source = 'card' AND date_created BETWEEN $2::date AND $3::date";

/**
 * Account activity: when rows entered the ledger (created_at, a moment), newest first by default (financials: the last
 * month up to the reader's today). From and To are days in the reader's time zone (`ctx.timeZone`: the page's
 * x-time-zone, else the business's), as the page shows the moments in local time: a row entered at 6:30 pm in Los
 * Angeles on 03/10 is in 03/10. The bounds are moments (midnight of From, midnight after To, in that zone), compared
 * with created_at as stored (no function on the column).
 */
export async function searchActivity(ctx: Ctx, s: ActivitySearch, fallback = DefaultRange.financials) {
  const memberId = memberOf(ctx);
  const { From, To } = rangeOf(s.Query, fallback, dayIn(ctx.timeZone));
  const column = ACTIVITY_SORT.get(s.SortColumn ?? 'CreatedDate') ?? 'created_at';
  const dir = (s.SortOrder ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
  const rows = await ctx.database.sql.query<{
    transaction_id: number;
    created: string;
    transaction_type_id: number;
    source: string;
    status: string;
    text: string;
    signed_cents: number;
    total: number;
  }>(
    `SELECT transaction_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created, transaction_type_id, source, status,
       concat_ws(' - ', company, description) AS text, (${signed})::float8 AS signed_cents, count(*) OVER ()::int AS total
     FROM ledger_transactions
     WHERE ${activityWhere('$6')}
     ORDER BY ${column} ${dir}, transaction_id ${dir} LIMIT $4 OFFSET $5`,
    [memberId, From, To, s.PageSize, s.PageIndex * s.PageSize, ctx.timeZone],
  );
  // A page past the end (the range narrowed while on a later page) still answers how many rows there are.
  const total =
    rows.length === 0 && s.PageIndex > 0
      ? ((
          await ctx.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transactions WHERE ${activityWhere('$4')}`, [
            memberId,
            From,
            To,
            ctx.timeZone,
          ])
        )[0]?.n ?? 0)
      : (rows[0]?.total ?? 0);
  return {
    Items: rows.map((r) => ({
      TransactionID: r.transaction_id,
      CreatedDate: r.created,
      type: activityType(r.source, r.status, r.transaction_type_id),
      text: r.text,
      Amount: Number(r.signed_cents) / 100,
    })),
    ItemCount: total,
    From,
    To,
  };
}

/**
 * Card-variant transactions: the card's rows of the ledger, every status, newest first by default (one year to the
 * business's today). From and To are calendar days over the rows' own dates (a date column).
 */
export async function searchCard(ctx: Ctx, s: CardSearch) {
  const memberId = memberOf(ctx);
  const { From, To } = rangeOf(s.Query, DefaultRange.ledger, businessToday(ctx));
  const column =
    {
      TransactionDate: 'date_created',
      Description: "lower(concat_ws(' - ', company, description))",
      Type: 'transaction_type_id',
      Amount: 'amount_cents',
      Status: 'status',
    }[s.SortColumn ?? 'TransactionDate'] ?? 'date_created';
  const dir = (s.SortOrder ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
  const rows = await ctx.database.sql.query<{
    transaction_id: number;
    day: string;
    description: string;
    transaction_type_id: number;
    amount_cents: number;
    status: CardTransaction['status'];
    total: number;
  }>(
    `SELECT transaction_id, to_char(date_created, 'YYYY-MM-DD') AS day, concat_ws(' - ', company, description) AS description, transaction_type_id,
       amount_cents::float8 AS amount_cents, status, count(*) OVER ()::int AS total
     FROM ledger_transactions WHERE ${CARD_WHERE}
     ORDER BY ${column} ${dir}, transaction_id ${dir} LIMIT $4 OFFSET $5`,
    [memberId, From, To, s.PageSize, s.PageIndex * s.PageSize],
  );
  // A page past the end still answers how many rows there are.
  const total =
    rows.length === 0 && s.PageIndex > 0
      ? ((await ctx.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transactions WHERE ${CARD_WHERE}`, [memberId, From, To]))[0]?.n ??
        0)
      : (rows[0]?.total ?? 0);
  return {
    Items: rows.map((r) => ({
      TransactionID: r.transaction_id,
      TransactionDate: r.day,
      Description: r.description,
      Type: r.transaction_type_id === TransactionType.Expense ? ('DEBIT' as const) : ('CREDIT' as const),
      Amount: Number(r.amount_cents) / 100,
      status: r.status,
    })),
    ItemCount: total,
    From,
    To,
  };
}

/** The newest rows of the member's ledger (the dashboard widget); `zone` is the business's (ReportedDate's day). */
export async function recentTransactions(sql: SqlClient, memberId: number, zone: string): Promise<LedgerTransaction[]> {
  const rows = await sql.query<DbRow>(
    `${ledgerWith('$1', '$2')} SELECT ${ROW_COLUMNS} FROM l ORDER BY day DESC, transaction_id DESC LIMIT ${RECENT_TRANSACTIONS}`,
    [memberId, zone],
  );
  return rows.map(toWire);
}
