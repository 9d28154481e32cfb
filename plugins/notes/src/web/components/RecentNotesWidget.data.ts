import { type ApiClient, endpointRef, type PrefetchContext } from '@portal/web';
import type { NotesApi } from '../../contract';

/**
 * The widget's query, shared by the widget and its `prefetch` in the plugin's manifest (so in the entry chunk): the
 * endpoint by its type, no zod (see endpointRef).
 */
const recentNotes = endpointRef<typeof NotesApi.recent>({ method: 'GET', path: '/api/dashboard/notes' });
export const recentQuery = (api: ApiClient) => ({
  queryKey: ['notes', 'recent'],
  queryFn: () => api.call(recentNotes, undefined, { notify: false, skipLoadingBar: true }),
});
/** Asked for when the dashboard starts loading, beside the identity call and the widget's code. */
export const prefetchRecentNotes = ({ api, queryClient }: PrefetchContext) => queryClient.prefetchQuery(recentQuery(api));
