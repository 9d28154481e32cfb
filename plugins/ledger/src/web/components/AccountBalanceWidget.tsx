import { endpointRef, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LedgerApi } from '../../contract';
import { day, money } from './format';
import * as css from './ledger.css';
import { useMemberLedger } from './useDelayed';
import { WidgetState } from './WidgetState';

/** The endpoint by its type only: this module is on the landing page's path and loads no zod (see endpointRef). */
const accountBalance = endpointRef<typeof LedgerApi.accountBalance>({ method: 'GET', path: '/api/dashboard/account/balance' });

/** Dashboard widget: the set-aside's current balance. */
export default function AccountBalanceWidget() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready, noMember } = useMemberLedger();
  const q = useQuery({
    queryKey: ['ledger', 'dashboard', 'balance'],
    queryFn: () => api.call(accountBalance, undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  if (!q.data) return <WidgetState pending={!q.isError} error={q.error} noMember={noMember} />;
  return (
    <div data-testid="ledger-balance-widget">
      <p className={css.big}>{q.data.Balance === null ? t('balance.none') : money(q.data.Balance)}</p>
      <p className={css.muted}>{t('widget.asOf', { date: day(q.data.AsOf) })}</p>
    </div>
  );
}
