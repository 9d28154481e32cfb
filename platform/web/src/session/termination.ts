import { KernelApi } from '@portal/core';
import type { ApiClient } from '../api/client';

/**
 * The query of the kernel's `user/termination` for the member the session acts for: one key, so the profile's
 * Membership box (which invalidates ['kernel'] after a terminate or reactivate), the impersonation picker (which sets it
 * for the member chosen) and every page that reads it share one answer. Its own module (`@portal/web/termination`):
 * a few lines without a schema, so the card and bank check's prefetch (in the entry chunk) can ask for it early.
 */
export const TERMINATION_QUERY_KEY = ['kernel', 'termination'] as const;

/** Query options for `user/termination`: quiet (no toast, no loading bar), not retried (a page falls back on its own). */
export const terminationQuery = (api: ApiClient) => ({
  queryKey: TERMINATION_QUERY_KEY,
  queryFn: () => api.call(KernelApi.termination, undefined, { notify: false, skipLoadingBar: true }),
  retry: false,
});
