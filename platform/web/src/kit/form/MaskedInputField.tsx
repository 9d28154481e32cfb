import { type ReactNode, useState } from 'react';
import { Input, TextField as RacTextField } from 'react-aria-components';
import { FieldHelp, FieldLabel } from './FieldParts';
import * as styles from './form.css';
import { type KitFieldProps, useKitField } from './useKitField';

export interface MaskedInputFieldProps extends KitFieldProps {
  /** What the form stores for the typed text (e.g. digits only). */
  toStored: (typed: string) => string;
  /** What the input shows for the stored value; `focused` lets blurred fields mask (SSN). */
  toDisplay: (stored: string, focused: boolean) => string;
  /** Applied to the stored value on blur (e.g. money to 2 decimals). */
  onBlurStored?: (stored: string) => string;
  type?: 'text' | 'email' | 'password' | 'tel';
  inputMode?: 'text' | 'numeric' | 'decimal' | 'tel' | 'email';
  autoComplete?: string;
  placeholder?: string;
  maxLength?: number;
  prefix?: ReactNode;
  /** Extra content under the input, inside the field (e.g. a checklist). */
  children?: ReactNode;
  /** Extra content beside the input (e.g. a show-password button). */
  adornment?: ReactNode;
  /** Forces the invalid state, e.g. while a password policy is unmet. */
  forceInvalid?: boolean;
}

/** A react-aria text field whose display differs from the stored value; the base of every masked field. */
export function MaskedInputField(props: MaskedInputFieldProps) {
  const { field, errorText, isInvalid } = useKitField(props);
  const [focused, setFocused] = useState(false);
  const stored = typeof field.value === 'string' ? field.value : field.value == null ? '' : String(field.value);
  return (
    <RacTextField
      className={props.className ?? styles.field}
      name={field.name}
      value={props.toDisplay(stored, focused)}
      onChange={(typed) => field.onChange(props.toStored(typed))}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        if (props.onBlurStored) field.onChange(props.onBlurStored(stored));
        field.onBlur();
      }}
      isInvalid={isInvalid || (props.forceInvalid ?? false)}
      isRequired={props.isRequired ?? false}
      isDisabled={props.isDisabled ?? field.disabled ?? false}
      validationBehavior="aria"
      type={props.type ?? 'text'}
      inputMode={props.inputMode ?? 'text'}
      autoComplete={props.autoComplete ?? 'off'}
      {...(props.maxLength === undefined ? {} : { maxLength: props.maxLength })}
    >
      <FieldLabel label={props.label} isRequired={props.isRequired} />
      <div className={styles.inputRow}>
        {props.prefix ? (
          <span className={styles.prefix} aria-hidden="true">
            {props.prefix}
          </span>
        ) : null}
        <Input ref={field.ref} className={styles.input} placeholder={props.placeholder} />
        {props.adornment}
      </div>
      {props.children}
      <FieldHelp description={props.description} errorText={errorText} />
    </RacTextField>
  );
}
