import { describe, expect, it } from 'vitest';
import { QuoteApi, saveQuoteSchema, updateCompanySchema } from './contract';
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

describe('update-company contract: the Version check', () => {
  it('requires the Version the rules were read at, beside the rules', () => {
    expect(updateCompanySchema.parse({ ...ANCHOR_RULES, Version: 3 })).toEqual({ ...ANCHOR_RULES, Version: 3 });
    for (const Version of [undefined, null, 0, 1.5, '3']) expect(updateCompanySchema.safeParse({ ...ANCHOR_RULES, Version }).success).toBe(false);
    expect(QuoteApi.updateCompany.body).toBe(updateCompanySchema);
  });
});
