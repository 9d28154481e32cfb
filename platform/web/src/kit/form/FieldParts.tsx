import { FieldError, Label, Text } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import * as styles from './form.css';

/** Label with a screen-reader-and-eye visible required mark. */
export function FieldLabel({ label, isRequired }: { label: string; isRequired?: boolean | undefined }) {
  const { t } = useTranslation('kit');
  return (
    <Label className={styles.label}>
      {label}
      {isRequired ? <span className={styles.required}>{t('form.requiredMark')}</span> : null}
    </Label>
  );
}

/** Description and error slots; react-aria links them to the input with aria-describedby. */
export function FieldHelp({ description, errorText }: { description?: string | undefined; errorText?: string | undefined }) {
  return (
    <>
      {description ? (
        <Text slot="description" className={styles.description}>
          {description}
        </Text>
      ) : null}
      <FieldError className={styles.error}>{errorText}</FieldError>
    </>
  );
}
