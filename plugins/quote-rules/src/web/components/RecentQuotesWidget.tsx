import { formatDateTime, formatMomentDay } from '@portal/core';
import { compactTableCss, useApi } from '@portal/web';
import { LoadFailed } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import * as css from './RecentQuotesWidget.css';
import { mineQuery } from './RecentQuotesWidget.data';

/** Recent quotes shown on the dashboard. */
export const RECENT_QUOTES = 6;

/**
 * The dashboard's quote summary: how many quotes the user saved, the way to a new one, and the latest six, a line each
 * (the quote, the day it was saved, how many companies accept it), so they fit the dashboard's fixed frame.
 */
export default function RecentQuotesWidget() {
  const api = useApi();
  const { t } = useTranslation('quote');
  const quotes = useQuery(mineQuery(api));
  // Try again asks for the quotes anew (the query's status stays 'error' until it answers: loading meanwhile).
  if (quotes.isPending || (quotes.isError && quotes.isFetching)) return <p aria-busy="true">{t('widget.loading')}</p>;
  if (quotes.isError) return <LoadFailed message={t('widget.error')} onRetry={() => void quotes.refetch()} />;
  const recent = quotes.data.slice(0, RECENT_QUOTES);
  return (
    <div data-testid="recent-quotes">
      <p className={css.summary}>
        <span>{t('widget.count', { count: quotes.data.length })}</span>
        <Link to="/quotes">{t('widget.new')}</Link>
      </p>
      {recent.length > 0 && (
        <table className={compactTableCss.table} aria-label={t('widget.title')}>
          <thead>
            <tr>
              <th scope="col">{t('widget.columns.quote')}</th>
              <th scope="col">{t('widget.columns.saved')}</th>
              <th scope="col" className={compactTableCss.number}>
                {t('widget.columns.accepted')}
              </th>
            </tr>
          </thead>
          <tbody>
            {recent.map((q) => (
              <tr key={q.Id}>
                <td>
                  <Link to={`/quotes/${q.Id}`}>{t('widget.quote', { id: q.Id })}</Link>
                </td>
                <td className={compactTableCss.nowrap}>
                  <time dateTime={q.SavedDate} title={formatDateTime(q.SavedDate)}>
                    {formatMomentDay(q.SavedDate)}
                  </time>
                </td>
                <td className={compactTableCss.number}>
                  {t(q.RulesChanged ? 'widget.acceptedChanged' : 'widget.accepted', { pass: q.PassCount, total: q.CompanyCount })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
