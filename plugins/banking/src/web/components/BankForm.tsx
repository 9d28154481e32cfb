import { Button } from '@portal/web/kit';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BankFormWire } from '../../contract';
import * as css from './bank.css';

/** The form as sent by the finance service: one form (version '1') or a list of one (version '1.1'). */
export const oneForm = (f: BankFormWire | BankFormWire[] | null | undefined): BankFormWire | null => (Array.isArray(f) ? (f[0] ?? null) : (f ?? null));

export interface FilledForm {
  Fields: { Id: string | null; Name: string; Value: string }[];
}

/**
 * An institution's login form or a multi-factor step, rendered from its description (fields, labels, types).
 * The values go to the finance service, which passes them to the aggregator; nothing is kept in the browser.
 */
export function BankForm({
  form,
  submitLabel,
  busy,
  onSubmit,
}: {
  form: BankFormWire;
  submitLabel: string;
  busy: boolean;
  onSubmit: (filled: FilledForm) => void;
}) {
  const { t } = useTranslation('banking');
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({ Fields: form.Fields.map((f) => ({ Id: f.Id, Name: f.Name, Value: values[f.Name] ?? '' })) });
  };
  return (
    <form className={css.stack} onSubmit={submit} data-testid="bank-form" data-form-type={form.FormType} noValidate>
      <p className={css.muted}>{form.Label}</p>
      {form.Fields.map((f) => {
        const fieldId = `${id}-${f.Name}`;
        const set = (v: string) => setValues((old) => ({ ...old, [f.Name]: v }));
        return (
          <label key={f.Name} className={css.field} htmlFor={fieldId}>
            {f.Label}
            {f.Type === 'option' ? (
              <select id={fieldId} className={css.input} value={values[f.Name] ?? ''} onChange={(e) => set(e.target.value)}>
                <option value="">{t('form.choose')}</option>
                {(f.Options ?? []).map((o) => (
                  <option key={o.Value} value={o.Value}>
                    {o.Label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={fieldId}
                className={css.input}
                type={f.Type === 'password' ? 'password' : 'text'}
                autoComplete="off"
                maxLength={f.MaxLength ?? undefined}
                value={values[f.Name] ?? ''}
                onChange={(e) => set(e.target.value)}
              />
            )}
          </label>
        );
      })}
      <div className={css.row}>
        <Button type="submit" variant="primary" isDisabled={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
