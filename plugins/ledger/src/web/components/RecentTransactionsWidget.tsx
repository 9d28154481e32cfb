import { endpointRef, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LedgerApi } from '../../contract';
import { RECENT_TRANSACTIONS, signOf } from '../../rules';
import { day, money } from './format';
import * as css from './ledger.css';
import { useMemberLedger } from './useDelayed';
import { WidgetState } from './WidgetState';

/** The endpoint by its type only: this module is on the landing page's path and loads no zod (see endpointRef). */
const recentTransactions = endpointRef<typeof LedgerApi.recent>({ method: 'GET', path: `/api/dashboard/transactions/recent/${RECENT_TRANSACTIONS}` });

/** Dashboard widget: the six most recent ledger transactions. */
export default function RecentTransactionsWidget() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready, noMember } = useMemberLedger();
  const q = useQuery({
    queryKey: ['ledger', 'dashboard', 'recent'],
    queryFn: () => api.call(recentTransactions, undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  if (!q.data) return <WidgetState pending={!q.isError} error={q.error} noMember={noMember} />;
  if (q.data.length === 0) return <p>{t('empty')}</p>;
  return (
    <ul className={css.widgetList} data-testid="ledger-recent">
      {q.data.map((r) => (
        <li key={r.TransactionID}>
          <strong>{money(signOf(r.TransactionTypeID) * r.Amount)}</strong> {r.Company ?? r.Description ?? ''}
          <div className={css.muted}>
            {day(r.DateCreated)} · {t(`types.${r.TransactionTypeID}`)}
          </div>
        </li>
      ))}
    </ul>
  );
}
