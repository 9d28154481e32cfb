import { formatDay, formatMoney, parseIsoDay } from '@portal/core';
import { type ApiCallError, type ApiClient, endpointRef, type PrefetchContext, showToast, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ClaimsApi } from '../../contract';
import { useClaimLookups } from './useClaimLookups';

/**
 * The endpoint by its type only: this module is on the landing page's path and loads no zod (see endpointRef), nor the
 * contract's status rules: the row's DisplayStatusID is the server's displayStatus (paid statuses shown as Paid).
 */
const recentClaims = endpointRef<typeof ClaimsApi.recent>({ method: 'GET', path: '/api/dashboard/claims/recent/6' });
const recentQuery = (api: ApiClient) => ({ queryKey: ['claims', 'recent'], queryFn: () => api.call(recentClaims, {}, { notify: false }) });
/** Asked for as soon as this module arrives with the dashboard's code (a route's `shows`). */
export const prefetch = ({ api, queryClient }: PrefetchContext) => queryClient.prefetchQuery(recentQuery(api));

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
      {recent.data.map((c) => {
        const day = parseIsoDay(c.ReceivedDate);
        return (
          <li key={c.ClaimID} style={{ display: 'flex', justifyContent: 'space-between', gap: '0.5rem' }}>
            <span>
              <Link to={`/claims/${c.ClaimID}`}>{c.PayeeName}</Link>
              <br />
              <small>
                {day ? formatDay(day, 'medium') : c.ReceivedDate} · {statusNames.get(c.DisplayStatusID) ?? String(c.DisplayStatusID)}
              </small>
            </span>
            <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatMoney(c.BilledAmount)}</span>
          </li>
        );
      })}
    </ul>
  );
}
