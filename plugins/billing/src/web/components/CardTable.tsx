import { TableScroll, visuallyHidden } from '@portal/web/kit';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardProfile } from '../../contract';
import * as css from './billing.css';

/**
 * A member's cards as a table: number with its Default and Subscription marks, type, expiration, and the actions the
 * screen offers for each card (the member's card list and support's alike).
 */
export function CardTable({
  cards,
  actions,
  testIds = false,
}: {
  cards: readonly CardProfile[];
  actions: (card: CardProfile) => ReactNode;
  testIds?: boolean;
}) {
  const { t } = useTranslation('billing');
  return (
    <TableScroll label={t('cards.heading')}>
      <table className={css.table} data-testid={testIds ? 'card-list' : undefined}>
        <caption className={visuallyHidden}>{t('cards.heading')}</caption>
        <thead>
          <tr>
            <th scope="col" className={css.cell}>
              {t('cards.number')}
            </th>
            <th scope="col" className={css.cell}>
              {t('cards.type')}
            </th>
            <th scope="col" className={css.cell}>
              {t('cards.expiration')}
            </th>
            <th scope="col" className={css.cell}>
              {t('cards.actions')}
            </th>
          </tr>
        </thead>
        <tbody>
          {cards.map((c) => (
            <tr key={c.ProfileId} data-testid={testIds ? 'card-row' : undefined}>
              <td className={css.cell}>
                {c.CardNumber}
                {/* A space before each mark: its own word to a screen reader, not run into the number. */}
                {c.IsDefault && (
                  <>
                    {' '}
                    <span className={css.badge}>{t('cards.default')}</span>
                  </>
                )}
                {c.IsSubscription && (
                  <>
                    {' '}
                    <span className={css.badge}>{t('cards.subscription')}</span>
                  </>
                )}
              </td>
              <td className={css.cell}>{c.CardType}</td>
              <td className={css.cell}>{c.Expiration}</td>
              <td className={css.cell}>
                <div className={css.row}>{actions(c)}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
