import { type Language, serviceRef } from '@portal/core';
import type { SqlClient } from '@portal/server';

/** The three groupings of a dashboard series (spec 01 section 7: claims/time, claims/quarter, claims/month). */
export type SeriesPeriod = 'time' | 'quarter' | 'month';

/** Whose bills a series counts: one member's, or every member's (staff working across members). */
export type SeriesScope = { memberId: number } | { memberId: null };

/** Claims per period: Date is the period's first day, 'YYYY-MM-DD'. */
export interface ClaimCountPoint {
  Date: string;
  NumberOfClaims: number;
}
/** Billed amount per period, integer cents. */
export interface BillAmountPoint {
  Date: string;
  AmountCents: number;
}
/** Bills per payee city ('City, ST'), most first; with how many cities and bills the whole window has (every row the same). */
export interface CityCountPoint {
  City: string;
  NumberOfClaims: number;
  TotalCities: number;
  TotalClaims: number;
}

/**
 * Aggregates of bills for the dashboards, kept in the claims plugin because it owns the table and its indexes.
 * Every series covers a fixed window ending today (see plugins/claims/README.md, "Dashboard series").
 */
export interface ClaimsService {
  claimCounts(scope: SeriesScope, period: SeriesPeriod): Promise<ClaimCountPoint[]>;
  billAmounts(scope: SeriesScope, period: SeriesPeriod): Promise<BillAmountPoint[]>;
  cityCounts(scope: SeriesScope): Promise<CityCountPoint[]>;
  /**
   * A member's reimbursement request as a bill for finance staff to review (status Received, bill type Misc, claim type
   * Unknown, the payee 'Member reimbursement'), with its status history; in the caller's transaction. A service after
   * the member's termination day is refused (409, a new bill's message), the member's row read FOR SHARE in `tx`: the
   * caller's own check and this bill then stand on the same reading until the caller commits.
   */
  recordReimbursement(input: ReimbursementBill, tx: SqlClient): Promise<{ ClaimID: number; ClaimNumber: string }>;
  /** The member a bill belongs to, or null when there is no such bill (a charge naming a bill checks it is the member's). */
  billOwner(claimId: number): Promise<number | null>;
  /**
   * Read-only: the status and payment of a member's bills by id (the reimbursement page shows its requests' outcome).
   * Ids that are not the member's bills are left out.
   */
  billStatuses(memberId: number, claimIds: readonly number[]): Promise<BillStatus[]>;
}

/** A bill's status (ClaimStatus id) and payment, as billStatuses answers it. */
export interface BillStatus {
  ClaimID: number;
  ClaimStatusID: number;
  /** Integer cents; null until a payment is recorded. */
  PaidCents: number | null;
  /** 'YYYY-MM-DD'; null until paid. */
  PaidDate: string | null;
}

export interface ReimbursementBill {
  memberId: number;
  billedCents: number;
  /** 'YYYY-MM-DD'. */
  serviceDate: string;
  createdByUserId: string | null;
  createdByName: string | null;
  /** The reader's language, for the day a refusal names; English when left out. */
  language?: Language;
}

export const claimsService = serviceRef<ClaimsService>('claims');
