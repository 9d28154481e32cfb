import { type PRINT_CARD_VARIANTS, type Role, Roles } from '@portal/core';

type PrintCardVariant = (typeof PRINT_CARD_VARIANTS)[number];

/**
 * The print-card routes (spec 01 section 2): one per card variant, each with its own role. Kept free of zod: the
 * web entry imports this file.
 */
export const PRINT_CARD_ROUTES: readonly { variant: Exclude<PrintCardVariant, 'none'>; path: string; access: readonly Role[] }[] = [
  { variant: 'finance', path: '/print', access: [Roles.CareGuardFinance] },
  { variant: 'amethyst', path: '/amethyst/print', access: [Roles.CareGuard] },
  { variant: 'careassist', path: '/careassist/print', access: [Roles.CareAssist] },
];

/** Who may call the print-card API: the roles of the three print screens. */
export const PRINT_CARD_ACCESS: readonly Role[] = [Roles.CareGuardFinance, Roles.CareGuard, Roles.CareAssist];
