import { formatCurrency, formatIsoDayText } from '@portal/core';
import { type ApiCallError, compactTableCss as css, showToast, useApi } from '@portal/web';
import { LoadFailed } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { shownPayee } from './payee';
import { recentQuery } from './RecentClaimsWidget.data';
import { useClaimLookups } from './useClaimLookups';

/** The dashboard's recent claims (6, newest received first) for CareGuardFinance and SuperUser: payee, day, status, amount. */
export default function RecentClaimsWidget() {
  const api = useApi();
  const { t } = useTranslation('claims');
  const { statusNames } = useClaimLookups();
  const recent = useQuery(recentQuery(api));
  useEffect(() => {
    // Spec 01 section 8: a failed recent-claims load shows the response text as a warning toast for 10 seconds.
    if (recent.error) showToast({ kind: 'warning', message: (recent.error as ApiCallError).message, timeout: 10_000 });
  }, [recent.error]);
  // Try again asks for the recent claims anew (the query's status stays 'error' until it answers: loading meanwhile).
  if (recent.isPending || (recent.isError && recent.isFetching)) return <p aria-busy="true">{t('widget.loading')}</p>;
  if (recent.isError) return <LoadFailed message={t('widget.error')} onRetry={() => void recent.refetch()} />;
  if (recent.data.length === 0) return <p>{t('widget.none')}</p>;
  return (
    <table className={css.table} aria-label={t('widget.title')} data-testid="recent-claims">
      <thead>
        <tr>
          <th scope="col">{t('grid.PayeeName')}</th>
          <th scope="col" className={css.nowrap}>
            {t('grid.ReceivedDate')}
          </th>
          <th scope="col">{t('grid.ClaimStatusID')}</th>
          <th scope="col" className={css.number}>
            {t('grid.BilledAmount')}
          </th>
        </tr>
      </thead>
      <tbody>
        {recent.data.map((c) => (
          <tr key={c.ClaimID}>
            <td>
              <Link to={`/claims/${c.ClaimID}`}>{shownPayee(t, c)}</Link>
            </td>
            <td className={css.nowrap}>{formatIsoDayText(c.ReceivedDate)}</td>
            <td>{statusNames.get(c.DisplayStatusID) ?? String(c.DisplayStatusID)}</td>
            <td className={css.number}>{formatCurrency(c.BilledAmount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
