import { formatCents, toCents } from '../money';
import { amountLabel, totalCost } from './totalCost';
import type { CheckContext, CheckResult } from './types';

/** Total cost at least the minimum premium ('MSA Amount must be at least …' on an MSA quote). */
export function checkMinPremium({ benefits, quote, rules }: CheckContext): CheckResult | null {
  const minimum = toCents(rules.MinPremiumAmount);
  const cost = totalCost(quote, benefits);
  if (minimum === null || cost === null) return null;
  return {
    id: 'minPremium',
    pass: cost >= minimum,
    message: `${amountLabel(quote)} must be at least ${formatCents(minimum)}`,
    ruleValue: { kind: 'money', cents: minimum },
    quoteValue: { kind: 'money', cents: cost },
  };
}
