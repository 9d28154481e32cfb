import { type Role, Roles } from '@portal/core';

/**
 * Who may search the drug price list (spec 02 section 1: members search it; staff help them): every role of the
 * member screens (the /help roles of spec 01 section 2). CareQuote, an annuity-quote tool, has no prescription plan.
 * Kept free of zod: the web entry imports this file.
 */
export const PRICE_FINDER_ACCESS: readonly Role[] = [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.CareSupport];

export const PRICE_FINDER_PATH = '/price-finder';
