import type { BillingApi } from '@portal/plugin-billing/contract';
import { type ApiClient, endpointRef, type KernelWebPlugin, type PrefetchContext } from '@portal/web';
import { terminationQuery } from '@portal/web/termination';
import type { BankingApi } from '../../contract';

/**
 * The card and bank check's queries, shared by the widget and its `prefetch` in the plugin's manifest (so in the entry
 * chunk): endpoints by their types, no zod (see endpointRef).
 */
const cards = endpointRef<typeof BillingApi.cards>({ method: 'GET', path: '/api/payment/customer/cards' });
const validateBank = endpointRef<typeof BankingApi.validate>({ method: 'GET', path: '/api/finance/account/validate' });

export const cardsQuery = (api: ApiClient) => ({
  queryKey: ['banking', 'check', 'cards'],
  queryFn: () => api.call(cards, undefined, { notify: false, skipLoadingBar: true }),
  retry: false,
});
export const bankQuery = (api: ApiClient) => ({
  queryKey: ['banking', 'check', 'bank'],
  queryFn: () => api.call(validateBank, undefined, { notify: false, skipLoadingBar: true }),
  retry: false,
});
/** Payment cards are the billing plugin's: a site without it (finance) has no card to check or add. */
export const offersCards = (plugins: readonly KernelWebPlugin[]) => plugins.some((p) => p.id === 'billing');

/**
 * Asked for when the dashboard starts loading, beside the identity call and the widget's code. With no bank linked the
 * widget also needs the membership's termination (it says why a terminated member cannot link one): asked for as soon
 * as the check answers, not after the widget has rendered and mounted, so the widget's message is in the landing
 * page's first paint (it is card's largest element: issue 23, fifty-sixth pass).
 */
export const prefetchCardBankCheck = ({ api, queryClient, plugins }: PrefetchContext) =>
  Promise.all([
    ...(offersCards(plugins) ? [queryClient.prefetchQuery(cardsQuery(api))] : []),
    queryClient
      .fetchQuery(bankQuery(api))
      .then((bank) => (bank.IsValid ? undefined : queryClient.prefetchQuery(terminationQuery(api))))
      .catch(() => undefined),
  ]);
