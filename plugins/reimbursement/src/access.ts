import { type Role, Roles } from '@portal/core';

/**
 * Who may open /reimbursement and call its API (spec 01 section 2): SuperUser and CareGuardFinance. A reimbursement
 * is always the member's own (or, for SuperUser, the member acted for). Kept free of zod: the web entry imports it.
 */
export const REIMBURSEMENT_ACCESS: readonly Role[] = [Roles.SuperUser, Roles.CareGuardFinance];

export const REIMBURSEMENT_PATH = '/reimbursement';
