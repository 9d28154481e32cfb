/** Where a move goes, as the router's blocker sees it. */
export interface Place {
  pathname: string;
  search: string;
  /** The history entry's state: `keptPage` marks a move whose caller has asked about its own part (keepPageState). */
  state?: unknown;
}

/**
 * A move that keeps the page and drops only a part of it (a tab whose panel is an address): the caller asks about
 * that part's unsaved changes itself (useConfirmLeave with its scope's check), and marks the move with this state.
 */
export const keepPageState = (state: unknown): Record<string, unknown> => ({ ...(typeof state === 'object' && state !== null ? state : {}), keptPage: true });
const keptPage = (state: unknown): boolean => typeof state === 'object' && state !== null && (state as { keptPage?: unknown }).keptPage === true;

/**
 * Whether a move leaves what the page shows, so a form on it would go with its changes:
 * - another path does, a move to the sign-in page excepted: only a session's end goes there (a sign-out asks before
 *   it starts, shell/LeaveGuard; a session that ended cannot be kept, and the move must not be held up);
 * - another query string does when it is a new place (a link, Back or Forward: a tab, a record); the page's own
 *   filters and paging rewrite the query string in place (a REPLACE) and leave the page where it is;
 * - a move marked keepPageState does not: its caller has asked already. Back and Forward (POP) to an entry so marked
 *   are moves like any other (the mark was for the move that made the entry).
 */
export function leavesPage(current: Place, next: Place, historyAction: 'PUSH' | 'POP' | 'REPLACE'): boolean {
  if (next.pathname.toLowerCase() === '/login') return false;
  if (historyAction !== 'POP' && keptPage(next.state)) return false;
  if (next.pathname !== current.pathname) return true;
  return next.search !== current.search && historyAction !== 'REPLACE';
}
