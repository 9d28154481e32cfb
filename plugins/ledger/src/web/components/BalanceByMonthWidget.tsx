import { endpointRef, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LedgerApi } from '../../contract';
import { monthLabels } from './balanceLabels';
import { accountBalanceQuery } from './balanceQuery';
import { money } from './format';
import * as css from './ledger.css';
import { useMemberLedger } from './useDelayed';
import { WidgetState, widgetQueryState } from './WidgetState';

/** The endpoint by its type only: this module is on the landing page's path and loads no zod (see endpointRef). */
const balanceByMonth = endpointRef<typeof LedgerApi.balanceMonth>({ method: 'GET', path: '/api/dashboard/balance/month' });

const W = 480;
const H = 160;
const PAD = 8;

/**
 * Dashboard widget: the balance at the end of each of the last 12 months, as a line with a table of the figures. The
 * points are the server's running balances: a month without activity has the balance before it, and a balance of 0
 * (an account spent to $0.00) is drawn as 0, the figure the balance tile shows.
 */
export default function BalanceByMonthWidget() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready } = useMemberLedger();
  const q = useQuery({
    queryKey: ['ledger', 'dashboard', 'balanceMonth'],
    queryFn: () => api.call(balanceByMonth, undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  // The balance tile's answer (the same query, asked once): the day this month's balance is as of.
  const balance = useQuery({ ...accountBalanceQuery(api), enabled: ready });
  if (!q.data) return <WidgetState {...widgetQueryState(q)} what="balance" />;
  // No series while no initial balance is set: the same "no balance" as the account balance tile.
  if (!q.data.length) return <p data-testid="ledger-balance-month">{t('balance.none')}</p>;
  const points = q.data;
  const labels = monthLabels(
    t,
    points.map((p) => p.Date),
    balance.data?.AsOf ?? null,
  );
  const values = points.map((p) => p.Balance);
  // The range holds zero, so the line reads against it (dashed when the balance crosses it).
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const span = max - min || 1;
  const x = (i: number) => PAD + (i * (W - 2 * PAD)) / Math.max(1, points.length - 1);
  const y = (v: number) => H - PAD - ((v - min) * (H - 2 * PAD)) / span;
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.Balance).toFixed(1)}`).join(' ');
  return (
    <figure style={{ margin: 0 }} data-testid="ledger-balance-month">
      {/* The scale and the months repeat what the table below says, for the eye: screen readers read the table. */}
      <div className={css.chartArea}>
        <div className={css.chartScale} aria-hidden="true">
          <span>{money(max)}</span>
          <span>{money(min)}</span>
        </div>
        <svg className={css.chart} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={t('widget.chartLabel')}>
          {min < 0 && max > 0 && (
            <line x1={0} x2={W} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity={0.35} strokeDasharray="4 4" vectorEffect="non-scaling-stroke" />
          )}
          <path d={path} fill="none" stroke="currentColor" strokeWidth={2} vectorEffect="non-scaling-stroke" />
        </svg>
        <span />
        <div className={css.chartMonths} aria-hidden="true">
          <span>{labels[0] ?? ''}</span>
          <span>{labels.length > 1 ? labels.at(-1) : ''}</span>
        </div>
      </div>
      <details>
        <summary>{t('widget.figures')}</summary>
        <table className={css.table}>
          <thead>
            <tr>
              <th scope="col" className={css.cell}>
                {t('fields.Month')}
              </th>
              <th scope="col" className={css.numeric}>
                {t('fields.Balance')}
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p, i) => (
              <tr key={p.Date}>
                <td className={css.cell}>{labels[i]}</td>
                <td className={css.numeric}>{money(p.Balance)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
