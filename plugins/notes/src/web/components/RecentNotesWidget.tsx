import { formatDateTime, formatMomentDay } from '@portal/core';
import { useApi } from '@portal/web';
import { LoadFailed } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isEdited } from './noteEdited';
import * as css from './notes.css';
import { recentQuery } from './RecentNotesWidget.data';

const excerpt = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/** Dashboard widget: the member's most recent notes, newest first, each opening its conversation (its day shown, the time in its title). */
export default function RecentNotesWidget() {
  const { t } = useTranslation('notes');
  const api = useApi();
  const recent = useQuery(recentQuery(api));
  // Try again asks for the recent notes anew (the query's status stays 'error' until it answers: loading meanwhile).
  if (recent.isPending || (recent.isError && recent.isFetching)) return <p aria-busy="true">{t('loading')}</p>;
  if (recent.isError) return <LoadFailed message={t('loadError')} onRetry={() => void recent.refetch()} />;
  if (recent.data.length === 0) return <p>{t('widget.empty')}</p>;
  return (
    <ul className={css.widgetList} data-testid="recent-notes">
      {recent.data.map((n) => (
        <li key={n.NoteID} className={n.IsRead ? undefined : css.unread}>
          <Link className={css.widgetLink} to={`/notes/${n.NoteID}`}>
            {excerpt(n.NoteText)}
          </Link>
          <div className={css.muted}>
            {n.CreatedBy} · {t(`kind.${n.CreatedByKind}`)} ·{' '}
            <time dateTime={n.CreatedDate} title={formatDateTime(n.CreatedDate)}>
              {formatMomentDay(n.CreatedDate)}
            </time>
            {isEdited(n) ? ` ${t('edited', { date: formatMomentDay(n.UpdatedDate) })}` : null}
            {n.IsRead ? null : ` · ${t('list.unread')}`}
          </div>
        </li>
      ))}
    </ul>
  );
}
