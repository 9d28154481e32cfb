import { type ApiClient, endpointRef } from '@portal/web';
import type { LedgerApi } from '../../contract';

/** The endpoint by its type only: the dashboard's widgets load no zod (see endpointRef). */
const accountBalance = endpointRef<typeof LedgerApi.accountBalance>({ method: 'GET', path: '/api/dashboard/account/balance' });

/**
 * The member's account balance with the business's day it is as of (AsOf): the balance tile, the account gauge and
 * the balance-by-month charts (their last month, to date, is "as of" that day) share this one query and its answer.
 */
export const accountBalanceQuery = (api: ApiClient) => ({
  queryKey: ['ledger', 'dashboard', 'balance'] as const,
  queryFn: () => api.call(accountBalance, undefined, { notify: false, skipLoadingBar: true }),
  retry: false,
});
