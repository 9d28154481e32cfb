/**
 * Support tooling rules (spec 02 sections 4, 5, 8, 9) shared by the server and the web. Zod-free: the web entry
 * may import it.
 */

/** The status filter of /support-transactions, in the spec's order; 'All' is a filter only. */
export const SUPPORT_TX_FILTERS = ['All', 'Charged', 'Pending', 'Declined', 'Refunded', 'PA Number', 'Voided', 'Authorized'] as const;
export type SupportTxFilter = (typeof SUPPORT_TX_FILTERS)[number];
/** The pending list omits PA Number and Voided. */
export const PENDING_TX_FILTERS = SUPPORT_TX_FILTERS.filter((s) => s !== 'PA Number' && s !== 'Voided') as Exclude<SupportTxFilter, 'PA Number' | 'Voided'>[];
export const DEFAULT_TX_FILTER: SupportTxFilter = 'Declined';
/** Spec 02 section 4: the pending list's default filter is Declined too (its Pending filter shows the held charges). */
export const DEFAULT_PENDING_FILTER = 'Declined' as const;
export const SUPPORT_PAGE_SIZES = [10, 20, 30, 50] as const;
export const SUPPORT_DEFAULT_PAGE_SIZE = 20;
export const SUPPORT_TRANSACTION_SORTS = ['DateCreated', 'Amount', 'Status', 'TransactionID', 'MemberName'] as const;
/** Member list: statuses, FirstName ascending, filter debounced 1000 ms. */
export const MEMBER_STATUSES = ['Members', 'Pending', 'Terminated', 'All'] as const;
export const MEMBER_FILTER_DEBOUNCE_MS = 1000;
/** The gateway's answer to a refund of a transaction that has not settled yet: support is offered a void. */
// english-only: the gateway's own answer text, matched on the server (the answer's Unsettled), not a text of ours
export const UNSETTLED_REFUND_MESSAGE = 'The referenced transaction does not meet the criteria for issuing a credit.';

/** The statuses a filter selects (empty: every status). */
export function statusesOf(filter: SupportTxFilter, pending = false): string[] {
  if (filter === 'All') return pending ? [...PENDING_TX_FILTERS.filter((s) => s !== 'All')] : [];
  return [filter];
}

/** Display mapping (spec 02 section 4): Charged shows as Paid, Declined as Declined, Voided and Refund(ed) as Refunded. */
export function displayStatus(status: string): string {
  switch (status) {
    case 'Charged':
      return 'Paid';
    case 'Voided':
    case 'Refund':
    case 'Refunded':
      return 'Refunded';
    default:
      return status;
  }
}

/**
 * The names the grid shows for the stored statuses (displayStatus), each with the statuses shown under it: 'Paid' is
 * Charged, 'Refunded' is Refunded and Voided. The search box finds a status by the name it shows.
 */
export function shownStatusNames(): [name: string, statuses: string[]][] {
  const shown = new Map<string, string[]>();
  for (const status of SUPPORT_TX_FILTERS) {
    if (status === 'All' || status === 'PA Number') continue;
    const name = displayStatus(status);
    shown.set(name, [...(shown.get(name) ?? []), status]);
  }
  return [...shown];
}

/**
 * A refund refused because the charge has not settled: the screen offers a void instead. The server decides it on
 * billing's answer before the message is translated, and answers it as Unsettled.
 */
export const isUnsettledRefund = (r: { StatusString: string; Message: unknown }) => r.StatusString !== 'Ok' && String(r.Message) === UNSETTLED_REFUND_MESSAGE;

/** PA-number update (spec 02 section 5): the submitted number compared with the returned one; equal is success. */
export const paNumberMatches = (submitted: string, returned: string | null | undefined) => (returned ?? '').trim() === submitted.trim();

/** Actions a row offers by its status and kind. */
export function rowActions(status: string, kind?: string): { charge: boolean; refund: boolean; decline: boolean; capture: boolean; release: boolean } {
  return {
    // A declined membership payment is not charged on its own (it would not start or resume the membership): support
    // changes the subscription. A held one (Pending) may be a renewal of a running membership, which the server approves.
    charge: status === 'Pending' || (status === 'Declined' && kind !== 'subscription'),
    refund: status === 'Charged',
    decline: status === 'Pending',
    // An authorization (a prepull): captured for up to its amount, or voided to release the hold on the card.
    capture: status === 'Authorized',
    release: status === 'Authorized',
  };
}

/** A fresh idempotency key for one press of a money button (a retry of the same press reuses it). */
export function newIdempotencyKey(action: string): string {
  const rnd = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `support-${action}-${rnd}`;
}

/**
 * Whether a money dialog keeps its idempotency key for the next press. A definite answer (the gateway's result, Ok or
 * declined, or the server's refusal: any HTTP answer below 500) spends it, so pressing again is a new request, not a
 * replay of that answer; no answer (the connection lost, status 0) or a server or gateway failure (5xx), whose outcome
 * is unknown, keeps it, so the retry moves money at most once. Changing the inputs always takes a new key.
 */
export function keepsIdempotencyKey(outcome: { answered: true } | { answered: false; status: number }): boolean {
  return !outcome.answered && (outcome.status === 0 || outcome.status >= 500);
}
