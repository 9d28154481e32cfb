import { type Role, Roles } from '@portal/core';

/**
 * Who sees what on the dashboard and the trends page (spec 01 sections 2 and 6, spec 02 section 6). Kept free of
 * zod: the web entry imports this file.
 */
export const TrendsAccess = {
  /** /dashboard: every signed-in role of the portal, CareQuote included (spec 01 section 2). */
  dashboard: [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.CareSupport, Roles.CareQuote],
  /** /trend (spec 01 section 2). */
  trend: [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.CareSupport],
  /** The claims-based series (claims, bills, cities), admin balance and funding date: CareGuardFinance and SuperUser (spec 02 section 6). */
  claimsDashboard: [Roles.SuperUser, Roles.CareGuardFinance],
  /** A member's own bill series on /trend (transactions/bills/*, transactions/cities/bill): CareGuard members (the brands with bills) and staff acting for one. */
  memberBills: [Roles.CareGuard, Roles.CareSupport, Roles.SuperUser],
  /** Members whose balance the low-balance e-mail watches (staff acting for one of them included). */
  lowBalance: [Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.SuperUser, Roles.CareSupport],
  /** Quick links on the dashboard. */
  quickLinks: [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.CareSupport, Roles.CareQuote],
} as const satisfies Record<string, readonly Role[]>;

/** Staff who see every member's bills when not acting for one. */
export const ACROSS_MEMBERS: readonly Role[] = [Roles.SuperUser];

export const DASHBOARD_PATH = '/dashboard';
export const TREND_PATH = '/trend';

/** The quick links' pages, in order; each shows when the brand has it and the user may open it. */
export const QUICK_LINKS: readonly string[] = ['/trend', '/claims', '/pendingclaims', '/quotes', '/price-finder', '/notes', '/member', '/help'];
