import { dayOfLocalDate, formatIsoDay, parseIsoDay } from './calendarDay';

/**
 * Spec 01 section 5: "dates in pickers are shifted by the timezone offset". A picker hands back local
 * midnight; serialising that with toISOString() gives the previous day anywhere east of UTC. Storing the local calendar day as 'YYYY-MM-DD' keeps the chosen day the stored day.
 */
export function toIsoDate(local: Date): string {
  return formatIsoDay(dayOfLocalDate(local));
}

/** Inverse of toIsoDate: local midnight of the stored day, ready for a picker; null when not a real day. */
export function fromIsoDate(iso: string | null | undefined): Date | null {
  const day = parseIsoDay(iso);
  if (!day) return null;
  const d = new Date(day.year, day.month - 1, day.day);
  // new Date(y, m, d) maps years 0-99 to 1900-1999.
  d.setFullYear(day.year);
  return d;
}

/**
 * The legacy shift itself: a Date whose UTC fields equal the local wall-clock fields. Built from the fields
 * rather than getTimezoneOffset(), which is rounded to whole minutes and so is wrong for historical
 * offsets with seconds (e.g. Asia/Kolkata before 1942).
 */
export function shiftByTimezoneOffset(local: Date): Date {
  const shifted = new Date(0);
  shifted.setUTCFullYear(local.getFullYear(), local.getMonth(), local.getDate());
  shifted.setUTCHours(local.getHours(), local.getMinutes(), local.getSeconds(), local.getMilliseconds());
  return shifted;
}
