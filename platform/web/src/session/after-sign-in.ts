/** The sign-in pages (and the register dialog's page): a session that ends there has no page to come back to. */
const SIGN_IN_PAGE = /^\/(login|register)(\/|$)/i;

export const isSignInPage = (pathname: string): boolean => SIGN_IN_PAGE.test(pathname);

/**
 * Where a sign-in goes: back to the page whose session ended (`from`), else the landing page, else '/'. Never to a sign-in
 * page: a stored session found ended while the sign-in page was open named that page as `from`, and the sign-in then
 * went to itself and stayed on 'Signing in…'.
 */
export function afterSignInPath(from: { pathname: string; search?: string } | null | undefined, landing: string | null): string {
  if (from && !isSignInPage(from.pathname)) return `${from.pathname}${from.search ?? ''}`;
  return landing ?? '/';
}
