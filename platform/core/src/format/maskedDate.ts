import { type CalendarDay, compareDays, isRealDay, parseIsoDay } from './calendarDay';
import { onlyDigits } from './digits';

/** Why a masked date is invalid; null means valid. */
export type MaskedDateError = 'incomplete' | 'invalid' | 'tooEarly' | 'tooLate';

export interface DateBounds {
  /** The date must be strictly before this day (MM/DD/YYYY, YYYY-MM-DD or a Date). */
  before?: string | Date | null;
  /** The date must be strictly after this day. */
  after?: string | Date | null;
}

/** Progressive MM/DD/YYYY display while typing: digits only, slashes inserted. */
export function formatMaskedDateInput(input: string | null | undefined): string {
  const d = onlyDigits(input, 8);
  if (d.length <= 2) return d;
  if (d.length <= 4) return `${d.slice(0, 2)}/${d.slice(2)}`;
  return `${d.slice(0, 2)}/${d.slice(2, 4)}/${d.slice(4)}`;
}

/** Accepts MM/DD/YYYY (one-digit month and day allowed) or eight digits MMDDYYYY; null when neither or not a real day. */
export function parseMaskedDate(input: string | null | undefined): CalendarDay | null {
  const text = (input ?? '').trim();
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text) ?? /^(\d{2})(\d{2})(\d{4})$/.exec(text);
  if (!m) return null;
  const day = { month: Number(m[1]), day: Number(m[2]), year: Number(m[3]) };
  return isRealDay(day) ? day : null;
}

function toDay(bound: string | Date): CalendarDay | null {
  if (bound instanceof Date) {
    return Number.isNaN(bound.getTime()) ? null : { year: bound.getFullYear(), month: bound.getMonth() + 1, day: bound.getDate() };
  }
  return parseMaskedDate(bound) ?? parseIsoDay(bound);
}

/** Validates a masked date; empty input is 'incomplete' (callers decide whether the field is required). */
export function validateMaskedDate(input: string | null | undefined, bounds: DateBounds = {}): MaskedDateError | null {
  const digits = onlyDigits(input);
  if (digits.length < 8 && !/^\d{1,2}\/\d{1,2}\/\d{4}$/.test((input ?? '').trim())) return 'incomplete';
  const day = parseMaskedDate(input);
  if (!day) return 'invalid';
  const before = bounds.before ? toDay(bounds.before) : null;
  if (before && compareDays(day, before) >= 0) return 'tooLate';
  const after = bounds.after ? toDay(bounds.after) : null;
  if (after && compareDays(day, after) <= 0) return 'tooEarly';
  return null;
}

/** MM/DD/YYYY for a calendar day. */
export function formatMaskedDate({ year, month, day }: CalendarDay): string {
  return `${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}/${String(year).padStart(4, '0')}`;
}
