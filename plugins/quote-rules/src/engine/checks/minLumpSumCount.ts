import { finite } from '../money';
import { checkText, english } from '../texts';
import { lumpSums } from './shared';
import type { CheckContext, CheckResult } from './types';

/** At least N lump sums, checked only when the quote has some and N is above 1. */
export function checkMinLumpSumCount({ benefits, rules }: CheckContext): CheckResult | null {
  const required = finite(rules.MinLumpSumCount);
  const present = lumpSums(benefits).length;
  if (required === null || required <= 1 || present === 0) return null;
  const words = checkText('minLumpSumCount', { number: required });
  return {
    id: 'minLumpSumCount',
    pass: present >= required,
    message: english(words),
    text: words,
    ruleValue: { kind: 'count', count: required },
    quoteValue: { kind: 'count', count: present },
  };
}
