import { describe, expect, it } from 'vitest';
import { applyFieldRules, DISABLED_EXPLANATIONS } from './fieldRules';
import { aBenefit } from './testSupport';
import { ANNUITY_TYPES } from './types';

describe('applyFieldRules', () => {
  it.each(['LS', 'LL'] as const)('lump sum %s: COLA cleared, annual for 1 year, months and weeks cleared, all disabled', (type) => {
    const result = applyFieldRules(aBenefit({ AnnuityType: type, COLA: 3, TermType: 'M', TermYears: 7, TermMonths: 6, TermWeeks: 4 }));
    expect(result.benefit).toMatchObject({ COLA: null, TermType: 'A', TermYears: 1, TermMonths: null, TermWeeks: null });
    expect(result.disabled).toEqual({
      COLA: 'lumpSumNoCola',
      TermType: 'lumpSumAnnualOneYear',
      TermYears: 'lumpSumAnnualOneYear',
      TermMonths: 'lumpSumNoMonthsWeeks',
      TermWeeks: 'lumpSumNoMonthsWeeks',
    });
  });

  it('life only: years, months and weeks cleared and disabled; COLA and term type stay', () => {
    const result = applyFieldRules(aBenefit({ AnnuityType: 'LO', COLA: 2, TermType: 'M', TermYears: 7, TermMonths: 6, TermWeeks: 4 }));
    expect(result.benefit).toMatchObject({ COLA: 2, TermType: 'M', TermYears: null, TermMonths: null, TermWeeks: null });
    expect(result.disabled).toEqual({ TermYears: 'lifeOnlyNoTerm', TermMonths: 'lifeOnlyNoTerm', TermWeeks: 'lifeOnlyNoTerm' });
  });

  it.each(['IR', 'CL', 'PC', 'TL', null] as const)('%s: nothing changed, nothing disabled', (type) => {
    const benefit = aBenefit({ AnnuityType: type, COLA: 2, TermYears: 7, TermMonths: 6, TermWeeks: 4 });
    expect(applyFieldRules(benefit)).toEqual({ benefit, disabled: {} });
  });

  it('is idempotent and leaves its input alone', () => {
    for (const type of ANNUITY_TYPES) {
      const input = aBenefit({ AnnuityType: type, COLA: 2, TermMonths: 6 });
      const copy = structuredClone(input);
      const once = applyFieldRules(input);
      expect(applyFieldRules(once.benefit)).toEqual(once);
      expect(input).toEqual(copy);
    }
  });

  it('has an English explanation for every reason', () => {
    expect(Object.keys(DISABLED_EXPLANATIONS).sort()).toEqual(['lifeOnlyNoTerm', 'lumpSumAnnualOneYear', 'lumpSumNoCola', 'lumpSumNoMonthsWeeks']);
  });
});
