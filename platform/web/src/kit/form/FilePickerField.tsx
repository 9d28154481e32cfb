import { FileTrigger } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import * as styles from './form.css';
import { type KitFieldProps, useKitField } from './useKitField';

export interface FilePickerFieldProps extends KitFieldProps {
  /** MIME types or extensions, e.g. ['.pdf', 'image/png']. */
  acceptedFileTypes?: readonly string[];
  allowsMultiple?: boolean;
  /** Cap on the list (spec 02 section 9: upload queue of 10). */
  maxFiles?: number;
}

/** Stores File[]; validate count, size and extension in the schema. */
export function FilePickerField(props: FilePickerFieldProps) {
  const { t } = useTranslation('kit');
  const { field, errorText, isInvalid, ids } = useKitField(props);
  const files: File[] = Array.isArray(field.value) ? (field.value as File[]) : [];
  const maxFiles = props.maxFiles ?? (props.allowsMultiple ? 10 : 1);
  const describedBy = [props.description ? ids.description : '', errorText ? ids.error : ''].filter(Boolean).join(' ') || undefined;
  const add = (list: FileList | null) => {
    if (!list) return;
    const chosen = props.allowsMultiple ? [...files, ...Array.from(list)] : Array.from(list).slice(0, 1);
    field.onChange(chosen.slice(0, maxFiles));
    field.onBlur();
  };
  return (
    <fieldset className={props.className ?? styles.fieldset} aria-describedby={describedBy}>
      <legend className={styles.label}>
        {props.label}
        {props.isRequired ? <span className={styles.required}>{t('form.requiredMark')}</span> : null}
      </legend>
      <FileTrigger
        {...(props.acceptedFileTypes ? { acceptedFileTypes: props.acceptedFileTypes } : {})}
        allowsMultiple={props.allowsMultiple ?? false}
        onSelect={add}
      >
        <Button ref={field.ref} isDisabled={props.isDisabled ?? false} aria-invalid={isInvalid || undefined}>
          {props.allowsMultiple ? t('form.chooseFiles') : t('form.chooseFile')}
        </Button>
      </FileTrigger>
      {files.length === 0 ? (
        <span className={styles.description}>{t('form.noFiles')}</span>
      ) : (
        <ul className={styles.fileList} aria-label={t('form.filesChosen')}>
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`}>
              {file.name}{' '}
              <Button aria-label={t('form.removeFile', { name: file.name })} onPress={() => field.onChange(files.filter((_, i) => i !== index))}>
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      {props.description ? (
        <span id={ids.description} className={styles.description}>
          {props.description}
        </span>
      ) : null}
      {errorText ? (
        <span id={ids.error} className={styles.error} role="alert">
          {errorText}
        </span>
      ) : null}
    </fieldset>
  );
}
