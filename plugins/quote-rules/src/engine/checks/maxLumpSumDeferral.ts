import { compareDates, formatIsoDate, formatUsDate } from '../dates';
import { deferralBound, extremeDate, lumpSums, startDates } from './shared';
import type { CheckContext, CheckResult } from './types';

/** A lump sum starts no later than purchase date plus the maximum lump sum deferral (years): the latest decides. */
export function checkMaxLumpSumDeferral(context: CheckContext): CheckResult | null {
  const deferral = deferralBound(context, context.rules.MaxLumpSumDeferral, 'years');
  const latest = extremeDate(startDates(lumpSums(context.benefits)), -1);
  if (deferral === null || latest === null) return null;
  return {
    id: 'maxLumpSumDeferral',
    pass: compareDates(latest, deferral.bound) <= 0,
    message: `Lump sums must start on or before ${formatUsDate(deferral.bound)}${deferral.explanation}`,
    ruleValue: { kind: 'date', date: formatIsoDate(deferral.bound) },
    quoteValue: { kind: 'date', date: formatIsoDate(latest) },
  };
}
