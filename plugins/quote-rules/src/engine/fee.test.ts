import { describe, expect, it } from 'vitest';
import { companyFee } from './fee';
import { aBenefit, someRules } from './testSupport';

const rules = someRules({ AssignmentFee: 750, SmallCaseAmount: 25_000, SmallCaseFee: 500 });

describe('companyFee', () => {
  it('charges the assignment fee once however many benefits the company takes', () => {
    const benefits = [aBenefit({ PremiumAmount: 40_000 }), aBenefit({ PremiumAmount: 40_000 }), aBenefit({ PremiumAmount: 40_000 })];
    expect(companyFee(rules, benefits)).toEqual({ assignmentFee: 75_000, smallCaseFee: 0, total: 75_000 });
  });

  it('adds the small-case fee when the total premium is below the small-case amount', () => {
    const below = [aBenefit({ PremiumAmount: 10_000 }), aBenefit({ PremiumAmount: 14_999.99 })];
    expect(companyFee(rules, below)).toEqual({ assignmentFee: 75_000, smallCaseFee: 50_000, total: 125_000 });
  });

  it('charges no small-case fee at the small-case amount or above', () => {
    expect(companyFee(rules, [aBenefit({ PremiumAmount: 10_000 }), aBenefit({ PremiumAmount: 15_000 })]).smallCaseFee).toBe(0);
    expect(companyFee(rules, [aBenefit({ PremiumAmount: 25_000.01 })]).smallCaseFee).toBe(0);
  });

  it('counts benefits without a premium as nothing', () => {
    expect(companyFee(rules, [aBenefit({ PremiumAmount: null })]).smallCaseFee).toBe(50_000);
  });

  it('charges nothing when the company takes no benefit', () => {
    expect(companyFee(rules, [])).toEqual({ assignmentFee: 0, smallCaseFee: 0, total: 0 });
  });

  it('reads unset fee rules as no fee', () => {
    expect(companyFee(someRules({ SmallCaseAmount: 25_000 }), [aBenefit({ PremiumAmount: 1 })])).toEqual({ assignmentFee: 0, smallCaseFee: 0, total: 0 });
    expect(companyFee(someRules({ AssignmentFee: 750, SmallCaseFee: 500 }), [aBenefit({ PremiumAmount: 1 })]).smallCaseFee).toBe(0);
  });
});
