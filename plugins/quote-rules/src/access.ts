import { Roles } from '@portal/core';

/**
 * Who may use the quote workbench and change the insurers' rules (issue 22: CareQuote on the quote brand,
 * SuperUser on staff). Kept free of zod: the web entry imports it.
 */
export const QuoteAccess = {
  /** /quotes, /quotes/:id and the quote API: list companies, save and reopen one's own quotes. */
  quotes: [Roles.CareQuote, Roles.SuperUser],
  /** Changing a life company's rule set. */
  editRules: [Roles.SuperUser],
} as const;
