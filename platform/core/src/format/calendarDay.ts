import { formatLocale, type Locale } from './locale';

/** A calendar day with no time and no zone: what a date picker means when a user picks a day. */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function isRealDay({ year, month, day }: CalendarDay): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this month; UTC avoids DST surprises.
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return day <= last.getUTCDate();
}

/** 'YYYY-MM-DD' for a calendar day. */
export function formatIsoDay({ year, month, day }: CalendarDay): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** Parses 'YYYY-MM-DD' (a trailing time part is ignored); null when not a real day. */
export function parseIsoDay(iso: string | null | undefined): CalendarDay | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso ?? '');
  if (!m) return null;
  const value = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  return isRealDay(value) ? value : null;
}

/** Orders two days: negative when a is earlier. */
export function compareDays(a: CalendarDay, b: CalendarDay): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The local calendar day of a Date (the day the user saw on screen). */
export function dayOfLocalDate(date: Date): CalendarDay {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

/**
 * How a day is shown: 'numeric' is MM/DD/YYYY in both languages (the order members type dates in, as US forms
 * in Spanish also write it); 'medium' ('Jan 31, 2024' / '31 ene 2024') and 'long' ('January 31, 2024' /
 * '31 de enero de 2024') follow the locale.
 */
export type DayStyle = 'numeric' | 'medium' | 'long';

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** A calendar day for display in the locale (the current UI locale when none is given). */
export function formatDay({ year, month, day }: CalendarDay, style: DayStyle = 'numeric', locale: Locale = formatLocale()): string {
  if (style === 'numeric') return `${pad(month)}/${pad(day)}/${pad(year, 4)}`;
  const key = `${locale}|${style}`;
  let format = dayFormats.get(key);
  if (!format) {
    // UTC on both sides: the day has no zone, so no offset may move it.
    format = new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' });
    dayFormats.set(key, format);
  }
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  return format.format(at);
}

/**
 * A day the server sends as 'YYYY-MM-DD' for display in a list, table or text: 'Nov 29, 2026' / '29 nov 2026' by
 * default. Empty for no day; a value that is not a day is shown as it came.
 */
export function formatIsoDayText(iso: string | null | undefined, style: DayStyle = 'medium', locale: Locale = formatLocale()): string {
  if (!iso) return '';
  const day = parseIsoDay(iso);
  return day ? formatDay(day, style, locale) : iso;
}

/** A moment (a timestamp from the server) as a Date, or null for nothing or an invalid one. */
function momentOf(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const at = value instanceof Date ? value : new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** A moment's local day alone, in the day styles of formatDay: 'Oct 16, 2026' / '16 oct 2026' (medium). */
export function formatMomentDay(value: Date | string | number | null | undefined, style: DayStyle = 'medium', locale: Locale = formatLocale()): string {
  const at = momentOf(value);
  return at ? formatDay(dayOfLocalDate(at), style, locale) : '';
}

const timeFormats = new Map<Locale, Intl.DateTimeFormat>();

/**
 * A moment (a timestamp from the server) as the local day and time: '01/31/2024 2:05 PM' / '01/31/2024 2:05 p.m.'.
 * The day is numeric as in formatDay; the time follows the locale (the current UI locale when none is given).
 */
export function formatDateTime(value: Date | string | number | null | undefined, locale: Locale = formatLocale()): string {
  const at = momentOf(value);
  if (!at) return '';
  let format = timeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
    timeFormats.set(locale, format);
  }
  return `${formatDay(dayOfLocalDate(at), 'numeric', locale)} ${format.format(at)}`;
}
