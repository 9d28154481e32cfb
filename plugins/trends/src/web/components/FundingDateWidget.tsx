import { formatDay, parseIsoDay } from '@portal/core';
import { type ApiClient, endpointRef, type PrefetchContext, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TrendsApi } from '../../contract';
import * as css from './dashboard.css';
import { WidgetSkeleton } from './WidgetSkeleton';

/** The endpoint by its type only: this module is on the landing page's path and loads no zod (see endpointRef). */
const fundingDate = endpointRef<typeof TrendsApi.fundingDate>({ method: 'GET', path: '/api/dashboard/admin/foundingdate' });
const fundingQuery = (api: ApiClient) => ({ queryKey: ['trends', 'fundingDate'], queryFn: () => api.call(fundingDate, {}, { notify: false }) });
/** Asked for as soon as this module arrives with the dashboard's code (a route's `shows`). */
export const prefetch = ({ api, queryClient }: PrefetchContext) => queryClient.prefetchQuery(fundingQuery(api));

/** The next funding date (CareGuardFinance and SuperUser). */
export default function FundingDateWidget() {
  const api = useApi();
  const { t } = useTranslation('trends');
  const q = useQuery(fundingQuery(api));
  if (q.isPending) return <WidgetSkeleton lines={2} />;
  if (q.isError) return <p role="alert">{t('error')}</p>;
  const day = parseIsoDay(q.data.FundingDate);
  return (
    <div data-testid="funding-date">
      <p className={css.big}>{day ? formatDay(day, 'long') : q.data.FundingDate}</p>
      <p className={css.muted}>{t('funding.note')}</p>
    </div>
  );
}
