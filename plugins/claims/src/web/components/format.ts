import { dayOfLocalDate, formatCurrency, formatIsoDay } from '@portal/core';
import type { TFunction } from 'i18next';
import { displayStatus } from '../../contract';

/** Dollars with 2 decimals, grouped, as every other page shows money ('$1,234.50'); empty for no amount. */
export const money = (n: number | null | undefined): string => (n === null || n === undefined ? '' : formatCurrency(n));

/** Claim type display names (spec 02 section 9): CMS-1500 and UB04 'Medical Treatment', DME, HHC, Unknown 'Misc'. */
export const claimTypeName = (t: TFunction, id: number): string => t(`claimType.${id}`, { defaultValue: t('claimType.5') });

/**
 * A claim type as the bill form offers it: the display name, with the form named where two types share one (CMS-1500
 * and UB04 are both 'Medical Treatment'), so the two choices can be told apart.
 */
export const claimTypeChoice = (t: TFunction, id: number): string => t(`claimTypeEntry.${id}`, { defaultValue: claimTypeName(t, id) });

/** Status name as the bills list shows it: 29 and 30 show as 8 (paid). */
export const statusName = (statusNames: ReadonlyMap<number, string>, id: number): string => statusNames.get(displayStatus(id)) ?? String(id);

/** Days before today as 'YYYY-MM-DD' in local time. */
export function daysAgo(days: number, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
/**
 * `months` calendar months before today (the user's local day) as 'YYYY-MM-DD', on the same day of the month or, when
 * that month is shorter, on its last day: 6 months before 08/31 is 02/28 (02/29 in a leap year), 10 years before
 * 2028-02-29 is 2018-02-28, never a day that overflows into the next month (03/03).
 */
export function monthsAgo(months: number, now = new Date()): string {
  const { year, month, day } = dayOfLocalDate(now);
  const index = year * 12 + (month - 1) - months;
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  // Day 0 of the following month is the month's last day (UTC, so no zone or DST shifts it).
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return formatIsoDay({ year: y, month: m, day: Math.min(day, last) });
}
