import { requiredText } from '@portal/core';
import { Button, Dialog, Form, TextField, type TextFieldProps } from '@portal/web/kit';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import * as css from './support.css';

interface Props {
  title: string;
  /** A line above the field (e.g. the amount authorized). */
  intro?: ReactNode;
  label: string;
  initial: string;
  /** The field's own attributes (maxLength, inputMode). */
  input?: Pick<TextFieldProps, 'maxLength' | 'inputMode'>;
  submitLabel: string;
  cancelLabel: string;
  onClose: () => void;
  /** Sends the trimmed value; a failure has been shown by the API client, and the dialog stays open. */
  onSubmit: (value: string) => Promise<void>;
}

/** The one value, required: an empty one is said at the field with the kit's invalid-submit toast (spec 01 section 5). */
const valueSchema = z.object({ value: requiredText });

/** A support action that asks for one value (a PA number, an amount to capture) in a small dialog. */
export function ValueDialog({ title, intro, label, initial, input, submitLabel, cancelLabel, onClose, onSubmit }: Props) {
  const { t } = useTranslation('support');
  const [saving, setSaving] = useState(false);
  const submit = async ({ value }: z.output<typeof valueSchema>) => {
    setSaving(true);
    try {
      await onSubmit(value);
    } catch {
      // shown by the client
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog isOpen onOpenChange={(open) => !open && onClose()} title={title} size="small" isDismissable={false}>
      {(close) => (
        <Form schema={valueSchema} defaultValues={{ value: initial }} className={css.stack} onSubmit={submit}>
          {intro && <p>{intro}</p>}
          <TextField name="value" label={label} isRequired {...input} />
          <div className={css.row}>
            <Button type="submit" variant="primary" isPending={saving} pendingLabel={t('actions.working')}>
              {submitLabel}
            </Button>
            <Button onPress={close}>{cancelLabel}</Button>
          </div>
        </Form>
      )}
    </Dialog>
  );
}
