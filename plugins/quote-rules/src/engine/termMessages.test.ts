import { describe, expect, it } from 'vitest';
import { TERM_MESSAGES, termMessages } from './termMessages';
import { aBenefit } from './testSupport';

describe('termMessages', () => {
  it('semi-annual: months blank, zero or 6 pass; anything else fails', () => {
    for (const months of [null, 0, 6]) expect(termMessages(aBenefit({ TermType: 'S', TermMonths: months }))).toEqual([]);
    for (const months of [3, 5, 7]) expect(termMessages(aBenefit({ TermType: 'S', TermMonths: months }))).toEqual(['Month must be blank or 6']);
  });

  it('quarterly: months 3, 6 or 9 (or none) pass; others fail', () => {
    for (const months of [null, 0, 3, 6, 9]) expect(termMessages(aBenefit({ TermType: 'Q', TermMonths: months }))).toEqual([]);
    for (const months of [1, 2, 4, 8, 10]) expect(termMessages(aBenefit({ TermType: 'Q', TermMonths: months }))).toEqual(['Month must be 3, 6 or 9']);
  });

  it('biweekly: weeks must be even', () => {
    for (const weeks of [null, 0, 2, 50]) expect(termMessages(aBenefit({ TermType: 'B', TermWeeks: weeks }))).toEqual([]);
    for (const weeks of [1, 3, 51]) expect(termMessages(aBenefit({ TermType: 'B', TermWeeks: weeks }))).toEqual(['Weeks must be even number']);
  });

  it('odd weeks are fine for other term types', () => {
    expect(termMessages(aBenefit({ TermType: 'W', TermWeeks: 3 }))).toEqual([]);
  });

  it('term required when years, months and weeks are all empty or zero, for period certain and temp life', () => {
    for (const type of ['PC', 'CL', 'TL'] as const) {
      expect(termMessages(aBenefit({ AnnuityType: type, TermYears: null, TermMonths: 0, TermWeeks: null }))).toEqual(['Term is required']);
      expect(termMessages(aBenefit({ AnnuityType: type, TermYears: 0, TermMonths: 0, TermWeeks: 1 }))).toEqual([]);
    }
  });

  it('no term required for the life types', () => {
    for (const type of ['LO', 'IR', null] as const) expect(termMessages(aBenefit({ AnnuityType: type, TermYears: null }))).toEqual([]);
  });

  it('months: 11 passes, 12 and 13 fail', () => {
    expect(termMessages(aBenefit({ TermMonths: 11 }))).toEqual([]);
    expect(termMessages(aBenefit({ TermMonths: 12 }))).toEqual(['Month must be less than 12']);
    expect(termMessages(aBenefit({ TermMonths: 13 }))).toEqual(['Month must be less than 12']);
  });

  it('weeks: 51 passes, 52 and 53 fail', () => {
    expect(termMessages(aBenefit({ TermWeeks: 51 }))).toEqual([]);
    expect(termMessages(aBenefit({ TermWeeks: 52 }))).toEqual(['Week must be less than 52']);
    expect(termMessages(aBenefit({ TermWeeks: 53 }))).toEqual(['Week must be less than 52']);
  });

  it('gives every message that applies, in the spec order', () => {
    expect(termMessages(aBenefit({ TermType: 'Q', TermMonths: 13, TermWeeks: 60 }))).toEqual([
      TERM_MESSAGES.quarterlyMonths,
      TERM_MESSAGES.monthsBelow12,
      TERM_MESSAGES.weeksBelow52,
    ]);
    expect(termMessages(aBenefit({ TermType: 'B', TermWeeks: 53 }))).toEqual([TERM_MESSAGES.biweeklyWeeks, TERM_MESSAGES.weeksBelow52]);
  });
});
