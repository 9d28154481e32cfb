import { RoleSets } from '@portal/core';

/** Who may open /help and call its API (spec 01 section 2). Kept free of zod: the web entry imports it. */
export const HELP_ACCESS = RoleSets.memberArea;
