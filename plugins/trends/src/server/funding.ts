import { calendarDayIn, formatIsoDay } from '@portal/core';

/**
 * The next funding date: members' accounts are funded on the first business day (Monday to Friday) of each month.
 * On or before this month's funding day it is this month's, after it next month's. "Today" is the business's day, the
 * day `at` falls on in `zone` (`config.businessTimeZone`), never the UTC day: at 5 pm PST on the funding day it is
 * still that day. No holiday calendar: a funding day on a federal holiday is shown as that day (see README, "Funding
 * date").
 */
export function nextFundingDate(zone: string, at: Date = new Date()): string {
  const today = calendarDayIn(zone, at);
  const first = firstBusinessDay(today.year, today.month);
  if (first >= formatIsoDay(today)) return first;
  return today.month === 12 ? firstBusinessDay(today.year + 1, 1) : firstBusinessDay(today.year, today.month + 1);
}

/** The first Monday-to-Friday of a month (1 to 12), as 'YYYY-MM-DD'; calendar arithmetic only, no zone. */
function firstBusinessDay(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month - 1, 1));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return formatIsoDay({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}
