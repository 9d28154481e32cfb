import { seriesViewer } from '@portal/core';
import { endpointRef, useActingMemberId, useApi, useRoles } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminBalanceScope } from '../../access';
import type { LedgerApi } from '../../contract';
import { day, money } from './format';
import * as css from './ledger.css';
import { adminBalanceText, balanceShare } from './share';
import { useDelayed } from './useDelayed';
import { WidgetState, widgetQueryState } from './WidgetState';

/** The endpoint by its type only: this module is on the landing page's path and loads no zod (see endpointRef). */
const adminBalance = endpointRef<typeof LedgerApi.adminBalance>({ method: 'GET', path: '/api/dashboard/admin/balance' });

/**
 * Dashboard widget for CareGuardFinance and SuperUser (spec 01 section 6: the admin balance): the balance, the share
 * left of what was set aside (the /trend gauge's figure, here as text) and how many. Every set-aside together only for
 * a SuperUser acting for nobody (it then waits only for the dashboard's delay); anyone else sees the set-aside of the
 * member they act for (a finance member their own), and the text says so (adminBalanceScope, as the server answers).
 */
export default function AdminBalanceWidget() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const ready = useDelayed();
  const roles = useRoles();
  const acting = useActingMemberId();
  const scope = adminBalanceScope(roles, acting);
  const q = useQuery({
    queryKey: ['ledger', 'dashboard', 'adminBalance', scope, acting ?? null],
    queryFn: () => api.call(adminBalance, undefined, { notify: false, skipLoadingBar: true }),
    // The scope is known once the identity is (acting undefined: still loading).
    enabled: ready && acting !== undefined,
    retry: false,
  });
  if (!q.data) return <WidgetState {...widgetQueryState(q)} what="balance" />;
  const text = adminBalanceText(scope, balanceShare(q.data.Balance, q.data.InitialBalance));
  // A member's own set-aside is 'your account' only to the member: staff acting for one read 'member N's account'.
  return (
    <div data-testid="ledger-admin-balance-widget" data-scope={scope}>
      <p className={css.big}>{money(q.data.Balance)}</p>
      <p>{t(text.key, { ...text.values, ...seriesViewer(roles, acting), initial: money(q.data.InitialBalance), count: q.data.Members })}</p>
      <p className={css.muted}>{t('widget.asOf', { date: day(q.data.AsOf) })}</p>
    </div>
  );
}
