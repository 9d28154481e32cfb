import { formatCents, toCents } from '../money';
import { checkText, english } from '../texts';
import { notChecked } from './shared';
import { isMsaQuote, totalCost } from './totalCost';
import type { CheckContext, CheckResult } from './types';

/** Total cost at least the minimum premium ('MSA Amount must be at least …' on an MSA quote). */
export function checkMinPremium({ benefits, quote, rules }: CheckContext): CheckResult | null {
  const minimum = toCents(rules.MinPremiumAmount);
  const cost = totalCost(quote, benefits);
  if (minimum === null || benefits.length === 0) return null;
  if (cost === null) return notChecked('minPremium', 'premium', { kind: 'money', cents: minimum });
  const words = checkText(isMsaQuote(quote) ? 'minPremiumMsa' : 'minPremium', { amount: formatCents(minimum) });
  return {
    id: 'minPremium',
    pass: cost >= minimum,
    message: english(words),
    text: words,
    ruleValue: { kind: 'money', cents: minimum },
    quoteValue: { kind: 'money', cents: cost },
  };
}
