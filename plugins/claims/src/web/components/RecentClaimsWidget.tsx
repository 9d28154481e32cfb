import { formatCurrency, formatIsoDayText } from '@portal/core';
import { type ApiCallError, showToast, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { recentQuery } from './RecentClaimsWidget.data';
import { useClaimLookups } from './useClaimLookups';

/** The dashboard's recent claims (6, newest received first) for CareGuardFinance and SuperUser. */
export default function RecentClaimsWidget() {
  const api = useApi();
  const { t } = useTranslation('claims');
  const { statusNames } = useClaimLookups();
  const recent = useQuery(recentQuery(api));
  useEffect(() => {
    // Spec 01 section 8: a failed recent-claims load shows the response text as a warning toast for 10 seconds.
    if (recent.error) showToast({ kind: 'warning', message: (recent.error as ApiCallError).message, timeout: 10_000 });
  }, [recent.error]);
  if (recent.isPending) return <p aria-busy="true">{t('widget.loading')}</p>;
  if (recent.isError) return <p>{t('widget.error')}</p>;
  if (recent.data.length === 0) return <p>{t('widget.none')}</p>;
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '0.5rem' }} data-testid="recent-claims">
      {recent.data.map((c) => (
        <li key={c.ClaimID} style={{ display: 'flex', justifyContent: 'space-between', gap: '0.5rem' }}>
          <span>
            <Link to={`/claims/${c.ClaimID}`}>{c.PayeeName}</Link>
            <br />
            <small>
              {formatIsoDayText(c.ReceivedDate)} · {statusNames.get(c.DisplayStatusID) ?? String(c.DisplayStatusID)}
            </small>
          </span>
          <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatCurrency(c.BilledAmount)}</span>
        </li>
      ))}
    </ul>
  );
}
