import { type ApiClient, endpointRef, type PrefetchContext } from '@portal/web';
import type { SupportApi } from '../../contract';

/** The queue by its endpoint's type only: the widget is on the landing page's path and loads no zod (see endpointRef). */
const queue = endpointRef<typeof SupportApi.queue>({ method: 'GET', path: '/api/support/queue' });
export const queueQuery = (api: ApiClient) => ({
  queryKey: ['support', 'queue'],
  queryFn: () => api.call(queue, {}, { notify: false, skipLoadingBar: true }),
});
/** Asked for when the dashboard starts loading, beside the identity call and the widget's code. */
export const prefetchSupportQueue = ({ api, queryClient }: PrefetchContext) => queryClient.prefetchQuery(queueQuery(api));
