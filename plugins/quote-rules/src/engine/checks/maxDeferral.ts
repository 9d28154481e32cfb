import { compareDates, formatIsoDate, formatUsDate } from '../dates';
import { deferralBound, extremeDate, startDates } from './shared';
import type { CheckContext, CheckResult } from './types';

/** At least one benefit starts by purchase date plus maximum deferral (years): the earliest start decides. */
export function checkMaxDeferral(context: CheckContext): CheckResult | null {
  const deferral = deferralBound(context, context.rules.MaxDeferral, 'years');
  const earliest = extremeDate(startDates(context.benefits));
  if (deferral === null || earliest === null) return null;
  return {
    id: 'maxDeferral',
    pass: compareDates(earliest, deferral.bound) <= 0,
    message: `At least one benefit must start on or before ${formatUsDate(deferral.bound)}${deferral.explanation}`,
    ruleValue: { kind: 'date', date: formatIsoDate(deferral.bound) },
    quoteValue: { kind: 'date', date: formatIsoDate(earliest) },
  };
}
