import { type ApiClient, endpointRef, type PrefetchContext } from '@portal/web';
import type { TrendsApi } from '../../contract';

/**
 * The widget's query, shared by the widget and its `prefetch` in the plugin's manifest (so in the entry chunk): the
 * endpoint by its type, no zod (see endpointRef).
 */
const fundingDate = endpointRef<typeof TrendsApi.fundingDate>({ method: 'GET', path: '/api/dashboard/admin/foundingdate' });
export const fundingQuery = (api: ApiClient) => ({ queryKey: ['trends', 'fundingDate'], queryFn: () => api.call(fundingDate, {}, { notify: false }) });
/** Asked for when the dashboard starts loading, beside the identity call and the widget's code. */
export const prefetchFundingDate = ({ api, queryClient }: PrefetchContext) => queryClient.prefetchQuery(fundingQuery(api));
