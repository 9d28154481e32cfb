import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint';
import { LookupCategory, type LookupCategoryName } from './lookups';

/**
 * The kernel's own endpoints (spec 01 section 7: token, configuration, identity, termination, sign-out;
 * lookups; health), declared with zod/mini: the entry chunk imports them, and the sign-in path budget
 * leaves no room for classic zod.
 */

export const identitySchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Roles: z.array(z.object({ Id: z.string(), Name: z.string() })),
  MemberID: z.nullable(z.number()),
  CompanyId: z.nullable(z.number()),
});
export type Identity = z.infer<typeof identitySchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  form_token: z.string(),
  token_type: z.optional(z.string()),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
export type TokenError = { error: string; error_description: string };

const passwordGrant = z.object({
  grant_type: z.literal('password'),
  UserName: z.string().check(z.minLength(1), z.maxLength(256)),
  Password: z.string().check(z.minLength(1), z.maxLength(1024)),
});
const refreshGrant = z.object({ grant_type: z.literal('refresh_token'), refresh_token: z.string().check(z.minLength(1), z.maxLength(512)) });
export const tokenGrantSchema = z.discriminatedUnion('grant_type', [passwordGrant, refreshGrant]);

export const siteConfigSchema = z.object({
  Brand: z.nullable(z.string()),
  DisplayName: z.nullable(z.string()),
  Phone: z.nullable(z.string()),
  Fax: z.nullable(z.string()),
  SupportEmail: z.nullable(z.string()),
  InfoEmail: z.nullable(z.string()),
  RegisterLink: z.nullable(z.string()),
  FinanceUrl: z.string(),
  PaymentUrl: z.string(),
  MessagingUrl: z.string(),
  EmailUrl: z.string(),
  ProviderUrl: z.string(),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

export const lookupItemSchema = z.object({
  Category: z.enum(Object.values(LookupCategory) as [LookupCategoryName, ...LookupCategoryName[]]),
  Key: z.number(),
  Value: z.string(),
  Sort: z.number(),
  IsDefault: z.boolean(),
});

export const terminationSchema = z.object({ isTerminated: z.boolean(), terminationPeriod: z.number(), isMsa: z.boolean() });
export type Termination = z.infer<typeof terminationSchema>;

export const KernelApi = {
  token: defineEndpoint({ method: 'POST', path: '/token', body: tokenGrantSchema, response: tokenResponseSchema, bodyEncoding: 'form', answer: 'raw' }),
  health: defineEndpoint({
    method: 'GET',
    path: '/health',
    response: z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['pglite', 'postgres']) }),
  }),
  config: defineEndpoint({ method: 'GET', path: '/config', response: siteConfigSchema }),
  lookups: defineEndpoint({ method: 'GET', path: '/api/lookup/get', response: z.array(lookupItemSchema) }),
  identity: defineEndpoint({ method: 'GET', path: '/api/account/user/identity', response: identitySchema }),
  termination: defineEndpoint({ method: 'GET', path: '/api/account/user/termination', response: terminationSchema }),
  signout: defineEndpoint({ method: 'POST', path: '/api/account/user/signout', response: z.null() }),
} as const;
