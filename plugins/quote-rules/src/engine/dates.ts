/**
 * Calendar arithmetic on plain dates, without Date or time zones, so the browser and the server agree.
 *
 * Month-end convention: adding months or years keeps the day of the month and, when the target month is
 * shorter, clamps to its last day. 01-31 + 1 month is 02-29 in a leap year and 02-28 otherwise; 02-29 + 1 year
 * is 02-28, + 4 years 02-29. A clamped date does not stick to month ends: 02-28 + 1 month is 03-28.
 * Amounts count whole units (fractions are dropped) and are capped at ten million years either way, which
 * keeps every result exact and still orders shifts by amount.
 */

export type DateUnit = 'days' | 'months' | 'years';

export interface CalendarDate {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
}

const MAX_YEARS = 10_000_000;
const MAX_UNITS: Readonly<Record<DateUnit, number>> = { days: Math.round(MAX_YEARS * 365.2425), months: MAX_YEARS * 12, years: MAX_YEARS };
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/;

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** 'YYYY-MM-DD' (optionally followed by a time) to a date; null for anything else or a day the month lacks. */
export function parseIsoDate(text: string | null | undefined): CalendarDate | null {
  const match = ISO_DATE.exec(text ?? '');
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** Days since 1970-01-01 (proleptic Gregorian; H. Hinnant's days_from_civil). */
export function toDayNumber({ year, month, day }: CalendarDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const marchMonth = (month + 9) % 12;
  const dayOfYear = Math.floor((153 * marchMonth + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

export function fromDayNumber(dayNumber: number): CalendarDate {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const marchMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * marchMonth + 2) / 5) + 1;
  const month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Negative, zero or positive as a is before, on or after b. */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return toDayNumber(a) - toDayNumber(b);
}

/** The date `amount` days, months or years after `date` (before it when negative); NaN shifts by nothing. */
export function shiftDate(date: CalendarDate, amount: number, unit: DateUnit): CalendarDate {
  const limit = MAX_UNITS[unit];
  const whole = Number.isNaN(amount) ? 0 : Math.max(-limit, Math.min(limit, Math.trunc(amount)));
  if (unit === 'days') return fromDayNumber(toDayNumber(date) + whole);
  const monthIndex = date.year * 12 + (date.month - 1) + (unit === 'years' ? whole * 12 : whole);
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** ISO in, ISO out: the purchase date plus days, months or years. Null for an invalid date or a NaN amount. */
export function addToDate(isoDate: string | null, amount: number, unit: DateUnit): string | null {
  const date = parseIsoDate(isoDate);
  if (date === null || Number.isNaN(amount)) return null;
  return formatIsoDate(shiftDate(date, amount, unit));
}

function pad(value: number, width: number): string {
  return String(Math.abs(value)).padStart(width, '0');
}

/** 'YYYY-MM-DD'; years outside 0000-9999 in ISO 8601's expanded form ('+010000-01-01'). */
export function formatIsoDate({ year, month, day }: CalendarDate): string {
  const yearText = year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(year, 6)}`;
  return `${yearText}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** 'MM/DD/YYYY', the app's date format (spec 02 section 5). */
export function formatUsDate({ year, month, day }: CalendarDate): string {
  return `${pad(month, 2)}/${pad(day, 2)}/${year < 0 ? '-' : ''}${pad(year, 4)}`;
}
