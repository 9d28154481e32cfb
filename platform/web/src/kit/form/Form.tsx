import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { type FieldValues, FormProvider, type SubmitHandler, type UseFormProps, type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type Notify, useKit } from '../KitProvider';
import * as styles from './form.css';

/** Any zod schema producing an object of form values. */
export type FormSchema = z.ZodType<FieldValues, FieldValues>;

export type KitForm<S extends FormSchema> = UseFormReturn<z.input<S>, unknown, z.output<S>>;

/**
 * react-hook-form wired to a zod schema. Validates on change so an error appears as soon as the field is
 * dirty; the fields decide visibility (dirty or submitted).
 */
export function useKitForm<S extends FormSchema>(schema: S, options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {}): KitForm<S> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    mode: 'onChange',
    // The resolver's generic overloads cannot see through FormSchema; the cast keeps the public types exact.
    resolver: zodResolver(schema as never) as never,
    ...options,
  });
}

interface FormBaseProps<S extends FormSchema> {
  onSubmit: SubmitHandler<z.output<S>>;
  children: ReactNode | ((form: KitForm<S>) => ReactNode);
  /** Overrides the KitProvider toast for the invalid-submit message. */
  onInvalidToast?: (message: string) => void;
  className?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  id?: string;
}

export type FormProps<S extends FormSchema> = FormBaseProps<S> &
  ({ form: KitForm<S>; schema?: never; defaultValues?: never } | { form?: never; schema: S; defaultValues?: UseFormProps<z.input<S>>['defaultValues'] });

/** Either pass `form` from useKitForm (to read values outside) or `schema` + `defaultValues`. */
export function Form<S extends FormSchema>(props: FormProps<S>) {
  const { form, schema, defaultValues, ...rest } = props;
  if (form) return <FormBody<S> {...rest} form={form} />;
  return <SchemaForm<S> {...rest} schema={schema as S} defaultValues={defaultValues} />;
}

function SchemaForm<S extends FormSchema>({
  schema,
  defaultValues,
  ...rest
}: FormBaseProps<S> & { schema: S; defaultValues: UseFormProps<z.input<S>>['defaultValues'] | undefined }) {
  const form = useKitForm(schema, defaultValues === undefined ? {} : { defaultValues });
  return <FormBody<S> {...rest} form={form} />;
}

function FormBody<S extends FormSchema>({ form, onSubmit, children, onInvalidToast, className, ...aria }: FormBaseProps<S> & { form: KitForm<S> }) {
  const { t } = useTranslation('kit');
  const { notify } = useKit();
  const toast: Notify = onInvalidToast ? (message) => onInvalidToast(message) : notify;
  const submit = form.handleSubmit(onSubmit, () => toast(t('form.fixErrors'), 'error'));
  return (
    // Cast: FormProvider is typed on the input shape only; fields read it through useFormContext.
    <FormProvider {...(form as unknown as UseFormReturn<FieldValues>)}>
      <form
        {...aria}
        className={className ?? styles.form}
        noValidate
        onSubmit={(event) => {
          void submit(event);
        }}
      >
        {typeof children === 'function' ? children(form) : children}
      </form>
    </FormProvider>
  );
}
