import { type Role, Roles } from '@portal/core';

/**
 * Who may use what of bank linking (spec 01 sections 2 and 6, spec 02 sections 2 and 7). Zod-free: the web entry
 * imports this file. Staff (SuperUser) act on a member's banks only while impersonating that member, or through
 * the support calls.
 */
export const BankingAccess = {
  /** /management/bank-fastlink: the hosted linking page in a frame. */
  fastlink: [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard],
  /** /payment/bank and /payment/bank/add. */
  pages: [Roles.CareGuard, Roles.SuperUser],
  /** The finance service's member calls (site/*, account/*, token): everyone who has one of the bank pages. */
  finance: [Roles.SuperUser, Roles.CareGuardFinance, Roles.CareGuard],
  /** The finance service's support calls (support/accounts, multiple-accounts, validate, transactions). */
  support: [Roles.CareSupport, Roles.SuperUser],
  /** GET api/support/members/IslinkedBank/{memberId}: the support tooling's check. */
  isLinked: [Roles.CareSupport],
  /** The dashboard's card and bank check (spec 01 section 6). */
  dashboardCheck: [Roles.CareGuard],
} as const satisfies Record<string, readonly Role[]>;

export const BankingPaths = {
  fastlink: '/management/bank-fastlink',
  banks: '/payment/bank',
  add: '/payment/bank/add',
} as const;

/** The pages that embed the aggregator's hosted linking page: their CSP frame-src names only the aggregator's origin. */
export const BANK_FRAME_PAGES: readonly string[] = [BankingPaths.fastlink, BankingPaths.banks];

/** Spec 01 section 9 and spec 02 section 9. */
export const BANK_CONSTANTS = {
  /** The hosted linking frame's height. */
  frameHeightPx: 825,
  /** The hidden linking loader retries this many times, this far apart. */
  loaderRetries: 3,
  loaderRetryMs: 1000,
  /** After adding, the bank list reloads this often until banks appear. */
  reloadMs: 5000,
  /** An add counts as recent (the account is not shown as deactivated while the banks load) for this long. */
  recentAddMs: 60_000,
  searchMinLength: 3,
  popularCount: 8,
  /**
   * A hosted-page token (GET token) also queues a sync of the member this long after (seconds): the token's life
   * (30 minutes at FastLink and the sandbox) and a minute, so a link made in the frame is mirrored even when the
   * frame's message never reaches the page.
   */
  frameSyncAfterS: 31 * 60,
  /** Finance API version: '1' sends one form; '1.1' wraps a single form into a list. */
  defaultVersion: '1',
} as const;
