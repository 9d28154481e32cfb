import { isPeriodCertain } from '../codes';
import { finite } from '../money';
import { TERM_UNITS_PER_YEAR, termUnits } from '../term';
import { checkText, english, periodOf } from '../texts';
import { extremeTerm } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Guarantee period not above the maximum in years. The guaranteed period is a period-certain benefit's term. */
export function checkMaxGuarantee({ benefits, rules }: CheckContext): CheckResult | null {
  const maxYears = finite(rules.MaxGuarantee);
  const longest = extremeTerm(
    benefits.filter((benefit) => isPeriodCertain(benefit.AnnuityType)),
    -1,
  );
  if (maxYears === null || longest === null) return null;
  const words = checkText('maxGuarantee', { years: periodOf(maxYears, 'year') });
  return {
    id: 'maxGuarantee',
    pass: termUnits(longest) <= maxYears * TERM_UNITS_PER_YEAR,
    message: english(words),
    text: words,
    ruleValue: { kind: 'years', years: maxYears },
    quoteValue: { kind: 'term', term: longest },
  };
}
