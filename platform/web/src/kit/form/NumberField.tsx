import { capNumber } from '@portal/core';
import { Group, Input, NumberField as RacNumberField } from 'react-aria-components';
import { FieldHelp, FieldLabel } from './FieldParts';
import * as styles from './form.css';
import { type KitFieldProps, useKitField } from './useKitField';

export interface NumberFieldProps extends KitFieldProps {
  /** A value above max resets to max (spec 02 section 5). */
  maxValue?: number;
  minValue?: number;
  step?: number;
  formatOptions?: Intl.NumberFormatOptions;
}

/** Stores a number or null when empty. */
export function NumberField(props: NumberFieldProps) {
  const { field, errorText, isInvalid } = useKitField(props);
  const value = typeof field.value === 'number' ? field.value : Number.NaN;
  return (
    <RacNumberField
      className={props.className ?? styles.field}
      name={field.name}
      value={value}
      onChange={(next) => {
        if (Number.isNaN(next)) field.onChange(null);
        else field.onChange(props.maxValue === undefined ? next : capNumber(next, props.maxValue, props.minValue));
      }}
      onBlur={field.onBlur}
      isInvalid={isInvalid}
      isRequired={props.isRequired ?? false}
      isDisabled={props.isDisabled ?? false}
      validationBehavior="aria"
      {...(props.maxValue === undefined ? {} : { maxValue: props.maxValue })}
      {...(props.minValue === undefined ? {} : { minValue: props.minValue })}
      {...(props.step === undefined ? {} : { step: props.step })}
      {...(props.formatOptions === undefined ? {} : { formatOptions: props.formatOptions })}
    >
      <FieldLabel label={props.label} isRequired={props.isRequired} />
      <Group>
        <Input ref={field.ref} className={styles.input} />
      </Group>
      <FieldHelp description={props.description} errorText={errorText} />
    </RacNumberField>
  );
}
