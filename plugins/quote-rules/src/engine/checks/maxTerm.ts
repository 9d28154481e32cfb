import { hasTerm } from '../codes';
import { finite } from '../money';
import { TERM_UNITS_PER_YEAR, termUnits } from '../term';
import { count, extremeTerm } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Term at most the maximum (years), for period certain and temp life only: the longest decides. */
export function checkMaxTerm({ benefits, rules }: CheckContext): CheckResult | null {
  const maxYears = finite(rules.MaxTerm);
  const longest = extremeTerm(
    benefits.filter((benefit) => hasTerm(benefit.AnnuityType)),
    -1,
  );
  if (maxYears === null || longest === null) return null;
  return {
    id: 'maxTerm',
    pass: termUnits(longest) <= maxYears * TERM_UNITS_PER_YEAR,
    message: `Term must not exceed ${count(maxYears, 'year')}`,
    ruleValue: { kind: 'years', years: maxYears },
    quoteValue: { kind: 'term', term: longest },
  };
}
