import { carryForward } from '@portal/core';
import { endpointRef, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LedgerApi } from '../../contract';
import { day, money } from './format';
import * as css from './ledger.css';
import { useMemberLedger } from './useDelayed';
import { WidgetState } from './WidgetState';

/** The endpoint by its type only: this module is on the landing page's path and loads no zod (see endpointRef). */
const balanceByMonth = endpointRef<typeof LedgerApi.balanceMonth>({ method: 'GET', path: '/api/dashboard/balance/month' });

const W = 480;
const H = 160;
const PAD = 8;

/** Dashboard widget: the balance at the end of each of the last 12 months, as a line with a table of the figures. */
export default function BalanceByMonthWidget() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready, noMember } = useMemberLedger();
  const q = useQuery({
    queryKey: ['ledger', 'dashboard', 'balanceMonth'],
    queryFn: () => api.call(balanceByMonth, undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  if (!q.data) return <WidgetState pending={!q.isError} error={q.error} noMember={noMember} />;
  const points = carryForward(q.data);
  const values = points.map((p) => p.Balance);
  const min = Math.min(0, ...values);
  const max = Math.max(1, ...values);
  const x = (i: number) => PAD + (i * (W - 2 * PAD)) / Math.max(1, points.length - 1);
  const y = (v: number) => H - PAD - ((v - min) * (H - 2 * PAD)) / (max - min || 1);
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.Balance).toFixed(1)}`).join(' ');
  return (
    <figure style={{ margin: 0 }} data-testid="ledger-balance-month">
      <svg className={css.chart} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('widget.chartLabel')}>
        <path d={path} fill="none" stroke="currentColor" strokeWidth={2} />
      </svg>
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
            {points.map((p) => (
              <tr key={p.Date}>
                <td className={css.cell}>{day(p.Date)}</td>
                <td className={css.numeric}>{money(p.Balance)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
