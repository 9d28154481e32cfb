import { isPeriodCertain } from '../codes';
import { finite } from '../money';
import { TERM_UNITS_PER_YEAR, termUnits } from '../term';
import { count, extremeTerm } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Guarantee period not above the maximum in years. The guaranteed period is a period-certain benefit's term. */
export function checkMaxGuarantee({ benefits, rules }: CheckContext): CheckResult | null {
  const maxYears = finite(rules.MaxGuarantee);
  const longest = extremeTerm(
    benefits.filter((benefit) => isPeriodCertain(benefit.AnnuityType)),
    -1,
  );
  if (maxYears === null || longest === null) return null;
  return {
    id: 'maxGuarantee',
    pass: termUnits(longest) <= maxYears * TERM_UNITS_PER_YEAR,
    message: `Guarantee period must not exceed ${count(maxYears, 'year')}`,
    ruleValue: { kind: 'years', years: maxYears },
    quoteValue: { kind: 'term', term: longest },
  };
}
