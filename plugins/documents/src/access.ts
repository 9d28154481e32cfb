import { type Role, RoleSets } from '@portal/core';

/** /documents and /statements and their calls (spec 01 section 2): SuperUser, CareGuardFinance. Zod-free: the web entry imports it. */
export const DOCUMENTS_ACCESS: readonly Role[] = RoleSets.finance;

export const DOCUMENTS_PATH = '/documents';
export const STATEMENTS_PATH = '/statements';
