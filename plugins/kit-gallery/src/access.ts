import { Roles } from '@portal/core';

/** Who may open /kit-gallery and call its API: support staff. Kept free of zod: the web entry imports it. */
export const KIT_GALLERY_ACCESS = [Roles.SuperUser, Roles.CareSupport];
