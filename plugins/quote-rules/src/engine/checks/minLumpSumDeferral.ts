import { compareDates, formatIsoDate, formatUsDate } from '../dates';
import { finite } from '../money';
import { checkText, english } from '../texts';
import { deferralBound, deferralWords, extremeDate, lumpSums, missingDeferralInput, notChecked, startDates } from './shared';
import type { CheckContext, CheckResult } from './types';

/** A lump sum starts on or after purchase date plus the minimum lump sum deferral (months). */
export function checkMinLumpSumDeferral(context: CheckContext): CheckResult | null {
  const deferral = deferralBound(context, context.rules.MinLumpSumDeferral, 'months');
  const earliest = extremeDate(startDates(lumpSums(context.benefits)));
  const rule = finite(context.rules.MinLumpSumDeferral);
  if (rule === null || lumpSums(context.benefits).length === 0) return null;
  const missing = missingDeferralInput(context, startDates(lumpSums(context.benefits)));
  if (missing !== null || deferral === null || earliest === null)
    return notChecked('minLumpSumDeferral', missing ?? 'startDate', deferralWords(rule, 'months'));
  const words = checkText('minLumpSumDeferral', { date: formatUsDate(deferral.bound), period: deferral.period });
  return {
    id: 'minLumpSumDeferral',
    pass: compareDates(earliest, deferral.bound) >= 0,
    message: english(words),
    text: words,
    ruleValue: { kind: 'date', date: formatIsoDate(deferral.bound) },
    quoteValue: { kind: 'date', date: formatIsoDate(earliest) },
  };
}
