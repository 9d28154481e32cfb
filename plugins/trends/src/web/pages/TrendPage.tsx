import { formatCurrency, hasAnyRole } from '@portal/core';
import { useApi, useRoles } from '@portal/web';
import { Message, Tabs } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TrendsAccess } from '../../access';
import { type Period, SERIES_PERIODS, TrendsApi } from '../../contract';
import { ChartFigure } from '../components/ChartFigure';
import * as css from '../components/chart.css';
import { WidgetSkeleton } from '../components/WidgetSkeleton';
import { peak, periodLabel } from '../series';

function ClaimCharts({ period }: { period: Period }) {
  const api = useApi();
  const { t } = useTranslation('trends');
  const claims = useQuery({ queryKey: ['trends', 'claims', period], queryFn: () => api.call(TrendsApi.claims, { params: { period } }, { notify: false }) });
  const bills = useQuery({ queryKey: ['trends', 'bills', period], queryFn: () => api.call(TrendsApi.bills, { params: { period } }, { notify: false }) });
  const label = (d: string) => periodLabel(d, period);
  return (
    <div className={css.charts}>
      {claims.data ? (
        <ChartFigure
          testId="chart-claims"
          kind="line"
          title={t('claims.title')}
          summary={summaryOf(
            t,
            claims.data.map((p) => ({ label: label(p.Date), value: p.NumberOfClaims })),
            'claims',
          )}
          columns={[t(`period.${period}`), t('claims.value')]}
          categories={claims.data.map((p) => label(p.Date))}
          values={claims.data.map((p) => p.NumberOfClaims)}
        />
      ) : (
        <Placeholder failed={claims.isError} />
      )}
      {bills.data ? (
        <ChartFigure
          testId="chart-bills"
          kind="bar"
          money
          title={t('bills.title')}
          summary={summaryOf(
            t,
            bills.data.map((p) => ({ label: label(p.Date), value: p.Amount })),
            'bills',
          )}
          columns={[t(`period.${period}`), t('bills.value')]}
          categories={bills.data.map((p) => label(p.Date))}
          values={bills.data.map((p) => p.Amount)}
        />
      ) : (
        <Placeholder failed={bills.isError} />
      )}
    </div>
  );
}

type T = ReturnType<typeof useTranslation>['t'];
function summaryOf(t: T, points: { label: string; value: number }[], kind: 'claims' | 'bills' | 'cities'): string {
  if (points.length === 0) return t(`${kind}.none`);
  const total = points.reduce((s, p) => s + p.value, 0);
  const top = peak(points, (p) => p.value) as { label: string; value: number };
  return t(`${kind}.summary`, {
    count: points.length,
    total: kind === 'bills' ? formatCurrency(total) : Math.round(total).toLocaleString(),
    top: top.label,
    topValue: kind === 'bills' ? formatCurrency(top.value) : top.value.toLocaleString(),
  });
}

function Placeholder({ failed }: { failed: boolean }) {
  const { t } = useTranslation('trends');
  return (
    <div className={css.figure} style={{ height: 386 }} aria-busy={!failed}>
      {failed ? <p role="alert">{t('error')}</p> : <WidgetSkeleton lines={8} />}
    </div>
  );
}

function CityChart() {
  const api = useApi();
  const { t } = useTranslation('trends');
  const cities = useQuery({ queryKey: ['trends', 'cities'], queryFn: () => api.call(TrendsApi.cities, {}, { notify: false }) });
  if (!cities.data) return <Placeholder failed={cities.isError} />;
  return (
    <ChartFigure
      testId="chart-cities"
      kind="ranking"
      title={t('cities.title')}
      summary={summaryOf(
        t,
        cities.data.map((p) => ({ label: p.City, value: p.NumberOfClaims })),
        'cities',
      )}
      columns={[t('cities.city'), t('cities.value')]}
      categories={cities.data.map((p) => p.City)}
      values={cities.data.map((p) => p.NumberOfClaims)}
      height={Math.max(280, cities.data.length * 26)}
    />
  );
}

/**
 * /trend: the claims-based charts for CareGuardFinance and SuperUser (claims over time, bill amount by date, bills per
 * city as a ranked bar chart because the spec's geo chart has its data disabled). The transaction and balance charts
 * belong to the ledger plugin.
 */
export default function TrendPage() {
  const { t } = useTranslation('trends');
  const roles = useRoles();
  if (!hasAnyRole(roles, TrendsAccess.claimsDashboard)) return <Message kind="info">{t('trend.noCharts')}</Message>;
  return (
    <div>
      <Tabs
        aria-label={t('period.label')}
        defaultSelectedKey="month"
        items={SERIES_PERIODS.map((p) => ({ id: p, label: t(`period.tab.${p}`), content: <ClaimCharts period={p} /> }))}
      />
      <div style={{ marginTop: '1rem' }}>
        <CityChart />
      </div>
    </div>
  );
}
