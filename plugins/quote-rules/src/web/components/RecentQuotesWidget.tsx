import { formatDateTime } from '@portal/core';
import { useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { mineQuery } from './RecentQuotesWidget.data';

/** Recent quotes shown on the dashboard. */
export const RECENT_QUOTES = 6;

/** The dashboard's quote summary: the user's latest saved quotes and how many companies accept each. */
export default function RecentQuotesWidget() {
  const api = useApi();
  const { t } = useTranslation('quote');
  const quotes = useQuery(mineQuery(api));
  if (quotes.isPending) return <p aria-busy="true">{t('widget.loading')}</p>;
  if (quotes.isError) return <p role="alert">{t('widget.error')}</p>;
  const recent = quotes.data.slice(0, RECENT_QUOTES);
  return (
    <div data-testid="recent-quotes">
      <p>{t('widget.count', { count: quotes.data.length })}</p>
      {recent.length > 0 && (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '0.5rem' }}>
          {recent.map((q) => (
            <li key={q.Id} style={{ display: 'flex', justifyContent: 'space-between', gap: '0.5rem' }}>
              <Link to={`/quotes/${q.Id}`}>{t('widget.quote', { id: q.Id, date: formatDateTime(q.SavedDate) })}</Link>
              <span>{t('widget.accepted', { pass: q.PassCount, total: q.CompanyCount })}</span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to="/quotes">{t('widget.new')}</Link>
      </p>
    </div>
  );
}
