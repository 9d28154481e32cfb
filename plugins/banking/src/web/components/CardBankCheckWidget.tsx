import { failureWords, useApi, useKernel } from '@portal/web';
import { LoadFailed, Message } from '@portal/web/kit';
import { terminationQuery } from '@portal/web/termination';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BankingPaths } from '../../access';
import * as css from './bank.css';
import { bankQuery, cardsQuery, offersCards } from './CardBankCheckWidget.data';

/**
 * Dashboard widget for CareGuard (spec 01 section 6): is there a payment card, and a linked bank? With links to add
 * them. The card line only where the site offers payment cards. A failed check says the API's words in its line (the
 * server's Message, or 'Error while getting data from server' for no answer; spec 01 section 8), as every dashboard
 * widget says its failure in place rather than in a toast over the landing page: the kit's LoadFailed, said at once,
 * with a Try again that asks that line's check anew (loading meanwhile: a failed query's status stays 'error' until
 * the new answer).
 */
export default function CardBankCheckWidget() {
  const { t } = useTranslation('banking');
  const api = useApi();
  const withCards = offersCards(useKernel().plugins);
  const cards = useQuery({ ...cardsQuery(api), enabled: withCards });
  const bank = useQuery(bankQuery(api));
  const hasCard = cards.data ? cards.data.length > 0 : null;
  const hasBank = bank.data ? bank.data.IsValid : null;
  // Asked only when the widget would invite linking a bank (none linked): a terminated membership cannot link one (the
  // server refuses), so the widget says why instead. The kernel's user/termination (one indexed read), under the key
  // the profile's Membership box refreshes after a terminate or reactivate; prefetched with the check (see its data module).
  const termination = useQuery({ ...terminationQuery(api), enabled: hasBank === false });
  // A failed check invites linking as before: the server still refuses a terminated member.
  const ended = termination.data?.isTerminated === true;
  return (
    <ul className={css.stack} data-testid="card-bank-check" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {withCards && (
        <li>
          {hasCard === null ? (
            cards.isError && !cards.isFetching ? (
              <LoadFailed message={failureWords(cards.error, t('widget.unknown'))} onRetry={() => void cards.refetch()} />
            ) : (
              <span aria-busy="true">{t('loading')}</span>
            )
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
          bank.isError && !bank.isFetching ? (
            <LoadFailed message={failureWords(bank.error, t('widget.unknown'))} onRetry={() => void bank.refetch()} />
          ) : (
            <span aria-busy="true">{t('loading')}</span>
          )
        ) : hasBank ? (
          <Message kind={bank.data?.IsStale ? 'warning' : 'success'}>
            {bank.data?.IsStale ? t('widget.bankStale') : t('widget.bankYes')} <Link to={BankingPaths.banks}>{t('widget.viewBanks')}</Link>
          </Message>
        ) : termination.isPending ? (
          <span aria-busy="true">{t('loading')}</span>
        ) : ended ? (
          <Message kind="info">{t('widget.bankEnded')}</Message>
        ) : (
          <Message kind="warning">
            {t('widget.bankNo')} <Link to={BankingPaths.add}>{t('widget.addBank')}</Link>
          </Message>
        )}
      </li>
    </ul>
  );
}
