import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import type { Benefit } from '../types';
import { checkMaxGuarantee } from './maxGuarantee';

const certain = (term: Partial<Benefit>) => aContext([aBenefit({ AnnuityType: 'PC', TermMonths: null, TermWeeks: null, ...term })], { MaxGuarantee: 20 });

describe('checkMaxGuarantee', () => {
  it('passes at the maximum and one month below, fails one week above', () => {
    expect(checkMaxGuarantee(certain({ TermYears: 20 }))).toEqual({
      id: 'maxGuarantee',
      pass: true,
      message: 'Guarantee period must not exceed 20 years',
      text: { key: 'maxGuarantee', params: { years: { key: 'years', params: { number: 20 } } } },
      ruleValue: { kind: 'years', years: 20 },
      quoteValue: { kind: 'term', term: { years: 20, months: 0, weeks: 0 } },
    });
    expect(checkMaxGuarantee(certain({ TermYears: 19, TermMonths: 11 }))?.pass).toBe(true);
    expect(checkMaxGuarantee(certain({ TermYears: 20, TermWeeks: 1 }))?.pass).toBe(false);
  });

  it('judges the longest period-certain term (CL and PC), not temp life', () => {
    const context = aContext(
      [aBenefit({ AnnuityType: 'CL', TermYears: 21 }), aBenefit({ AnnuityType: 'PC', TermYears: 5 }), aBenefit({ AnnuityType: 'TL', TermYears: 40 })],
      { MaxGuarantee: 20 },
    );
    expect(checkMaxGuarantee(context)).toMatchObject({ pass: false, quoteValue: { kind: 'term', term: { years: 21, months: 0, weeks: 0 } } });
  });

  it('says year in the singular for one year', () => {
    expect(checkMaxGuarantee(aContext([aBenefit({ TermYears: 1 })], { MaxGuarantee: 1 }))?.message).toBe('Guarantee period must not exceed 1 year');
  });

  it('does not apply without the rule or a period-certain benefit', () => {
    expect(checkMaxGuarantee(aContext([aBenefit()], {}))).toBeNull();
    expect(checkMaxGuarantee(aContext([aBenefit({ AnnuityType: 'TL' })], { MaxGuarantee: 20 }))).toBeNull();
  });
});
