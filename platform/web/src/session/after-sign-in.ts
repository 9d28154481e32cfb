/** The sign-in pages (and the register dialog's page): a session that ends there has no page to come back to. */
const SIGN_IN_PAGE = /^\/(login|register)(\/|$)/i;

export const isSignInPage = (pathname: string): boolean => SIGN_IN_PAGE.test(pathname);

/** A page's place: its path and query. */
export interface PagePlace {
  pathname: string;
  search?: string;
}

/**
 * What a move to the sign-in page carries (router state): the page to come back to after the sign-in (`from`), and
 * whose session it was (`user`, SessionStore.user()); no user: a page asked for before anyone signed in on the tab.
 */
export interface ReturnState {
  from?: PagePlace;
  user?: string | null;
}

/** The state of a move to the sign-in page from `here`; none from a sign-in page, which has no page to come back to. */
export function returnState(here: PagePlace, user: string | null): ReturnState | undefined {
  return isSignInPage(here.pathname) ? undefined : { from: here, user };
}

/**
 * Where a sign-in as `user` goes: back to the page whose session ended (`from`), but only for the user whose session it
 * was (a page asked for signed out, by no one's session, for whoever signs in); else the landing page, else '/'. The
 * next person signing in on the tab starts on their own landing page, not on the previous user's record. Never to a
 * sign-in page: a stored session found ended while the sign-in page was open named that page as `from`, and the
 * sign-in then went to itself and stayed on 'Signing in…'.
 */
export function afterSignInPath(state: ReturnState | null | undefined, landing: string | null, user: string | null): string {
  const from = state?.from;
  const owner = state?.user ?? null;
  if (from && !isSignInPage(from.pathname) && (owner === null || owner === user)) return `${from.pathname}${from.search ?? ''}`;
  return landing ?? '/';
}
