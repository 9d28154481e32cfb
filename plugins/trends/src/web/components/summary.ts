import { formatCurrency, formatLocale, peak } from '@portal/core';
import type { useTranslation } from 'react-i18next';

type TFunction = ReturnType<typeof useTranslation>['t'];

/** A chart's text summary: how many periods, the total and the largest period (money for bills). */
export function summaryOf(t: TFunction, points: { label: string; value: number }[], kind: 'claims' | 'bills' | 'cities'): string {
  if (points.length === 0) return t(`${kind}.none`);
  const total = points.reduce((s, p) => s + p.value, 0);
  const top = peak(points, (p) => p.value) as { label: string; value: number };
  return t(`${kind}.summary`, {
    count: points.length,
    total: kind === 'bills' ? formatCurrency(total) : Math.round(total).toLocaleString(formatLocale()),
    top: top.label,
    topValue: kind === 'bills' ? formatCurrency(top.value) : top.value.toLocaleString(formatLocale()),
  });
}
