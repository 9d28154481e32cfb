import { periodLabel } from '@portal/core';
import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The groupings of a chart's dates: days, quarters, months. */
export type ChartPeriod = Parameters<typeof periodLabel>[1];

/**
 * A chart's x label from a date of its series, in the page's language (the kit namespace's `t`): the core's
 * periodLabel with the quarter worded by the kit's chart.quarter ('2026 Q4', in Spanish '2026 T4'). The dates stay
 * as the server sent them; only the label is translated.
 */
export function chartPeriodLabel(t: TFunction<'kit'>, date: string, period: ChartPeriod): string {
  return periodLabel(date, period, (year, quarter) => t('chart.quarter', { year, quarter }));
}

/** chartPeriodLabel with the kit's strings in the current language; the function changes when the language does. */
export function usePeriodLabel(): (date: string, period: ChartPeriod) => string {
  const { t } = useTranslation('kit');
  return useCallback((date: string, period: ChartPeriod) => chartPeriodLabel(t, date, period), [t]);
}
