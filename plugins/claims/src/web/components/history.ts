import { ClaimStatus } from '@portal/core';
import type { Claim, ClaimSearchInput } from '../../contract';
import { monthsAgo } from './format';

/** Spec 02 section 9: a member's claim history covers 10 years. */
export const HISTORY_YEARS = 10;

/**
 * The bills filter of a bill's history: its member's bills received in the last 10 years, or only those from its
 * payee. A payee typed by the member (no PayeeID) cannot be filtered on, so "only this payee" needs a PayeeID.
 */
export function historyFilters(bill: Claim, onlyPayee: boolean, now = new Date()): ClaimSearchInput {
  return {
    MemberID: bill.MemberID,
    ReceivedDateFrom: monthsAgo(HISTORY_YEARS * 12, now),
    ...(onlyPayee && bill.PayeeID !== null ? { PayeeID: bill.PayeeID } : {}),
  };
}

/**
 * What may be the same bill sent twice: the member's bills of the last 10 years for the same first service day
 * (the search narrows to these), checked here for the same payee and billed amount by {@link possibleDuplicates}.
 */
export function duplicateFilters(bill: Claim, now = new Date()): ClaimSearchInput {
  return {
    ...historyFilters(bill, true, now),
    ServiceDateFrom: bill.ServiceDateFrom,
    ServiceDateTo: bill.ServiceDateFrom,
  };
}

const samePayee = (a: Claim, b: Claim): boolean =>
  a.PayeeID !== null || b.PayeeID !== null ? a.PayeeID === b.PayeeID : a.PayeeName.trim().toLowerCase() === b.PayeeName.trim().toLowerCase();

/**
 * The other bills that look like this one sent again: same member, payee, first service day and billed amount,
 * not voided (a voided bill is already set aside). Lowest claim ID first: the one most likely sent first.
 */
export function possibleDuplicates(bill: Claim, candidates: readonly Claim[]): Claim[] {
  return candidates
    .filter(
      (c) =>
        c.ClaimID !== bill.ClaimID &&
        c.MemberID === bill.MemberID &&
        c.ClaimStatusID !== ClaimStatus.Void &&
        c.ServiceDateFrom === bill.ServiceDateFrom &&
        Math.round(c.BilledAmount * 100) === Math.round(bill.BilledAmount * 100) &&
        samePayee(c, bill),
    )
    .sort((a, b) => a.ClaimID - b.ClaimID);
}

/** The most pages the duplicate check reads (at the largest page size, thousands of bills for one payee and day). */
export const DUPLICATE_MAX_PAGES = 20;

/**
 * Every bill a search finds, page after page, so the duplicate check does not stop at the first page: pages are read
 * until the count the search answered is reached, a page comes back short, or `maxPages` were read.
 */
export async function allPages(
  fetchPage: (pageIndex: number) => Promise<{ Items: readonly Claim[]; ItemCount: number }>,
  pageSize: number,
  maxPages = DUPLICATE_MAX_PAGES,
): Promise<Claim[]> {
  const found: Claim[] = [];
  for (let page = 0; page < maxPages; page++) {
    const r = await fetchPage(page);
    found.push(...r.Items);
    if (r.Items.length < pageSize || found.length >= r.ItemCount) break;
  }
  return found;
}
