import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, type RefObject, useCallback, useRef } from 'react';
import { type FieldValues, FormProvider, type SubmitHandler, type UseFormProps, type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type Notify, useKit } from '../KitProvider';
import * as styles from './form.css';
import { useUnsavedChanges, valuesText } from './unsaved';

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
  /**
   * Default true: while the user has changed the form and not sent those values (Save), leaving the page asks first
   * (kit/form/unsaved). False for a form that only asks for something (a search, a filter, a code), never saves.
   * 'closing': the page keeps what is typed in a draft store of its own that outlives the page, so only a sign-out and
   * closing or reloading the tab ask.
   */
  leaveGuard?: boolean | 'closing';
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

function FormBody<S extends FormSchema>({
  form,
  onSubmit,
  children,
  onInvalidToast,
  leaveGuard = true,
  className,
  ...aria
}: FormBaseProps<S> & { form: KitForm<S> }) {
  const { t } = useTranslation('kit');
  const { notify } = useKit();
  const toast: Notify = onInvalidToast ? (message) => onInvalidToast(message) : notify;
  // The values last sent to onSubmit: those are no longer the user's unsaved changes (see UnsavedProbe).
  const sent = useRef<string | null>(null);
  const submit = form.handleSubmit(
    (values, event) => {
      const text = valuesText(form.getValues());
      sent.current = text;
      const outcome = onSubmit(values, event);
      // A save that says it failed (a rejected promise) leaves the changes unsaved again.
      if (outcome instanceof Promise)
        outcome.catch(() => {
          if (sent.current === text) sent.current = null;
        });
      return outcome;
    },
    () => toast(t('form.fixErrors'), 'error'),
  );
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
        {leaveGuard !== false && <UnsavedProbe form={form as unknown as UseFormReturn<FieldValues>} sent={sent} keptAcrossPages={leaveGuard === 'closing'} />}
        {typeof children === 'function' ? children(form) : children}
      </form>
    </FormProvider>
  );
}

/**
 * Tells the page's leave guard about the form for as long as it is drawn; the guard asks it at the moment of a move, a
 * sign-out or the tab closing, so what was typed an instant before counts (no render or effect has to run first). The
 * values are unsaved while they differ both from the form's defaults (react-hook-form's, which a reset moves: a form
 * left as it was, changed back, or reset by a Cancel holds nothing) and from the values the last Save sent.
 */
function UnsavedProbe({ form, sent, keptAcrossPages }: { form: UseFormReturn<FieldValues>; sent: RefObject<string | null>; keptAcrossPages: boolean }) {
  const check = useCallback(() => {
    const now = valuesText(form.getValues());
    return now !== sent.current && now !== valuesText(form.control._defaultValues);
  }, [form, sent]);
  useUnsavedChanges(check, { keptAcrossPages });
  return null;
}
