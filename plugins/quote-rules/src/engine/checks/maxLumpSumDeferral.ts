import { compareDates, formatIsoDate, formatUsDate } from '../dates';
import { finite } from '../money';
import { checkText, english } from '../texts';
import { deferralBound, deferralWords, extremeDate, lumpSums, missingDeferralInput, notChecked, startDates } from './shared';
import type { CheckContext, CheckResult } from './types';

/** A lump sum starts no later than purchase date plus the maximum lump sum deferral (years): the latest decides. */
export function checkMaxLumpSumDeferral(context: CheckContext): CheckResult | null {
  const deferral = deferralBound(context, context.rules.MaxLumpSumDeferral, 'years');
  const latest = extremeDate(startDates(lumpSums(context.benefits)), -1);
  const rule = finite(context.rules.MaxLumpSumDeferral);
  if (rule === null || lumpSums(context.benefits).length === 0) return null;
  const missing = missingDeferralInput(context, startDates(lumpSums(context.benefits)));
  if (missing !== null || deferral === null || latest === null) return notChecked('maxLumpSumDeferral', missing ?? 'startDate', deferralWords(rule, 'years'));
  const words = checkText('maxLumpSumDeferral', { date: formatUsDate(deferral.bound), period: deferral.period });
  return {
    id: 'maxLumpSumDeferral',
    pass: compareDates(latest, deferral.bound) <= 0,
    message: english(words),
    text: words,
    ruleValue: { kind: 'date', date: formatIsoDate(deferral.bound) },
    quoteValue: { kind: 'date', date: formatIsoDate(latest) },
  };
}
