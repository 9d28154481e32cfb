import { defineEndpoint, idSchema, parseIsoDay, specText } from '@portal/core';
import { z } from 'zod';

/** The refusal of a bank search shorter than 3 characters (spec 01 section 6). */
export const BANK_SEARCH_MIN_MESSAGE = 'Minimum 3 characters are required';

/**
 * The finance service (spec 01 section 7, spec 02 section 7) under /config's FinanceUrl '/api/finance/', and the
 * support tooling's linked-bank check. Money travels as dollars with 2 decimals and is integer cents inside.
 * Bank credentials pass through to the aggregator and are never stored: we keep the aggregator's ids only.
 */

export const FINANCE_PREFIX = '/api/finance';

/** Results of add, MFA and credential update. Anything but SUCCESS and FAILED is a further multi-factor step. */
export const BankStatus = { Success: 'SUCCESS', Failed: 'FAILED', Mfa: 'MFA', Stale: 'STALE' } as const;

const fieldSchema = z.strictObject({
  Id: z.string().nullable(),
  Name: z.string(),
  Label: z.string(),
  Type: z.enum(['text', 'password', 'option']),
  Value: z.string(),
  Options: z.array(z.strictObject({ Label: z.string(), Value: z.string() })).nullable(),
  MaxLength: z.number().int().nullable(),
});
export const bankFormSchema = z.strictObject({
  FormId: z.string(),
  Label: z.string(),
  /** 'login', or the kind of multi-factor step: 'question', 'code', 'choice'. */
  FormType: z.string(),
  Fields: z.array(fieldSchema),
});
/** Version '1' sends one form; '1.1' wraps a single form into a list. */
const formOrList = z.union([bankFormSchema, z.array(bankFormSchema)]);

export const providerSchema = z.strictObject({
  ProviderId: z.number().int(),
  Name: z.string(),
  Url: z.string(),
  Favicon: z.string(),
  Logo: z.string(),
  PublicKey: z.string().nullable(),
  Form: formOrList.nullable(),
  ProviderAccountId: z.number().int().nullable(),
});

export const linkedAccountSchema = z.strictObject({
  AccountId: z.number().int(),
  ProviderAccountId: z.number().int(),
  ProviderId: z.number().int(),
  BankName: z.string(),
  AccountName: z.string(),
  AccountType: z.string(),
  /** Masked: '...1234'. */
  AccountNumber: z.string(),
  Balance: z.number(),
  RefreshDate: z.string().nullable(),
  IsDefault: z.boolean(),
});
export const linkedBankSchema = z.strictObject({
  ProviderId: z.number().int(),
  ProviderAccountId: z.number().int(),
  Name: z.string(),
  Logo: z.string().nullable(),
  Url: z.string().nullable(),
  /** SUCCESS, MFA (unfinished), STALE (credentials need an update). */
  Status: z.string(),
  Message: z.string().nullable(),
  LastRefreshed: z.string().nullable(),
  Containers: z.array(z.strictObject({ AccountId: z.number().int() })),
});
export const linkedAccountsSchema = z.strictObject({
  Banks: z.array(linkedBankSchema),
  DefaultAccountId: z.number().int().nullable(),
  Accounts: z.array(linkedAccountSchema),
  /** The latest refresh of any account. */
  LastRefreshed: z.string().nullable(),
  /** When the latest bank was added (the page waits for its accounts rather than showing the account as deactivated). */
  LastAdded: z.string().nullable(),
});

const sessionTokenSchema = z.strictObject({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number(),
  refresh_token: z.string(),
  form_token: z.string(),
});

export const linkResultSchema = z.strictObject({
  Status: z.string(),
  Message: z.string(),
  ProviderId: z.number().int(),
  ProviderAccountId: z.number().int().nullable(),
  /** The next multi-factor form, when Status is neither SUCCESS nor FAILED. */
  Form: formOrList.nullable(),
  /** After a successful credential update by the member: the session's fresh tokens (the DeactivateBank marker is gone). */
  Token: sessionTokenSchema.nullable(),
});

/** A submitted form: the fields' names and values (the rest of a field is ignored). One form, or a list of one. */
const submittedField = z.object({ Id: z.string().max(100).nullish(), Name: z.string().max(100), Value: z.string().max(200).nullish() });
const submittedForm = z.object({ Fields: z.array(submittedField).max(20) });
export const loginFormInput = z.union([submittedForm, z.array(submittedForm).min(1).max(1)]).transform((f) => {
  const form = Array.isArray(f) ? f[0] : f;
  return { fields: (form?.Fields ?? []).map((x) => ({ name: x.Name, value: x.Value ?? '' })) };
});

const versionQuery = z.object({ version: z.enum(['1', '1.1']).default('1') });
const providerAccountId = idSchema;
const linkBody = z.object({ ProviderId: idSchema, ProviderAccountId: idSchema.nullish(), LoginForm: loginFormInput });

export const bankTransactionSchema = z.strictObject({
  TransactionId: z.number().int(),
  AccountId: z.number().int(),
  AccountName: z.string(),
  Date: z.string(),
  Description: z.string(),
  Amount: z.number(),
});
export const bankTransactionPageSchema = z.strictObject({ Items: z.array(bankTransactionSchema), ItemCount: z.number().int() });

/** A filter day: 'YYYY-MM-DD' and a real calendar day (2026-02-30 is a 400 here, not a failing ::date in the query). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date (YYYY-MM-DD)', abort: true })
  .refine((s) => parseIsoDay(s) !== null, 'is not a valid calendar date');
export const transactionFilter = z.object({
  AccountId: idSchema.nullish(),
  Keyword: z.string().trim().max(100).nullish(),
  From: day.nullish(),
  To: day.nullish(),
  PageIndex: z.coerce.number().int().min(0).max(100_000).default(0),
  PageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const linkTokenSchema = z.strictObject({ url: z.string(), rsession: z.string(), app: z.string(), token: z.string(), extra: z.string() });
export const validateSchema = z.strictObject({ IsValid: z.boolean(), IsStale: z.boolean() });
export const memberAccountsSchema = linkedAccountsSchema.extend({ MemberId: z.number().int(), IsLinked: z.boolean() });

const memberBody = z.object({ MemberId: idSchema });

export const BankingApi = {
  popular: defineEndpoint({ method: 'GET', path: `${FINANCE_PREFIX}/site/popular`, response: z.array(providerSchema) }),
  provider: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/site/provider`,
    query: versionQuery,
    body: z.object({ ProviderId: idSchema }),
    response: providerSchema,
  }),
  search: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/site/search`,
    body: z.object({ Query: z.string().trim().min(3, specText(BANK_SEARCH_MIN_MESSAGE)).max(100) }),
    response: z.array(providerSchema),
  }),
  add: defineEndpoint({ method: 'POST', path: `${FINANCE_PREFIX}/site/add`, query: versionQuery, body: linkBody, response: linkResultSchema }),
  change: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/site/change`,
    body: z.object({ ProviderId: idSchema.nullish(), ProviderAccountId: providerAccountId, LoginForm: loginFormInput }),
    response: linkResultSchema,
  }),
  mfa: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/site/mfa`,
    query: versionQuery,
    body: z.object({ ProviderId: idSchema, ProviderAccountId: providerAccountId, LoginForm: loginFormInput }),
    response: linkResultSchema,
  }),
  siteAccounts: defineEndpoint({ method: 'GET', path: `${FINANCE_PREFIX}/site/accounts`, response: linkedAccountsSchema }),
  /**
   * Not in the spec's list: mirrors the member's links from the aggregator now (a bank linked in the hosted frame,
   * which tells the page, not us). Answers site/accounts' shape.
   */
  siteSync: defineEndpoint({ method: 'POST', path: `${FINANCE_PREFIX}/site/sync`, response: linkedAccountsSchema }),
  remove: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/site/remove`,
    body: z.object({ ProviderAccountId: providerAccountId }),
    response: linkedAccountsSchema,
  }),
  refresh: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/site/refresh`,
    body: z.object({ AccountIds: z.array(idSchema).min(1).max(100) }),
    response: z.strictObject({ Queued: z.number().int() }),
  }),
  accounts: defineEndpoint({ method: 'GET', path: `${FINANCE_PREFIX}/account/accounts`, response: z.array(linkedAccountSchema) }),
  details: defineEndpoint({ method: 'GET', path: `${FINANCE_PREFIX}/account/details`, response: linkedAccountsSchema }),
  transactions: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/account/transactions`,
    body: transactionFilter,
    response: bankTransactionPageSchema,
  }),
  defaultAccount: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/account/defaultCard/:id`,
    params: z.object({ id: idSchema }),
    response: linkedAccountsSchema,
  }),
  validate: defineEndpoint({ method: 'GET', path: `${FINANCE_PREFIX}/account/validate`, response: validateSchema }),
  terminate: defineEndpoint({ method: 'POST', path: `${FINANCE_PREFIX}/account/terminate`, response: linkedAccountsSchema }),
  token: defineEndpoint({ method: 'GET', path: `${FINANCE_PREFIX}/token`, response: linkTokenSchema }),
  // ---- support ----
  supportAccounts: defineEndpoint({ method: 'POST', path: `${FINANCE_PREFIX}/support/accounts`, body: memberBody, response: memberAccountsSchema }),
  supportMultipleAccounts: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/support/multiple-accounts`,
    body: z.object({ MemberIds: z.array(idSchema).min(1).max(100) }),
    response: z.array(memberAccountsSchema),
  }),
  supportValidate: defineEndpoint({
    method: 'GET',
    path: `${FINANCE_PREFIX}/support/validate`,
    query: z.object({ memberId: idSchema }),
    response: validateSchema,
  }),
  supportTransactions: defineEndpoint({
    method: 'POST',
    path: `${FINANCE_PREFIX}/support/transactions`,
    body: transactionFilter.extend({ MemberId: idSchema }),
    response: bankTransactionPageSchema,
  }),
  /** The support tooling's check (spec 02 section 7): whether the member has a linked bank. */
  isLinkedBank: defineEndpoint({
    method: 'GET',
    path: '/api/support/members/IslinkedBank/:memberId',
    params: z.object({ memberId: idSchema }),
    response: z.boolean(),
  }),
};

export type BankProvider = z.infer<typeof providerSchema>;
export type BankFormWire = z.infer<typeof bankFormSchema>;
export type LinkedAccount = z.infer<typeof linkedAccountSchema>;
export type LinkedBank = z.infer<typeof linkedBankSchema>;
export type LinkedAccounts = z.infer<typeof linkedAccountsSchema>;
export type LinkResult = z.infer<typeof linkResultSchema>;
export type BankTransactionWire = z.infer<typeof bankTransactionSchema>;
