import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import type { QuoteType } from '../types';
import { checkMinPremium } from './minPremium';

const costing = (premium: number, QuoteType: QuoteType = 'Standard') =>
  aContext([aBenefit({ PremiumAmount: premium - 250 }), aBenefit({ PremiumAmount: 250 })], { MinPremiumAmount: 10_000 }, { quote: { QuoteType } });

describe('checkMinPremium', () => {
  it('passes when the total cost is the minimum or one cent above, fails one cent below', () => {
    expect(checkMinPremium(costing(10_000))).toEqual({
      id: 'minPremium',
      pass: true,
      message: 'Total cost must be at least $10,000.00',
      text: { key: 'minPremium', params: { amount: '$10,000.00' } },
      ruleValue: { kind: 'money', cents: 1_000_000 },
      quoteValue: { kind: 'money', cents: 1_000_000 },
    });
    expect(checkMinPremium(costing(10_000.01))?.pass).toBe(true);
    expect(checkMinPremium(costing(9_999.99))?.pass).toBe(false);
  });

  it("counts the quote's fee in the total cost", () => {
    const context = aContext([aBenefit({ PremiumAmount: 9_000 })], { MinPremiumAmount: 10_000 }, { quote: { FeeAmount: 1_000 } });
    expect(checkMinPremium(context)).toMatchObject({ pass: true, quoteValue: { kind: 'money', cents: 1_000_000 } });
  });

  it.each(['MSA', 'MSAOnly'] as const)('words it as MSA Amount on an %s quote', (type) => {
    expect(checkMinPremium(costing(9_999.99, type))).toMatchObject({ pass: false, message: 'MSA Amount must be at least $10,000.00' });
  });

  it('does not apply without the rule or before any premium is known', () => {
    expect(checkMinPremium(aContext([aBenefit()], {}))).toBeNull();
    expect(checkMinPremium(aContext([aBenefit({ PremiumAmount: null })], { MinPremiumAmount: 10_000 }))).toMatchObject({
      pass: null,
      message: 'Not checked: premium missing',
      ruleValue: { kind: 'money', cents: 1_000_000 },
    });
  });
});
