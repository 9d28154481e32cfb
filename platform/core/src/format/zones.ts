import { type CalendarDay, formatIsoDay } from './calendarDay';

/**
 * Days and time zones. A calendar day (a due date, a birth date) is a day everywhere; a moment (a note's time, a
 * payment's) falls on a day only in some zone. Two zones matter:
 * - the reader's (`x-time-zone`, sent by the web from the browser): a filter "from day A to day B" over moments takes
 *   A's and B's days as the reader's page shows them;
 * - the business's (BUSINESS_TIME_ZONE): the day rules and stamped dates go by (a coupon's last day, a bill's
 *   received day), the same for every reader, whatever their clock says.
 */

/** An IANA name's shape: 'America/Chicago', 'Etc/GMT+12', 'UTC'; never an offset ('+05:00'), which PostgreSQL reads with the opposite sign. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const zoneNames = new Map<string, string | null>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The canonical IANA name of the time zone `name` names ('america/chicago' and 'US/Central' are 'America/Chicago'),
 * or null when the runtime knows no such zone or the text is not an IANA name. Remembered per name. The canonical
 * names are the ones PostgreSQL knows too (AT TIME ZONE).
 */
export function canonicalTimeZone(name: unknown): string | null {
  if (typeof name !== 'string' || name.length > 64 || !IANA_NAME.test(name)) return null;
  let known = zoneNames.get(name);
  if (known === undefined) {
    try {
      known = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      known = null;
    }
    // Bounded: a sender cannot grow the map without end with made-up names.
    if (zoneNames.size < 1000) zoneNames.set(name, known);
  }
  return known;
}

/** Whether `name` is an IANA time zone this runtime knows ('America/Chicago', 'UTC'). */
export const isTimeZone = (name: unknown): name is string => canonicalTimeZone(name) !== null;

/** The calendar day a moment falls on in a time zone. */
export function calendarDayIn(zone: string, at: Date = new Date()): CalendarDay {
  let format = dayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' });
    dayFormats.set(zone, format);
  }
  const parts = format.formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** The day a moment falls on in a time zone, as 'YYYY-MM-DD': dayIn('America/Los_Angeles', 2026-03-11T01:30Z) is '2026-03-10'. */
export const dayIn = (zone: string, at: Date = new Date()): string => formatIsoDay(calendarDayIn(zone, at));
