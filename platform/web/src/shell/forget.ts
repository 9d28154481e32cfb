import type { Query, QueryClient } from '@tanstack/react-query';

/** A query of the site, the same for every user and member: its configuration and lookups. */
export const isSiteWide = (q: Pick<Query, 'queryKey'>): boolean => q.queryKey[0] === 'kernel' && (q.queryKey[1] === 'config' || q.queryKey[1] === 'lookups');

/** A query of the signed-in user, whoever they act for: the site's, and the user's identity. */
const isUserWide = (q: Pick<Query, 'queryKey'>): boolean => isSiteWide(q) || (q.queryKey[0] === 'kernel' && q.queryKey[1] === 'identity');

/**
 * The member the signed-in staff user acts for changed (started, stopped, switched, here or in another tab): what is
 * cached is the previous member's (the plugins' keys do not name the member), so all of it but the site's and the
 * user's identity is dropped, not just marked stale. A stale query keeps its data and a page draws it until the new
 * answer comes, and keeps it beside an error when that fails: member A's records under member B's banner. Reset, not
 * only removed: the queries drawn now (a page, the navigation's badges) go back to loading at once and ask again for
 * the new member; one drawn by nothing is left without data. The layout draws the page anew too (Layout's Outlet key),
 * so what the page holds itself (a form, a selection) starts over.
 */
export function forgetMemberData(queryClient: QueryClient): void {
  void queryClient.resetQueries({ predicate: (q) => !isUserWide(q) });
}

/** A new session: nothing cached for an earlier one is the new user's; only the site's configuration and lookups stay. */
export function forgetSessionData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (q) => !isSiteWide(q) });
}
