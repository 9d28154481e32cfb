import { RoleSets } from '@portal/core';

/** Who may open /help and call its API (spec 01 section 2). Kept free of zod: the web entry imports it. */
export const HELP_ACCESS = RoleSets.memberArea;

/** API paths (zod-free, so pages can import them without the schemas). */
export const HelpApi = { topics: '/api/help/topics' } as const;
