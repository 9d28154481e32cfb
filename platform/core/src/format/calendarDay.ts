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
