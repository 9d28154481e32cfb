import { Button, Dialog } from '@portal/web/kit';
import { type FormEvent, type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from './support.css';

interface Props {
  title: string;
  /** A line above the field (e.g. the amount authorized). */
  intro?: ReactNode;
  label: string;
  initial: string;
  /** The field's own attributes (maxLength, inputMode). */
  input?: Pick<InputHTMLAttributes<HTMLInputElement>, 'maxLength' | 'inputMode'>;
  submitLabel: string;
  cancelLabel: string;
  onClose: () => void;
  /** Sends the trimmed value; a failure has been shown by the API client, and the dialog stays open. */
  onSubmit: (value: string) => Promise<void>;
}

/** A support action that asks for one value (a PA number, an amount to capture) in a small dialog. */
export function ValueDialog({ title, intro, label, initial, input, submitLabel, cancelLabel, onClose, onSubmit }: Props) {
  const { t } = useTranslation('support');
  const inputId = useId();
  const [value, setValue] = useState(initial);
  const [saving, setSaving] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const submitted = value.trim();
    if (!submitted) return;
    setSaving(true);
    try {
      await onSubmit(submitted);
    } catch {
      // shown by the client
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog isOpen onOpenChange={(open) => !open && onClose()} title={title} size="small" isDismissable={false}>
      {(close) => (
        <form className={css.stack} onSubmit={(e) => void submit(e)}>
          {intro && <p>{intro}</p>}
          <div className={css.field}>
            <label htmlFor={inputId}>{label}</label>
            <input id={inputId} className={css.input} {...input} value={value} onChange={(e) => setValue(e.target.value)} required />
          </div>
          <div className={css.row}>
            <Button type="submit" variant="primary" isPending={saving} pendingLabel={t('actions.working')}>
              {submitLabel}
            </Button>
            <Button onPress={close}>{cancelLabel}</Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
