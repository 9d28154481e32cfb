import { defineEndpoint, idSchema, pageIndexSchema, schemaText } from '@portal/core';
import { z } from 'zod';
import { CARD_STATUSES, DEFAULT_PAGE_SIZE, isDay, PAGE_SIZES, RECENT_TRANSACTIONS, TRANSACTION_TYPE_IDS } from './rules';

export * from './rules';

/**
 * The financials and transactions contract (spec 02 sections 3 and 7). Money travels as dollars with at most
 * 2 decimals and is stored as integer cents; days travel as 'YYYY-MM-DD'. The ledger's five rules are not zod
 * refinements: the handler checks them in the spec's order (rules.ts), so each refusal is the spec's message alone.
 */

const day = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v),
  z.string().refine(isDay, 'must be a date as YYYY-MM-DD'),
);
const optDay = z.preprocess((v) => (v === '' ? null : v), day.nullish());
const optText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() || null : v), z.string().max(max, schemaText('must be at most {{max}} characters', { max })).nullish());
/** A value the member typed: a number or text; the handler's rules judge it. */
const typed = z.union([z.number(), z.string().max(40, 'must be at most 40 characters'), z.null()]).optional();

export const LEDGER_VIEWS = ['ledger', 'reported'] as const;
export const LEDGER_SORT_COLUMNS = ['DateCreated', 'Code', 'Company', 'Description', 'TransactionTypeID', 'Amount'] as const;
/** The activity's columns as spec 02 section 3 spells them: CreatedDate, type, text (lower case, like the card's status). */
export const ACTIVITY_SORT_COLUMNS = ['CreatedDate', 'type', 'text'] as const;
export type ActivitySortColumn = (typeof ACTIVITY_SORT_COLUMNS)[number];
export const CARD_SORT_COLUMNS = ['TransactionDate', 'Description', 'Type', 'Amount', 'Status'] as const;

/** Ledger query (spec 02 section 3); From and To default to the view's range. HICN and the dates are the report's header. */
export const ledgerQuerySchema = z
  .object({
    From: optDay,
    To: optDay,
    HICN: optText(20),
    DateOfInjury: optDay,
    DateOfSettlement: optDay,
    /** true: only records missing a field the report needs (report mode). */
    EmptyFields: z.preprocess((v) => (v === '' || v === 'false' ? false : v === 'true' ? true : v), z.boolean().nullish()),
    /** Not in the spec: which view of the one ledger; 'ledger' (default) or 'reported'. */
    View: z.preprocess((v) => (v === '' || v == null ? undefined : v), z.enum(LEDGER_VIEWS).default('ledger')),
  })
  .superRefine((q, ctx) => {
    if (q.From && q.To && q.From > q.To) ctx.addIssue({ code: 'custom', path: ['To'], message: 'must not be before From' });
  });
export type LedgerQuery = z.infer<typeof ledgerQuerySchema>;
export type LedgerQueryInput = z.input<typeof ledgerQuerySchema>;

const pageFields = {
  /** Sent back by the client from the last answer; the server counts again. */
  TotalRecords: z.coerce.number().int().min(0).nullish(),
  PageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), schemaText('must be one of {{values}}', { values: PAGE_SIZES.join(', ') }))
    .default(DEFAULT_PAGE_SIZE),
  PageIndex: pageIndexSchema,
  SortOrder: z.preprocess(
    (v) => (typeof v === 'string' ? v.toLowerCase() || undefined : (v ?? undefined)),
    z.enum(['asc', 'desc'], { error: "must be 'asc' or 'desc'" }).optional(),
  ),
};
const sortColumn = <T extends readonly [string, ...string[]]>(cols: T) =>
  z.preprocess(
    (v) => (v === '' || v == null ? undefined : v),
    z.enum(cols, { error: schemaText('must be one of {{values}}', { values: cols.join(', ') }) }).optional(),
  );

/** Search request (spec 02 section 3): TotalRecords, PageSize, PageIndex, SortColumn, SortOrder, Query. */
export const ledgerSearchSchema = z.object({
  ...pageFields,
  SortColumn: sortColumn(LEDGER_SORT_COLUMNS),
  Query: z.preprocess((v) => v ?? {}, ledgerQuerySchema),
});
export type LedgerSearch = z.infer<typeof ledgerSearchSchema>;
export type LedgerSearchInput = z.input<typeof ledgerSearchSchema>;

const rangeQuery = z.object({ From: optDay, To: optDay }).superRefine((q, ctx) => {
  if (q.From && q.To && q.From > q.To) ctx.addIssue({ code: 'custom', path: ['To'], message: 'must not be before From' });
});
export const activitySearchSchema = z.object({ ...pageFields, SortColumn: sortColumn(ACTIVITY_SORT_COLUMNS), Query: z.preprocess((v) => v ?? {}, rangeQuery) });
export type ActivitySearch = z.infer<typeof activitySearchSchema>;
export type ActivitySearchInput = z.input<typeof activitySearchSchema>;
export const cardSearchSchema = z.object({ ...pageFields, SortColumn: sortColumn(CARD_SORT_COLUMNS), Query: z.preprocess((v) => v ?? {}, rangeQuery) });
export type CardSearch = z.infer<typeof cardSearchSchema>;
export type CardSearchInput = z.input<typeof cardSearchSchema>;

/**
 * A client-chosen key that makes a repeated create add its row once (the page makes one per new row): required, since
 * a create retried without one could not be told from a new row.
 */
const idempotencyKey = z
  .string({ error: 'is required: one key of your own per new transaction, sent again unchanged when the call is retried' })
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'must be 8 to 100 letters, digits or - _ . :');

const entryFields = {
  DateCreated: z.union([z.string().max(40, 'must be at most 40 characters'), z.null()]).optional(),
  Code: optText(40),
  Company: optText(200),
  Description: z.union([z.string().max(500, 'must be at most 500 characters'), z.null()]).optional(),
  TransactionTypeID: typed,
  Amount: typed,
};
/**
 * Create payload for the member's own transaction (spec 02 section 3); the rules are checked by the handler. Not in
 * the spec: IdempotencyKey, required; a create repeated with a key the member already used answers the first row and
 * adds none.
 */
export const ledgerCreateSchema = z.object({ ...entryFields, IdempotencyKey: idempotencyKey });
export type LedgerCreate = z.infer<typeof ledgerCreateSchema>;
/**
 * An edit repeats only the amount and future-date rules (spec 02 section 5), so the type is checked here: empty keeps
 * the stored type (the column needs one), anything else must be 1, 2 or 3.
 */
const editType = z.preprocess(
  (v) => (v == null || (typeof v === 'string' && v.trim() === '') ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'must be 1 (Expense), 2 (Deposit) or 3 (Interest)' })
    .refine((n) => TRANSACTION_TYPE_IDS.includes(n), 'must be 1 (Expense), 2 (Deposit) or 3 (Interest)')
    .optional(),
);
export const ledgerUpdateSchema = z.object({
  ...entryFields,
  /** Empty: the stored type stays. */
  TransactionTypeID: editType,
  TransactionID: idSchema,
  /** The version the row was read at: a stale save is refused with 409. */
  Version: idSchema,
});
export type LedgerUpdate = z.infer<typeof ledgerUpdateSchema>;
export const ledgerDeleteSchema = z.object({ TransactionID: idSchema, Version: idSchema });
export const balanceSetSchema = z.object({ Amount: typed });

const wireId = z.number().int().positive();
const wireDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const wireTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

/** Ledger transaction (spec 02 section 3) with its id, version, running balance and report state. */
export const ledgerTransactionSchema = z.strictObject({
  TransactionID: wireId,
  DateCreated: wireDay,
  Code: z.string().nullable(),
  Company: z.string().nullable(),
  Description: z.string().nullable(),
  TransactionTypeID: z.number().int(),
  /** Absolute value, dollars. */
  Amount: z.number().nonnegative(),
  /** The running balance after this row, in date order; null while no initial balance is set. */
  Balance: z.number().nullable(),
  /** 'Posted' for the member's own entries, the card status for card transactions. */
  Status: z.string(),
  /** 'bank' for the transactions of linked bank accounts (the banking plugin), read-only like card rows. */
  Source: z.enum(['ledger', 'card', 'bank']),
  /** When it went to the federal payer, or null. */
  ReportedDate: wireDay.nullable(),
  Version: wireId,
});
export type LedgerTransaction = z.infer<typeof ledgerTransactionSchema>;
export const ledgerSearchResultSchema = z.strictObject({
  Items: z.array(ledgerTransactionSchema),
  ItemCount: z.number().int().nonnegative(),
  /** The range searched, defaults filled in. */
  From: wireDay,
  To: wireDay,
});
export type LedgerSearchResult = z.infer<typeof ledgerSearchResultSchema>;

/** Activity transaction (spec 02 section 3). */
export const activitySchema = z.strictObject({
  TransactionID: wireId,
  CreatedDate: wireTimestamp,
  /** What kind of row, in the user's language ('Expense', 'Card Settled', 'Bank Deposit'). */
  type: z.string(),
  /** The company and description. */
  text: z.string(),
  /** Signed: expenses negative. */
  Amount: z.number(),
});
export type ActivityTransaction = z.infer<typeof activitySchema>;
export const activityResultSchema = z.strictObject({ Items: z.array(activitySchema), ItemCount: z.number().int().nonnegative(), From: wireDay, To: wireDay });

/** Card-variant transaction (spec 02 section 3). */
export const cardTransactionSchema = z.strictObject({
  TransactionID: wireId,
  TransactionDate: wireDay,
  Description: z.string(),
  Type: z.enum(['CREDIT', 'DEBIT']),
  Amount: z.number().nonnegative(),
  status: z.enum(CARD_STATUSES).or(z.literal('Posted')),
});
export type CardTransaction = z.infer<typeof cardTransactionSchema>;
export const cardResultSchema = z.strictObject({
  Items: z.array(cardTransactionSchema),
  ItemCount: z.number().int().nonnegative(),
  From: wireDay,
  To: wireDay,
});

/** Balance result (spec 02 section 3): Amount is the initial balance, null when none is set yet. */
export const balanceSchema = z.strictObject({
  Amount: z.number().nullable(),
  /** Initial balance plus deposits and interest minus expenses; null while Amount is null. */
  CurrentBalance: z.number().nullable(),
});
export type LedgerBalance = z.infer<typeof balanceSchema>;

/** The member the ledger belongs to, the report header and the caller's role flags. */
export const ledgerMemberSchema = z.strictObject({
  MemberID: wireId,
  MemberNumber: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  IsMSA: z.boolean(),
  HICN: z.string().nullable(),
  DateOfInjury: wireDay.nullable(),
  DateOfSettlement: wireDay.nullable(),
  /**
   * Not in the spec: the version of the report header (HICN and the two dates), 1 until a send first changes it; the
   * page sends it back with report/send (HeaderVersion), which refuses a header someone changed meanwhile (409).
   */
  HeaderVersion: wireId,
  isEligible: z.boolean(),
  isSuperUser: z.boolean(),
  isAmethyst: z.boolean(),
});
export type LedgerMember = z.infer<typeof ledgerMemberSchema>;

/** One missing item found by reportCheck: a header field (TransactionID null) or a record's empty fields. */
export const reportIssueSchema = z.strictObject({
  TransactionID: wireId.nullable(),
  DateCreated: wireDay.nullable(),
  Fields: z.array(z.string()),
});
export type ReportIssue = z.infer<typeof reportIssueSchema>;

export const reportSendResultSchema = z.strictObject({
  AcknowledgementId: z.string(),
  AlreadySent: z.boolean(),
  SentAt: wireTimestamp,
  RecordCount: z.number().int().nonnegative(),
  From: wireDay,
  To: wireDay,
});
export type ReportSendResult = z.infer<typeof reportSendResultSchema>;

/**
 * report/send takes the search object (spec 02 section 7), with one field of ours, optional: HeaderVersion, the
 * loadMember HeaderVersion the header the caller sends was loaded at. Given, the send is refused with 409
 * (PayerMessages.headerChanged, Data `{ HeaderChanged: true }`) when the stored header has another version: someone
 * changed it meanwhile. Left out, the header the query brings is saved as before, unchecked.
 */
export const reportSendSchema = ledgerSearchSchema.extend({ HeaderVersion: idSchema.optional() });
export type ReportSend = z.infer<typeof reportSendSchema>;
export type ReportSendInput = z.input<typeof reportSendSchema>;

export const REPORT_FORMATS = ['pdf', 'xlsx'] as const;
export const reportRequestSchema = ledgerSearchSchema.extend({
  /** Not in the spec: the file type; PDF by default. */
  Format: z.preprocess((v) => (v === '' || v == null ? undefined : v), z.enum(REPORT_FORMATS).default('pdf')),
});

/** Dashboard series (spec 02 section 3). */
export const balancePointSchema = z.strictObject({ Date: wireDay, Balance: z.number() });
export const amountPointSchema = z.strictObject({ Date: wireDay, Amount: z.number(), NumberOfTransactions: z.number().int().nonnegative() });
/** InitialBalance: the set-aside's starting amount (null until it is set); the trends gauge shows Balance as a share of it. */
export const accountBalanceSchema = z.strictObject({ Balance: z.number().nullable(), InitialBalance: z.number().nullable(), AsOf: wireDay });
export const adminBalanceSchema = z.strictObject({ Balance: z.number(), InitialBalance: z.number(), Members: z.number().int().nonnegative(), AsOf: wireDay });

export const LedgerApi = {
  // Financials (spec 02 section 7)
  /** Account activity: CreatedDate descending, the last month unless From/To say otherwise. */
  financialsSearch: defineEndpoint({ method: 'POST', path: '/api/financials/search', body: activitySearchSchema, response: activityResultSchema }),
  /** Card-variant transactions: TransactionDate, Description, CREDIT/DEBIT, Amount, status. */
  amethystSearch: defineEndpoint({ method: 'POST', path: '/api/financials/amethyst/search', body: cardSearchSchema, response: cardResultSchema }),
  loadBalance: defineEndpoint({ method: 'GET', path: '/api/financials/loadBalance', response: balanceSchema }),
  loadMember: defineEndpoint({ method: 'GET', path: '/api/financials/loadMember', response: ledgerMemberSchema }),
  // Transactions
  search: defineEndpoint({ method: 'POST', path: '/api/transactions/search', body: ledgerSearchSchema, response: ledgerSearchResultSchema }),
  create: defineEndpoint({ method: 'POST', path: '/api/transactions/create', body: ledgerCreateSchema, response: ledgerTransactionSchema }),
  update: defineEndpoint({ method: 'POST', path: '/api/transactions/update', body: ledgerUpdateSchema, response: ledgerTransactionSchema }),
  delete: defineEndpoint({ method: 'POST', path: '/api/transactions/delete', body: ledgerDeleteSchema, response: z.strictObject({ TransactionID: wireId }) }),
  /** Sets the initial balance, once. */
  balance: defineEndpoint({ method: 'POST', path: '/api/transactions/balance', body: balanceSetSchema, response: balanceSchema }),
  /** Checks every record of the period: answers what is missing (empty when the report can go). */
  reportCheck: defineEndpoint({ method: 'POST', path: '/api/transactions/reportCheck', body: ledgerSearchSchema, response: z.array(reportIssueSchema) }),
  /**
   * Sends the period to the federal payer; once per period (a resend answers AlreadySent). A HeaderVersion that is not
   * the stored header's is refused with 409 (the header changed meanwhile).
   */
  reportSend: defineEndpoint({ method: 'POST', path: '/api/transactions/report/send', body: reportSendSchema, response: reportSendResultSchema }),
  /** The period's report as a PDF or spreadsheet. */
  report: defineEndpoint({ method: 'POST', path: '/api/transactions/report', body: reportRequestSchema, answer: 'file' }),
  // Dashboard (spec 01 section 7)
  accountBalance: defineEndpoint({ method: 'GET', path: '/api/dashboard/account/balance', response: accountBalanceSchema }),
  adminBalance: defineEndpoint({ method: 'GET', path: '/api/dashboard/admin/balance', response: adminBalanceSchema }),
  balanceMonth: defineEndpoint({ method: 'GET', path: '/api/dashboard/balance/month', response: z.array(balancePointSchema) }),
  transactionsBalanceMonth: defineEndpoint({ method: 'GET', path: '/api/dashboard/transactions/balance/month', response: z.array(balancePointSchema) }),
  transactionsTime: defineEndpoint({ method: 'GET', path: '/api/dashboard/transactions/time', response: z.array(amountPointSchema) }),
  transactionsQuarter: defineEndpoint({ method: 'GET', path: '/api/dashboard/transactions/quarter', response: z.array(amountPointSchema) }),
  transactionsMonth: defineEndpoint({ method: 'GET', path: '/api/dashboard/transactions/month', response: z.array(amountPointSchema) }),
  recent: defineEndpoint({ method: 'GET', path: `/api/dashboard/transactions/recent/${RECENT_TRANSACTIONS}`, response: z.array(ledgerTransactionSchema) }),
} as const;
