import { compareDates, formatIsoDate, formatUsDate } from '../dates';
import { finite } from '../money';
import { checkText, english } from '../texts';
import { deferralBound, deferralWords, extremeDate, missingDeferralInput, notChecked, startDates } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Benefits start on or after purchase date plus minimum deferral days: the earliest start decides. */
export function checkMinDeferral(context: CheckContext): CheckResult | null {
  const deferral = deferralBound(context, context.rules.MinDeferral, 'days');
  const earliest = extremeDate(startDates(context.benefits));
  const rule = finite(context.rules.MinDeferral);
  if (rule === null || context.benefits.length === 0) return null;
  const missing = missingDeferralInput(context, startDates(context.benefits));
  if (missing !== null || deferral === null || earliest === null) return notChecked('minDeferral', missing ?? 'startDate', deferralWords(rule, 'days'));
  const words = checkText('minDeferral', { date: formatUsDate(deferral.bound), period: deferral.period });
  return {
    id: 'minDeferral',
    pass: compareDates(earliest, deferral.bound) >= 0,
    message: english(words),
    text: words,
    ruleValue: { kind: 'date', date: formatIsoDate(deferral.bound) },
    quoteValue: { kind: 'date', date: formatIsoDate(earliest) },
  };
}
