import { describe, expect, it } from 'vitest';
import { companyRulesSchema, QuoteApi, saveQuoteSchema, updateCompanySchema } from './contract';
import { TERM_TYPES } from './engine/index';
import { aBenefit } from './engine/testSupport';
import { ANCHOR_RULES } from './server/seed';

const withBenefit = (overrides: Record<string, unknown> = {}) => ({
  Id: null,
  Case: { Annuitants: [{ Age: 60 }], IsQualified: false, PurchaseDate: '2026-01-15' },
  Quote: {
    QuoteType: 'Standard',
    FeeAmount: null,
    Benefits: [aBenefit({ StartDate: '2026-06-01', PremiumAmount: 20_000, PaymentAmount: 200 })],
  },
  CompanyIds: ['LC01'],
  ...overrides,
});

describe('save-quote contract: the Version check', () => {
  it('takes a new quote with no Version (left out or null) and an overwrite with one', () => {
    expect(saveQuoteSchema.parse(withBenefit()).Version).toBeNull();
    expect(saveQuoteSchema.safeParse(withBenefit({ Version: null })).success).toBe(true);
    expect(saveQuoteSchema.parse(withBenefit({ Id: 4, Version: 2 }))).toMatchObject({ Id: 4, Version: 2 });
  });

  it('refuses an overwrite without a Version, and a Version on a new quote', () => {
    const missing = saveQuoteSchema.safeParse(withBenefit({ Id: 4 }));
    expect(missing.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['Version', 'is required to overwrite a saved quote']]);
    const extra = saveQuoteSchema.safeParse(withBenefit({ Version: 3 }));
    expect(extra.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['Version', 'must be empty for a new quote']]);
    for (const Version of [0, -1, 1.5, '2']) expect(saveQuoteSchema.safeParse(withBenefit({ Id: 4, Version })).success).toBe(false);
  });

  it('is the body the save endpoint validates', () => {
    expect(QuoteApi.save.body).toBe(saveQuoteSchema);
  });
});

describe('save-quote contract: the IdempotencyKey of a new quote', () => {
  it('takes an optional key of 8 to 100 letters, digits or - _ . :, and refuses another', () => {
    expect(saveQuoteSchema.parse(withBenefit()).IdempotencyKey).toBeUndefined();
    expect(saveQuoteSchema.parse(withBenefit({ IdempotencyKey: null })).IdempotencyKey).toBeNull();
    expect(saveQuoteSchema.parse(withBenefit({ IdempotencyKey: 'quote-0a1b2c3d' })).IdempotencyKey).toBe('quote-0a1b2c3d');
    for (const IdempotencyKey of ['x', 'has spaces in it', 'x'.repeat(101), 12345678]) {
      const refused = saveQuoteSchema.safeParse(withBenefit({ IdempotencyKey }));
      expect(
        refused.error?.issues.map((i) => i.path.join('.')),
        JSON.stringify(IdempotencyKey),
      ).toEqual(['IdempotencyKey']);
    }
  });
});

describe('update-company contract: the Version check', () => {
  it('requires the Version the rules were read at, beside the rules', () => {
    expect(updateCompanySchema.parse({ ...ANCHOR_RULES, Version: 3 })).toEqual({ ...ANCHOR_RULES, Version: 3 });
    for (const Version of [undefined, null, 0, 1.5, '3']) expect(updateCompanySchema.safeParse({ ...ANCHOR_RULES, Version }).success).toBe(false);
    expect(QuoteApi.updateCompany.body).toBe(updateCompanySchema);
  });
});

describe('ids and Versions: whole numbers from 1 to 2147483647 (the integer keys)', () => {
  it('takes a quote id in the path as decimal digits only, and refuses one past the integer key, hex, exponents and signs', () => {
    expect(QuoteApi.get.params.parse({ id: '2147483647' })).toEqual({ id: 2_147_483_647 });
    for (const id of ['2147483648', '99999999999', '0x10', '1e3', '+5', '0', '-1', '1.5', ''])
      expect(QuoteApi.get.params.safeParse({ id }).success, id).toBe(false);
  });

  it('refuses a saved Id or a Version past the integer key', () => {
    expect(saveQuoteSchema.parse(withBenefit({ Id: 2_147_483_647, Version: 2_147_483_647 }))).toMatchObject({ Id: 2_147_483_647, Version: 2_147_483_647 });
    for (const [Id, Version] of [
      [2_147_483_648, 1],
      [99_999_999_999, 1],
      [4, 2_147_483_648],
      [4, 99_999_999_999],
    ])
      expect(
        saveQuoteSchema.safeParse(withBenefit({ Id, Version })).error?.issues.map((i) => i.message),
        `${Id}/${Version}`,
      ).toEqual(['is too large']);
    expect(saveQuoteSchema.safeParse(withBenefit({ Id: '0x10', Version: 1 })).success).toBe(false);
    expect(updateCompanySchema.safeParse({ ...ANCHOR_RULES, Version: 2_147_483_648 }).success).toBe(false);
  });
});

describe('days and money in a quote', () => {
  it('refuses a purchase or start day that the calendar does not have', () => {
    expect(saveQuoteSchema.safeParse(withBenefit({ Case: { Annuitants: [{ Age: 60 }], IsQualified: false, PurchaseDate: '2024-02-29' } })).success).toBe(true);
    for (const day of ['2026-02-30', '2025-02-29', '2026-04-31', '2026-13-01']) {
      const purchase = saveQuoteSchema.safeParse(withBenefit({ Case: { Annuitants: [{ Age: 60 }], IsQualified: false, PurchaseDate: day } }));
      expect(
        purchase.error?.issues.map((i) => [i.path.join('.'), i.message]),
        day,
      ).toEqual([['Case.PurchaseDate', 'is not a valid calendar date']]);
      const start = saveQuoteSchema.safeParse(withBenefit({ Quote: { QuoteType: 'Standard', FeeAmount: null, Benefits: [aBenefit({ StartDate: day })] } }));
      expect(
        start.error?.issues.map((i) => i.path.join('.')),
        day,
      ).toEqual(['Quote.Benefits.0.StartDate']);
    }
    const pattern = saveQuoteSchema.safeParse(withBenefit({ Case: { Annuitants: [{ Age: 60 }], IsQualified: false, PurchaseDate: '15/01/2026' } }));
    expect(pattern.error?.issues.map((i) => i.message)).toEqual(['Use the date form YYYY-MM-DD']);
  });

  it('takes amounts in whole cents and refuses more than 2 decimals rather than rounding', () => {
    const quote = (PremiumAmount: number, FeeAmount: number | null = null) =>
      saveQuoteSchema.safeParse(withBenefit({ Quote: { QuoteType: 'Standard', FeeAmount, Benefits: [aBenefit({ PremiumAmount })] } }));
    for (const ok of [0, 0.01, 0.1, 0.29, 1.15, 20_000.05, 999_999_999.99]) expect(quote(ok).data?.Quote.Benefits[0]?.PremiumAmount, String(ok)).toBe(ok);
    for (const bad of [0.001, 1.005, 20_000.005, 99.995]) {
      expect(
        quote(bad).error?.issues.map((i) => [i.path.join('.'), i.message]),
        String(bad),
      ).toEqual([['Quote.Benefits.0.PremiumAmount', 'must have at most 2 decimals']]);
    }
    expect(quote(100, 12.345).success).toBe(false);
    expect(updateCompanySchema.safeParse({ ...ANCHOR_RULES, MinPaymentAmount: 100.001, Version: 1 }).success).toBe(false);
  });
});

describe('COLA and MaxCOLAPercent: at most 2 decimals', () => {
  it('takes hundredths of a percent and refuses more decimals (400), never rounds them', () => {
    const cola = (COLA: number) =>
      saveQuoteSchema.safeParse(withBenefit({ Quote: { QuoteType: 'Standard', FeeAmount: null, Benefits: [aBenefit({ COLA })] } }));
    for (const ok of [0, 0.5, 2.25, 4.99, 5, 100]) expect(cola(ok).success, String(ok)).toBe(true);
    for (const bad of [4.996, 2.995, 0.001]) {
      expect(
        cola(bad).error?.issues.map((i) => [i.path.join('.'), i.message]),
        String(bad),
      ).toEqual([['Quote.Benefits.0.COLA', 'must have at most 2 decimals']]);
    }
    expect(updateCompanySchema.safeParse({ ...ANCHOR_RULES, MaxCOLAPercent: 4.99, Version: 1 }).success).toBe(true);
    expect(
      updateCompanySchema.safeParse({ ...ANCHOR_RULES, MaxCOLAPercent: 4.995, Version: 1 }).error?.issues.map((i) => [i.path.join('.'), i.message]),
    ).toEqual([['MaxCOLAPercent', 'must have at most 2 decimals']]);
  });
});

describe("a company's TermTypes", () => {
  it('takes at most one entry per term type there is', () => {
    expect(companyRulesSchema.safeParse({ ...ANCHOR_RULES, TermTypes: [...TERM_TYPES] }).success).toBe(true);
    const tooMany = companyRulesSchema.safeParse({ ...ANCHOR_RULES, TermTypes: [...TERM_TYPES, 'M'] });
    expect(tooMany.error?.issues.map((i) => i.path.join('.'))).toEqual(['TermTypes']);
    expect(companyRulesSchema.safeParse({ ...ANCHOR_RULES, TermTypes: Array.from({ length: 100_000 }, () => 'M') }).success).toBe(false);
  });
});

describe("a company's rule set: no pair of rules that no quote could meet, and no term type twice", () => {
  const issues = (rules: Record<string, unknown>) =>
    updateCompanySchema.safeParse({ ...ANCHOR_RULES, ...rules, Version: 1 }).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

  it('refuses a minimum above its maximum, naming the pair (400), in comparable units', () => {
    expect(issues({ MinTerm: 30, MaxTerm: 5 })).toEqual([['MinTerm', 'must not be above MaxTerm']]);
    expect(issues({ MinPremiumAmount: 900_000, MaxPremiumAmount: 1_000 })).toEqual([['MinPremiumAmount', 'must not be above MaxPremiumAmount']]);
    expect(issues({ MinDeferral: 366, MaxDeferral: 1 })).toEqual([['MinDeferral', 'must not be longer than MaxDeferral (days against years)']]);
    expect(issues({ MinLumpSumDeferral: 13, MaxLumpSumDeferral: 1 })).toEqual([
      ['MinLumpSumDeferral', 'must not be longer than MaxLumpSumDeferral (months against years)'],
    ]);
    expect(issues({ MinPaymentAmount: 1_000.01, MaxLumpSumAmount: 1_000 })).toEqual([
      ['MinPaymentAmount', 'must not be above MaxLumpSumAmount (a lump sum is held to both)'],
    ]);
    expect(issues({ MinTerm: 30, MaxTerm: 5, MinPremiumAmount: 900_000, MaxPremiumAmount: 1_000 }).map(([path]) => path)).toEqual([
      'MinTerm',
      'MinPremiumAmount',
    ]);
    expect(companyRulesSchema.safeParse({ ...ANCHOR_RULES, MinTerm: 30, MaxTerm: 5 }).success).toBe(false);
  });

  it('takes equal bounds, the boundary of the units, and an empty side', () => {
    expect(issues({ MinTerm: 5, MaxTerm: 5, MinPremiumAmount: 1_000, MaxPremiumAmount: 1_000 })).toEqual([]);
    expect(
      issues({ MinDeferral: 365, MaxDeferral: 1, MinLumpSumDeferral: 12, MaxLumpSumDeferral: 1, MinPaymentAmount: 1_000, MaxLumpSumAmount: 1_000 }),
    ).toEqual([]);
    expect(issues({ MinTerm: 30, MaxTerm: null, MinPremiumAmount: null, MaxPremiumAmount: 0, MinDeferral: 900, MaxDeferral: null })).toEqual([]);
  });

  it('refuses a term type listed twice', () => {
    expect(issues({ TermTypes: ['M', 'M', 'M'] })).toEqual([['TermTypes', 'lists a term type twice']]);
    expect(issues({ TermTypes: ['A', 'M', 'A'] })).toEqual([['TermTypes', 'lists a term type twice']]);
    expect(issues({ TermTypes: ['A', 'M'] })).toEqual([]);
    expect(issues({ TermTypes: [] })).toEqual([]);
  });
});
