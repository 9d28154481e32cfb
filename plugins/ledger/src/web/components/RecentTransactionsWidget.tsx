import { compactTableCss, endpointRef, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LedgerApi } from '../../contract';
import { RECENT_TRANSACTIONS, signOf } from '../../rules';
import { day, money } from './format';
import * as css from './ledger.css';
import { useMemberLedger } from './useDelayed';
import { WidgetState, widgetQueryState } from './WidgetState';

/** The endpoint by its type only: this module is on the landing page's path and loads no zod (see endpointRef). */
const recentTransactions = endpointRef<typeof LedgerApi.recent>({ method: 'GET', path: `/api/dashboard/transactions/recent/${RECENT_TRANSACTIONS}` });

/**
 * Dashboard widget: the six most recent ledger transactions, a line each (day, company and type, signed amount), so the
 * six fit the dashboard's fixed frame; a long company name is cut with an ellipsis (the whole name stays in the text).
 */
export default function RecentTransactionsWidget() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready } = useMemberLedger();
  const q = useQuery({
    queryKey: ['ledger', 'dashboard', 'recent'],
    queryFn: () => api.call(recentTransactions, undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  if (!q.data) return <WidgetState {...widgetQueryState(q)} what="transactions" />;
  if (q.data.length === 0) return <p>{t('empty')}</p>;
  return (
    <table className={`${compactTableCss.table} ${css.recentTable}`} aria-label={t('widget.recent')} data-testid="ledger-recent">
      <thead>
        <tr>
          <th scope="col" className={`${compactTableCss.nowrap} ${css.recentDay}`}>
            {t('fields.DateCreated')}
          </th>
          <th scope="col">{t('fields.Company')}</th>
          <th scope="col" className={`${compactTableCss.number} ${css.recentAmount}`}>
            {t('fields.Amount')}
          </th>
        </tr>
      </thead>
      <tbody>
        {q.data.map((r) => (
          <tr key={r.TransactionID}>
            <td className={`${compactTableCss.nowrap} ${css.recentDay}`}>{day(r.DateCreated)}</td>
            <td className={compactTableCss.clip}>
              {r.Company ?? r.Description ?? ''} <span className={css.muted}>· {t(`types.${r.TransactionTypeID}`)}</span>
            </td>
            <td className={`${compactTableCss.number} ${css.recentAmount}`}>{money(signOf(r.TransactionTypeID) * r.Amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
