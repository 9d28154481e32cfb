import { finite } from './money';
import type { Benefit } from './types';

/** A benefit's term with empty parts as zero. */
export interface Term {
  years: number;
  months: number;
  weeks: number;
}

/** 156 is the least common multiple of 12 and 52: a month is 13 units and a week 3, so terms compare exactly. */
export const TERM_UNITS_PER_YEAR = 156;
const UNITS_PER_MONTH = 13;
const UNITS_PER_WEEK = 3;

export function termOf(benefit: Benefit): Term {
  return { years: finite(benefit.TermYears) ?? 0, months: finite(benefit.TermMonths) ?? 0, weeks: finite(benefit.TermWeeks) ?? 0 };
}

export function termUnits(term: Term): number {
  return term.years * TERM_UNITS_PER_YEAR + term.months * UNITS_PER_MONTH + term.weeks * UNITS_PER_WEEK;
}

/** True when years, months and weeks are all empty or zero. */
export function isEmptyTerm(benefit: Benefit): boolean {
  const term = termOf(benefit);
  return term.years === 0 && term.months === 0 && term.weeks === 0;
}
