import { formatCurrency, hasAnyRole, peak } from '@portal/core';
import { useApi, useRoles } from '@portal/web';
import { ChartFigure, chartGrid, Tabs, usePeriodLabel } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LedgerAccess } from '../../access';
import { LedgerApi } from '../../contract';
import { BalanceGauge } from './BalanceGauge';
import { balanceSummary, toDateLabels } from './balanceLabels';
import { accountBalanceQuery } from './balanceQuery';
import { useMemberLedger } from './useDelayed';
import { type WidgetFailure, WidgetState } from './WidgetState';

const PERIODS = ['time', 'quarter', 'month'] as const;
type Period = (typeof PERIODS)[number];
const ENDPOINT = { time: LedgerApi.transactionsTime, quarter: LedgerApi.transactionsQuarter, month: LedgerApi.transactionsMonth } as const;
const CHART_HEIGHT = 280;

function ChartSpace({ pending, error, what }: { pending: boolean; error: unknown; what: WidgetFailure }) {
  return (
    <div style={{ minHeight: CHART_HEIGHT + 90 }}>
      <WidgetState pending={pending} error={error} what={what} />
    </div>
  );
}

/** The member's spending (expenses) per day, quarter or month, as a line in dollars; the last period, today's, to date. */
function SpendingChart({ period }: { period: Period }) {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready } = useMemberLedger();
  const periodLabel = usePeriodLabel();
  const q = useQuery({
    queryKey: ['ledger', 'trend', 'spending', period],
    queryFn: () => api.call(ENDPOINT[period], undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  if (!q.data) return <ChartSpace pending={!q.isError} error={q.error} what="transactions" />;
  const labels = toDateLabels(
    t,
    q.data.map((p) => periodLabel(p.Date, period)),
  );
  const points = q.data.map((p, i) => ({ label: labels[i] ?? p.Date, value: p.Amount }));
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

/**
 * The balance at the end of each of the last 12 months: the server's running balances (a month without activity has
 * the balance before it, spec 02 section 9; a 0 is $0.00 and drawn so). This month's is to date, as of the day the
 * account balance answers (the query the gauge and the dashboard's tile share).
 */
function BalanceChart() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready } = useMemberLedger();
  const periodLabel = usePeriodLabel();
  const q = useQuery({
    queryKey: ['ledger', 'dashboard', 'balanceMonth'],
    queryFn: () => api.call(LedgerApi.balanceMonth, undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  const balance = useQuery({ ...accountBalanceQuery(api), enabled: ready });
  if (!q.data) return <ChartSpace pending={!q.isError} error={q.error} what="balance" />;
  const months = q.data.map((p) => periodLabel(p.Date, 'month'));
  const labels = toDateLabels(t, months);
  const points = q.data.map((p, i) => ({ label: labels[i] ?? p.Date, value: p.Balance }));
  return (
    <ChartFigure
      testId="chart-balance"
      kind="line"
      money
      title={t('trend.balance.title')}
      summary={balanceSummary(t, points, months.at(-1) ?? '', balance.data?.AsOf ?? null)}
      columns={[t('trend.period.month'), t('trend.balance.value')]}
      categories={points.map((p) => p.label)}
      values={points.map((p) => p.value)}
      height={CHART_HEIGHT}
    />
  );
}

/**
 * /trend contribution: the member's transactions over time, balance by month and the balance gauge. A user who also
 * sees the admin balance gauge (ledger.adminGauge: a SuperUser) gets no account gauge here: acting for a member, that
 * one shows the same member's set-aside; acting for nobody, every member's.
 */
export default function LedgerTrendCharts() {
  const { t } = useTranslation('ledger');
  const adminGauge = hasAnyRole(useRoles(), LedgerAccess.adminBalance);
  return (
    <>
      <Tabs
        aria-label={t('trend.period.label')}
        defaultSelectedKey="month"
        items={PERIODS.map((p) => ({ id: p, label: t(`trend.period.tab.${p}`), content: <SpendingChart period={p} /> }))}
      />
      <div className={chartGrid}>
        <BalanceChart />
        {!adminGauge && <BalanceGauge scope="account" />}
      </div>
    </>
  );
}
