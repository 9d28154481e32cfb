import { formatDateTime } from '@portal/core';
import { useApi } from '@portal/web';
import { Button, saveBlob } from '@portal/web/kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Attachment, type Note, NotesApi } from '../../contract';
import { isEdited } from './noteEdited';
import * as css from './notes.css';
import { attachmentSize } from './size';

function DownloadButton({ note, file }: { note: Note; file: Attachment }) {
  const { t } = useTranslation('notes');
  const api = useApi();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      isPending={busy}
      aria-label={t('files.download', { name: file.FileName })}
      onPress={async () => {
        setBusy(true);
        try {
          const { blob, fileName } = await api.call(NotesApi.attachment, { params: { noteId: note.NoteID, attachmentId: file.AttachmentID } });
          saveBlob(blob, fileName);
        } finally {
          setBusy(false);
        }
      }}
    >
      {file.FileName} ({attachmentSize(file.Size)})
    </Button>
  );
}

/** One note of a conversation: who wrote it (by name, member or staff), when, the text and its files. */
export function NoteCard({ note, isCurrent }: { note: Note; isCurrent: boolean }) {
  const { t } = useTranslation('notes');
  return (
    <article
      className={`${css.note} ${note.CreatedByKind === 'Staff' ? css.staffNote : ''} ${isCurrent ? css.current : ''}`}
      aria-label={t('note.label', { author: note.CreatedBy, date: formatDateTime(note.CreatedDate) })}
      data-testid="note"
    >
      <div className={css.noteHead}>
        <span className={css.author}>{note.CreatedBy}</span>
        <span className={css.muted}>{t(`kind.${note.CreatedByKind}`)}</span>
        <time className={css.muted} dateTime={note.CreatedDate}>
          {formatDateTime(note.CreatedDate)}
        </time>
        {isEdited(note) && (
          <span className={css.muted} data-testid="note-edited">
            <time dateTime={note.UpdatedDate}>{t('edited', { date: formatDateTime(note.UpdatedDate) })}</time>
          </span>
        )}
        <span className={css.muted}>{t(`type.${note.NoteTypeID}`)}</span>
      </div>
      <p className={css.text}>{note.NoteText}</p>
      {note.Attachments.length > 0 && (
        <ul className={css.files} aria-label={t('files.list')}>
          {note.Attachments.map((f) => (
            <li key={f.AttachmentID}>
              <DownloadButton note={note} file={f} />
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
