import { formatCents, toCents } from '../money';
import { amountLabel, totalCost } from './totalCost';
import type { CheckContext, CheckResult } from './types';

/** Total cost at most the maximum premium ('MSA Amount must not exceed …' on an MSA quote). */
export function checkMaxPremium({ benefits, quote, rules }: CheckContext): CheckResult | null {
  const maximum = toCents(rules.MaxPremiumAmount);
  const cost = totalCost(quote, benefits);
  if (maximum === null || cost === null) return null;
  return {
    id: 'maxPremium',
    pass: cost <= maximum,
    message: `${amountLabel(quote)} must not exceed ${formatCents(maximum)}`,
    ruleValue: { kind: 'money', cents: maximum },
    quoteValue: { kind: 'money', cents: cost },
  };
}
