import { compareDates, formatIsoDate, formatUsDate } from '../dates';
import { finite } from '../money';
import { checkText, english } from '../texts';
import { deferralBound, deferralWords, extremeDate, missingDeferralInput, notChecked, startDates } from './shared';
import type { CheckContext, CheckResult } from './types';

/** At least one benefit starts by purchase date plus maximum deferral (years): the earliest start decides. */
export function checkMaxDeferral(context: CheckContext): CheckResult | null {
  const deferral = deferralBound(context, context.rules.MaxDeferral, 'years');
  const earliest = extremeDate(startDates(context.benefits));
  const rule = finite(context.rules.MaxDeferral);
  if (rule === null || context.benefits.length === 0) return null;
  const missing = missingDeferralInput(context, startDates(context.benefits));
  if (missing !== null || deferral === null || earliest === null) return notChecked('maxDeferral', missing ?? 'startDate', deferralWords(rule, 'years'));
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
