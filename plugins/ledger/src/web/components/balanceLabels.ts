import { monthLabel } from '@portal/core';
import type { TFunction } from 'i18next';
import { day, money } from './format';

/*
 * The balance by month (/api/dashboard/balance/month) is the server's running balance at the end of each of the last
 * 12 months: a month without activity already has the balance before it, and a 0 is an account spent to $0.00, charted
 * as 0 (the balance tile's figure). The last month is this one, not over yet: its balance is as of the business's day
 * the account balance answers (AsOf), or "to date" until that is known.
 */

/** The dashboard widget's month labels: 'Nov 2026' in the page's language; the last 'Dec 2026, as of Dec 1, 2026'. */
export function monthLabels(t: TFunction<'ledger'>, dates: readonly string[], asOf: string | null): string[] {
  return dates.map((d, i) => {
    const month = monthLabel(d);
    if (i < dates.length - 1) return month;
    return asOf ? t('widget.monthAsOf', { month, date: day(asOf) }) : t('trend.toDate', { label: month });
  });
}

/** A series' labels with the last, the current period, marked "to date" ('2026-12 (to date)'). */
export function toDateLabels(t: TFunction<'ledger'>, labels: readonly string[]): string[] {
  return labels.map((label, i) => (i === labels.length - 1 ? t('trend.toDate', { label }) : label));
}

/**
 * The /trend balance chart's summary: how many months, and the last balance as of the business's day (`asOf`) or, until
 * that is known, so far in its month (`month`, the last label before "to date" was added).
 */
export function balanceSummary(t: TFunction<'ledger'>, points: readonly { value: number }[], month: string, asOf: string | null): string {
  const last = points.at(-1);
  if (!last) return t('trend.balance.none');
  const values = { count: points.length, last: money(last.value) };
  return asOf ? t('trend.balance.summary', { ...values, asOf: day(asOf) }) : t('trend.balance.summarySoFar', { ...values, month });
}
