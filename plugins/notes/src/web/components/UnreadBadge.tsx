import { hasAnyRole } from '@portal/core';
import { pollWhileActive, useApi, useRoles } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NOTES_STAFF_ROLES } from '../../access';
import { unreadQuery } from './noteState';
import * as css from './notes.css';

/**
 * Refreshes the count once a minute while the navigation shows and the user is at the page: a poll of a tab left
 * unattended would keep its session alive (see pollWhileActive).
 */
const refreshInterval = pollWhileActive(60_000);

/**
 * The unread count beside My Messages in the navigation: for a member, support's replies they have not opened; for
 * staff acting for a member, that member's notes no staff user has opened. Nothing when there are none.
 */
export default function UnreadBadge() {
  const { t } = useTranslation('notes');
  const api = useApi();
  const staff = hasAnyRole(useRoles(), NOTES_STAFF_ROLES);
  const unread = useQuery({ ...unreadQuery(api), refetchInterval: refreshInterval });
  const count = unread.data?.Count ?? 0;
  if (count === 0) return null;
  return (
    <span className={css.badge} data-testid="notes-unread">
      <span aria-hidden="true">{count}</span>
      <span className={css.hidden}>{t(staff ? 'unreadStaff' : 'unread', { count })}</span>
    </span>
  );
}
