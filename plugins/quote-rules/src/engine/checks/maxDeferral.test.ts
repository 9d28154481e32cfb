import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import { checkMaxDeferral } from './maxDeferral';

// Purchase 2024-01-31 plus 2 years is 2026-01-31.
const starting = (...dates: string[]) =>
  aContext(
    dates.map((StartDate) => aBenefit({ StartDate })),
    { MaxDeferral: 2 },
  );

describe('checkMaxDeferral', () => {
  it('passes when a benefit starts on the last allowed day or one before, fails one after', () => {
    expect(checkMaxDeferral(starting('2026-01-31'))).toEqual({
      id: 'maxDeferral',
      pass: true,
      message: 'At least one benefit must start on or before 01/31/2026 (purchase date plus 2 years)',
      text: { key: 'maxDeferral', params: { date: '01/31/2026', period: { key: 'years', params: { number: 2 } } } },
      ruleValue: { kind: 'date', date: '2026-01-31' },
      quoteValue: { kind: 'date', date: '2026-01-31' },
    });
    expect(checkMaxDeferral(starting('2026-01-30'))?.pass).toBe(true);
    expect(checkMaxDeferral(starting('2026-02-01'))?.pass).toBe(false);
  });

  it('needs only one benefit in time', () => {
    expect(checkMaxDeferral(starting('2040-01-01', '2025-06-01'))).toMatchObject({ pass: true, quoteValue: { kind: 'date', date: '2025-06-01' } });
  });

  it('does not apply without the rule or a start date', () => {
    expect(checkMaxDeferral(aContext([aBenefit()], {}))).toBeNull();
    expect(checkMaxDeferral(aContext([aBenefit({ StartDate: null })], { MaxDeferral: 2 }))).toMatchObject({
      pass: null,
      message: 'Not checked: start date missing',
      ruleValue: { kind: 'words', text: { key: 'years', params: { number: 2 } } },
    });
    expect(checkMaxDeferral(aContext([aBenefit()], { MaxDeferral: 2 }, { caseInput: { PurchaseDate: null } }))).toMatchObject({
      pass: null,
      message: 'Not checked: purchase date missing',
    });
    expect(checkMaxDeferral(aContext([], { MaxDeferral: 2 }))).toBeNull();
  });
});
