import { DOB_AFTER_MASKED, LookupCategory } from '@portal/core';
import { showToast, useApi, useLookups } from '@portal/web';
import {
  Button,
  ButtonGroup,
  CheckboxField,
  DatePickerField,
  EmailField,
  FilePickerField,
  Form,
  LookupSelectField,
  MaskedDateField,
  MoneyField,
  NumberField,
  PasswordField,
  PhoneField,
  RadioGroupField,
  SsnField,
  StateSelectField,
  TextField,
  useKitForm,
} from '@portal/web/kit';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  APPOINTMENT_MAX,
  APPOINTMENT_MIN,
  CONTACT_PREFERENCES,
  GALLERY_PASSWORD_RULES,
  type GalleryFormInput,
  type GalleryFormResponse,
  type GalleryFormValues,
  galleryFormSchema,
  KitGalleryApi,
  MAX_FILES,
  SERVICE_DATE_AFTER,
  SERVICE_DATE_BEFORE,
  UNITS_DEFAULT,
  UNITS_MAX,
} from '../../contract';
import * as css from './gallery.css';

const isoToUs = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const todayUs = () => {
  const d = new Date();
  return `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${d.getFullYear()}`;
};

const EMPTY: GalleryFormInput = {
  FullName: '',
  Email: '',
  Password: '',
  ConfirmPassword: '',
  Phone: '',
  Ssn: '',
  Dob: '',
  ServiceDate: '',
  AppointmentDate: '',
  Amount: '',
  Units: UNITS_DEFAULT,
  // Required selects start empty; the schema's "required" message covers them.
  TransactionType: null as unknown as number,
  State: null as unknown as string,
  Agree: false as unknown as true,
  ContactPreference: null as unknown as 'Email',
  Files: [],
};

/** One field of every kit kind, validated by the schema the server also applies. */
export function GalleryForm() {
  const { t } = useTranslation('kit-gallery');
  const api = useApi();
  const lookups = useLookups();
  const headingId = useId();
  const [result, setResult] = useState<GalleryFormResponse | null>(null);
  const form = useKitForm(galleryFormSchema, { defaultValues: EMPTY });
  const rules = useMemo(() => GALLERY_PASSWORD_RULES.map((r) => ({ ...r, Message: t(r.Message) })), [t]);
  const contactOptions = useMemo(() => CONTACT_PREFERENCES.map((value) => ({ value, label: t(`form.contact.${value}`) })), [t]);

  const submit = async (values: GalleryFormValues) => {
    try {
      // The parsed values pass the same schema again on the server (files travel as name and size).
      const data = await api.call(KitGalleryApi.form, { body: values }, { notify: false });
      setResult(data);
      showToast({ kind: 'success', message: t('form.submitted', { name: data.FullName }) });
    } catch {
      showToast({ kind: 'error', message: t('form.failed') });
    }
  };

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className={css.heading}>
        {t('form.heading')}
      </h2>
      <Form form={form} onSubmit={submit} aria-labelledby={headingId} className={css.formGrid}>
        <TextField name="FullName" label={t('form.fullName')} autoComplete="name" isRequired />
        <EmailField name="Email" label={t('form.email')} isRequired />
        <PasswordField name="Password" label={t('form.password')} rules={rules} autoComplete="new-password" isRequired />
        <PasswordField name="ConfirmPassword" label={t('form.confirmPassword')} autoComplete="new-password" isRequired />
        <PhoneField name="Phone" label={t('form.phone')} isRequired />
        <SsnField name="Ssn" label={t('form.ssn')} isRequired />
        <MaskedDateField name="Dob" label={t('form.dob')} after={DOB_AFTER_MASKED} before={todayUs()} autoComplete="bday" isRequired />
        <MaskedDateField name="ServiceDate" label={t('form.serviceDate')} after={SERVICE_DATE_AFTER} before={SERVICE_DATE_BEFORE} isRequired />
        <DatePickerField
          name="AppointmentDate"
          label={t('form.appointmentDate')}
          description={t('form.appointmentHint', { min: isoToUs(APPOINTMENT_MIN), max: isoToUs(APPOINTMENT_MAX) })}
          minValue={APPOINTMENT_MIN}
          maxValue={APPOINTMENT_MAX}
          isRequired
        />
        <MoneyField name="Amount" label={t('form.amount')} isRequired />
        <NumberField name="Units" label={t('form.units')} description={t('form.unitsHint', { max: UNITS_MAX })} minValue={1} maxValue={UNITS_MAX} isRequired />
        <LookupSelectField name="TransactionType" label={t('form.transactionType')} category={LookupCategory.TransactionType} items={lookups} isRequired />
        <StateSelectField name="State" label={t('form.state')} isRequired />
        <RadioGroupField name="ContactPreference" label={t('form.contactPreference')} options={contactOptions} orientation="horizontal" isRequired />
        <FilePickerField name="Files" label={t('form.files')} description={t('form.filesHint', { count: MAX_FILES })} allowsMultiple maxFiles={MAX_FILES} />
        <CheckboxField name="Agree" label={t('form.agree')} className={css.wide} isRequired />
        <ButtonGroup align="start" className={css.wide}>
          <Button type="submit" variant="primary">
            {t('form.submit')}
          </Button>
          <Button
            onPress={() => {
              form.reset(EMPTY);
              setResult(null);
            }}
          >
            {t('form.reset')}
          </Button>
        </ButtonGroup>
        {result ? (
          <p className={`${css.result} ${css.wide}`} role="status" data-testid="form-result">
            {t('form.result', { name: result.FullName, fields: result.Fields, files: result.Files })}
          </p>
        ) : null}
      </Form>
    </section>
  );
}
