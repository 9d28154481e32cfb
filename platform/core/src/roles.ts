/** The spec's portal roles (spec 01 section 6). */
export const Roles = {
  SuperUser: 'SuperUser',
  CareGuardFinance: 'CareGuardFinance',
  CareGuard: 'CareGuard',
  CareAssist: 'CareAssist',
  CareSupport: 'CareSupport',
  CareQuote: 'CareQuote',
  CareGuardAdmin: 'CareGuardAdmin',
  /** Marker role: removed after bank credentials are updated. */
  DeactivateBank: 'DeactivateBank',
} as const;
export type Role = (typeof Roles)[keyof typeof Roles];
export const ALL_ROLES: readonly Role[] = Object.values(Roles);

/** User-administration roles (spec 02 section 6). */
export const AdminRoles = {
  SystemAdmin: 'SystemAdmin',
  Adjuster: 'Adjuster',
  Broker: 'Broker',
  TeamLead: 'TeamLead',
} as const;
export type AdminRole = (typeof AdminRoles)[keyof typeof AdminRoles];
export const ALL_ADMIN_ROLES: readonly AdminRole[] = Object.values(AdminRoles);

/** Roles whose holders are members (people with bills, cards, a subscription). */
export const MEMBER_ROLES: readonly Role[] = [Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.CareQuote];
/** Roles allowed to act on behalf of a member (impersonation). */
export const IMPERSONATOR_ROLES: readonly Role[] = [Roles.SuperUser, Roles.CareSupport];

const normalize = (role: string): string => role.replace(/\s+/g, '').toLowerCase();

/**
 * True when the user holds any of the required roles, compared ignoring case and spaces.
 * An empty requirement list means "any signed-in user".
 */
export function hasAnyRole(userRoles: readonly string[], required: readonly string[]): boolean {
  if (required.length === 0) return true;
  const held = new Set(userRoles.map(normalize));
  return required.some((r) => held.has(normalize(r)));
}

/**
 * Who may call a route or open a page.
 * - 'public': anyone, signed in or not.
 * - 'authenticated': any signed-in user.
 * - a role list: a signed-in user holding any of them.
 */
export type Access = 'public' | 'authenticated' | readonly Role[];

export type AccessDecision = 'allow' | 'unauthenticated' | 'forbidden';

export function decideAccess(access: Access, userRoles: readonly string[] | null): AccessDecision {
  if (access === 'public') return 'allow';
  if (userRoles === null) return 'unauthenticated';
  if (access === 'authenticated') return 'allow';
  return hasAnyRole(userRoles, access) ? 'allow' : 'forbidden';
}

/** The route role sets that spec 01 section 2 repeats. */
export const RoleSets = {
  memberArea: [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.CareSupport],
  dashboard: [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist, Roles.CareSupport, Roles.CareQuote],
  finance: [Roles.SuperUser, Roles.CareGuardFinance],
  support: [Roles.CareSupport],
} as const satisfies Record<string, readonly Role[]>;

/** The role names of an identity answer ({Roles: [{Id, Name}]}). */
export const roleNames = (identity: { Roles: readonly { Name: string }[] }): string[] => identity.Roles.map((r) => r.Name);
