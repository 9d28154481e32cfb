/**
 * When the sandbox gateway renews a subscription, on its own clock (UTC). A monthly or yearly subscription keeps its
 * anchor day, the day of the month it started on: each renewal falls on that day of its month, or on the month's last
 * day when the month is shorter. Started on 01/31 it renews on 02/28 (02/29 in a leap year), 03/31, 04/30; moving one
 * month from the last renewal's own date would give 03/03, then 04/03, and never charge February. The time of day stays.
 */
export function renewalAfter(from: Date, months: number, anchorDay: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  // Day 0 of the month after is the last day of the target month (Date.UTC carries months past December into years).
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(year, month, Math.min(anchorDay, lastDay), from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()),
  );
}

/** A subscription's anchor day: the day of the month (UTC) it started on, 1 to 31. */
export const anchorDayOf = (start: Date): number => start.getUTCDate();
