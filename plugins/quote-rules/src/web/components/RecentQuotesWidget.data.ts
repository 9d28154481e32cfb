import { type ApiClient, endpointRef, type PrefetchContext } from '@portal/web';
import type { QuoteApi } from '../../contract';

/**
 * The widget's query, shared by the widget and its `prefetch` in the plugin's manifest (so in the entry chunk): the
 * endpoint by its type, no zod (see endpointRef).
 */
const myQuotes = endpointRef<typeof QuoteApi.mine>({ method: 'GET', path: '/api/quote/quotes' });
export const mineQuery = (api: ApiClient) => ({ queryKey: ['quote', 'mine'], queryFn: () => api.call(myQuotes, {}, { notify: false }) });
/** Asked for when the dashboard starts loading, beside the identity call and the widget's code. */
export const prefetchRecentQuotes = ({ api, queryClient }: PrefetchContext) => queryClient.prefetchQuery(mineQuery(api));
