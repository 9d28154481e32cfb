import { type Role, Roles } from '@portal/core';

/**
 * Who may use what of billing. Zod-free: the web entry imports this file.
 * - members' billing (spec 01 section 2: /payment and /payment/cards): SuperUser, CareGuard, CareAssist;
 * - the payment service's support calls (spec 02 section 7): CareSupport and SuperUser (the spec leaves the roles
 *   of refund, void and charge open; these are the roles that may act on members).
 */
export const BILLING_MEMBER_ACCESS: readonly Role[] = [Roles.SuperUser, Roles.CareGuard, Roles.CareAssist];
export const BILLING_SUPPORT_ACCESS: readonly Role[] = [Roles.CareSupport, Roles.SuperUser];

export const BILLING_PATH = '/billing';
export const PAYMENT_PATH = '/payment';
export const PAYMENT_CARDS_PATH = '/payment/cards';
/** Support card management (spec 01 section 2): SuperUser, CareAssist and CareSupport; staff act on the member in the path. */
export const SUPPORT_CARD_PATH = '/support/card/:id';
export const SUPPORT_CARD_PREFIX = '/support/card';
export const supportCardPath = (memberId: number) => `${SUPPORT_CARD_PREFIX}/${memberId}`;
export const BILLING_SUPPORT_CARD_ACCESS: readonly Role[] = [Roles.SuperUser, Roles.CareAssist, Roles.CareSupport];
/** The pages that embed the hosted card form: their answers name the gateway's origin in frame-src. */
export const CARD_FORM_PAGES: readonly string[] = [BILLING_PATH, PAYMENT_PATH, PAYMENT_CARDS_PATH, SUPPORT_CARD_PREFIX];
