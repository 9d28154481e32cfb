/**
 * Who may open the account plugin's pages, and their paths. Kept free of zod: the web entry imports it,
 * so the login screen's bundle does not pull the contract's schemas in.
 */

/** The e-mailed links and the activated confirmation open without a session (spec 01 section 2). */
export const ACCOUNT_LINK_ACCESS = 'public' as const;

/** The user account page needs only a signed-in user, whatever the role. */
export const ACCOUNT_PAGE_ACCESS = 'authenticated' as const;

export const AccountRoutes = {
  activate: '/login/activate/:urlId',
  reset: '/login/reset/:urlId',
  confirmEmail: '/login/confirm-email/:urlId',
  account: '/account',
} as const;

/** Seconds the activation and reset pages wait after success before going to /login (spec 01 section 8). */
export const LINK_SUCCESS_REDIRECT_MS = 5000;
