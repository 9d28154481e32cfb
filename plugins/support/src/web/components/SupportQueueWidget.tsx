import { useApi } from '@portal/web';
import { LoadFailed } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { SUPPORT_MEMBERS_PATH, SUPPORT_PENDING_PATH, SUPPORT_TRANSACTIONS_PATH, withStatus } from '../../access';
import { queueQuery } from './SupportQueueWidget.data';
import * as css from './support.css';

/**
 * Support's work on the dashboard: charges held for review, declined charges to charge again, holds to capture or
 * release, members whose registration is not finished; each opens its list filtered on it.
 */
export default function SupportQueueWidget() {
  const api = useApi();
  const { t } = useTranslation('support');
  const q = useQuery(queueQuery(api));
  if (q.isPending || (q.isError && q.isFetching)) return <p aria-busy="true">{t('queue.loading')}</p>;
  if (q.isError) return <LoadFailed message={t('queue.error')} onRetry={() => void q.refetch()} />;
  const rows = [
    { key: 'pending', count: q.data.Pending, to: withStatus(SUPPORT_PENDING_PATH, 'Pending') },
    { key: 'declined', count: q.data.Declined, to: SUPPORT_TRANSACTIONS_PATH },
    { key: 'authorized', count: q.data.Authorized, to: withStatus(SUPPORT_TRANSACTIONS_PATH, 'Authorized') },
    { key: 'pendingMembers', count: q.data.PendingMembers, to: withStatus(SUPPORT_MEMBERS_PATH, 'Pending') },
  ] as const;
  return (
    <ul className={css.queueList} aria-label={t('queue.title')} data-testid="support-queue">
      {rows.map((r) => (
        <li key={r.key}>{r.count > 0 ? <Link to={r.to}>{t(`queue.${r.key}`, { count: r.count })}</Link> : t(`queue.${r.key}`, { count: 0 })}</li>
      ))}
    </ul>
  );
}
