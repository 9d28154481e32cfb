import { checkText, english } from '../texts';
import type { CheckContext, CheckResult } from './types';

/**
 * Spec 02 section 5, as worded: "Non-qualified cases refused when the company disallows them and the case is
 * qualified". The spec ties the refusal to a qualified case, and the engine follows it word for word.
 */
export function checkNonQualCases({ caseInput, rules }: CheckContext): CheckResult {
  const words = checkText(rules.NonQualCases ? 'nonQualAccepted' : 'nonQualRefused');
  return {
    id: 'nonQualCases',
    pass: rules.NonQualCases || !caseInput.IsQualified,
    message: english(words),
    text: words,
    ruleValue: { kind: 'flag', value: rules.NonQualCases },
    quoteValue: { kind: 'flag', value: caseInput.IsQualified },
  };
}
