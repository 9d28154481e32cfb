/** What a query shows: its data, that it waits, or that it failed (never a failure shown as "no data"). */
interface QueryState<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
}

/**
 * The current-balance line of the ledger page: the balance, none set yet, still loading, or failed (the page offers
 * Retry). "No initial balance yet" only when the server said so (Amount null), not while the call waits or failed.
 */
export type BalanceLine = { kind: 'amount'; amount: number } | { kind: 'none' } | { kind: 'loading' } | { kind: 'failed' };

export function balanceLine(q: QueryState<{ Amount: number | null; CurrentBalance: number | null }>): BalanceLine {
  if (q.data) return q.data.CurrentBalance === null ? { kind: 'none' } : { kind: 'amount', amount: q.data.CurrentBalance };
  if (q.isError) return { kind: 'failed' };
  return { kind: 'loading' };
}

/** The initial-balance input is open only once the server said none is set (not while it loads, nor when it failed). */
export const balanceOpen = (q: QueryState<{ Amount: number | null }>): boolean => q.data !== undefined && q.data.Amount === null;

/**
 * The ledger table's body when it has no row to show: 'failed' (the page shows the error with Retry, and no "No
 * transactions in this period." row), 'loading', 'empty' (the server answered no rows), or null when rows (or a new
 * row) show.
 */
export function listStatusRow(q: QueryState<unknown>, rowCount: number, adding: boolean): 'failed' | 'loading' | 'empty' | null {
  if (rowCount > 0 || adding) return null;
  if (q.isError) return 'failed';
  if (q.data === undefined) return 'loading';
  return 'empty';
}

/** The table's count of rows: known only once the list answered (a failed list has no count, not 0). */
export const listCount = (q: QueryState<{ ItemCount: number }>): number | null => q.data?.ItemCount ?? null;
