import { compareDates, formatIsoDate, formatUsDate } from '../dates';
import { checkText, english } from '../texts';
import { deferralBound, extremeDate, startDates } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Benefits start on or after purchase date plus minimum deferral days: the earliest start decides. */
export function checkMinDeferral(context: CheckContext): CheckResult | null {
  const deferral = deferralBound(context, context.rules.MinDeferral, 'days');
  const earliest = extremeDate(startDates(context.benefits));
  if (deferral === null || earliest === null) return null;
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
