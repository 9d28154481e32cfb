import { compareDays, dayOfLocalDate, isRealDay } from './calendarDay';
import { calendarDayIn } from './zones';

/** Standard address pattern: local part, @, dotted domain with a 2+ letter top-level label. */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

export function isEmail(value: string | null | undefined): boolean {
  const text = (value ?? '').trim();
  return text.length <= 254 && EMAIL_PATTERN.test(text) && !text.includes('..');
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** Compare rule: two fields must match; an empty side counts as valid (required-ness is checked elsewhere). */
export function fieldsMatch(a: unknown, b: unknown): boolean {
  return isEmpty(a) || isEmpty(b) || a === b;
}

export const DOB_MIN = new Date(Date.UTC(1900, 0, 1));

/**
 * Date of birth must be before now and after 1900-01-01 (spec 01 section 5). Accepts a Date or 'YYYY-MM-DD'. A day is
 * "before now" when it is not after today where the check runs: the browser's own day for the person typing (before,
 * in a US evening, when the UTC day is already tomorrow, tomorrow's date was accepted); the server, in its zone (UTC),
 * is at most a day more lenient. `zone`: today in that IANA zone instead of the runtime's.
 */
export function isValidDob(value: Date | string | null | undefined, now: Date = new Date(), zone?: string): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (value instanceof Date) {
    const time = value.getTime();
    return Number.isFinite(time) && time > DOB_MIN.getTime() && time < now.getTime();
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return false;
  const day = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (!isRealDay(day)) return false;
  return Date.UTC(day.year, day.month - 1, day.day) > DOB_MIN.getTime() && compareDays(day, zone ? calendarDayIn(zone, now) : dayOfLocalDate(now)) <= 0;
}
