import { endpointRef, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LedgerApi } from '../../contract';
import { day, money } from './format';
import * as css from './ledger.css';
import { balanceShare } from './share';
import { useDelayed } from './useDelayed';
import { WidgetState } from './WidgetState';

/** The endpoint by its type only: this module is on the landing page's path and loads no zod (see endpointRef). */
const adminBalance = endpointRef<typeof LedgerApi.adminBalance>({ method: 'GET', path: '/api/dashboard/admin/balance' });

/**
 * Dashboard widget for CareGuardFinance and SuperUser (spec 01 section 6: the admin balance): every set-aside's
 * balance together, the share left of what was set aside (the /trend gauge's figure, here as text) and how many.
 * It is no member's ledger: it waits only for the dashboard's delay, not for a member to act for.
 */
export default function AdminBalanceWidget() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const ready = useDelayed();
  const q = useQuery({
    queryKey: ['ledger', 'dashboard', 'adminBalance'],
    queryFn: () => api.call(adminBalance, undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready,
    retry: false,
  });
  if (!q.data) return <WidgetState pending={!q.isError} error={q.error} />;
  const share = balanceShare(q.data.Balance, q.data.InitialBalance);
  return (
    <div data-testid="ledger-admin-balance-widget">
      <p className={css.big}>{money(q.data.Balance)}</p>
      <p>{share === null ? t('widget.adminNone') : t('widget.adminShare', { share, initial: money(q.data.InitialBalance), count: q.data.Members })}</p>
      <p className={css.muted}>{t('widget.asOf', { date: day(q.data.AsOf) })}</p>
    </div>
  );
}
