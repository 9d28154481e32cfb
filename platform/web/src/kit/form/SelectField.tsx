import type { LookupItem } from '@portal/core';
import { useMemo } from 'react';
import { Button, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { FieldHelp, FieldLabel } from './FieldParts';
import * as styles from './form.css';
import * as listBoxStyles from './listBox.css';
import { lookupOptions, type SelectOption, stateOptions, useLookupLabel } from './lookupOptions';
import { type KitFieldProps, useKitField } from './useKitField';

export interface SelectFieldProps extends KitFieldProps {
  options: readonly SelectOption[];
  placeholder?: string;
}

/** Stores the chosen option's value (string or number) or null. Disabled while it has no options (still loading). */
export function SelectField(props: SelectFieldProps) {
  const { t } = useTranslation('kit');
  const { field, errorText, isInvalid } = useKitField(props);
  const value = props.options.some((o) => o.value === field.value) ? (field.value as string | number) : null;
  return (
    <Select
      className={props.className ?? styles.field}
      name={field.name}
      value={value}
      onChange={(key) => field.onChange(key ?? null)}
      onBlur={field.onBlur}
      isInvalid={isInvalid}
      isRequired={props.isRequired ?? false}
      // No choices (yet): the picker would open empty, which reads as broken; it waits, disabled, for its options.
      isDisabled={(props.isDisabled ?? false) || props.options.length === 0}
      validationBehavior="aria"
      placeholder={props.placeholder ?? t('form.selectPlaceholder')}
    >
      <FieldLabel label={props.label} isRequired={props.isRequired} />
      <Button ref={field.ref} className={styles.input}>
        <SelectValue />
        <span aria-hidden="true"> ▾</span>
      </Button>
      <FieldHelp description={props.description} errorText={errorText} />
      <Popover className={listBoxStyles.popover}>
        <ListBox className={listBoxStyles.listBox} items={props.options.map((o) => ({ id: o.value, label: o.label, lang: o.lang }))}>
          {(item) => (
            <ListBoxItem className={listBoxStyles.option} id={item.id} textValue={item.label}>
              {item.lang ? <span lang={item.lang}>{item.label}</span> : item.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

export interface LookupSelectFieldProps extends Omit<SelectFieldProps, 'options'> {
  category: string;
  /** The cached lookup list (GET /api/lookup/get); use lookupDefault() for defaultValues. */
  items: readonly LookupItem[];
}

/** A lookup category's options, named in the page's language; stores the item's key. */
export function LookupSelectField({ category, items, ...props }: LookupSelectFieldProps) {
  const label = useLookupLabel();
  const options = useMemo(() => lookupOptions(items, category, label), [items, category, label]);
  return <SelectField {...props} options={options} />;
}

/** US states, DC and territories; stores the abbreviation. */
export function StateSelectField(props: Omit<SelectFieldProps, 'options'>) {
  const { t, i18n } = useTranslation('kit');
  const options = useMemo(() => stateOptions(t, i18n.language), [t, i18n.language]);
  return <SelectField {...props} options={options} />;
}
