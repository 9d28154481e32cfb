import { compareDates, formatIsoDate, formatUsDate } from '../dates';
import { checkText, english } from '../texts';
import { deferralBound, extremeDate, startDates } from './shared';
import type { CheckContext, CheckResult } from './types';

/** At least one benefit starts by purchase date plus maximum deferral (years): the earliest start decides. */
export function checkMaxDeferral(context: CheckContext): CheckResult | null {
  const deferral = deferralBound(context, context.rules.MaxDeferral, 'years');
  const earliest = extremeDate(startDates(context.benefits));
  if (deferral === null || earliest === null) return null;
  const words = checkText('maxDeferral', { date: formatUsDate(deferral.bound), period: deferral.period });
  return {
    id: 'maxDeferral',
    pass: compareDates(earliest, deferral.bound) <= 0,
    message: english(words),
    text: words,
    ruleValue: { kind: 'date', date: formatIsoDate(deferral.bound) },
    quoteValue: { kind: 'date', date: formatIsoDate(earliest) },
  };
}
