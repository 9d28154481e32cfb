import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import { checkMaxLumpSumAmount } from './maxLumpSumAmount';

const lumpSumOf = (PaymentAmount: number) => aContext([aBenefit({ AnnuityType: 'LS', PaymentAmount })], { MaxLumpSumAmount: 50_000 });

describe('checkMaxLumpSumAmount', () => {
  it('passes at the maximum and one cent below, fails one cent above', () => {
    expect(checkMaxLumpSumAmount(lumpSumOf(50_000))).toEqual({
      id: 'maxLumpSumAmount',
      pass: true,
      message: 'Lump sum payment must not exceed $50,000.00',
      text: { key: 'maxLumpSumAmount', params: { amount: '$50,000.00' } },
      ruleValue: { kind: 'money', cents: 5_000_000 },
      quoteValue: { kind: 'money', cents: 5_000_000 },
    });
    expect(checkMaxLumpSumAmount(lumpSumOf(49_999.99))?.pass).toBe(true);
    expect(checkMaxLumpSumAmount(lumpSumOf(50_000.01))?.pass).toBe(false);
  });

  it('judges the largest lump sum and ignores periodic payments', () => {
    const context = aContext(
      [aBenefit({ AnnuityType: 'LS', PaymentAmount: 10_000 }), aBenefit({ AnnuityType: 'LL', PaymentAmount: 60_000 }), aBenefit({ PaymentAmount: 90_000 })],
      { MaxLumpSumAmount: 50_000 },
    );
    expect(checkMaxLumpSumAmount(context)).toMatchObject({ pass: false, quoteValue: { kind: 'money', cents: 6_000_000 } });
  });

  it('does not apply without the rule or a lump sum', () => {
    expect(checkMaxLumpSumAmount(aContext([aBenefit({ AnnuityType: 'LS' })], {}))).toBeNull();
    expect(checkMaxLumpSumAmount(aContext([aBenefit({ PaymentAmount: 90_000 })], { MaxLumpSumAmount: 50_000 }))).toBeNull();
  });
});
