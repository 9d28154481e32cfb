import { type ReactNode, useId } from 'react';
import * as styles from './form.css';

export interface NativeSelectOption<V extends string | number> {
  value: V;
  label: string;
}

export interface NativeSelectFieldProps<V extends string | number> {
  label: ReactNode;
  value: V;
  options: readonly NativeSelectOption<V>[];
  onChange: (value: V) => void;
  isDisabled?: boolean;
  /** The field's box (label above the select); default the kit's field. */
  className?: string;
  'data-testid'?: string;
}

/**
 * A labelled filter outside a form (a list's status, type, year or page size): the browser's own select, so the
 * platform's picker and keyboard work as users know them, drawn as the kit's inputs are (same border, padding, font
 * and label as the search box beside it). It hands back the chosen option's value in its own type (a number stays a
 * number). Inside a Form, use SelectField.
 */
export function NativeSelectField<V extends string | number>({ label, value, options, onChange, isDisabled, className, ...rest }: NativeSelectFieldProps<V>) {
  const id = useId();
  return (
    <div className={className ?? styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <span className={styles.nativeSelectBox}>
        <select
          id={id}
          className={styles.nativeSelect}
          value={String(value)}
          disabled={isDisabled}
          data-testid={rest['data-testid']}
          onChange={(e) => {
            const chosen = options.find((o) => String(o.value) === e.target.value);
            if (chosen) onChange(chosen.value);
          }}
        >
          {options.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}
