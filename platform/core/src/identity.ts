import { z } from 'zod';

/** GET /api/account/user/identity (spec 01 section 3). */
export const identitySchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Roles: z.array(z.object({ Id: z.string(), Name: z.string() })),
  MemberID: z.number().int().nullable(),
  CompanyId: z.number().int().nullable(),
});
export type Identity = z.infer<typeof identitySchema>;

/** POST /token answer. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  form_token: z.string(),
  token_type: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const tokenErrorSchema = z.object({ error: z.string(), error_description: z.string() });
export type TokenError = z.infer<typeof tokenErrorSchema>;
