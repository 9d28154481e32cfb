import { hasTerm } from '../codes';
import { finite } from '../money';
import { TERM_UNITS_PER_YEAR, termUnits } from '../term';
import { checkText, english, periodOf } from '../texts';
import { extremeTerm } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Term at most the maximum (years), for period certain and temp life only: the longest decides. */
export function checkMaxTerm({ benefits, rules }: CheckContext): CheckResult | null {
  const maxYears = finite(rules.MaxTerm);
  const longest = extremeTerm(
    benefits.filter((benefit) => hasTerm(benefit.AnnuityType)),
    -1,
  );
  if (maxYears === null || longest === null) return null;
  const words = checkText('maxTerm', { years: periodOf(maxYears, 'year') });
  return {
    id: 'maxTerm',
    pass: termUnits(longest) <= maxYears * TERM_UNITS_PER_YEAR,
    message: english(words),
    text: words,
    ruleValue: { kind: 'years', years: maxYears },
    quoteValue: { kind: 'term', term: longest },
  };
}
