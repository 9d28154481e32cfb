import {
  BillType,
  ClaimStatus,
  createKeySchema,
  defineEndpoint,
  idSchema,
  moneyFromText,
  msg,
  pageIndexSchema,
  schemaText,
  specText,
  versionedRefSchema,
} from '@portal/core';
import { z } from 'zod';

/**
 * The bills (claims) contract shared by the server and the web side (spec 02 sections 2, 3, 4, 5, 7, 9):
 * the endpoints (`ClaimsApi`, at the end), their schemas and wire types. Money travels as a decimal number
 * of dollars with at most 2 decimals (stored as integer cents); dates travel as 'YYYY-MM-DD'; ids are
 * positive integers written in decimal and nothing else (`idSchema`).
 */

export const CLAIM_STATUS_IDS = Object.values(ClaimStatus) as number[];
export const BILL_TYPE_IDS = Object.values(BillType) as number[];
/** Claim Type lookup keys: CMS-1500, UB04, DME, HHC, Unknown. */
export const CLAIM_TYPE_IDS = [1, 2, 3, 4, 5];
/** Statuses shown as Paid (8) in the bills list; a Paid status filter and the paid flag include them (spec 02 section 4). */
export const PAID_STATUS_IDS: readonly number[] = [ClaimStatus.Paid, ClaimStatus.NonRedeemedPayment, ClaimStatus.ReadyForReissue];
/** Statuses of the pending claims list (card variant): not yet settled. */
export const PENDING_STATUS_IDS: readonly number[] = [
  ClaimStatus.Received,
  ClaimStatus.InReview,
  ClaimStatus.PendingInformation,
  ClaimStatus.Approved,
  ClaimStatus.ScheduledForPayment,
  ClaimStatus.PaymentIssued,
];
export const displayStatus = (statusId: number): number => (PAID_STATUS_IDS.includes(statusId) ? ClaimStatus.Paid : statusId);

export const PAGE_SIZES = [5, 10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const RECENT_CLAIMS = 6;
export const GLOBAL_SEARCH_LIMIT = 5;
export const VENDOR_SEARCH_MIN = 3;
export const MAX_STATUS_CHANGE_IDS = 500;

export { REIMBURSEMENT_PAYEE } from './payee';
/** Largest amount accepted: $100 million. */
export const MAX_AMOUNT = 100_000_000;

export const SORT_COLUMNS = [
  'ClaimID',
  'ClaimNumber',
  'PayeeName',
  'ClaimStatusID',
  'BillTypeID',
  'ClaimTypeID',
  'BilledAmount',
  'SubmittedUNCAmount',
  'ServiceDateFrom',
  'ServiceDateTo',
  'ReceivedDate',
  'PaidDate',
  'PaidAmount',
  'CheckNumber',
  'MemberNumber',
  'MemberName',
] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day 'YYYY-MM-DD' (an ISO timestamp is cut to its day). */
export const dateSchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v),
  z
    .string()
    .regex(DATE, { message: 'must be a date as YYYY-MM-DD', abort: true })
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 2999;
    }, 'is not a valid calendar date'),
);
const optDate = z.preprocess((v) => (v === '' ? null : v), dateSchema.nullish());

/** Optional text filter: trimmed, '' means absent. */
const optText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() || null : v), z.string().max(max, schemaText('must be at most {{max}} characters', { max })).nullish());
/** Optional id: '', 0 and null mean absent; anything else must be an id. */
const optId = z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idSchema.nullish());
/** A required positive whole number in decimal (an id, a version), with the message for a missing one. */
const requiredId = (missing: string) => z.union([z.number(), z.string()], { error: missing }).pipe(idSchema);
const optLookup = (ids: readonly number[], what: string) =>
  z.preprocess(
    (v) => (v === '' || v === 0 || v === '0' ? null : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z
      .number()
      .int()
      .refine((n) => ids.includes(n), schemaText('is not a known {{what}}', { what: msg(what) }))
      .nullish(),
  );

/** Money from a client: a number or decimal text, at most 2 decimals, not negative. */
export const moneySchema = z.preprocess(
  moneyFromText,
  z
    .number({ error: 'must be an amount' })
    .finite('must be an amount')
    .nonnegative('must not be negative')
    .max(MAX_AMOUNT, 'is too large')
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'must have at most 2 decimals'),
);
export const toCents = (dollars: number): number => Math.sign(dollars) * Math.round(Math.abs(dollars) * 100 + 1e-6);
export const fromCents = (cents: number): number => Math.round(cents) / 100;

/** The bills filter of spec 02 section 3. Date ranges are inclusive. */
export const claimSearchSchema = z
  .object({
    MemberID: optId,
    MemberNumber: optText(40),
    MemberName: optText(100),
    ClaimID: optId,
    PayeeID: optId,
    /** Prefix match, case-insensitive. */
    ClaimNumber: optText(40),
    ReceivedDateFrom: optDate,
    ReceivedDateTo: optDate,
    /** Matches the first service day. */
    ServiceDateFrom: optDate,
    ServiceDateTo: optDate,
    PaidDateFrom: optDate,
    PaidDateTo: optDate,
    BillReviewReceivedDateFrom: optDate,
    BillReviewReceivedDateTo: optDate,
    CheckNumber: optText(40),
    /** Paid (8) also matches 29 and 30, which show as Paid. */
    ClaimStatusID: optLookup(CLAIM_STATUS_IDS, 'claim status'),
    BillTypeID: optLookup(BILL_TYPE_IDS, 'bill type'),
    ClaimTypeID: optLookup(CLAIM_TYPE_IDS, 'claim type'),
    /** true: paid (8, 29, 30); false: not paid; absent: both. */
    IsPaid: z.preprocess((v) => (v === '' ? null : v === 'true' ? true : v === 'false' ? false : v), z.boolean().nullish()),
    PageIndex: pageIndexSchema,
    PageSize: z.coerce
      .number()
      .int()
      .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), schemaText('must be one of {{values}}', { values: PAGE_SIZES.join(', ') }))
      .default(DEFAULT_PAGE_SIZE),
    SortColumn: z.preprocess(
      (v) => (v === '' || v == null ? undefined : v),
      z.enum(SORT_COLUMNS, { error: schemaText('must be one of {{values}}', { values: SORT_COLUMNS.join(', ') }) }).default('ClaimID'),
    ),
    SortOrder: z.preprocess(
      (v) => (typeof v === 'string' ? v.toLowerCase() || undefined : (v ?? undefined)),
      z.enum(['asc', 'desc'], { error: "must be 'asc' or 'desc'" }).default('desc'),
    ),
  })
  .superRefine((f, ctx) => {
    const ranges = [
      ['ReceivedDateFrom', 'ReceivedDateTo'],
      ['ServiceDateFrom', 'ServiceDateTo'],
      ['PaidDateFrom', 'PaidDateTo'],
      ['BillReviewReceivedDateFrom', 'BillReviewReceivedDateTo'],
    ] as const;
    for (const [from, to] of ranges) {
      const a = f[from];
      const b = f[to];
      if (a && b && a > b) ctx.addIssue({ code: 'custom', path: [to], message: schemaText('must not be before {{field}}', { field: from }) });
    }
  });
export type ClaimSearch = z.infer<typeof claimSearchSchema>;
export type ClaimSearchInput = z.input<typeof claimSearchSchema>;

/*
 * Answers. Each schema describes exactly what the server sends (checked outside production): strict
 * objects, null for an empty value (never absent), whole numbers where the column is an integer.
 */
const wireId = z.number().int().positive();
const wireDay = z.string().regex(DATE);
const wireMoney = z.number().nonnegative();
/** A moment in UTC to the second: 'YYYY-MM-DDTHH:MM:SSZ'. */
const wireTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

/** A bill on the wire. */
export const claimSchema = z.strictObject({
  ClaimID: wireId,
  ClaimNumber: z.string(),
  /** The payee as on the bill: a shared payee's name, or a member's own free text (PayeeID null). */
  PayeeName: z.string(),
  PayeeID: wireId.nullable(),
  ClaimStatusID: z.number().int(),
  /** The status the bills list shows: 29 and 30 show as 8. */
  DisplayStatusID: z.number().int(),
  BillTypeID: z.number().int(),
  ClaimTypeID: z.number().int(),
  BilledAmount: wireMoney,
  SubmittedUNCAmount: wireMoney.nullable(),
  ServiceDateFrom: wireDay,
  ServiceDateTo: wireDay.nullable(),
  ReceivedDate: wireDay,
  BillReviewReceivedDate: wireDay.nullable(),
  PaidDate: wireDay.nullable(),
  PaidAmount: wireMoney.nullable(),
  CheckNumber: z.string().nullable(),
  MemberID: wireId,
  MemberNumber: z.string(),
  MemberName: z.string(),
  Version: wireId,
});
export type Claim = z.infer<typeof claimSchema>;

export const claimSearchResultSchema = z.strictObject({ Items: z.array(claimSchema), ItemCount: z.number().int().nonnegative() });
export type ClaimSearchResult = z.infer<typeof claimSearchResultSchema>;

export const idParamsSchema = z.object({ id: idSchema });
export const detailsBodySchema = z.object({ ClaimID: idSchema });

const billFields = {
  ClaimNumber: optText(40),
  /** An existing payee (from searchVendors); or leave empty and give PayeeName to add a new payee. */
  PayeeID: optId,
  PayeeName: optText(120),
  BillTypeID: z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z
      .number({ error: 'is required' })
      .int()
      .refine((n) => BILL_TYPE_IDS.includes(n), 'is not a known bill type'),
  ),
  ClaimTypeID: z.preprocess(
    (v) => (v == null || v === '' ? 5 : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z
      .number()
      .int()
      .refine((n) => CLAIM_TYPE_IDS.includes(n), 'is not a known claim type'),
  ),
  BilledAmount: moneySchema,
  SubmittedUNCAmount: z.preprocess((v) => (v === '' ? null : v), moneySchema.nullish()),
  ServiceDateFrom: dateSchema,
  ServiceDateTo: optDate,
  ReceivedDate: optDate,
  BillReviewReceivedDate: optDate,
};
/** The payment details: SuperUser only, on a new bill as on an edit. */
const paymentFields = {
  PaidDate: optDate,
  PaidAmount: z.preprocess((v) => (v === '' ? null : v), moneySchema.nullish()),
  CheckNumber: optText(40),
};
const checkBill = (b: { PayeeID?: number | null; PayeeName?: string | null; ServiceDateFrom: string; ServiceDateTo?: string | null }, ctx: z.RefinementCtx) => {
  if (!b.PayeeID && !b.PayeeName) ctx.addIssue({ code: 'custom', path: ['PayeeID'], message: 'choose a payee or enter a payee name' });
  if (b.ServiceDateTo && b.ServiceDateTo < b.ServiceDateFrom)
    ctx.addIssue({ code: 'custom', path: ['ServiceDateTo'], message: 'must not be before ServiceDateFrom' });
};

/**
 * POST create: a new bill starts as Received. SuperUser may give its payment details (anyone else: 403). MemberID is required unless acting for a member. IdempotencyKey (ours,
 * optional, the kernel's createKeySchema): the page makes one per submission of the form and sends it again when that
 * submission is retried; a create repeated with a key the caller already used answers the bill that key made and adds
 * none; the key with another bill is refused (409).
 */
export const claimCreateSchema = z
  .object({ MemberID: optId, ...billFields, ...paymentFields, IdempotencyKey: createKeySchema.nullish() })
  .superRefine(checkBill);
export type ClaimCreate = z.infer<typeof claimCreateSchema>;

/**
 * POST update: the edited bill with the Version it was read at. Payment fields are SuperUser only. A field left out is
 * unchanged (the server merges the fields sent into the stored bill); one sent as null or '' is cleared, except the claim
 * number and the received date, which a bill always has (400). Received, service and bill review received dates may not
 * be after the business's today (400), as on create.
 */
export const claimUpdateSchema = z
  .object({
    ClaimID: idSchema,
    Version: requiredId('is required (the version the bill was read at)'),
    ...billFields,
    ...paymentFields,
  })
  .superRefine(checkBill);
export type ClaimUpdate = z.infer<typeof claimUpdateSchema>;

/** One bill of a status change: its id, or its id with the Version the caller saw (the pages send the Versions they showed). */
export const claimRefSchema = versionedRefSchema("must be a claim id, or an object with the bill's ID and Version");

/**
 * POST changeStatusAM: move every listed bill to one new status, all or nothing. A bill named with a Version it no
 * longer has (someone changed it since the caller saw it) refuses the whole change (409).
 */
export const changeStatusSchema = z.object({
  Ids: z
    .array(claimRefSchema, { error: 'must be a list of claim ids' })
    .min(1, 'choose at least one bill')
    .max(MAX_STATUS_CHANGE_IDS, schemaText('at most {{max}} bills at once', { max: MAX_STATUS_CHANGE_IDS })),
  /** The status the bills move to: spec 02's claim status change filter names it "new claim status id". */
  NewClaimStatusID: requiredId('is required').refine((n) => CLAIM_STATUS_IDS.includes(n), 'is not a known claim status'),
  Reason: optText(500),
});
export type ChangeStatus = z.infer<typeof changeStatusSchema>;

export const vendorParamsSchema = z.object({
  text: z
    .string()
    .trim()
    .min(VENDOR_SEARCH_MIN, specText('Minimum {{min}} characters are required', { min: VENDOR_SEARCH_MIN }))
    .max(100),
});
/** Kinds of shared payees: the reference payees' kinds; a payee that staff add by name is 'Other'. */
export const PAYEE_KINDS = ['Hospital', 'Clinic', 'Physician', 'Pharmacy', 'DME', 'Lab', 'Home Health', 'Other'] as const;
export type PayeeKind = (typeof PAYEE_KINDS)[number];

/** A shared payee, as the vendor search offers it. */
export const vendorSchema = z.strictObject({
  PayeeID: wireId,
  PayeeName: z.string(),
  Kind: z.enum(PAYEE_KINDS),
  City: z.string().nullable(),
  State: z.string().nullable(),
});
export type Vendor = z.infer<typeof vendorSchema>;

export const globalSearchQuerySchema = z.object({
  q: z.string().trim().min(2, 'Please enter at least 2 characters').max(60),
  s: z.coerce.number().int().min(1).max(GLOBAL_SEARCH_LIMIT).default(GLOBAL_SEARCH_LIMIT).catch(GLOBAL_SEARCH_LIMIT),
});

export const statusHistorySchema = z.strictObject({
  /** null for the first entry (the bill was created or imported). */
  FromStatusID: z.number().int().nullable(),
  ToStatusID: z.number().int(),
  ChangedBy: z.string().nullable(),
  ChangedAt: wireTimestamp,
  Reason: z.string().nullable(),
});
export type StatusHistoryEntry = z.infer<typeof statusHistorySchema>;
export const claimDetailsSchema = z.strictObject({
  Claim: claimSchema,
  StatusHistory: z.array(statusHistorySchema),
  /** Statuses the bill may move to next (state machine). */
  AllowedStatusIDs: z.array(z.number().int()),
  /** Whether the caller may edit the bill now. */
  CanEdit: z.boolean(),
});
export type ClaimDetails = z.infer<typeof claimDetailsSchema>;

/** The bills after a status change, in claim id order. */
export const changeStatusResultSchema = z.strictObject({ Items: z.array(claimSchema), ItemCount: z.number().int().positive() });
export type ChangeStatusResult = z.infer<typeof changeStatusResultSchema>;

/**
 * The bill a claim-id look-up asks for: a text of more than 1 character (spec 02 section 5) that is a bill's number,
 * else null (the look-up then says 'Please enter a valid claim ID' and asks nothing). The bills page's and support's look-ups share it.
 */
export function claimIdLookup(text: string): number | null {
  const t = text.trim();
  if (t.length < 2 || !/^\d+$/.test(t)) return null;
  const id = Number(t);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export const ClaimsApi = {
  /** The bills list (spec 02 section 3): filter, sort and page → { Items, ItemCount }. */
  search: defineEndpoint({ method: 'POST', path: '/api/claims/search', body: claimSearchSchema, response: claimSearchResultSchema }),
  /** The pending claims list (card variant): the same filter, unsettled statuses only. */
  searchAmethyst: defineEndpoint({ method: 'POST', path: '/api/claims/searchAmethyst', body: claimSearchSchema, response: claimSearchResultSchema }),
  getById: defineEndpoint({ method: 'GET', path: '/api/claims/getById/:id', params: idParamsSchema, response: claimSchema }),
  /** A bill with its status history, the statuses it may move to and whether the caller may edit it. */
  details: defineEndpoint({ method: 'POST', path: '/api/claims/details', body: detailsBodySchema, response: claimDetailsSchema }),
  create: defineEndpoint({ method: 'POST', path: '/api/claims/create', body: claimCreateSchema, response: claimSchema }),
  update: defineEndpoint({ method: 'POST', path: '/api/claims/update', body: claimUpdateSchema, response: claimSchema }),
  /** Several bills to one status, all or nothing. */
  changeStatusAM: defineEndpoint({ method: 'POST', path: '/api/claims/changeStatusAM', body: changeStatusSchema, response: changeStatusResultSchema }),
  /** Shared payees whose name contains the text (at most 20). */
  searchVendors: defineEndpoint({ method: 'GET', path: '/api/claims/searchVendors/:text', params: vendorParamsSchema, response: z.array(vendorSchema) }),
  /** The dashboard's recent claims: the newest received first. */
  recent: defineEndpoint({ method: 'GET', path: '/api/dashboard/claims/recent/6', response: z.array(claimSchema) }),
  /** The toolbar's global search of bills. */
  globalSearch: defineEndpoint({ method: 'GET', path: '/api/search/searchClaims', query: globalSearchQuerySchema, response: z.array(claimSchema) }),
  /** Support tooling (spec 02 section 7): a member's bill by id, for /users/:id. */
  supportGetById: defineEndpoint({
    method: 'GET',
    path: '/api/support/getClaimById/:claimId/:memberId',
    params: z.object({ claimId: idSchema, memberId: idSchema }),
    response: claimDetailsSchema,
  }),
  /** Support tooling: a member's bills to one status through the same state machine, all or nothing. */
  supportChangeStatus: defineEndpoint({
    method: 'POST',
    path: '/api/support/changeStatus',
    body: changeStatusSchema.extend({ MemberID: idSchema }),
    response: changeStatusResultSchema,
  }),
} as const;
