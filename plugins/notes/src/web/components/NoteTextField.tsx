import { useKitField } from '@portal/web/kit';
import { Label, TextArea, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { MAX_NOTE_TEXT } from '../../contract';
import * as css from './notes.css';

/** The message text: a labelled multi-line field bound to the surrounding kit Form, with its error announced. */
export function NoteTextField({ name, label }: { name: string; label: string }) {
  const { t } = useTranslation('notes');
  const { field, errorText, isInvalid, ids } = useKitField({ name });
  return (
    <TextField
      className={css.field}
      name={field.name}
      value={typeof field.value === 'string' ? field.value : ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      isInvalid={isInvalid}
      isRequired
      validationBehavior="aria"
      maxLength={MAX_NOTE_TEXT}
    >
      <Label className={css.label}>{label}</Label>
      <TextArea ref={field.ref} className={css.textarea} aria-describedby={errorText ? ids.error : ids.description} />
      <span id={ids.description} className={css.help}>
        {t('form.textHelp', { max: MAX_NOTE_TEXT })}
      </span>
      {errorText ? (
        <span id={ids.error} className={css.error} role="alert">
          {errorText}
        </span>
      ) : null}
    </TextField>
  );
}
