import { hasAnyRole } from '@portal/core';
import { ApiCallError, focusInOrLost, useApi, useRoles } from '@portal/web';
import { Button, DatePickerField, FilePickerField, Form, Message, Panel, SelectField } from '@portal/web/kit';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DOCUMENTS_UPLOAD_ACCESS } from '../../access';
import { DocumentsApi, LISTED_DOCUMENT_TYPES, MAX_UPLOAD_BYTES } from '../../contract';

const schema = z.object({
  DocumentTypeId: z.number({ error: 'documents:upload.typeRequired' }),
  EffectiveDate: z.string({ error: 'documents:upload.dateRequired' }).min(1, 'documents:upload.dateRequired'),
  Files: z
    .array(z.custom<File>())
    .min(1, 'documents:upload.fileRequired')
    .refine((f) => f.every((x) => x.name.toLowerCase().endsWith('.pdf')), 'documents:upload.pdfOnly')
    .refine((f) => f.every((x) => x.size <= MAX_UPLOAD_BYTES), 'documents:upload.tooLarge'),
});
type Values = z.infer<typeof schema>;

/** SuperUser acting for a member adds a PDF to the member's documents (checked and virus-scanned by the server). */
export function AddDocument() {
  const { t } = useTranslation('documents');
  const api = useApi();
  const queryClient = useQueryClient();
  // `focus`: the outcome takes focus (a document added: the form is drawn anew, empty, without the button pressed).
  const [outcome, setOutcome] = useState<{ kind: 'success' | 'error'; text: string; focus?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);
  if (!hasAnyRole(useRoles(), DOCUMENTS_UPLOAD_ACCESS)) return null;

  async function submit(v: Values) {
    const file = v.Files[0] as File;
    // The form sent (from its Add document, or the field Enter was pressed in).
    const form = document.activeElement?.closest('form') ?? null;
    setBusy(true);
    setOutcome(null);
    try {
      await api.call(
        DocumentsApi.uploadDocument,
        { query: { DocumentTypeId: v.DocumentTypeId, EffectiveDate: v.EffectiveDate, FileName: file.name }, body: file },
        { notify: false },
      );
      // Focus still in the form about to be drawn anew, or lost: the outcome takes it. A user who moved on is left there.
      const focus = focusInOrLost(form);
      setOutcome({ kind: 'success', text: t('upload.done', { name: file.name }), focus });
      setFormKey((k) => k + 1);
      await queryClient.invalidateQueries({ queryKey: ['documents'] });
    } catch (e) {
      setOutcome({ kind: 'error', text: e instanceof ApiCallError ? e.message : t('upload.failed') });
      // Rejected: the kit Form counts the choices as unsaved (leaving asks).
      throw e;
    } finally {
      setBusy(false);
    }
  }

  return (
    <Panel title={t('upload.title')}>
      <Form key={formKey} schema={schema} defaultValues={{ Files: [] }} onSubmit={(v) => submit(v as Values)} aria-label={t('upload.title')}>
        <SelectField
          name="DocumentTypeId"
          label={t('upload.type')}
          isRequired
          options={LISTED_DOCUMENT_TYPES.map((id) => ({ value: id, label: t(`types.${id}`) }))}
        />
        <DatePickerField name="EffectiveDate" label={t('upload.date')} isRequired />
        <FilePickerField name="Files" label={t('upload.file')} description={t('upload.fileHelp')} acceptedFileTypes={['.pdf']} />
        {outcome && (
          <Message kind={outcome.kind} autoFocus={outcome.focus}>
            {outcome.text}
          </Message>
        )}
        <div>
          <Button type="submit" variant="primary" isPending={busy} pendingLabel={t('upload.sending')}>
            {t('upload.submit')}
          </Button>
        </div>
      </Form>
    </Panel>
  );
}
