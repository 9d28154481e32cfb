import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import type { QuoteType } from '../types';
import { checkMaxPremium } from './maxPremium';

const costing = (premium: number, QuoteType: QuoteType = 'Standard') =>
  aContext([aBenefit({ PremiumAmount: premium })], { MaxPremiumAmount: 2_000_000 }, { quote: { QuoteType } });

describe('checkMaxPremium', () => {
  it('passes when the total cost is the maximum or one cent below, fails one cent above', () => {
    expect(checkMaxPremium(costing(2_000_000))).toEqual({
      id: 'maxPremium',
      pass: true,
      message: 'Total cost must not exceed $2,000,000.00',
      text: { key: 'maxPremium', params: { amount: '$2,000,000.00' } },
      ruleValue: { kind: 'money', cents: 200_000_000 },
      quoteValue: { kind: 'money', cents: 200_000_000 },
    });
    expect(checkMaxPremium(costing(1_999_999.99))?.pass).toBe(true);
    expect(checkMaxPremium(costing(2_000_000.01))?.pass).toBe(false);
  });

  it("counts the quote's fee in the total cost", () => {
    const context = aContext([aBenefit({ PremiumAmount: 2_000_000 })], { MaxPremiumAmount: 2_000_000 }, { quote: { FeeAmount: 0.01 } });
    expect(checkMaxPremium(context)?.pass).toBe(false);
  });

  it.each(['MSA', 'MSAOnly'] as const)('words it as MSA Amount on an %s quote', (type) => {
    expect(checkMaxPremium(costing(2_000_000.01, type))).toMatchObject({ pass: false, message: 'MSA Amount must not exceed $2,000,000.00' });
  });

  it('does not apply without the rule or before any premium is known', () => {
    expect(checkMaxPremium(aContext([aBenefit()], {}))).toBeNull();
    expect(checkMaxPremium(aContext([], { MaxPremiumAmount: 1 }))).toBeNull();
  });
});
