import { carryForward, formatCurrency, peak } from '@portal/core';
import { useApi } from '@portal/web';
import { ChartFigure, chartGrid, Tabs, usePeriodLabel } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LedgerApi } from '../../contract';
import { BalanceGauge } from './BalanceGauge';
import { useMemberLedger } from './useDelayed';
import { WidgetState } from './WidgetState';

const PERIODS = ['time', 'quarter', 'month'] as const;
type Period = (typeof PERIODS)[number];
const ENDPOINT = { time: LedgerApi.transactionsTime, quarter: LedgerApi.transactionsQuarter, month: LedgerApi.transactionsMonth } as const;
const CHART_HEIGHT = 280;

function ChartSpace({ pending, error, noMember }: { pending: boolean; error: unknown; noMember: boolean }) {
  return (
    <div style={{ minHeight: CHART_HEIGHT + 90 }}>
      <WidgetState pending={pending} error={error} noMember={noMember} />
    </div>
  );
}

/** The member's spending (expenses) per day, quarter or month, as a line in dollars. */
function SpendingChart({ period }: { period: Period }) {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready, noMember } = useMemberLedger();
  const periodLabel = usePeriodLabel();
  const q = useQuery({
    queryKey: ['ledger', 'trend', 'spending', period],
    queryFn: () => api.call(ENDPOINT[period], undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  if (!q.data) return <ChartSpace pending={!q.isError} error={q.error} noMember={noMember} />;
  const points = q.data.map((p) => ({ label: periodLabel(p.Date, period), value: p.Amount }));
  const total = points.reduce((s, p) => s + p.value, 0);
  const top = peak(points, (p) => p.value);
  return (
    <ChartFigure
      testId="chart-spending"
      kind="line"
      money
      title={t('trend.spending.title')}
      summary={
        total === 0 || !top
          ? t('trend.spending.none')
          : t('trend.spending.summary', { total: formatCurrency(total), count: points.length, top: top.label, topValue: formatCurrency(top.value) })
      }
      columns={[t(`trend.period.${period}`), t('trend.spending.value')]}
      categories={points.map((p) => p.label)}
      values={points.map((p) => p.value)}
      height={CHART_HEIGHT}
    />
  );
}

/** The balance at the end of each of the last 12 months; a month at 0 carries the last non-zero balance (spec 02 section 9). */
function BalanceChart() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready, noMember } = useMemberLedger();
  const periodLabel = usePeriodLabel();
  const q = useQuery({
    queryKey: ['ledger', 'dashboard', 'balanceMonth'],
    queryFn: () => api.call(LedgerApi.balanceMonth, undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  if (!q.data) return <ChartSpace pending={!q.isError} error={q.error} noMember={noMember} />;
  const points = carryForward(q.data).map((p) => ({ label: periodLabel(p.Date, 'month'), value: p.Balance }));
  const last = points.at(-1);
  return (
    <ChartFigure
      testId="chart-balance"
      kind="line"
      money
      title={t('trend.balance.title')}
      summary={last ? t('trend.balance.summary', { count: points.length, last: formatCurrency(last.value), month: last.label }) : t('trend.balance.none')}
      columns={[t('trend.period.month'), t('trend.balance.value')]}
      categories={points.map((p) => p.label)}
      values={points.map((p) => p.value)}
      height={CHART_HEIGHT}
    />
  );
}

/** /trend contribution: the member's transactions over time, balance by month and the balance gauge. */
export default function LedgerTrendCharts() {
  const { t } = useTranslation('ledger');
  return (
    <>
      <Tabs
        aria-label={t('trend.period.label')}
        defaultSelectedKey="month"
        items={PERIODS.map((p) => ({ id: p, label: t(`trend.period.tab.${p}`), content: <SpendingChart period={p} /> }))}
      />
      <div className={chartGrid}>
        <BalanceChart />
        <BalanceGauge scope="account" />
      </div>
    </>
  );
}
