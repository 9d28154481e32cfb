import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import { checkMaxLumpSumDeferral } from './maxLumpSumDeferral';

// Purchase 2024-01-31 plus 1 year is 2025-01-31.
const lumpSumOn = (StartDate: string) => aContext([aBenefit({ AnnuityType: 'LL', StartDate })], { MaxLumpSumDeferral: 1 });

describe('checkMaxLumpSumDeferral', () => {
  it('passes on the last allowed day and one before, fails one after', () => {
    expect(checkMaxLumpSumDeferral(lumpSumOn('2025-01-31'))).toEqual({
      id: 'maxLumpSumDeferral',
      pass: true,
      message: 'Lump sums must start on or before 01/31/2025 (purchase date plus 1 year)',
      text: { key: 'maxLumpSumDeferral', params: { date: '01/31/2025', period: { key: 'year', params: { number: 1 } } } },
      ruleValue: { kind: 'date', date: '2025-01-31' },
      quoteValue: { kind: 'date', date: '2025-01-31' },
    });
    expect(checkMaxLumpSumDeferral(lumpSumOn('2025-01-30'))?.pass).toBe(true);
    expect(checkMaxLumpSumDeferral(lumpSumOn('2025-02-01'))?.pass).toBe(false);
  });

  it('judges the latest lump sum and ignores other benefits', () => {
    const context = aContext(
      [
        aBenefit({ AnnuityType: 'LS', StartDate: '2024-06-01' }),
        aBenefit({ AnnuityType: 'LS', StartDate: '2027-01-31' }),
        aBenefit({ StartDate: '2040-01-01' }),
      ],
      { MaxLumpSumDeferral: 3 },
    );
    expect(checkMaxLumpSumDeferral(context)).toMatchObject({ pass: true, quoteValue: { kind: 'date', date: '2027-01-31' } });
  });

  it('clamps a leap-day purchase to February 28', () => {
    const context = aContext(
      [aBenefit({ AnnuityType: 'LS', StartDate: '2025-03-01' })],
      { MaxLumpSumDeferral: 1 },
      { caseInput: { PurchaseDate: '2024-02-29' } },
    );
    expect(checkMaxLumpSumDeferral(context)).toMatchObject({ pass: false, ruleValue: { kind: 'date', date: '2025-02-28' } });
  });

  it('does not apply without the rule or a lump sum', () => {
    expect(checkMaxLumpSumDeferral(aContext([aBenefit({ AnnuityType: 'LS' })], {}))).toBeNull();
    expect(checkMaxLumpSumDeferral(aContext([aBenefit()], { MaxLumpSumDeferral: 1 }))).toBeNull();
  });
});
