import { type Role, Roles } from '@portal/core';

/**
 * Who may use contacts (spec 02 section 2). Kept free of zod: the web entry imports this file.
 * Members (and staff acting for one through impersonation) manage their own contacts at /contacts.
 */
export const CONTACTS_ACCESS: readonly Role[] = [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.CareSupport];
/** The support tooling reads a named member's contacts (search/{memberId}, getById/{memberId}/{id}) and shows them as a member tab. */
export const CONTACTS_SUPPORT_ACCESS: readonly Role[] = [Roles.SuperUser, Roles.CareSupport];

export const CONTACTS_PATH = '/contacts';
