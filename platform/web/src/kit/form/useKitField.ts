import { useId, useRef } from 'react';
import { type Control, type FieldValues, useController, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { stickyDirty, visibleError } from './errorVisibility';

/** Props every kit field takes. Labels and descriptions arrive translated from the caller. */
export interface KitFieldProps {
  name: string;
  label: string;
  description?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  /** Optional: defaults to the surrounding <Form>. */
  control?: Control<FieldValues>;
  className?: string;
}

/** Binds a field to the form and works out its visible, translated error. */
export function useKitField({ name, control }: Pick<KitFieldProps, 'name' | 'control'>) {
  const { t } = useTranslation('kit');
  const context = useFormContext<FieldValues>();
  const { field, fieldState, formState } = useController({ name, control: control ?? context.control });
  // Dirty once changed, also when the value is put back (stickyDirty): worked out on each render, as the field state is.
  const dirty = useRef(false);
  dirty.current = stickyDirty(dirty.current, { isDirty: fieldState.isDirty, isTouched: fieldState.isTouched, hasError: fieldState.error !== undefined });
  const errorText = visibleError(fieldState.error?.message, { isDirty: dirty.current, submitCount: formState.submitCount }, (key) =>
    t(key, { defaultValue: key }),
  );
  const id = useId();
  return { field, fieldState, errorText, isInvalid: errorText !== undefined, ids: { description: `${id}-description`, error: `${id}-error` }, t };
}
