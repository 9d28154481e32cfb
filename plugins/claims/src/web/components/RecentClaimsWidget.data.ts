import { type ApiClient, endpointRef, type PrefetchContext } from '@portal/web';
import type { ClaimsApi } from '../../contract';

/**
 * The widget's query, shared by the widget and its `prefetch` in the plugin's manifest (so in the entry chunk): the
 * endpoint by its type, no zod (see endpointRef), nor the contract's status rules: the row's DisplayStatusID is
 * the server's displayStatus (paid statuses shown as Paid).
 */
const recentClaims = endpointRef<typeof ClaimsApi.recent>({ method: 'GET', path: '/api/dashboard/claims/recent/6' });
export const recentQuery = (api: ApiClient) => ({ queryKey: ['claims', 'recent'], queryFn: () => api.call(recentClaims, {}, { notify: false }) });
/** Asked for when the dashboard starts loading, beside the identity call and the widget's code. */
export const prefetchRecentClaims = ({ api, queryClient }: PrefetchContext) => queryClient.prefetchQuery(recentQuery(api));
