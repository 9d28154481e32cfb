import { type Role, Roles } from '@portal/core';

/** The download-forms screens (spec 01 section 2): one per card variant, each with its own role. Zod-free: the web entry imports it. */
export const DOWNLOAD_FORMS_ROUTES = [
  { variant: 'finance', path: '/downloadforms', role: Roles.CareGuardFinance },
  { variant: 'amethyst', path: '/downloadforms/amethyst', role: Roles.CareGuard },
  { variant: 'careassist', path: '/downloadforms/careassist', role: Roles.CareAssist },
] as const satisfies readonly { variant: string; path: string; role: Role }[];

export type FormVariant = (typeof DOWNLOAD_FORMS_ROUTES)[number]['variant'];

/** Who may call the API: the roles of the three screens. */
export const DOWNLOAD_FORMS_ACCESS: readonly Role[] = DOWNLOAD_FORMS_ROUTES.map((r) => r.role);

/** The two letters of each variant; ids are unique across variants. Their titles are i18n keys forms.<id>. */
export const FORMS: readonly { id: number; variant: FormVariant }[] = [
  { id: 1, variant: 'finance' },
  { id: 2, variant: 'finance' },
  { id: 3, variant: 'amethyst' },
  { id: 4, variant: 'amethyst' },
  { id: 5, variant: 'careassist' },
  { id: 6, variant: 'careassist' },
];
