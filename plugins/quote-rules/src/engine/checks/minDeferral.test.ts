import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import { checkMinDeferral } from './minDeferral';

// Purchase 2024-01-31 plus 30 days is 2024-03-01 (2024 is a leap year).
const starting = (...dates: (string | null)[]) =>
  aContext(
    dates.map((StartDate) => aBenefit({ StartDate })),
    { MinDeferral: 30 },
  );

describe('checkMinDeferral', () => {
  it('passes on the first allowed day and one after, fails one before', () => {
    expect(checkMinDeferral(starting('2024-03-01'))).toEqual({
      id: 'minDeferral',
      pass: true,
      message: 'Benefits must start on or after 03/01/2024 (purchase date plus 30 days)',
      text: { key: 'minDeferral', params: { date: '03/01/2024', period: { key: 'days', params: { number: 30 } } } },
      ruleValue: { kind: 'date', date: '2024-03-01' },
      quoteValue: { kind: 'date', date: '2024-03-01' },
    });
    expect(checkMinDeferral(starting('2024-03-02'))?.pass).toBe(true);
    expect(checkMinDeferral(starting('2024-02-29'))?.pass).toBe(false);
  });

  it('judges the earliest start, lump sums included', () => {
    const context = aContext([aBenefit({ StartDate: '2030-01-01' }), aBenefit({ AnnuityType: 'LS', StartDate: '2024-02-29' })], { MinDeferral: 30 });
    expect(checkMinDeferral(context)).toMatchObject({ pass: false, quoteValue: { kind: 'date', date: '2024-02-29' } });
  });

  it('names the whole days the date moved by', () => {
    expect(checkMinDeferral(aContext([aBenefit()], { MinDeferral: 30.9 }))?.message).toBe(
      'Benefits must start on or after 03/01/2024 (purchase date plus 30 days)',
    );
  });

  it('says day in the singular for one day', () => {
    expect(checkMinDeferral(aContext([aBenefit()], { MinDeferral: 1 }))?.message).toBe('Benefits must start on or after 02/01/2024 (purchase date plus 1 day)');
  });

  it('does not apply without the rule, a purchase date or a start date', () => {
    expect(checkMinDeferral(aContext([aBenefit()], { MinDeferral: null }))).toBeNull();
    expect(checkMinDeferral(aContext([aBenefit()], { MinDeferral: 30 }, { caseInput: { PurchaseDate: null } }))).toMatchObject({
      id: 'minDeferral',
      pass: null,
      message: 'Not checked: purchase date missing',
      text: { key: 'notCheckedPurchaseDate' },
      ruleValue: { kind: 'words', text: { key: 'days', params: { number: 30 } } },
      quoteValue: { kind: 'missing' },
    });
    expect(checkMinDeferral(starting(null, 'soon'))).toMatchObject({ pass: null, message: 'Not checked: start date missing' });
  });
});
