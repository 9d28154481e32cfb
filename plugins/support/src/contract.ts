import { defineEndpoint, idSchema, schemaText } from '@portal/core';
import { idempotencyKey, money, paNumberBodySchema, paNumberSchema } from '@portal/plugin-billing/contract';
import { MEMBER_LIST_STATUSES, MEMBER_SORT_COLUMNS } from '@portal/plugin-profile/contract';
import { z } from 'zod';
import { DEFAULT_PENDING_FILTER, SUPPORT_TRANSACTION_SORTS, SUPPORT_TX_FILTERS } from './rules';

/** Support tooling (spec 02 sections 3, 4, 7, 8): the api/support/ calls. Money travels as dollars, integer cents inside. */

/** A search box's text: trimmed, at most 100 characters (the kit's search box stops there), refused in the product's words. */
const searchText = z
  .string()
  .trim()
  .max(100, schemaText('must be at most {{max}} characters', { max: 100 }))
  .optional();

/** The messages support's calls answer with: English, translated into the user's language on the way out. */
export const SUPPORT_MESSAGES = {
  notMember: 'Support may act only on member accounts.',
  notFound: 'The transaction was not found.',
  memberNotFound: 'The member was not found.',
  alreadyTerminated: 'The member is already terminated.',
  terminated: 'The member has been terminated.',
  notTerminated: 'The member is not terminated.',
  reactivated: 'The member has been reactivated; their logins can sign in again.',
  paNumberMatches: 'The PA number has been saved.',
  paNumberMismatch: 'The PA number was not saved: the stored number differs from the one submitted.',
  declined: 'The transaction has been declined.',
  notPending: 'Only a pending transaction can be declined.',
} as const;

/** Search request (spec 02 section 3): TotalRecords, PageSize, PageIndex, SortColumn, SortOrder, Query{Status, SearchString}. */
export const transactionSearchSchema = z.object({
  TotalRecords: z.number().int().optional(),
  PageSize: z.union([z.literal(10), z.literal(20), z.literal(30), z.literal(50)]).default(20),
  PageIndex: z.number().int().min(0).max(100_000).default(0),
  SortColumn: z.enum(SUPPORT_TRANSACTION_SORTS).default('DateCreated'),
  SortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
  Query: z
    .object({
      Status: z.enum(SUPPORT_TX_FILTERS).default('Declined'),
      SearchString: searchText,
    })
    .default({ Status: 'Declined' }),
});
export type TransactionSearchRequest = z.input<typeof transactionSearchSchema>;

/** The pending list as GET query parameters (its filter omits PA Number and Voided). */
export const pendingQuerySchema = z.object({
  PageSize: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 30, 50].includes(n), 'must be 10, 20, 30 or 50')
    .default(20),
  PageIndex: z.coerce.number().int().min(0).max(100_000).default(0),
  SortColumn: z.enum(SUPPORT_TRANSACTION_SORTS).default('DateCreated'),
  SortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
  Status: z.enum(['All', 'Charged', 'Pending', 'Declined', 'Refunded', 'Authorized']).default(DEFAULT_PENDING_FILTER),
  SearchString: searchText,
});

export const supportTransactionSchema = z.object({
  TransactionID: z.number().int(),
  Status: z.string(),
  Kind: z.string(),
  Amount: z.number(),
  Description: z.string().nullable(),
  Message: z.string(),
  PANumber: z.string().nullable(),
  ProviderTransactionID: z.number().int().nullable(),
  AuthProviderTransactionID: z.number().int().nullable(),
  CustomerID: z.number().int().nullable(),
  PaymentProfileID: z.number().int().nullable(),
  NCPDPRequestID: z.string().nullable(),
  ClaimID: z.number().int().nullable(),
  DateCreated: z.iso.datetime(),
  Member: z.object({ MemberID: z.number().int(), MemberNumber: z.string(), FirstName: z.string(), LastName: z.string() }),
});
export type SupportTransaction = z.infer<typeof supportTransactionSchema>;
const transactionPage = z.object({ Items: z.array(supportTransactionSchema), ItemCount: z.number().int().nonnegative() });

const moneyResult = z.object({
  StatusString: z.enum(['Ok', 'Error']),
  /** In the user's language: show it, never compare it. */
  Message: z.string(),
  TransactionID: z.number().int().nullable(),
  /** A refund refused because the charge has not settled yet: the screen offers a void instead. */
  Unsettled: z.boolean(),
});
export type SupportMoneyResult = z.infer<typeof moneyResult>;
/** Every support money call names its charge and carries the client's IdempotencyKey (billing's: required, 8 to 100 of A-Za-z0-9_.:-). */
const moneyBody = z.object({ TransactionID: idSchema, IdempotencyKey: idempotencyKey });

/** The members list's search: the same search request as the transactions' (spec 02 section 3), its Query the list's status and text. */
export const memberSearchSchema = z.object({
  TotalRecords: z.number().int().optional(),
  PageIndex: z.number().int().min(0).max(100_000).default(0),
  PageSize: z.union([z.literal(10), z.literal(20), z.literal(30), z.literal(50)]).default(20),
  SortColumn: z.enum(MEMBER_SORT_COLUMNS).default('FirstName'),
  SortOrder: z.enum(['ASC', 'DESC']).default('ASC'),
  Query: z
    .object({
      Status: z.enum(MEMBER_LIST_STATUSES).default('Members'),
      SearchString: searchText,
    })
    .default({ Status: 'Members' }),
});
export const memberRowSchema = z.object({
  MemberID: z.number().int(),
  MemberNumber: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string().nullable(),
  Brand: z.string(),
  ApprovedDate: z.string().nullable(),
  TerminationDate: z.string().nullable(),
  /** The member's login (for /users/:id), or null when the member has none. */
  UserId: z.string().nullable(),
});
export type MemberRow = z.infer<typeof memberRowSchema>;

export const supportQueueSchema = z.object({
  /** Charges the gateway holds for review: support approves (Charge) or declines them. */
  Pending: z.number().int().nonnegative(),
  /** Charges the gateway declined: support may charge them again. */
  Declined: z.number().int().nonnegative(),
  /** Authorizations (holds on a card) to capture or release. */
  Authorized: z.number().int().nonnegative(),
  /** Members whose registration or activation is not finished (the members list's Pending). */
  PendingMembers: z.number().int().nonnegative(),
});
export type SupportQueue = z.infer<typeof supportQueueSchema>;

const terminationDate = z.object({ MemberID: z.number().int(), TerminationDate: z.string().nullable(), IsTerminated: z.boolean() });
const reportFormat = z.object({ format: z.enum(['pdf', 'excel']) });

export const SupportApi = {
  transactions: defineEndpoint({ method: 'POST', path: '/api/support/transactions', body: transactionSearchSchema, response: transactionPage }),
  memberTransactions: defineEndpoint({
    method: 'POST',
    path: '/api/support/transactions/:id',
    params: z.object({ id: idSchema }),
    body: transactionSearchSchema,
    response: transactionPage,
  }),
  /** Saves a transaction's status: the Decline action of the pending list (Pending to Declined). */
  saveTransaction: defineEndpoint({
    method: 'PUT',
    path: '/api/support/transactions',
    body: z.object({ TransactionID: idSchema, Status: z.literal('Declined') }),
    response: supportTransactionSchema,
  }),
  pendingTransactions: defineEndpoint({ method: 'GET', path: '/api/support/user/PendingTransactions/', query: pendingQuerySchema, response: transactionPage }),
  charge: defineEndpoint({ method: 'POST', path: '/api/support/transaction/charge', body: moneyBody, response: moneyResult }),
  refund: defineEndpoint({ method: 'POST', path: '/api/support/transaction/refund', body: moneyBody, response: moneyResult }),
  void: defineEndpoint({ method: 'POST', path: '/api/support/transaction/void', body: moneyBody, response: moneyResult }),
  /**
   * Captures an authorization (a prepull, status Authorized) for Amount dollars, at most the authorized amount (absent:
   * all of it). The authorization is named, so a repeat after it was captured answers Ok and moves nothing; the
   * IdempotencyKey every money call requires is required here too.
   */
  capture: defineEndpoint({
    method: 'POST',
    path: '/api/support/transaction/capture',
    body: moneyBody.extend({ Amount: money.optional() }),
    response: moneyResult,
  }),
  addPaNumber: defineEndpoint({
    method: 'POST',
    path: '/api/support/transaction/pa-number',
    body: paNumberBodySchema,
    response: z.object({ PANumber: z.string(), Message: z.string() }),
  }),
  createTransaction: defineEndpoint({
    method: 'GET',
    path: '/api/support/createtransaction/:transactionId/:paNumber',
    params: z.object({ transactionId: idSchema, paNumber: paNumberSchema }),
    /** Ours, optional: the PA number the caller saw (empty for none), as the POST's PreviousPANumber. */
    query: z.object({ previous: z.string().max(40, 'must be at most 40 characters').optional() }),
    response: z.object({ PANumber: z.string(), Message: z.string() }),
  }),
  /** Support's work on the dashboard (ours, not the spec's): how many charges and members wait for someone. */
  queue: defineEndpoint({ method: 'GET', path: '/api/support/queue', response: supportQueueSchema }),
  verification: defineEndpoint({
    method: 'GET',
    path: '/api/support/verification',
    response: z.object({ IsSupport: z.boolean(), UserName: z.string() }),
  }),
  members: defineEndpoint({
    method: 'POST',
    path: '/api/support/members',
    body: memberSearchSchema,
    response: z.object({ Items: z.array(memberRowSchema), ItemCount: z.number().int().nonnegative() }),
  }),
  terminateMember: defineEndpoint({
    method: 'POST',
    path: '/api/support/terminateMember',
    /**
     * CloseLogins (ours, not in the spec; optional, default false): also close the member's logins for good (fraud or
     * abuse). Without it the member keeps their login, as after ending their own membership (documents, history, notes).
     */
    body: z.object({ Member: z.object({ MemberID: idSchema }), CloseLogins: z.boolean().optional() }),
    response: terminationDate,
  }),
  /** Undoes a termination: clears the TerminationDate and reopens the member's logins (CareSupport). */
  reactivateMember: defineEndpoint({
    method: 'POST',
    path: '/api/support/reactivateMember',
    body: z.object({ Member: z.object({ MemberID: idSchema }) }),
    response: terminationDate,
  }),
  terminationDate: defineEndpoint({
    method: 'GET',
    path: '/api/support/getTerminationDate/:memberId',
    params: z.object({ memberId: idSchema }),
    response: terminationDate,
  }),
  registrationReport: defineEndpoint({ method: 'POST', path: '/api/support/registrationReport/:format', params: reportFormat, answer: 'file' }),
  userReport: defineEndpoint({ method: 'POST', path: '/api/support/userReport/:format', params: reportFormat, answer: 'file' }),
  /**
   * The grid's search (filter, SortColumn, SortOrder) as a spreadsheet. From a member's tab, MemberID (ours, optional)
   * narrows it to that member, as `memberTransactions` does: a member account, else 403 like the other member calls.
   */
  transactionExcel: defineEndpoint({
    method: 'POST',
    path: '/api/support/generateTransactionExcelReport/excel',
    body: transactionSearchSchema.extend({
      TransactionIDs: z.array(z.number().int().positive()).max(1000).optional(),
      MemberID: idSchema.optional(),
    }),
    answer: 'file',
  }),
} as const;
