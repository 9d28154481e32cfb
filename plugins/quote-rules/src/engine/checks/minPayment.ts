import { formatCents, toCents } from '../money';
import { checkText, english } from '../texts';
import { extremeNumber, notChecked } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Payment at least the minimum payment, for every benefit with a payment: the smallest decides. */
export function checkMinPayment({ benefits, rules }: CheckContext): CheckResult | null {
  const minimum = toCents(rules.MinPaymentAmount);
  const smallest = extremeNumber(benefits.map((benefit) => toCents(benefit.PaymentAmount)));
  if (minimum === null || benefits.length === 0) return null;
  if (smallest === null) return notChecked('minPayment', 'payment', { kind: 'money', cents: minimum });
  const words = checkText('minPayment', { amount: formatCents(minimum) });
  return {
    id: 'minPayment',
    pass: smallest >= minimum,
    message: english(words),
    text: words,
    ruleValue: { kind: 'money', cents: minimum },
    quoteValue: { kind: 'money', cents: smallest },
  };
}
