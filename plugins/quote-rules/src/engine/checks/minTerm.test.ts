import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import type { Benefit } from '../types';
import { checkMinTerm } from './minTerm';

const termed = (term: Partial<Benefit>) => aContext([aBenefit({ TermMonths: null, TermWeeks: null, ...term })], { MinTerm: 5 });

describe('checkMinTerm', () => {
  it('passes at the minimum and one month above, fails one week below', () => {
    expect(checkMinTerm(termed({ TermYears: 5 }))).toEqual({
      id: 'minTerm',
      pass: true,
      message: 'Term must be at least 5 years',
      text: { key: 'minTerm', params: { years: { key: 'years', params: { number: 5 } } } },
      ruleValue: { kind: 'years', years: 5 },
      quoteValue: { kind: 'term', term: { years: 5, months: 0, weeks: 0 } },
    });
    expect(checkMinTerm(termed({ TermYears: 5, TermMonths: 1 }))?.pass).toBe(true);
    expect(checkMinTerm(termed({ TermYears: 4, TermWeeks: 51 }))?.pass).toBe(false);
  });

  it('compares months and weeks exactly: 4 years 12 months is 5 years', () => {
    expect(checkMinTerm(termed({ TermYears: 4, TermMonths: 12 }))?.pass).toBe(true);
    expect(checkMinTerm(termed({ TermYears: 4, TermWeeks: 52 }))?.pass).toBe(true);
  });

  it('applies to period certain and temp life only, judging the shortest', () => {
    const context = aContext(
      [aBenefit({ AnnuityType: 'TL', TermYears: 3 }), aBenefit({ AnnuityType: 'CL', TermYears: 8 }), aBenefit({ AnnuityType: 'IR', TermYears: 1 })],
      { MinTerm: 5 },
    );
    expect(checkMinTerm(context)).toMatchObject({ pass: false, quoteValue: { kind: 'term', term: { years: 3, months: 0, weeks: 0 } } });
    expect(checkMinTerm(aContext([aBenefit({ AnnuityType: 'LO' }), aBenefit({ AnnuityType: 'LS' })], { MinTerm: 5 }))).toBeNull();
  });

  it('does not apply without the rule', () => {
    expect(checkMinTerm(aContext([aBenefit()], {}))).toBeNull();
  });
});
