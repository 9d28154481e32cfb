import { formatCurrency, formatLocale, peak } from '@portal/core';
import type { useTranslation } from 'react-i18next';
import type { CityPoint } from '../../contract';

type TFunction = ReturnType<typeof useTranslation>['t'];

const count = (n: number) => Math.round(n).toLocaleString(formatLocale());

/**
 * A chart's text summary: how many periods, the total and the largest period (money for bills). A series with nothing
 * in it (no points, or every point 0: month and quarter series always have their 24 or 8 points) says so instead of
 * naming a "most".
 */
export function summaryOf(t: TFunction, points: { label: string; value: number }[], kind: 'claims' | 'bills'): string {
  const total = points.reduce((s, p) => s + p.value, 0);
  const top = peak(points, (p) => p.value);
  if (!top || total === 0) return t(`${kind}.none`);
  return t(`${kind}.summary`, {
    count: points.length,
    total: kind === 'bills' ? formatCurrency(total) : count(total),
    top: top.label,
    topValue: kind === 'bills' ? formatCurrency(top.value) : count(top.value),
  });
}

/**
 * The cities chart's summary. The server answers at most the 25 cities with most bills, each row with the totals of
 * the whole window: when some cities are left out, the summary says it is the top N of M cities and how many of the
 * bills they hold, never the top's sum as if it were every bill.
 */
export function citySummary(t: TFunction, cities: readonly CityPoint[]): string {
  const shown = cities.reduce((s, c) => s + c.NumberOfClaims, 0);
  const top = cities[0];
  if (!top || shown === 0) return t('cities.none');
  const all = { cities: top.TotalCities, bills: top.TotalClaims };
  const values = { count: cities.length, total: count(shown), top: top.City, topValue: count(top.NumberOfClaims) };
  if (all.cities <= cities.length) return t('cities.summary', values);
  return t('cities.summaryTop', { ...values, totalCities: count(all.cities), totalBills: count(all.bills) });
}

/** Whether the cities chart shows only the top of the cities (its heading then says so). */
export const citiesCut = (cities: readonly CityPoint[]): boolean => (cities[0]?.TotalCities ?? 0) > cities.length;
