import { type Role, RoleSets, Roles } from '@portal/core';

/**
 * Who may open My Profile and call the member and messaging API, and the page's path. Kept free of zod: the
 * web entry imports this file, so the schemas load with the lazy page, not with the entry chunk.
 */
export const PROFILE_ACCESS: readonly Role[] = RoleSets.memberArea;
export const PROFILE_PATH = '/member';

/** Spec 01 section 6: CareGuard and CareAssist members edit their phone fields; support staff acting for a member may too. */
export const PHONE_EDIT_ROLES: readonly Role[] = [Roles.CareGuard, Roles.CareAssist, Roles.SuperUser, Roles.CareSupport];
/** Spec 01 section 6: CareGuard and CareAssist members see Terminate and Reactivate (their own membership). */
export const TERMINATE_ACCESS: readonly Role[] = [Roles.CareGuard, Roles.CareAssist];
/** Members whose preferred contact is forced to Mobile and whose mobile is always required (spec 01 section 5). */
export const FORCED_MOBILE_ROLES: readonly Role[] = [Roles.CareGuard, Roles.CareAssist];
/** Staff who may read and save any member account by id (the support list) besides impersonating. */
export const MEMBER_ADMIN_ROLES: readonly Role[] = [Roles.SuperUser, Roles.CareSupport];
/** Support's address calls under api/support/members/addresses (spec 02 section 2: the support screens are CareSupport's). */
export const SUPPORT_ADDRESS_ACCESS: readonly Role[] = [Roles.CareSupport];
