import { MEMBER_ROLES, type Role } from '@portal/core';

/**
 * Who goes through the registration wizard and may call its API. Kept free of zod: the web entry imports this file,
 * so the schemas load with the lazy pages, not with the entry chunk.
 */

/** The wizard's screens open to any signed-in user: the step guard, not a role, decides where each one goes. */
export const REGISTRATION_PAGE_ACCESS = 'authenticated' as const;

/** The registration question belongs to a member's own account (the roles new registrations get). */
export const REGISTRATION_QUESTION_ACCESS: readonly Role[] = MEMBER_ROLES;

export { RegistrationPaths } from './paths';
