import { type Role, Roles } from '@portal/core';

/**
 * Who may open /users and call its API (spec 02 section 2 puts /users under CareSupport). Within it, what a
 * caller may change depends on the user-administration roles they hold (see src/rules.ts, ADMIN_CAPABILITIES).
 * Kept free of zod: the web entry imports this file.
 */
export const USERS_ACCESS: readonly Role[] = [Roles.CareSupport];

export const USERS_PATH = '/users';
export const USER_DETAIL_PATH = '/users/:id';
export const userDetailPath = (id: string) => `/users/${encodeURIComponent(id)}`;
