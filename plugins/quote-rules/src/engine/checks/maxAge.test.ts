import { describe, expect, it } from 'vitest';
import { aContext } from '../testSupport';
import { checkMaxAge } from './maxAge';

const withAges = (...ages: (number | null)[]) => aContext([], { MaxAge: 85 }, { caseInput: { Annuitants: ages.map((Age) => ({ Age })) } });

describe('checkMaxAge', () => {
  it('passes at the maximum age and one below, fails one above', () => {
    expect(checkMaxAge(withAges(85))).toEqual({
      id: 'maxAge',
      pass: true,
      message: 'Age must not exceed 85',
      text: { key: 'maxAge', params: { age: 85 } },
      ruleValue: { kind: 'age', years: 85 },
      quoteValue: { kind: 'age', years: 85 },
    });
    expect(checkMaxAge(withAges(84))?.pass).toBe(true);
    expect(checkMaxAge(withAges(86))?.pass).toBe(false);
  });

  it('judges the oldest annuitant', () => {
    expect(checkMaxAge(withAges(40, null, 86, 60))).toMatchObject({ pass: false, quoteValue: { kind: 'age', years: 86 } });
  });

  it('does not apply without a maximum; with one but no age it is not checked (not a pass), saying what is missing', () => {
    expect(checkMaxAge(aContext([], { MaxAge: null }))).toBeNull();
    expect(checkMaxAge(withAges(null))).toEqual({
      id: 'maxAge',
      pass: null,
      message: 'Not checked: age missing',
      text: { key: 'notCheckedAge' },
      ruleValue: { kind: 'age', years: 85 },
      quoteValue: { kind: 'missing' },
    });
  });
});
