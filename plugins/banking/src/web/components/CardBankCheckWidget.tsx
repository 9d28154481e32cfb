import type { BillingApi } from '@portal/plugin-billing/contract';
import { type ApiClient, endpointRef, type KernelWebPlugin, type PrefetchContext, useApi, useKernel } from '@portal/web';
import { Message } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BankingPaths } from '../../access';
import type { BankingApi } from '../../contract';
import * as css from './bank.css';

/** The endpoints by their types only: this module is on the landing page's path and loads no zod (see endpointRef). */
const cards = endpointRef<typeof BillingApi.cards>({ method: 'GET', path: '/api/payment/customer/cards' });
const validateBank = endpointRef<typeof BankingApi.validate>({ method: 'GET', path: '/api/finance/account/validate' });

const cardsQuery = (api: ApiClient) => ({
  queryKey: ['banking', 'check', 'cards'],
  queryFn: () => api.call(cards, undefined, { notify: false, skipLoadingBar: true }),
  retry: false,
});
const bankQuery = (api: ApiClient) => ({
  queryKey: ['banking', 'check', 'bank'],
  queryFn: () => api.call(validateBank, undefined, { notify: false, skipLoadingBar: true }),
  retry: false,
});
/** Payment cards are the billing plugin's: a site without it (finance) has no card to check or add. */
const offersCards = (plugins: readonly KernelWebPlugin[]) => plugins.some((p) => p.id === 'billing');

/** Asked for as soon as this module arrives with the dashboard's code (a route's `shows`). */
export const prefetch = ({ api, queryClient, plugins }: PrefetchContext) =>
  Promise.all([...(offersCards(plugins) ? [queryClient.prefetchQuery(cardsQuery(api))] : []), queryClient.prefetchQuery(bankQuery(api))]);

/**
 * Dashboard widget for CareGuard (spec 01 section 6): is there a payment card, and a linked bank? With links to add
 * them. The card line only where the site offers payment cards.
 */
export default function CardBankCheckWidget() {
  const { t } = useTranslation('banking');
  const api = useApi();
  const withCards = offersCards(useKernel().plugins);
  const cards = useQuery({ ...cardsQuery(api), enabled: withCards });
  const bank = useQuery(bankQuery(api));
  const hasCard = cards.data ? cards.data.length > 0 : null;
  const hasBank = bank.data ? bank.data.IsValid : null;
  return (
    <ul className={css.stack} data-testid="card-bank-check" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {withCards && (
        <li>
          {hasCard === null ? (
            <span aria-busy={cards.isPending}>{cards.isError ? t('widget.unknown') : t('loading')}</span>
          ) : hasCard ? (
            <Message kind="success">{t('widget.cardYes')}</Message>
          ) : (
            <Message kind="warning">
              {t('widget.cardNo')} <Link to="/payment/cards">{t('widget.addCard')}</Link>
            </Message>
          )}
        </li>
      )}
      <li>
        {hasBank === null ? (
          <span aria-busy={bank.isPending}>{bank.isError ? t('widget.unknown') : t('loading')}</span>
        ) : hasBank ? (
          <Message kind={bank.data?.IsStale ? 'warning' : 'success'}>
            {bank.data?.IsStale ? t('widget.bankStale') : t('widget.bankYes')} <Link to={BankingPaths.banks}>{t('widget.viewBanks')}</Link>
          </Message>
        ) : (
          <Message kind="warning">
            {t('widget.bankNo')} <Link to={BankingPaths.add}>{t('widget.addBank')}</Link>
          </Message>
        )}
      </li>
    </ul>
  );
}
