import { type Role, Roles } from '@portal/core';

/**
 * Who may use My Messages (spec 01 section 2, spec 02 section 2): members write to support at /notes; CareSupport and
 * SuperUser answer while impersonating the member. Kept free of zod: the web entry imports this file.
 */
export const NOTES_ACCESS: readonly Role[] = [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.CareSupport];
/** Global search of notes: every role that may use notes (spec 02 section 6: "note search is available to all"). */
export const NOTES_SEARCH_ACCESS: readonly Role[] = NOTES_ACCESS;
/** Staff: their notes are recorded as staff replies and may be Support Notes. */
export const NOTES_STAFF_ROLES: readonly Role[] = [Roles.SuperUser, Roles.CareSupport];

export const NOTES_PATH = '/notes';
export const NEW_NOTE_PATH = '/notes-new';
