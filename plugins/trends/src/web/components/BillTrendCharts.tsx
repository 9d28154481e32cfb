import { seriesViewer } from '@portal/core';
import { useActingMemberId, useApi, useRoles } from '@portal/web';
import { ChartFigure, chartGrid, Tabs, usePeriodLabel } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Period, SERIES_PERIODS, TrendsApi } from '../../contract';
import { ChartPlaceholder } from './ChartPlaceholder';
import { citiesCut, citySummary, summaryOf } from './summary';

/**
 * The bill series of /trend. `scope` 'all' is the finance view (claims and bill amounts of every member, or of the one
 * acted for: /api/dashboard/claims|bills/:period and cities/bill); 'member' is a member's own bills
 * (/api/dashboard/transactions/bills/:period and transactions/cities/bill). Every series ends with today's period
 * (day, month or quarter), not over yet: its label says "to date". Days without bills are 0 (the server fills them),
 * so the points of every period are evenly spaced in time.
 */
function BillCharts({ period, scope }: { period: Period; scope: 'all' | 'member' }) {
  const api = useApi();
  const { t } = useTranslation('trends');
  const claims = useQuery({
    queryKey: ['trends', 'claims', period],
    queryFn: () => api.call(TrendsApi.claims, { params: { period } }, { notify: false }),
    enabled: scope === 'all',
  });
  const bills = useQuery({
    queryKey: ['trends', scope, 'bills', period],
    queryFn: () => api.call(scope === 'all' ? TrendsApi.bills : TrendsApi.memberBills, { params: { period } }, { notify: false }),
  });
  const periodLabel = usePeriodLabel();
  const viewer = seriesViewer(useRoles(), useActingMemberId());
  const labels = (points: readonly { Date: string }[]) =>
    points.map((p, i) => (i === points.length - 1 ? t('period.toDate', { label: periodLabel(p.Date, period) }) : periodLabel(p.Date, period)));
  const claimLabels = claims.data ? labels(claims.data) : [];
  const billLabels = bills.data ? labels(bills.data) : [];
  return (
    <div className={chartGrid}>
      {scope === 'all' &&
        (claims.data ? (
          <ChartFigure
            testId="chart-claims"
            kind="line"
            title={t('claims.title')}
            summary={summaryOf(
              t,
              claims.data.map((p, i) => ({ label: claimLabels[i] ?? p.Date, value: p.NumberOfClaims })),
              'claims',
            )}
            columns={[t(`period.${period}`), t('claims.value')]}
            categories={claimLabels}
            values={claims.data.map((p) => p.NumberOfClaims)}
          />
        ) : (
          <ChartPlaceholder failed={claims.isError} />
        ))}
      {bills.data ? (
        <ChartFigure
          testId={scope === 'all' ? 'chart-bills' : 'chart-member-bills'}
          kind="bar"
          money
          title={scope === 'all' ? t('bills.title') : t('bills.memberTitle', viewer)}
          summary={summaryOf(
            t,
            bills.data.map((p, i) => ({ label: billLabels[i] ?? p.Date, value: p.Amount })),
            'bills',
          )}
          columns={[t(`period.${period}`), t('bills.value')]}
          categories={billLabels}
          values={bills.data.map((p) => p.Amount)}
        />
      ) : (
        <ChartPlaceholder failed={bills.isError} />
      )}
    </div>
  );
}

function CityChart({ scope }: { scope: 'all' | 'member' }) {
  const api = useApi();
  const { t } = useTranslation('trends');
  const cities = useQuery({
    queryKey: ['trends', scope, 'cities'],
    queryFn: () => api.call(scope === 'all' ? TrendsApi.cities : TrendsApi.memberCities, {}, { notify: false }),
  });
  if (!cities.data) return <ChartPlaceholder failed={cities.isError} />;
  // The server answers the 25 cities with most bills: the heading says when that is not every city.
  return (
    <ChartFigure
      testId={scope === 'all' ? 'chart-cities' : 'chart-member-cities'}
      kind="ranking"
      title={citiesCut(cities.data) ? t('cities.titleTop', { count: cities.data.length }) : t('cities.title')}
      summary={citySummary(t, cities.data)}
      columns={[t('cities.city'), t('cities.value')]}
      categories={cities.data.map((p) => p.City)}
      values={cities.data.map((p) => p.NumberOfClaims)}
      height={Math.max(280, cities.data.length * 26)}
    />
  );
}

function BillTrendCharts({ scope }: { scope: 'all' | 'member' }) {
  const { t } = useTranslation('trends');
  return (
    <>
      <Tabs
        aria-label={t(scope === 'all' ? 'period.label' : 'period.memberLabel')}
        defaultSelectedKey="month"
        items={SERIES_PERIODS.map((p) => ({ id: p, label: t(`period.tab.${p}`), content: <BillCharts period={p} scope={scope} /> }))}
      />
      <div style={{ marginTop: '1rem' }}>
        <CityChart scope={scope} />
      </div>
    </>
  );
}

/** Contribution: every member's bills (CareGuardFinance, SuperUser). */
export function AllBillTrendCharts() {
  return <BillTrendCharts scope="all" />;
}

/** Contribution: the member's own bills (members, and staff acting for one; staff acting for nobody get a hint). */
export function MemberBillTrendCharts() {
  const { t } = useTranslation('trends');
  if (useActingMemberId() === null) return <p data-testid="trends-no-member">{t('bills.noMember')}</p>;
  return <BillTrendCharts scope="member" />;
}
