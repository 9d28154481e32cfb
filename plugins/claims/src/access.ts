import { Roles } from '@portal/core';

/**
 * Who may do what with bills (spec 02 section 2; the server rules are written down in plugins/claims/README.md).
 * Kept free of zod: the web entry imports it.
 */
export const ClaimsAccess = {
  /** /claims and /claims/:id: list, view, edit. */
  bills: [Roles.SuperUser, Roles.CareGuardFinance],
  /** /claims-new. */
  create: [Roles.SuperUser, Roles.CareGuardAdmin],
  /**
   * POST /api/claims/create: /claims-new's roles, and the bill details' create mode (/claims/new; spec 02 section 2:
   * /claims/:id is "view, edit, create" for SuperUser and CareGuardFinance). A member adds bills to their own account.
   */
  createBill: [Roles.SuperUser, Roles.CareGuardAdmin, Roles.CareGuardFinance],
  /** /pendingclaims (card variant). */
  pending: [Roles.CareGuard],
  /** Support tooling changes claim statuses. */
  changeStatus: [Roles.SuperUser, Roles.CareSupport],
  /** The support screens' calls on one member's bills (api/support/getClaimById, api/support/changeStatus). */
  support: [Roles.CareSupport],
  /** Vendor (payee) look-up for the bill entry forms. */
  vendors: [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuardAdmin],
  /** Dashboard recent claims: CareGuardFinance and SuperUser (spec 01 section 6). */
  recent: [Roles.SuperUser, Roles.CareGuardFinance],
  /** Global search of claims: the finance role (spec 02 section 6). */
  globalSearch: [Roles.SuperUser, Roles.CareGuardFinance],
  /** Staff who work across members when not acting for one (no own member record, no impersonation). */
  acrossMembers: [Roles.SuperUser, Roles.CareGuardAdmin, Roles.CareSupport],
  /**
   * Staff whose new payee name on a bill becomes a shared payee (one that the vendor search offers everyone).
   * A member's new payee name stays on the member's bill only.
   */
  sharedPayees: [Roles.SuperUser, Roles.CareGuardAdmin, Roles.CareSupport],
} as const;
