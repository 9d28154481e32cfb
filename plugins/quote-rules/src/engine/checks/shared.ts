import { isLumpSum } from '../codes';
import { type CalendarDate, compareDates, type DateUnit, parseIsoDate, shiftDate } from '../dates';
import { finite } from '../money';
import { type Term, termOf, termUnits } from '../term';
import { type CheckText, checkText, english, periodOf } from '../texts';
import type { Benefit } from '../types';
import type { CheckContext, CheckId, CheckResult, CheckValue } from './types';

/** What a check may find missing, and the words of its line. */
const MISSING = {
  age: 'notCheckedAge',
  purchaseDate: 'notCheckedPurchaseDate',
  startDate: 'notCheckedStartDate',
  payment: 'notCheckedPayment',
  premium: 'notCheckedPremium',
} as const;
export type MissingInput = keyof typeof MISSING;

/**
 * The line of a rule the company sets but the quote lacks the data to check: not a pass (the spec does not say
 * missing data passes), so the company is not counted as accepting; not a fail either (nothing broke the rule).
 */
export function notChecked(id: CheckId, missing: MissingInput, ruleValue: CheckValue): CheckResult {
  const words = checkText(MISSING[missing]);
  return { id, pass: null, message: english(words), text: words, ruleValue, quoteValue: { kind: 'missing' } };
}

/** Why a deferral check cannot be made: the purchase date, or a start date of the benefits concerned; null if neither. */
export function missingDeferralInput({ caseInput }: CheckContext, starts: readonly CalendarDate[]): MissingInput | null {
  if (parseIsoDate(caseInput.PurchaseDate) === null) return 'purchaseDate';
  return starts.length === 0 ? 'startDate' : null;
}

/** A deferral rule in words: '30 days'. */
export const deferralWords = (rule: number, unit: DateUnit): CheckValue => ({ kind: 'words', text: periodOf(Math.trunc(rule), UNIT_WORD[unit]) });

export function lumpSums(benefits: readonly Benefit[]): Benefit[] {
  return benefits.filter((benefit) => isLumpSum(benefit.AnnuityType));
}

export function startDates(benefits: readonly Benefit[]): CalendarDate[] {
  return benefits.map((benefit) => parseIsoDate(benefit.StartDate)).filter((date): date is CalendarDate => date !== null);
}

/** The earliest (or latest, with direction -1) of some dates; null for none. */
export function extremeDate(dates: readonly CalendarDate[], direction: 1 | -1 = 1): CalendarDate | null {
  return dates.reduce<CalendarDate | null>((best, date) => (best === null || direction * compareDates(date, best) < 0 ? date : best), null);
}

/** Smallest (or largest, with direction -1) of the finite numbers; null for none. */
export function extremeNumber(values: readonly (number | null)[], direction: 1 | -1 = 1): number | null {
  return values.reduce<number | null>((best, value) => (value === null || (best !== null && direction * value >= direction * best) ? best : value), null);
}

export interface DeferralBound {
  /** The purchase date shifted by the rule. */
  bound: CalendarDate;
  /** The whole units the purchase date was shifted by, as words ('30 days'). */
  period: CheckText;
}

const UNIT_WORD = { days: 'day', months: 'month', years: 'year' } as const satisfies Record<DateUnit, string>;

/** Purchase date plus the rule's days, months or years; null when either is missing. */
export function deferralBound({ caseInput }: CheckContext, rule: number | null, unit: DateUnit): DeferralBound | null {
  const amount = finite(rule);
  const purchase = parseIsoDate(caseInput.PurchaseDate);
  if (amount === null || purchase === null) return null;
  // The message names the whole units the date was shifted by (shiftDate drops fractions).
  return { bound: shiftDate(purchase, amount, unit), period: periodOf(Math.trunc(amount), UNIT_WORD[unit]) };
}

/** The shortest (direction 1) or longest (-1) term among the benefits; null for none. */
export function extremeTerm(benefits: readonly Benefit[], direction: 1 | -1): Term | null {
  return benefits
    .map(termOf)
    .reduce<Term | null>((best, term) => (best === null || direction * termUnits(term) < direction * termUnits(best) ? term : best), null);
}
