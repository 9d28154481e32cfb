import { formatDateTime, formatMomentDay } from '@portal/core';
import { endpointRef, useApi, useKernel } from '@portal/web';
import { Button, LoadFailed } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { NOTES_PATH } from '../../access';
import type { NotesApi } from '../../contract';
import * as css from './notes.css';

/** The contract's endpoint as a declaration: the landing chunk takes no zod (the dashboard's widgets all do so). */
const openConversations = endpointRef<typeof NotesApi.open>({ method: 'GET', path: '/api/support/notes/open' });

/**
 * Support's inbox on the staff dashboard: the members whose latest note is theirs (not answered yet), the one waiting
 * longest first. Each opens that member's My Messages acting for them, as the member detail's "Act as this member" does.
 */
export default function OpenConversationsWidget() {
  const { t } = useTranslation('notes');
  const api = useApi();
  const kernel = useKernel();
  const navigate = useNavigate();
  const open = useQuery({
    queryKey: ['notes', 'open'],
    queryFn: () => api.call(openConversations, undefined, { skipLoadingBar: true, notify: false }),
  });
  if (open.isPending || (open.isError && open.isFetching)) return <p aria-busy="true">{t('loading')}</p>;
  if (open.isError) return <LoadFailed message={t('open.error')} onRetry={() => void open.refetch()} />;
  if (open.data.Items.length === 0) return <p>{t('open.empty')}</p>;
  return (
    <div className={css.stack}>
      <ul className={css.widgetList} data-testid="open-conversations">
        {open.data.Items.map((c) => {
          const name = c.MemberName || c.MemberNumber;
          return (
            <li key={c.MemberID} className={c.UnreadCount > 0 ? css.unread : undefined}>
              <Button
                variant="link"
                onPress={() => {
                  kernel.setImpersonation(c.MemberID);
                  navigate(NOTES_PATH);
                }}
              >
                {t('open.member', { name, number: c.MemberNumber })}
              </Button>
              <div className={css.muted}>
                {c.Excerpt} ·{' '}
                <time dateTime={c.CreatedDate} title={formatDateTime(c.CreatedDate)}>
                  {formatMomentDay(c.CreatedDate)}
                </time>
                {c.UnreadCount > 0 ? ` · ${t('open.unread', { count: c.UnreadCount })}` : null}
              </div>
            </li>
          );
        })}
      </ul>
      {open.data.Count > open.data.Items.length && <p className={css.muted}>{t('open.more', { shown: open.data.Items.length, count: open.data.Count })}</p>}
    </div>
  );
}
