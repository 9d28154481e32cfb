import { formatCurrency, seriesViewer } from '@portal/core';
import { useApi, useRoles } from '@portal/web';
import { ChartFigure, gaugeBand } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminBalanceScope } from '../../access';
import { LedgerApi } from '../../contract';
import { accountBalanceQuery } from './balanceQuery';
import { balanceShare } from './share';
import { useMemberLedger } from './useDelayed';
import { WidgetState } from './WidgetState';

const GAUGE_HEIGHT = 280;

/**
 * The balance as a share of what was set aside, on a gauge banded 0-40, 40-80 and 80-100 (spec 02 section 9): the
 * member's account balance ('account'), or every set-aside together ('admin', CareGuardFinance and SuperUser).
 */
export function BalanceGauge({ scope }: { scope: 'account' | 'admin' }) {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const roles = useRoles();
  // The admin balance is every set-aside together only for a SuperUser acting for nobody (it waits only for the
  // delay); anyone else gets the set-aside of the member they act for, titled as theirs.
  const ledger = useMemberLedger();
  const adminScope = adminBalanceScope(roles, ledger.member);
  const ready = scope === 'admin' ? ledger.delayed && ledger.member !== undefined : ledger.ready;
  const noMember = scope === 'account' && ledger.noMember;
  // The account's balance is the query the balance chart beside it shares (its "as of" day).
  const account = useQuery({ ...accountBalanceQuery(api), enabled: ready && scope === 'account' });
  const admin = useQuery({
    queryKey: ['ledger', 'trend', 'gauge', scope, adminScope, ledger.member ?? null],
    queryFn: () => api.call(LedgerApi.adminBalance, undefined, { notify: false, skipLoadingBar: true }),
    enabled: ready && scope === 'admin',
    retry: false,
  });
  const q = scope === 'account' ? account : admin;
  if (!q.data) {
    return (
      <div style={{ minHeight: GAUGE_HEIGHT + 90 }}>
        <WidgetState pending={!q.isError} error={q.error} noMember={noMember} what="balance" />
      </div>
    );
  }
  const share = balanceShare(q.data.Balance, q.data.InitialBalance);
  // Whose set-aside: every member's, the user's own, or the member staff act for (seriesViewer).
  const title = t(scope === 'admin' ? 'trend.gauge.adminTitle' : 'trend.gauge.accountTitle', seriesViewer(roles, ledger.member));
  if (share === null) {
    return (
      <figure style={{ margin: 0 }} data-testid={`gauge-${scope}`}>
        <h2 style={{ margin: 0, fontSize: '1.1rem' }}>{title}</h2>
        <p>{t('trend.gauge.none')}</p>
      </figure>
    );
  }
  return (
    <ChartFigure
      testId={`gauge-${scope}`}
      kind="gauge"
      title={title}
      summary={t('trend.gauge.summary', {
        share,
        balance: formatCurrency(q.data.Balance ?? 0),
        initial: formatCurrency(q.data.InitialBalance ?? 0),
        band: t(`trend.gauge.band.${gaugeBand(share).key}`),
      })}
      columns={[t('trend.gauge.measure'), t('trend.gauge.value')]}
      categories={[t('trend.gauge.measure')]}
      values={[share]}
      height={GAUGE_HEIGHT}
    />
  );
}

/** /trend contribution for CareGuardFinance and SuperUser: every set-aside's balance on the gauge. */
export default function AdminBalanceGauge() {
  return <BalanceGauge scope="admin" />;
}
