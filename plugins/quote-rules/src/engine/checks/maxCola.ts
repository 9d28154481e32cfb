import { isWholeCents } from '@portal/core';
import { isLumpSum } from '../codes';
import { finite } from '../money';
import { checkText, english } from '../texts';
import { extremeNumber } from './shared';
import type { CheckContext, CheckResult } from './types';

/**
 * Whether a COLA is below the maximum. The contract holds both to hundredths of a percent, and those compare as whole
 * hundredths (so a sum's binary residue does not decide); a value with more decimals (never through the API) compares
 * exactly, never rounded onto the maximum (4.996 is below 5).
 */
export function colaBelow(cola: number, maximum: number): boolean {
  if (isWholeCents(cola) && isWholeCents(maximum)) return Math.round(cola * 100) < Math.round(maximum * 100);
  return cola < maximum;
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
    pass: colaBelow(highest, maximum),
    message: english(words),
    text: words,
    ruleValue: { kind: 'percent', percent: maximum },
    quoteValue: { kind: 'percent', percent: highest },
  };
}
