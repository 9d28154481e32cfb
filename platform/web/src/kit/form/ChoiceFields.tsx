import type { ReactNode, Ref } from 'react';
import { Checkbox, Radio, RadioGroup } from 'react-aria-components';
import { FieldHelp, FieldLabel } from './FieldParts';
import * as styles from './form.css';
import type { SelectOption } from './lookupOptions';
import { type KitFieldProps, useKitField } from './useKitField';

/**
 * One option of a react-aria RadioGroup, drawn as every radio of the kit is: its circle shows whether it is chosen
 * (react-aria's Radio draws nothing of its own). For a group held in a page's state rather than a kit form.
 */
export function RadioOption({ value, children, inputRef }: { value: string; children: ReactNode; inputRef?: Ref<HTMLInputElement> }) {
  return (
    <Radio value={value} className={styles.radio} {...(inputRef ? { inputRef } : {})}>
      <span className={styles.radioCircle} aria-hidden="true" />
      {children}
    </Radio>
  );
}

/** Stores a boolean. The label sits inside the checkbox so clicking it toggles. */
export function CheckboxField(props: KitFieldProps) {
  const { field, errorText, isInvalid, ids } = useKitField(props);
  // Checkbox has no description/error slots, so they are linked by id.
  const describedBy = [props.description ? ids.description : '', errorText ? ids.error : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={props.className ?? styles.field}>
      <Checkbox
        inputRef={field.ref}
        className={styles.checkbox}
        name={field.name}
        isSelected={field.value === true}
        onChange={(selected) => field.onChange(selected)}
        onBlur={field.onBlur}
        isInvalid={isInvalid}
        isRequired={props.isRequired ?? false}
        isDisabled={props.isDisabled ?? false}
        validationBehavior="aria"
        aria-describedby={describedBy}
      >
        {({ isSelected }) => (
          <>
            <span className={styles.checkboxBox} aria-hidden="true">
              {isSelected ? '✓' : ''}
            </span>
            {props.label}
          </>
        )}
      </Checkbox>
      {props.description ? (
        <span id={ids.description} className={styles.description}>
          {props.description}
        </span>
      ) : null}
      {errorText ? (
        <span id={ids.error} className={styles.error}>
          {errorText}
        </span>
      ) : null}
    </div>
  );
}

export interface RadioGroupFieldProps extends KitFieldProps {
  options: readonly SelectOption[];
  orientation?: 'horizontal' | 'vertical';
}

/** Stores the chosen option value; numeric values are restored from the radio's string value. */
export function RadioGroupField(props: RadioGroupFieldProps) {
  const { field, errorText, isInvalid } = useKitField(props);
  const current = field.value === null || field.value === undefined ? null : String(field.value);
  return (
    <RadioGroup
      className={props.className ?? styles.field}
      name={field.name}
      value={current}
      onChange={(next) => field.onChange(props.options.find((o) => String(o.value) === next)?.value ?? next)}
      onBlur={field.onBlur}
      isInvalid={isInvalid}
      isRequired={props.isRequired ?? false}
      isDisabled={props.isDisabled ?? false}
      validationBehavior="aria"
      orientation={props.orientation ?? 'vertical'}
    >
      <FieldLabel label={props.label} isRequired={props.isRequired} />
      <div className={styles.radioList}>
        {props.options.map((option, index) => (
          <RadioOption key={String(option.value)} value={String(option.value)} {...(index === 0 ? { inputRef: field.ref } : {})}>
            {option.label}
          </RadioOption>
        ))}
      </div>
      <FieldHelp description={props.description} errorText={errorText} />
    </RadioGroup>
  );
}
