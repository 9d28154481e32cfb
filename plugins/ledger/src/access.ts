import { hasAnyRole, type Role, Roles } from '@portal/core';

/**
 * Who may do what with the ledger (spec 01 section 2 and 02 sections 2 and 6). Kept free of zod: the web entry
 * imports it. Staff (SuperUser, CareSupport) act on a member's ledger only while impersonating that member.
 */
export const LedgerAccess = {
  /** /transactions: the member ledger (add, edit, delete, initial balance, report to the federal payer). */
  ledger: [Roles.CareGuard, Roles.SuperUser, Roles.CareSupport],
  /** /tranasactions (spelled so): the same ledger under its old address. */
  ledgerLegacy: [Roles.CareGuard, Roles.SuperUser],
  /** /transactions/activity: account activity. */
  activity: [Roles.CareGuard, Roles.SuperUser],
  /** /transactions/reported: transactions already reported to the federal payer. */
  reported: [Roles.CareGuard, Roles.CareAssist, Roles.CareSupport, Roles.SuperUser],
  /** /careassist/transactions: card transactions (assist variant). */
  card: [Roles.CareGuard, Roles.CareAssist, Roles.CareSupport, Roles.SuperUser],
  /** Every reader of some ledger view: loadBalance, loadMember, transactions/search. */
  read: [Roles.CareGuard, Roles.CareAssist, Roles.CareSupport, Roles.SuperUser],
  /** Dashboard widgets and GETs on the ledger: CareGuard, CareAssist and CareSupport (or SuperUser), spec 01 section 6. */
  dashboard: [Roles.CareGuard, Roles.CareAssist, Roles.CareSupport, Roles.SuperUser],
  /** The admin balance: CareGuardFinance and SuperUser (spec 01 section 6). */
  adminBalance: [Roles.CareGuardFinance, Roles.SuperUser],
} as const satisfies Record<string, readonly Role[]>;

/** The ledger's role flags (spec 02 section 6). */
export interface LedgerFlags {
  /** SuperUser or CareSupport: staff acting for a member. */
  isEligible: boolean;
  isSuperUser: boolean;
  /** CareGuard (the card program; the name is kept). */
  isAmethyst: boolean;
}

export function ledgerFlags(roles: readonly string[]): LedgerFlags {
  return {
    isEligible: hasAnyRole(roles, [Roles.SuperUser, Roles.CareSupport]),
    isSuperUser: hasAnyRole(roles, [Roles.SuperUser]),
    isAmethyst: hasAnyRole(roles, [Roles.CareGuard]),
  };
}

/**
 * Whose set-asides the admin balance sums: every member's ('all') only for a SuperUser acting for nobody; for anyone
 * else (a CareGuardFinance member, whose brand's registration is open to anyone; staff acting for a member) the
 * member they act for ('member'). Shared by the server (which answers so) and the widgets (which word it so).
 */
export function adminBalanceScope(roles: readonly string[], actingMemberId: number | null | undefined): 'all' | 'member' {
  return hasAnyRole(roles, [Roles.SuperUser]) && actingMemberId === null ? 'all' : 'member';
}

export const LedgerPaths = {
  ledger: '/transactions',
  ledgerLegacy: '/tranasactions',
  activity: '/transactions/activity',
  reported: '/transactions/reported',
  card: '/careassist/transactions',
} as const;
