import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import { checkMinLumpSumDeferral } from './minLumpSumDeferral';

// Purchase 2024-01-31 plus 1 month is 2024-02-29: the month end clamps in a leap year.
const lumpSumOn = (StartDate: string) => aContext([aBenefit({ AnnuityType: 'LS', StartDate })], { MinLumpSumDeferral: 1 });

describe('checkMinLumpSumDeferral', () => {
  it('passes on the first allowed day and one after, fails one before', () => {
    expect(checkMinLumpSumDeferral(lumpSumOn('2024-02-29'))).toEqual({
      id: 'minLumpSumDeferral',
      pass: true,
      message: 'Lump sums must start on or after 02/29/2024 (purchase date plus 1 month)',
      text: { key: 'minLumpSumDeferral', params: { date: '02/29/2024', period: { key: 'month', params: { number: 1 } } } },
      ruleValue: { kind: 'date', date: '2024-02-29' },
      quoteValue: { kind: 'date', date: '2024-02-29' },
    });
    expect(checkMinLumpSumDeferral(lumpSumOn('2024-03-01'))?.pass).toBe(true);
    expect(checkMinLumpSumDeferral(lumpSumOn('2024-02-28'))?.pass).toBe(false);
  });

  it('looks at lump sums only (LS and LL)', () => {
    const context = aContext([aBenefit({ StartDate: '2024-02-01' }), aBenefit({ AnnuityType: 'LL', StartDate: '2024-06-01' })], { MinLumpSumDeferral: 3 });
    expect(checkMinLumpSumDeferral(context)).toMatchObject({
      pass: true,
      message: 'Lump sums must start on or after 04/30/2024 (purchase date plus 3 months)',
    });
    expect(checkMinLumpSumDeferral(aContext([aBenefit({ StartDate: '2024-02-01' })], { MinLumpSumDeferral: 3 }))).toBeNull();
  });

  it('does not apply without the rule', () => {
    expect(checkMinLumpSumDeferral(aContext([aBenefit({ AnnuityType: 'LS' })], {}))).toBeNull();
  });
});
