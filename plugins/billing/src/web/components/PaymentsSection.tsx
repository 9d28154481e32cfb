import { formatCurrency, formatMomentDay } from '@portal/core';
import { useApi } from '@portal/web';
import { Button, LoadFailed, TableScroll, visuallyHidden } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BillingApi } from '../../contract';
import { memberPayments, PAYMENTS_SHOWN } from '../payments';
import * as css from './billing.css';
import { PAYMENTS_KEY } from './gateway';

/** The member's card payments (membership charges, payments support took, holds) and what became of each. */
export function PaymentsSection() {
  const api = useApi();
  const { t } = useTranslation('billing');
  const [all, setAll] = useState(false);
  const payments = useQuery({
    queryKey: PAYMENTS_KEY,
    queryFn: () => api.call(BillingApi.transactions, {}, { notify: false }),
    select: memberPayments,
  });
  const list = payments.data ?? [];
  const shown = all ? list : list.slice(0, PAYMENTS_SHOWN);
  return (
    <section className={css.stack} aria-labelledby="billing-payments-heading">
      <h2 id="billing-payments-heading" className={css.heading}>
        {t('payments.heading')}
      </h2>
      {(payments.isPending || (payments.isError && payments.isFetching)) && <p aria-busy="true">{t('payments.loading')}</p>}
      {payments.isError && !payments.isFetching && <LoadFailed message={t('payments.loadError')} onRetry={() => void payments.refetch()} />}
      {payments.data && list.length === 0 && <p>{t('payments.none')}</p>}
      {list.length > 0 && (
        <TableScroll label={t('payments.heading')}>
          <table className={css.table} data-testid="payment-list">
            <caption className={visuallyHidden}>{t('payments.heading')}</caption>
            <thead>
              <tr>
                <th scope="col" className={css.cell}>
                  {t('payments.date')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('payments.description')}
                </th>
                <th scope="col" className={css.amountCell}>
                  {t('payments.amount')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('payments.status')}
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((p) => (
                <tr key={p.id}>
                  <td className={css.cell}>{formatMomentDay(p.date)}</td>
                  <td className={css.cell}>{p.description ?? t('payments.cardPayment')}</td>
                  <td className={css.amountCell}>{formatCurrency(p.amount)}</td>
                  <td
                    className={css.cell}
                    title={p.status === 'held' ? t('payments.heldHint') : p.status === 'pending' ? t('payments.pendingHint') : undefined}
                  >
                    {t(`payments.statuses.${p.status}`)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {list.length > PAYMENTS_SHOWN && (
        <div>
          <Button onPress={() => setAll((a) => !a)}>{all ? t('payments.showFewer') : t('payments.showAll', { count: list.length })}</Button>
        </div>
      )}
    </section>
  );
}
