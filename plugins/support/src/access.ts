import { type Role, Roles } from '@portal/core';

/**
 * Who may use the support tooling (spec 01 section 2, spec 02 section 2). Kept free of zod: the web entry imports
 * this file. Every api/support/ call is CareSupport's; /support/card/:id is also SuperUser's and CareAssist's
 * (CareAssist manages their own card there: the card calls are billing's, enforced by billing).
 */
export const SUPPORT_ACCESS: readonly Role[] = [Roles.CareSupport];
export const SUPPORT_CARD_ACCESS: readonly Role[] = [Roles.SuperUser, Roles.CareAssist, Roles.CareSupport];

export const SUPPORT_TRANSACTIONS_PATH = '/support-transactions';
export const SUPPORT_PENDING_PATH = '/support-pendingtransactions';
export const SUPPORT_REPORTS_PATH = '/support-reports';
/** Support's members list (statuses Members, Pending, Terminated, All), reached from /users. */
export const SUPPORT_MEMBERS_PATH = '/support-members';
export const SUPPORT_CARD_PATH = '/support/card/:id';
/** The query parameter the support lists keep their status filter in, so a link opens a list filtered. */
export const SUPPORT_STATUS_PARAM = 'status';
export const withStatus = (path: string, status: string) => `${path}?${SUPPORT_STATUS_PARAM}=${encodeURIComponent(status)}`;
export const supportCardPath = (memberId: number | string) => `/support/card/${encodeURIComponent(String(memberId))}`;
