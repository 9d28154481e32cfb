import { formatCents, toCents } from '../money';
import { checkText, english } from '../texts';
import { extremeNumber, lumpSums, notChecked } from './shared';
import type { CheckContext, CheckResult } from './types';

/** A lump sum payment not above the maximum: the largest decides. */
export function checkMaxLumpSumAmount({ benefits, rules }: CheckContext): CheckResult | null {
  const maximum = toCents(rules.MaxLumpSumAmount);
  const largest = extremeNumber(
    lumpSums(benefits).map((benefit) => toCents(benefit.PaymentAmount)),
    -1,
  );
  if (maximum === null || lumpSums(benefits).length === 0) return null;
  if (largest === null) return notChecked('maxLumpSumAmount', 'payment', { kind: 'money', cents: maximum });
  const words = checkText('maxLumpSumAmount', { amount: formatCents(maximum) });
  return {
    id: 'maxLumpSumAmount',
    pass: largest <= maximum,
    message: english(words),
    text: words,
    ruleValue: { kind: 'money', cents: maximum },
    quoteValue: { kind: 'money', cents: largest },
  };
}
