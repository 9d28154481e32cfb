import { pollWhileActive, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NotesApi } from '../../contract';
import * as css from './notes.css';

/**
 * Refreshes the count once a minute while the navigation shows and the user is at the page: a poll of a tab left
 * unattended would keep its session alive (see pollWhileActive).
 */
const refreshInterval = pollWhileActive(60_000);

/** The count of unread support replies beside My Messages in the navigation; nothing when there are none. */
export default function UnreadBadge() {
  const { t } = useTranslation('notes');
  const api = useApi();
  const unread = useQuery({
    queryKey: ['notes', 'unread'],
    queryFn: () => api.call(NotesApi.unread, undefined, { skipLoadingBar: true, notify: false }),
    refetchInterval: refreshInterval,
  });
  const count = unread.data?.Count ?? 0;
  if (count === 0) return null;
  return (
    <span className={css.badge} data-testid="notes-unread">
      <span aria-hidden="true">{count}</span>
      <span className={css.hidden}>{t('unread', { count })}</span>
    </span>
  );
}
