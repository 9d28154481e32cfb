import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import type { Benefit } from '../types';
import { checkMaxTerm } from './maxTerm';

const termed = (term: Partial<Benefit>) => aContext([aBenefit({ AnnuityType: 'TL', TermMonths: null, TermWeeks: null, ...term })], { MaxTerm: 30 });

describe('checkMaxTerm', () => {
  it('passes at the maximum and one month below, fails one month above', () => {
    expect(checkMaxTerm(termed({ TermYears: 30 }))).toEqual({
      id: 'maxTerm',
      pass: true,
      message: 'Term must not exceed 30 years',
      text: { key: 'maxTerm', params: { years: { key: 'years', params: { number: 30 } } } },
      ruleValue: { kind: 'years', years: 30 },
      quoteValue: { kind: 'term', term: { years: 30, months: 0, weeks: 0 } },
    });
    expect(checkMaxTerm(termed({ TermYears: 29, TermMonths: 11 }))?.pass).toBe(true);
    expect(checkMaxTerm(termed({ TermYears: 30, TermMonths: 1 }))?.pass).toBe(false);
  });

  it('applies to period certain and temp life only, judging the longest', () => {
    const context = aContext(
      [aBenefit({ AnnuityType: 'PC', TermYears: 31 }), aBenefit({ AnnuityType: 'TL', TermYears: 10 }), aBenefit({ AnnuityType: 'IR', TermYears: 90 })],
      { MaxTerm: 30 },
    );
    expect(checkMaxTerm(context)).toMatchObject({ pass: false, quoteValue: { kind: 'term', term: { years: 31, months: 0, weeks: 0 } } });
    expect(checkMaxTerm(aContext([aBenefit({ AnnuityType: 'IR', TermYears: 90 })], { MaxTerm: 30 }))).toBeNull();
  });

  it('does not apply without the rule', () => {
    expect(checkMaxTerm(aContext([aBenefit()], {}))).toBeNull();
  });
});
