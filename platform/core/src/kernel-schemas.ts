import * as z from 'zod/mini';
import { withSchemas } from './endpoint';
import { LANGUAGES } from './format/locale';
import { ACCESS_TOKEN_TYPE, KernelApi, TOKEN_EXCHANGE_GRANT } from './kernel-api';
import { LookupCategory, type LookupCategoryName } from './lookups';

/**
 * The schemas of the kernel's own endpoints (zod/mini), for the server: the browser imports only the
 * declarations in kernel-api.ts, whose types come from here, so no zod reaches the sign-in path.
 */

export const identitySchema = z.object({
  Id: z.string(),
  Name: z.string(),
  /**
   * Not in the spec's entity: the name the navigation bar shows (spec 01 "the user display name"): the member's first and
   * last name as their profile has them now, else the login's, else its user name.
   */
  DisplayName: z.string(),
  Roles: z.array(z.object({ Id: z.string(), Name: z.string() })),
  MemberID: z.nullable(z.number()),
  CompanyId: z.nullable(z.number()),
});

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  form_token: z.string(),
  token_type: z.optional(z.string()),
});

const passwordGrant = z.object({
  grant_type: z.literal('password'),
  UserName: z.string().check(z.minLength(1), z.maxLength(256)),
  Password: z.string().check(z.minLength(1), z.maxLength(1024)),
});
const refreshGrant = z.object({ grant_type: z.literal('refresh_token'), refresh_token: z.string().check(z.minLength(1), z.maxLength(512)) });
const exchangeGrant = z.object({
  grant_type: z.literal(TOKEN_EXCHANGE_GRANT),
  subject_token: z.string().check(z.minLength(1), z.maxLength(4096)),
  subject_token_type: z.literal(ACCESS_TOKEN_TYPE),
});
export const tokenGrantSchema = z.discriminatedUnion('grant_type', [passwordGrant, refreshGrant, exchangeGrant]);

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

export const lookupItemSchema = z.object({
  Category: z.enum(Object.values(LookupCategory) as [LookupCategoryName, ...LookupCategoryName[]]),
  Key: z.number(),
  Value: z.string(),
  Sort: z.number(),
  IsDefault: z.boolean(),
});

/**
 * Spec 01's shape, and ours: terminationDay, the business's calendar day the membership ends or ended on (null: none);
 * supportPhone, the phone of the member's brand to call about it (null: no member, or a brand without one).
 */
export const terminationSchema = z.object({
  isTerminated: z.boolean(),
  terminationPeriod: z.number(),
  isMsa: z.boolean(),
  terminationDay: z.optional(z.nullable(z.string())),
  supportPhone: z.optional(z.nullable(z.string())),
});
export const healthSchema = z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['pglite', 'postgres']) });
export const lookupsSchema = z.array(lookupItemSchema);
export const nullSchema = z.null();
/** A hand-over token and the seconds it may be exchanged in. */
export const handoverSchema = z.object({ Token: z.string(), ExpiresIn: z.number() });

/** The language a signed-in user picked: one the application is written in. */
export const languageChoiceSchema = z.object({ Language: z.enum(LANGUAGES) });

/** A member number typed by staff to act for that member (the number the member lists and profiles show). */
export const memberNumberParamsSchema = z.object({ number: z.string().check(z.trim(), z.minLength(1), z.maxLength(30)) });
export const memberByNumberSchema = z.object({ MemberID: z.number() });

/** The kernel's endpoints with their schemas attached: what the server mounts. */
export const KernelRoutes = {
  token: withSchemas(KernelApi.token, { body: tokenGrantSchema, response: tokenResponseSchema }),
  health: withSchemas(KernelApi.health, { response: healthSchema }),
  config: withSchemas(KernelApi.config, { response: siteConfigSchema }),
  lookups: withSchemas(KernelApi.lookups, { response: lookupsSchema }),
  identity: withSchemas(KernelApi.identity, { response: identitySchema }),
  termination: withSchemas(KernelApi.termination, { response: terminationSchema }),
  signout: withSchemas(KernelApi.signout, { response: nullSchema }),
  handover: withSchemas(KernelApi.handover, { response: handoverSchema }),
  language: withSchemas(KernelApi.language, { body: languageChoiceSchema, response: nullSchema }),
  memberByNumber: withSchemas(KernelApi.memberByNumber, { params: memberNumberParamsSchema, response: memberByNumberSchema }),
} as const;
