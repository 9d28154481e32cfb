import { createKeySchema, defineEndpoint, idSchema, isWholeCents, MAX_ID, parseIsoDay } from '@portal/core';
import { z } from 'zod';
import { ANNUITY_TYPES, QUOTE_TYPES, type QuoteOutcome, TERM_TYPES } from './engine/index';

/** Wire schemas of the quote API; field names are spec 02 section 3's. Money in decimal dollars, dates 'YYYY-MM-DD'. */

/** A day 'YYYY-MM-DD' that the calendar has (2026-02-30 is refused, not stored). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Use the date form YYYY-MM-DD', abort: true })
  .refine((v) => parseIsoDay(v) !== null, 'is not a valid calendar date');
/** Dollars, whole cents: more decimals are refused (400), never rounded into another amount. */
const amount = z.number().finite().min(0).max(1_000_000_000).refine(isWholeCents, 'must have at most 2 decimals').nullable();
const count = z.number().int().min(0).max(1000).nullable();
/** A percent (COLA, MaxCOLAPercent) in hundredths at most: 4.996 is refused (400), never rounded to 5 and compared. */
const percent = z.number().finite().min(0).max(100).refine(isWholeCents, 'must have at most 2 decimals').nullable();

export const annuitantSchema = z.object({ Age: z.number().int().min(0).max(130).nullable() });

export const caseSchema = z.object({
  Annuitants: z.array(annuitantSchema).min(1).max(10),
  IsQualified: z.boolean(),
  PurchaseDate: isoDate.nullable(),
});

export const benefitSchema = z.object({
  AnnuityType: z.enum(ANNUITY_TYPES).nullable(),
  TermType: z.enum(TERM_TYPES).nullable(),
  TermYears: count,
  TermMonths: count,
  TermWeeks: count,
  COLA: percent,
  StartDate: isoDate.nullable(),
  PremiumAmount: amount,
  PaymentAmount: amount,
  LifeCompanies: z.array(z.string().max(40)).max(50),
  CompanyId: z.string().max(40).nullable(),
});

export const quoteSchema = z.object({
  QuoteType: z.enum(QUOTE_TYPES),
  Benefits: z.array(benefitSchema).min(1).max(50),
  FeeAmount: amount,
});

/** A company's rule set field by field (a stored one is answered as read: lifeCompanySchema). */
const companyRulesFields = z.object({
  NonQualCases: z.boolean(),
  MaxAge: count,
  MinDeferral: count,
  MaxDeferral: count,
  MinLumpSumDeferral: count,
  MaxLumpSumDeferral: count,
  MinPaymentAmount: amount,
  MaxLumpSumAmount: amount,
  MinPremiumAmount: amount,
  MaxPremiumAmount: amount,
  MinLumpSumCount: count,
  MaxGuarantee: count,
  MinTerm: count,
  MaxTerm: count,
  /** The term types a company takes: at most one entry per type there is (a type listed twice is a 400). */
  TermTypes: z
    .array(z.enum(TERM_TYPES))
    .max(TERM_TYPES.length)
    .refine((types) => new Set(types).size === types.length, 'lists a term type twice')
    .nullable(),
  MaxCOLAPercent: percent,
  AssignmentFee: amount,
  SmallCaseAmount: amount,
  SmallCaseFee: amount.optional(),
});

type RuleValues = z.infer<typeof companyRulesFields>;

/**
 * Pairs of rules no quote could meet together, refused (400, naming both) rather than stored: then the company would
 * refuse every quote the pair concerns. Units are made comparable: MinDeferral days against MaxDeferral years of 365
 * days (one more day may be impossible from some purchase dates), MinLumpSumDeferral months against
 * MaxLumpSumDeferral years of 12 months. MinPaymentAmount against MaxLumpSumAmount: a lump sum's payment is held
 * to both. An empty side sets no limit, so it conflicts with nothing.
 */
const RULE_PAIRS: { min: keyof RuleValues; max: keyof RuleValues; scale: number; message: string }[] = [
  { min: 'MinTerm', max: 'MaxTerm', scale: 1, message: 'must not be above MaxTerm' },
  { min: 'MinPremiumAmount', max: 'MaxPremiumAmount', scale: 1, message: 'must not be above MaxPremiumAmount' },
  { min: 'MinDeferral', max: 'MaxDeferral', scale: 365, message: 'must not be longer than MaxDeferral (days against years)' },
  { min: 'MinLumpSumDeferral', max: 'MaxLumpSumDeferral', scale: 12, message: 'must not be longer than MaxLumpSumDeferral (months against years)' },
  { min: 'MinPaymentAmount', max: 'MaxLumpSumAmount', scale: 1, message: 'must not be above MaxLumpSumAmount (a lump sum is held to both)' },
];

function refuseConflictingRules(rules: RuleValues, ctx: z.RefinementCtx): void {
  for (const { min, max, scale, message } of RULE_PAIRS) {
    const low = rules[min];
    const high = rules[max];
    if (typeof low === 'number' && typeof high === 'number' && low > high * scale) ctx.addIssue({ code: 'custom', path: [min], message });
  }
}

/** A company's rule set as a SuperUser may save it: each field, and no pair of rules that no quote could meet. */
export const companyRulesSchema = companyRulesFields.superRefine(refuseConflictingRules);

/**
 * A row's Version: 1 when created, one more on each save; a save sends the one it read (spec: no lost update). A JSON
 * number from 1 to MAX_ID (the integer column), so a larger one is a 400, not a failing query.
 */
const versionSchema = z.number().int().positive().max(MAX_ID, 'is too large');

export const lifeCompanySchema = z.object({ Id: z.string(), Name: z.string(), Rules: companyRulesFields, Version: versionSchema });
export type LifeCompany = z.infer<typeof lifeCompanySchema>;

/** A company's new rule set with the Version of the rules it was edited from (a stale one is 409). */
export const updateCompanySchema = companyRulesFields.extend({ Version: versionSchema }).superRefine(refuseConflictingRules);
export type UpdateCompany = z.infer<typeof updateCompanySchema>;

/** Refused (409) when a company's rules or a quote changed since the Version the save was made from. */
export const STALE_COMPANY_MESSAGE = 'This life company was changed by someone else. Reload it and make your change again.';
export const STALE_QUOTE_MESSAGE = 'This quote was changed by someone else. Reload it and make your change again.';

/** The engine's outcome, stored as JSON on save and returned as stored. */
export const outcomeSchema = z.custom<QuoteOutcome>((v) => typeof v === 'object' && v !== null && Array.isArray((v as QuoteOutcome).companies));

const saveQuoteFields = z.object({
  /** Null saves a new quote; an id overwrites one of the user's own. */
  Id: idSchema.nullable(),
  /** A new quote has none (null or left out); an overwrite sends the Version of the quote it read (stale: 409). */
  Version: versionSchema.nullable().default(null),
  Case: caseSchema,
  Quote: quoteSchema,
  /** The companies picked for the quote (1 to 50). */
  CompanyIds: z.array(z.string().max(40)).min(1).max(50),
});

/**
 * The save's body. IdempotencyKey (ours, not in the spec; optional) is read on a new quote only (`Id: null`): one key
 * per submission of the new quote, sent again unchanged when the call is retried, so a save whose answer was lost adds
 * the quote once (the same key with another quote is a 409). An overwrite goes by its Version and leaves any key unread.
 */
export const saveQuoteSchema = saveQuoteFields.extend({ IdempotencyKey: createKeySchema.nullish() }).superRefine((body, ctx) => {
  if (body.Id !== null && body.Version === null) ctx.addIssue({ code: 'custom', path: ['Version'], message: 'is required to overwrite a saved quote' });
  if (body.Id === null && body.Version !== null) ctx.addIssue({ code: 'custom', path: ['Version'], message: 'must be empty for a new quote' });
});
export type SaveQuote = z.infer<typeof saveQuoteSchema>;

export const savedQuoteSchema = saveQuoteFields.extend({
  Id: z.number().int(),
  Version: versionSchema,
  SavedDate: z.string(),
  /** As it was checked when saved; when RulesChanged, it no longer tells whether the companies accept the quote. */
  Outcome: outcomeSchema,
  /**
   * Ours, not in the spec: a picked company's rules changed (its Version) since the outcome was checked. The saved
   * outcome is then out of date: the page shows the quote checked against the current rules and says why.
   */
  RulesChanged: z.boolean(),
  /** Those companies' ids, in the companies' order (empty when RulesChanged is false). */
  ChangedCompanyIds: z.array(z.string()),
});
export type SavedQuote = z.infer<typeof savedQuoteSchema>;

/** PassCount is as saved; RulesChanged (ours, as on a saved quote) says a company's rules changed since, so it may be out of date. */
export const quoteSummarySchema = z.object({
  Id: z.number().int(),
  SavedDate: z.string(),
  CompanyCount: z.number().int(),
  PassCount: z.number().int(),
  RulesChanged: z.boolean(),
});
export type QuoteSummary = z.infer<typeof quoteSummarySchema>;

/** A saved quote's id: decimal digits, 1 to MAX_ID (the serial key); '0x10' or 99999999999 is a 400. */
const idParams = z.object({ id: idSchema });
const companyParams = z.object({ id: z.string().min(1).max(40) });

export const QuoteApi = {
  /** The life companies and their rule sets. */
  companies: defineEndpoint({ method: 'GET', path: '/api/quote/companies', response: z.array(lifeCompanySchema) }),
  /** SuperUser: replaces a company's rule set, sending the Version it read (stale: 409, nothing changes). */
  updateCompany: defineEndpoint({
    method: 'POST',
    path: '/api/quote/companies/:id',
    params: companyParams,
    body: updateCompanySchema,
    response: lifeCompanySchema,
  }),
  /** The signed-in user's saved quotes, newest first. */
  mine: defineEndpoint({ method: 'GET', path: '/api/quote/quotes', response: z.array(quoteSummarySchema) }),
  /** One of the user's own saved quotes with the outcome it was saved with; another user's is 404. */
  get: defineEndpoint({ method: 'GET', path: '/api/quote/quotes/:id', params: idParams, response: savedQuoteSchema }),
  /** Saves (creates or overwrites) a quote; the server re-runs the engine and stores the outcome. A stale Version is 409. */
  save: defineEndpoint({ method: 'POST', path: '/api/quote/quotes', body: saveQuoteSchema, response: savedQuoteSchema }),
} as const;
