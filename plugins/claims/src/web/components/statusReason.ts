import type { StatusHistoryEntry } from '../../contract';

/**
 * The reason given for the bill's current status: the reason of its latest status change (support types it with the
 * change, e.g. what a bill Pending Information waits for, why it was Denied). None when that change had no reason; an
 * older change's reason is never shown for it (it was the reason for another status). The first entry (the bill
 * created, or made from a reimbursement request) is no status change: its note is not a reason. The history comes
 * newest first (POST details).
 */
export function latestStatusReason(history: readonly StatusHistoryEntry[]): string | null {
  const latest = history.find((h) => h.FromStatusID !== null);
  const reason = latest?.Reason?.trim();
  return reason ? reason : null;
}
