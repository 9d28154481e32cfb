import { compareDays, dayOfLocalDate, isRealDay } from './calendarDay';
import { calendarDayIn } from './zones';

/** Standard address pattern: local part, @, dotted domain with a 2+ letter top-level label. */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

/** A standard address: EMAIL_PATTERN, at most 254 characters, and a local part with no leading, trailing or double dot. */
export function isEmail(value: string | null | undefined): boolean {
  const text = (value ?? '').trim();
  const local = text.slice(0, text.lastIndexOf('@'));
  return text.length <= 254 && EMAIL_PATTERN.test(text) && !text.includes('..') && !local.startsWith('.') && !local.endsWith('.');
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** Compare rule: two fields must match; an empty side counts as valid (required-ness is checked elsewhere). */
export function fieldsMatch(a: unknown, b: unknown): boolean {
  return isEmpty(a) || isEmpty(b) || a === b;
}

/** The first day a date of birth may be: spec 01 section 5's "after year 1900" is 1901 on. */
export const DOB_MIN = new Date(Date.UTC(1901, 0, 1));
/** DOB_MIN as the masked date fields' exclusive `after` bound (MM/DD/YYYY). */
export const DOB_AFTER_MASKED = '12/31/1900';

/**
 * Date of birth must be before now and after the year 1900, from 1901-01-01 (spec 01 section 5). Accepts a Date or 'YYYY-MM-DD'. A day is
 * "before now" when it is not after today where the check runs: the browser's own day for the person typing (before,
 * in a US evening, when the UTC day is already tomorrow, tomorrow's date was accepted); the server, in its zone (UTC),
 * is at most a day more lenient. `zone`: today in that IANA zone instead of the runtime's.
 */
export function isValidDob(value: Date | string | null | undefined, now: Date = new Date(), zone?: string): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (value instanceof Date) {
    const time = value.getTime();
    return Number.isFinite(time) && time >= DOB_MIN.getTime() && time < now.getTime();
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return false;
  const day = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (!isRealDay(day)) return false;
  return Date.UTC(day.year, day.month - 1, day.day) >= DOB_MIN.getTime() && compareDays(day, zone ? calendarDayIn(zone, now) : dayOfLocalDate(now)) <= 0;
}
