import { hasTerm } from './codes';
import { finite } from './money';
import { isEmptyTerm } from './term';
import type { Benefit } from './types';

/** The benefit term messages of spec 02 section 5, word for word. */
export const TERM_MESSAGES = {
  semiAnnualMonths: 'Month must be blank or 6',
  quarterlyMonths: 'Month must be 3, 6 or 9',
  biweeklyWeeks: 'Weeks must be even number',
  termRequired: 'Term is required',
  monthsBelow12: 'Month must be less than 12',
  weeksBelow52: 'Week must be less than 52',
} as const;

export type TermMessage = (typeof TERM_MESSAGES)[keyof typeof TERM_MESSAGES];

/**
 * Validates a benefit's term (after the field rules), returning every message that applies in the spec's order.
 * A blank or zero month is a whole number of quarters too, so quarterly accepts it like semi-annual does.
 * 'Term is required' only for the types that have a term (period certain, temp life): life only and life with
 * refund run for life, and a lump sum's term is forced.
 */
export function termMessages(benefit: Benefit): TermMessage[] {
  const messages: TermMessage[] = [];
  const months = finite(benefit.TermMonths) ?? 0;
  const weeks = finite(benefit.TermWeeks) ?? 0;
  if (benefit.TermType === 'S' && months !== 0 && months !== 6) messages.push(TERM_MESSAGES.semiAnnualMonths);
  if (benefit.TermType === 'Q' && months !== 0 && months !== 3 && months !== 6 && months !== 9) messages.push(TERM_MESSAGES.quarterlyMonths);
  if (benefit.TermType === 'B' && weeks % 2 !== 0) messages.push(TERM_MESSAGES.biweeklyWeeks);
  if (hasTerm(benefit.AnnuityType) && isEmptyTerm(benefit)) messages.push(TERM_MESSAGES.termRequired);
  if (months >= 12) messages.push(TERM_MESSAGES.monthsBelow12);
  if (weeks >= 52) messages.push(TERM_MESSAGES.weeksBelow52);
  return messages;
}
