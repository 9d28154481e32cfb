import { zodResolver } from '@hookform/resolvers/zod';
import { type BaseSyntheticEvent, type ReactNode, type RefObject, useCallback, useRef } from 'react';
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
  /**
   * Gets the values once they pass the schema. A save returns a promise that rejects when the save failed (refused, a
   * 409, the network): its values count as unsaved again, so leaving the page still asks (the leave guard). The page
   * says why it failed (the API client's toast, or a message of its own); the form only catches the rejection, which
   * goes no further. A save that returns nothing, or a promise that resolves, counts as sent.
   */
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
  const submit = formSubmit(form, onSubmit, sent, () => toast(t('form.fixErrors'), 'error'));
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

/** A save's rejection as it leaves react-hook-form's handleSubmit: the failure the page has already said. */
class FailedSave extends Error {}

/**
 * The form's submit: react-hook-form validates (`onInvalid` when the values do not pass), then `onSubmit` gets them and
 * they count as sent (`sent`, see UnsavedProbe). The kit's contract: onSubmit returns a promise that rejects when the
 * save failed. Such a save counts as not sent (its values are unsaved changes again, unless a later Save sent others
 * meanwhile), and its rejection ends here: the page has said why, and nothing awaits the submit of a <form>. It still
 * passes through react-hook-form first, so its formState says the submit was not successful. Anything else thrown
 * (onSubmit throwing at once, a failing resolver) is a bug and escapes as before.
 */
export function formSubmit<S extends FormSchema>(
  form: Pick<KitForm<S>, 'handleSubmit' | 'getValues'>,
  onSubmit: SubmitHandler<z.output<S>>,
  sent: { current: string | null },
  onInvalid: () => void,
): (event?: BaseSyntheticEvent) => Promise<void> {
  const submit = form.handleSubmit((values, event) => {
    const text = valuesText(form.getValues());
    sent.current = text;
    const outcome = onSubmit(values, event);
    if (!(outcome instanceof Promise)) return outcome;
    return outcome.catch((reason: unknown) => {
      // A save that says it failed leaves the changes unsaved again.
      if (sent.current === text) sent.current = null;
      throw new FailedSave('save failed', { cause: reason });
    });
  }, onInvalid);
  return async (event) => {
    try {
      await submit(event);
    } catch (error) {
      if (!(error instanceof FailedSave)) throw error;
    }
  };
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
