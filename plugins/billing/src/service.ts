import { type BrandManifest, type Message, serviceRef } from '@portal/core';
import type { AuditEntry, SqlClient } from '@portal/server';
import type { BillingProfile, BillingTransaction, MembershipKey, MoneyResult } from './contract';

/** Who acts: for the audit trail and receipts. */
export interface BillingActor {
  audit: (entry: Omit<AuditEntry, 'actorUserId' | 'actorName' | 'ip' | 'requestId'>, tx?: SqlClient) => Promise<void>;
  /** The brand whose site the call came from (the receipt's sender, colours and contacts), or null. */
  brand: BrandManifest | null;
}

/**
 * The payment service for other plugins (registration wizard, support tooling): every call takes the member id,
 * moves money at most once per idempotency key (required on every call that moves money: the caller's own, sent again
 * unchanged when it retries), records and audits each charge, refund and void once, and
 * queues a receipt e-mail (in the member's language). A result's Message is English (ours, the coupon check's or
 * the gateway's decline text: the catalogues' key); a route that answers it words it with `ctx.t(r.Message)`.
 */
export interface BillingService {
  profile(memberId: number): Promise<BillingProfile>;
  transactions(memberId: number): Promise<BillingTransaction[]>;
  /**
   * A `code` here is checked but not counted toward the limits on coupon codes (billing's own member routes count it
   * first, server/handlers/coupon-limit.ts): a caller that takes codes from members must limit guessing itself.
   */
  startSubscription(
    memberId: number,
    input: { type: MembershipKey; code?: string; idempotencyKey: string },
    actor: BillingActor,
  ): Promise<MoneyResult & { SubscriptionType: number | null }>;
  cancelSubscription(memberId: number, actor: BillingActor): Promise<BillingProfile>;
  chargeCard(
    memberId: number,
    input: { paymentProfileId: number; amountCents: number; description?: string; idempotencyKey: string },
    actor: BillingActor,
  ): Promise<MoneyResult>;
  /**
   * Refund or void a charge: at most once per charge, whoever calls and however often (the gateway's key and our
   * record are the charge's own), so these take no key; the routes that offer them still require the client's.
   */
  refund(transactionId: number, actor: BillingActor): Promise<MoneyResult>;
  voidTransaction(transactionId: number, actor: BillingActor): Promise<MoneyResult>;
  /**
   * Support tooling (spec 02 sections 4 and 7): every member's charges, one page at a time. `reader` is the client to
   * read with: a route's `ctx.searchSql` (the read replica when it has the caller's changes); the primary by default.
   */
  searchTransactions(query: TransactionSearch, reader?: SqlClient): Promise<{ Items: SupportTransaction[]; ItemCount: number }>;
  /**
   * Support's export: every charge of a search (its filter and order; `ids`, when not null, only those charges), in
   * batches of `batchSize`, read by keyset on the order's column and id: no count and no OFFSET, so a batch costs about
   * the same however far into the list it is. `reader` as for searchTransactions.
   */
  transactionBatches(query: TransactionExport, reader?: SqlClient): AsyncGenerator<SupportTransaction[]>;
  /** How many charges support's list shows of each of these statuses (0 for none), counted in one query. */
  countByStatus<S extends string>(statuses: readonly S[], reader?: SqlClient): Promise<Record<S, number>>;
  /** One charge (not a refund or void record) with its member, or null. */
  findTransaction(transactionId: number): Promise<SupportTransaction | null>;
  /**
   * Charges a Declined or Pending charge again on the member's default card; Charged on success. The money moves
   * at most once per state of the charge (concurrent or repeated calls share one gateway idempotency key);
   * a charge already Charged answers Ok without moving money. A Pending charge the gateway holds for review is
   * approved there instead (the held charge itself moves the money; a held prepull becomes Authorized). A membership's
   * payment (kind 'subscription') is refused with 409 (support changes the subscription instead), except one held for
   * review that completes its membership, which is approved: a membership's first payment (the approval starts that
   * membership, once) and a renewal held while the membership is active.
   */
  chargeTransaction(transactionId: number, input: { idempotencyKey: string }, actor: BillingActor): Promise<MoneyResult>;
  /**
   * Captures one authorization (a prepull: status Authorized), for `amountCents` up to the authorized amount (null:
   * all of it); Charged on success. The authorization is captured at most once, whatever the number of calls: a repeat
   * after it was captured answers Ok without moving money, and never captures another authorization.
   */
  captureTransaction(transactionId: number, amountCents: number | null, actor: BillingActor): Promise<MoneyResult>;
  /** A Pending charge becomes Declined (no money moves; one the gateway holds is declined there first); answers whether it changed. */
  declineTransaction(transactionId: number, actor: BillingActor): Promise<boolean>;
  /**
   * Stores the PA number of a charge and answers the stored number. With `expected` (the number the caller saw, null
   * for none) it stores only while the stored one is still that; a number someone else saved meanwhile is kept and
   * answered.
   */
  setPaNumber(transactionId: number, paNumber: string, actor: BillingActor, expected?: string | null): Promise<string>;
  /**
   * A charge's words in a reader's language (`t`: the request's translator): the descriptions the server gives charges
   * itself and the gateway's messages translated, a description staff typed as they typed it.
   */
  inLanguage(transaction: SupportTransaction, t: (message: Message) => string): SupportTransaction;
}

export interface TransactionSearch {
  /** Statuses to include (a charge with a PA number counts as 'PA Number' too); empty includes every status. */
  statuses: readonly string[];
  /**
   * The text typed in the search box: every word in the charge's id, gateway id, PA number, description, status or its
   * member's name, number or e-mail (any order, case and accents aside); text that reads as money finds the amount.
   */
  search: string | null;
  /**
   * The names the grid shows for statuses (in the reader's language and English), each with the stored statuses it
   * stands for ('Paid': Charged): a search word that begins one finds those statuses too. None: stored names only.
   */
  statusNames?: readonly (readonly [name: string, statuses: readonly string[]])[];
  memberId: number | null;
  sortColumn: 'DateCreated' | 'Amount' | 'Status' | 'TransactionID' | 'MemberName';
  sortOrder: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}
/** The export's search: the grid's filter and order, the charges it is narrowed to (null: every one), and the batch size. */
export interface TransactionExport extends Omit<TransactionSearch, 'offset' | 'limit'> {
  ids: readonly number[] | null;
  batchSize: number;
}
/** A charge as the support screens show it (spec 02 section 3, Support transaction). Amount in dollars. */
export interface SupportTransaction {
  TransactionID: number;
  Status: string;
  Kind: string;
  Amount: number;
  Description: string | null;
  Message: string;
  PANumber: string | null;
  ProviderTransactionID: number | null;
  AuthProviderTransactionID: number | null;
  CustomerID: number | null;
  PaymentProfileID: number | null;
  NCPDPRequestID: string | null;
  ClaimID: number | null;
  DateCreated: string;
  Member: { MemberID: number; MemberNumber: string; FirstName: string; LastName: string };
}

export const billingService = serviceRef<BillingService>('billing');
