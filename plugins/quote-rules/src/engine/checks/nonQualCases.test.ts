import { describe, expect, it } from 'vitest';
import { aContext } from '../testSupport';
import { checkNonQualCases } from './nonQualCases';

describe('checkNonQualCases', () => {
  it('refuses a qualified case when the company disallows non-qualified cases, as the spec words it', () => {
    expect(checkNonQualCases(aContext([], { NonQualCases: false }, { caseInput: { IsQualified: true } }))).toEqual({
      id: 'nonQualCases',
      pass: false,
      message: 'Non-qualified cases not accepted',
      text: { key: 'nonQualRefused' },
      ruleValue: { kind: 'flag', value: false },
      quoteValue: { kind: 'flag', value: true },
    });
  });

  it('passes the other three combinations', () => {
    expect(checkNonQualCases(aContext([], { NonQualCases: false }, { caseInput: { IsQualified: false } }))).toMatchObject({
      pass: true,
      message: 'Non-qualified cases not accepted',
    });
    for (const IsQualified of [true, false]) {
      expect(checkNonQualCases(aContext([], { NonQualCases: true }, { caseInput: { IsQualified } }))).toMatchObject({
        pass: true,
        message: 'Non-qualified cases accepted',
      });
    }
  });
});
