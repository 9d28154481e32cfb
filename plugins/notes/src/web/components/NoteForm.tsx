import { hasAnyRole } from '@portal/core';
import { useRoles } from '@portal/web';
import { Button, ButtonGroup, CancelButton, FilePickerField, Form, SelectField } from '@portal/web/kit';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { NOTES_STAFF_ROLES } from '../../access';
import { MAX_ATTACHMENTS, NoteType } from '../../contract';
import { NoteTextField } from './NoteTextField';
import { defaultNoteType } from './noteState';
import * as css from './notes.css';
import { ACCEPTED_FILE_TYPES, filesProblem } from './uploads';

export interface NoteFormValues {
  NoteText: string;
  NoteTypeID: number;
  Files: File[];
  /** Attachments ticked for removal on an edit, keyed 'a<AttachmentID>' (a box never touched has no value). */
  Remove?: Record<string, boolean | undefined>;
}

const schemaFor = (already: number) =>
  z.object({
    NoteText: z.string().trim().min(1, 'validation.required'),
    NoteTypeID: z.number(),
    Files: z.array(z.custom<File>()).superRefine((files, ctx) => {
      const problem = filesProblem(files, already);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    // A box left alone has no value (the form starts with none for it): kept, not an error that stops the save.
    Remove: z.record(z.string(), z.boolean().optional()).optional(),
  });

interface Props {
  label: string;
  initial?: { NoteText: string; NoteTypeID: number };
  /** Files the note keeps (an edit): they count against the 10. */
  existingFiles?: number;
  submitLabel: string;
  busy: boolean;
  /** The save: its promise rejects when it failed (the kit Form's contract), so the typed message stays unsaved. */
  onSubmit: (v: NoteFormValues) => Promise<unknown>;
  onCancel?: () => void;
  /** Shown between the files and the buttons (e.g. the files to keep on an edit). */
  children?: ReactNode;
}

/** The message form: the text, the note type for staff (Support Notes by default; a member writes Member Notes), up to 10 files. */
export function NoteForm({ label, initial, existingFiles = 0, submitLabel, busy, onSubmit, onCancel, children }: Props) {
  const { t } = useTranslation('notes');
  const staff = hasAnyRole(useRoles(), NOTES_STAFF_ROLES);
  return (
    <Form
      schema={schemaFor(existingFiles)}
      defaultValues={{ NoteText: initial?.NoteText ?? '', NoteTypeID: initial?.NoteTypeID ?? defaultNoteType(staff), Files: [] }}
      onSubmit={(v) => onSubmit(v as NoteFormValues)}
      aria-label={label}
    >
      <div className={css.stack}>
        <NoteTextField name="NoteText" label={t('form.text')} />
        {staff && (
          <SelectField
            name="NoteTypeID"
            label={t('form.type')}
            options={[NoteType.Member, NoteType.Support].map((k) => ({ value: k, label: t(`type.${k}`) }))}
          />
        )}
        <FilePickerField
          name="Files"
          label={t('form.files')}
          description={t('form.filesHelp', { max: MAX_ATTACHMENTS })}
          acceptedFileTypes={ACCEPTED_FILE_TYPES}
          allowsMultiple
          maxFiles={MAX_ATTACHMENTS - existingFiles}
        />
        {children}
        <ButtonGroup align="start">
          <Button type="submit" variant="primary" isPending={busy}>
            {submitLabel}
          </Button>
          {onCancel && <CancelButton onCancel={onCancel}>{t('form.cancel')}</CancelButton>}
        </ButtonGroup>
      </div>
    </Form>
  );
}
