import { isLumpSum } from '../codes';
import { finite } from '../money';
import { checkText, english } from '../texts';
import { extremeNumber } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Percent to hundredths of a percent, so 2.3 and 2.30 compare equal despite binary fractions. */
function hundredths(percent: number): number {
  return Math.round(percent * 100);
}

/**
 * COLA less than the maximum percent (strictly, as the spec words it), not for lump sums. A benefit without a
 * COLA (empty or zero) has nothing to limit.
 */
export function checkMaxCola({ benefits, rules }: CheckContext): CheckResult | null {
  const maximum = finite(rules.MaxCOLAPercent);
  const highest = extremeNumber(
    benefits.filter((benefit) => !isLumpSum(benefit.AnnuityType)).map((benefit) => finite(benefit.COLA)),
    -1,
  );
  if (maximum === null || highest === null || highest <= 0) return null;
  const words = checkText('maxCola', { percent: maximum });
  return {
    id: 'maxCola',
    pass: hundredths(highest) < hundredths(maximum),
    message: english(words),
    text: words,
    ruleValue: { kind: 'percent', percent: maximum },
    quoteValue: { kind: 'percent', percent: highest },
  };
}
