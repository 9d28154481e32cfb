import { hasTerm } from '../codes';
import { finite } from '../money';
import { TERM_UNITS_PER_YEAR, termUnits } from '../term';
import { checkText, english, periodOf } from '../texts';
import { extremeTerm } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Term at least the minimum (years), for period certain and temp life only: the shortest decides. */
export function checkMinTerm({ benefits, rules }: CheckContext): CheckResult | null {
  const minYears = finite(rules.MinTerm);
  const shortest = extremeTerm(
    benefits.filter((benefit) => hasTerm(benefit.AnnuityType)),
    1,
  );
  if (minYears === null || shortest === null) return null;
  const words = checkText('minTerm', { years: periodOf(minYears, 'year') });
  return {
    id: 'minTerm',
    pass: termUnits(shortest) >= minYears * TERM_UNITS_PER_YEAR,
    message: english(words),
    text: words,
    ruleValue: { kind: 'years', years: minYears },
    quoteValue: { kind: 'term', term: shortest },
  };
}
