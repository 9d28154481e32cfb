import { newCreateKey, SubmissionKeys, useApi } from '@portal/web';
import { Panel } from '@portal/web/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { NOTES_PATH } from '../../access';
import { NotesApi } from '../../contract';
import { NoteForm, type NoteFormValues } from '../components/NoteForm';
import { toUploads } from '../components/uploads';

/** /notes-new: a new message to support, opened directly in edit; cancel returns to the list. */
export default function NewNotePage() {
  const { t } = useTranslation('notes');
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // One IdempotencyKey per submission: sending the same message again after a failure (an answer lost) adds it once.
  const keys = useRef(new SubmissionKeys(() => newCreateKey('note'))).current;
  const create = useMutation({
    mutationFn: async (v: NoteFormValues) => {
      const payload = { NoteText: v.NoteText, NoteTypeID: v.NoteTypeID, Attachments: await toUploads(v.Files) };
      return api.call(NotesApi.create, { body: { ...payload, IdempotencyKey: keys.keyFor(payload) } });
    },
    onSuccess: async (note) => {
      keys.added();
      await queryClient.invalidateQueries({ queryKey: ['notes'] });
      navigate(`${NOTES_PATH}/${note.NoteID}`);
    },
  });
  return (
    <Panel title={t('title.new')}>
      <NoteForm
        label={t('title.new')}
        submitLabel={t('form.send')}
        busy={create.isPending}
        onSubmit={(v) => create.mutateAsync(v)}
        onCancel={() => navigate(NOTES_PATH)}
      />
    </Panel>
  );
}
