/** Where a move goes, as the router's blocker sees it. */
export interface Place {
  pathname: string;
  search: string;
}

/**
 * Whether a move leaves what the page shows, so a form on it would go with its changes:
 * - another path does, a move to the sign-in page excepted: only a session's end goes there (a sign-out asks before
 *   it starts, shell/LeaveGuard; a session that ended cannot be kept, and the move must not be held up);
 * - another query string does when it is a new place (a link, Back or Forward: a tab, a record); the page's own
 *   filters and paging rewrite the query string in place (a REPLACE) and leave the page where it is.
 */
export function leavesPage(current: Place, next: Place, historyAction: 'PUSH' | 'POP' | 'REPLACE'): boolean {
  if (next.pathname.toLowerCase() === '/login') return false;
  if (next.pathname !== current.pathname) return true;
  return next.search !== current.search && historyAction !== 'REPLACE';
}
