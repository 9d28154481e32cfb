import { formatCents, toCents } from '../money';
import { checkText, english } from '../texts';
import { notChecked } from './shared';
import { isMsaQuote, totalCost } from './totalCost';
import type { CheckContext, CheckResult } from './types';

/** Total cost at most the maximum premium ('MSA Amount must not exceed …' on an MSA quote). */
export function checkMaxPremium({ benefits, quote, rules }: CheckContext): CheckResult | null {
  const maximum = toCents(rules.MaxPremiumAmount);
  const cost = totalCost(quote, benefits);
  if (maximum === null || benefits.length === 0) return null;
  if (cost === null) return notChecked('maxPremium', 'premium', { kind: 'money', cents: maximum });
  const words = checkText(isMsaQuote(quote) ? 'maxPremiumMsa' : 'maxPremium', { amount: formatCents(maximum) });
  return {
    id: 'maxPremium',
    pass: cost <= maximum,
    message: english(words),
    text: words,
    ruleValue: { kind: 'money', cents: maximum },
    quoteValue: { kind: 'money', cents: cost },
  };
}
