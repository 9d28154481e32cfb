import { idSchema } from '@portal/core';
import {
  firstFieldIn,
  isFocusFree,
  loadFailure,
  newCreateKey,
  SubmissionKeys,
  showToast,
  useApi,
  useHeldRecord,
  useStaleSave,
  useSwapFocus,
} from '@portal/web';
import { Button, CheckboxField, LoadFailed, Message, Panel, StaleNotice } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { NOTES_PATH } from '../../access';
import { type NoteDetail, NotesApi } from '../../contract';
import { NoteCard } from '../components/NoteCard';
import { NoteForm, type NoteFormValues } from '../components/NoteForm';
import { staleAfterOpening } from '../components/noteState';
import * as css from '../components/notes.css';
import { replyPanel } from '../components/replyPanel';
import { toUploads } from '../components/uploads';

/** Files of the note being edited: each kept unless ticked for removal. */
function RemoveFiles({ note }: { note: NoteDetail }) {
  const { t } = useTranslation('notes');
  if (note.Attachments.length === 0) return null;
  return (
    <fieldset className={css.field}>
      <legend className={css.label}>{t('form.removeFiles')}</legend>
      {note.Attachments.map((a) => (
        <CheckboxField key={a.AttachmentID} name={`Remove.a${a.AttachmentID}`} label={a.FileName} />
      ))}
    </fieldset>
  );
}

/** /notes/:id: the conversation the note belongs to; its author may edit it (view, edit, save or cancel); anyone here may reply. */
export default function NoteDetailPage() {
  const { t } = useTranslation('notes');
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const parsed = idSchema.safeParse(useParams().id);
  const id = parsed.success ? parsed.data : null;
  const [editing, setEditing] = useState(false);
  // Replies sent from this page: the reply form starts empty again after each (and only then).
  const [repliesSent, setRepliesSent] = useState(0);
  // Edit puts focus on the edit's first field (the message); a save that went through, back on Edit.
  const focus = useSwapFocus(editing ? 'form' : 'view');
  // A reply sent: the reply form, drawn anew empty, takes focus back to its message box (its Send reply went with it).
  const replyArea = useRef<HTMLDivElement>(null);
  const focusReply = useRef(false);
  useEffect(() => {
    if (!focusReply.current) return;
    focusReply.current = false;
    // Only while focus is lost (it was in the form drawn anew): a user who moved on meanwhile is left there.
    if (!isFocusFree(document.activeElement, document.body, null) || !replyArea.current) return;
    firstFieldIn(replyArea.current)?.focus();
  }, [repliesSent]);
  const key = ['notes', 'one', id];
  const note = useQuery({
    queryKey: key,
    queryFn: () => api.call(NotesApi.getById, { params: { id: id as number } }, { notify: false }),
    enabled: id !== null,
  });
  // While the note is edited the form keeps the note it started from (text, files, Version): a refetch meanwhile (on
  // reconnect, once the cached copy is stale) does not start it over. Reload, Cancel or a save replace it.
  const held = useHeldRecord(note.data, editing ? id : null);
  // The server's words when a save was refused as stale: said with a Reload until the user takes it (which lets go of
  // the held copy once the record is read again).
  const stale = useStaleSave(key, held.release);
  // Opening the conversation marks its notes read: the badge, the list and the dashboard's recent notes are read anew
  // (not this note: read again, it would be marked and audited again).
  const openedKey = JSON.stringify(key);
  useEffect(() => {
    if (note.isSuccess) void queryClient.invalidateQueries({ predicate: staleAfterOpening(JSON.parse(openedKey)) });
  }, [note.isSuccess, queryClient, openedKey]);
  const update = useMutation({
    mutationFn: async (v: NoteFormValues & { remove: number[]; edited: NoteDetail }) => {
      return api.call(
        NotesApi.update,
        {
          body: {
            NoteID: v.edited.NoteID,
            // The Version the edit started from: someone else's save meanwhile is a 409, never overwritten.
            Version: v.edited.Version,
            NoteText: v.NoteText,
            NoteTypeID: v.NoteTypeID,
            Attachments: await toUploads(v.Files),
            RemoveAttachmentIDs: v.remove,
          },
        },
        // A stale save is said by the form's notice alone; other failures are toasted.
        { notify: stale.notify },
      );
    },
    // The control pressed (Save, or the field Enter was pressed in): focus returns to Edit only from there, or when lost.
    onMutate: () => {
      stale.clear();
      return { pressed: document.activeElement };
    },
    onSuccess: async (_saved, _values, sent) => {
      focus.want('view', sent?.pressed ?? null);
      setEditing(false);
      await queryClient.invalidateQueries({ queryKey: ['notes'] });
    },
    // A stale save keeps the typed values and says so with a Reload (the cached message is then read anew).
    onError: stale.onError,
  });
  // One IdempotencyKey per reply sent: sending the same reply again after a failure (an answer lost) adds it once.
  const replyKeys = useRef(new SubmissionKeys(() => newCreateKey('note'))).current;
  const reply = useMutation({
    mutationFn: async (v: NoteFormValues) => {
      const payload = { NoteText: v.NoteText, NoteTypeID: v.NoteTypeID, ReplyToID: (note.data as NoteDetail).NoteID, Attachments: await toUploads(v.Files) };
      return api.call(NotesApi.create, { body: { ...payload, IdempotencyKey: replyKeys.keyFor(payload) } });
    },
    onSuccess: async () => {
      replyKeys.added();
      focusReply.current = true;
      setRepliesSent((n) => n + 1);
      // Said besides the reply shown in the conversation: focus stays in the reply form, away from it.
      showToast({ kind: 'success', message: t('reply.sent') });
      await queryClient.invalidateQueries({ queryKey: ['notes'] });
    },
  });

  if (id === null) return <Message kind="error">{t('notFound')}</Message>;
  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  // An open edit holding its note stays on screen whatever a refetch meanwhile answers (a failed one included).
  const editHeld = editing && held.record !== undefined;
  if (!editHeld && (note.isPending || (note.isError && note.isFetching))) return <p aria-busy="true">{t('loading')}</p>;
  if (!editHeld && note.isError) {
    // Said here only (the load does not toast); a record not found would not be found again: no Try again.
    return loadFailure(note.error) === 'notFound' ? (
      <Message kind="error">{t('notFound')}</Message>
    ) : (
      <LoadFailed message={t('loadError')} onRetry={() => void note.refetch()} />
    );
  }
  // Read by now: the checks above, or kept by the open edit.
  const current = (note.data ?? held.record) as NoteDetail;
  const edited = held.record ?? current;
  const replyShown = replyPanel(editing, repliesSent);

  return (
    <div className={css.stack}>
      <p>
        <Link to={NOTES_PATH}>{t('backToList')}</Link>
      </p>
      <Panel title={t('thread.title')}>
        <ol className={css.thread}>
          {current.Thread.map((n) => (
            <li key={n.NoteID}>
              {editing && n.NoteID === current.NoteID ? (
                <div ref={focus.fieldsRef}>
                  <NoteForm
                    // Reload takes the message as it is now (a new Version): the form starts again from it.
                    key={edited.Version}
                    label={t('form.editLabel')}
                    initial={{ NoteText: edited.NoteText, NoteTypeID: edited.NoteTypeID }}
                    existingFiles={edited.Attachments.length}
                    submitLabel={t('form.save')}
                    busy={update.isPending}
                    onSubmit={(v) =>
                      update.mutateAsync({
                        ...v,
                        edited,
                        remove: Object.entries(v.Remove ?? {})
                          .filter(([, on]) => on)
                          .map(([k]) => Number(k.slice(1))),
                      })
                    }
                    onCancel={() => navigate(NOTES_PATH)}
                  >
                    <RemoveFiles note={edited} />
                    {stale.conflict && <StaleNotice message={stale.conflict} onReload={stale.reload} />}
                  </NoteForm>
                </div>
              ) : (
                <>
                  <NoteCard note={n} isCurrent={n.NoteID === current.NoteID} />
                  {n.NoteID === current.NoteID && n.CanEdit && !editing && (
                    <Button
                      ref={focus.editRef}
                      size="small"
                      onPress={() => {
                        focus.want('form');
                        setEditing(true);
                      }}
                    >
                      {t('edit')}
                    </Button>
                  )}
                </>
              )}
            </li>
          ))}
        </ol>
      </Panel>
      {/* Hidden, not removed, while the note is edited: the reply typed so far stays for when the edit closes. */}
      <div ref={replyArea} hidden={replyShown.hidden}>
        <Panel title={t('reply.title')}>
          <NoteForm
            key={replyShown.formKey}
            label={t('reply.title')}
            submitLabel={t('reply.send')}
            busy={reply.isPending}
            onSubmit={(v) => reply.mutateAsync(v)}
          />
        </Panel>
      </div>
    </div>
  );
}
