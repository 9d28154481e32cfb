import { type Role, RoleSets, Roles } from '@portal/core';

/** /documents and /statements and their calls (spec 01 section 2): SuperUser, CareGuardFinance. Zod-free: the web entry imports it. */
export const DOCUMENTS_ACCESS: readonly Role[] = RoleSets.finance;

/** Who may add a document to the member they act for: SuperUser (finance administration). */
export const DOCUMENTS_UPLOAD_ACCESS: readonly Role[] = [Roles.SuperUser];

export const DOCUMENTS_PATH = '/documents';
export const STATEMENTS_PATH = '/statements';
