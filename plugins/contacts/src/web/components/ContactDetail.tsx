import { LookupCategory, validationMessages as m, ZIP_PATTERN } from '@portal/core';
import { loadFailure, newCreateKey, SubmissionKeys, saveConflict, useApi, useHeldRecord, useLookups, useStaleSave } from '@portal/web';
import {
  Button,
  ButtonGroup,
  detailsList,
  EmailField,
  Form,
  LoadFailed,
  LookupSelectField,
  Message,
  Panel,
  PhoneField,
  SelectField,
  StaleNotice,
  TextField,
  useLookupLabel,
} from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CONTACT_TYPE_IDS, type Contact, ContactsApi, DEFAULT_ADDRESS_TYPE_ID, DEFAULT_PHONE_TYPE_ID } from '../../contract';
import * as css from './contacts.css';
import { duplicateOf } from './duplicate';
import { type DetailShown, useDetailFocus } from './focus';
import { contactTypeName, lookupValue, phoneText, shownName } from './format';

const optionalText = z.string();
const formSchema = z.object({
  FirstName: z.string().trim().min(1, m.required).max(50),
  LastName: z.string().trim().min(1, m.required).max(50),
  Phone: z.string().refine((v) => v === '' || /^\d{10}$/.test(v), m.phone),
  Email: z.string().refine((v) => v.trim() === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()), m.email),
  ContactTypeID: z.number().nullable(),
  PhoneTypeID: z.number().nullable(),
  AddressTypeID: z.number().nullable(),
  Address1: optionalText,
  Address2: optionalText,
  City: optionalText,
  StateCodeID: z.number().nullable(),
  Zip: z.string().refine((v) => v.trim() === '' || ZIP_PATTERN.test(v.trim()), m.zip),
});
type FormValues = z.infer<typeof formSchema>;

const toForm = (c: Contact | null): FormValues => ({
  FirstName: c?.FirstName ?? '',
  LastName: c?.LastName ?? '',
  Phone: c?.Phone ?? '',
  Email: c?.Email ?? '',
  ContactTypeID: c?.ContactTypeID ?? null,
  PhoneTypeID: c ? c.PhoneTypeID : DEFAULT_PHONE_TYPE_ID,
  AddressTypeID: c ? c.AddressTypeID : DEFAULT_ADDRESS_TYPE_ID,
  Address1: c?.Address1 ?? '',
  Address2: c?.Address2 ?? '',
  City: c?.City ?? '',
  StateCodeID: c?.StateCodeID ?? null,
  Zip: c?.Zip ?? '',
});
const opt = (s: string) => (s.trim() === '' ? null : s.trim());
const toPayload = (v: FormValues) => ({
  ...v,
  Phone: opt(v.Phone),
  Email: opt(v.Email),
  Address1: opt(v.Address1),
  Address2: opt(v.Address2),
  City: opt(v.City),
  Zip: opt(v.Zip),
});

interface Props {
  /** A contact's id, or 'new'. */
  id: number | 'new';
  /** Back to the list (after save or cancel); a save gives the saved contact's id. */
  onClose: (savedId?: number) => void;
}

/** The heading follows what is typed: 'Last, First', or 'Add New Contact' while empty. */
function LiveName() {
  const { t } = useTranslation('contacts');
  const [first, last] = useWatch<FormValues, ['FirstName', 'LastName']>({ name: ['FirstName', 'LastName'] });
  return <span data-testid="contact-name">{shownName(t, { FirstName: first, LastName: last })}</span>;
}

/**
 * A save refused as stale (a 409 that names no duplicate contact): said by the form's StaleNotice alone, focused, with
 * its Reload. A duplicate is a refusal like any other (a Reload would not change it).
 */
const isStaleSave = (error: unknown) => saveConflict(error) !== null && duplicateOf(error) === null;

/** A contact's inline detail: view, then edit, then save or cancel; a new contact opens in edit. */
export function ContactDetail({ id, onClose }: Props) {
  const { t } = useTranslation('contacts');
  const api = useApi();
  const queryClient = useQueryClient();
  const lookups = useLookups();
  const label = useLookupLabel();
  const isNew = id === 'new';
  const [editing, setEditing] = useState(isNew);
  const key = ['contacts', 'one', id];
  const contact = useQuery({
    queryKey: key,
    queryFn: () => api.call(ContactsApi.getById, { params: { id: id as number } }, { notify: false }),
    enabled: !isNew,
  });
  // While the edit is open it keeps the contact it started from (values and Version): a refetch meanwhile (on
  // reconnect, once the cached copy is stale) does not start the form over. Reload, Cancel or a save replace it.
  const held = useHeldRecord(contact.data, editing ? id : null);
  // The server's words when a save was refused as stale: said with a Reload until the user takes it (which lets go of
  // the held copy once the record is read again).
  const stale = useStaleSave(key, held.release);
  // A new contact's IdempotencyKey, one per submission: saving the same contact again after a failure (an answer
  // lost) adds it once.
  const keys = useRef(new SubmissionKeys(() => newCreateKey('contact'))).current;
  const save = useMutation({
    mutationFn: ({ values: v, version }: { values: FormValues; version: number | undefined }) => {
      if (isNew) {
        const payload = toPayload(v);
        return api.call(ContactsApi.create, { body: { ...payload, IdempotencyKey: keys.keyFor(payload) } });
      }
      if (version === undefined) throw new Error('no contact loaded');
      // A stale save is said by the notice alone; any other failure (a duplicate contact too) is toasted.
      return api.call(ContactsApi.update, { body: { ...toPayload(v), ContactID: id as number, Version: version } }, { notify: (e) => !isStaleSave(e) });
    },
    onMutate: stale.clear,
    onSuccess: async (saved) => {
      if (isNew) keys.added();
      await queryClient.invalidateQueries({ queryKey: ['contacts'] });
      onClose(saved.ContactID);
    },
    // A stale save keeps the typed values and says so with a Reload (the cached contact is then read anew), once: in
    // the focused notice, no toast beside it. A contact the member already has is refused like any other save (a toast
    // says the server's words): the typed values stay, and a Reload would change nothing.
    onError: (e) => {
      if (duplicateOf(e) === null) stale.onError(e);
    },
  });

  // An open edit holding its contact stays on screen whatever a refetch meanwhile answers (a failed one included).
  const read = isNew || (editing && held.record !== undefined) ? null : contact;
  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  const loading = read !== null && (read.isPending || (read.isError && read.isFetching));
  const failed = read?.isError === true;
  const current = isNew ? null : (held.record ?? null);
  const shown: DetailShown = loading ? 'loading' : failed ? 'failed' : !editing && current ? 'view' : 'form';
  // The detail replaced the list, and the name pressed there went with it: focus goes to the contact's name (its
  // heading) once it is read, or to the first field of a new contact's form; Edit puts it on the form's first field.
  const focus = useDetailFocus(shown, isNew ? 'form' : 'view');

  let content: ReactNode;
  if (loading) content = <p aria-busy="true">{t('loading')}</p>;
  else if (failed) {
    // Said here only (the load does not toast); a record not found would not be found again: no Try again.
    content =
      loadFailure(contact.error) === 'notFound' ? (
        <Message kind="error">{t('notFound')}</Message>
      ) : (
        <LoadFailed message={t('loadError')} onRetry={() => void contact.refetch()} />
      );
  } else if (!editing && current) {
    const rows: [string, string][] = [
      [t('field.FirstName'), current.FirstName],
      [t('field.LastName'), current.LastName],
      [t('field.ContactTypeID'), contactTypeName(t, current.ContactTypeID)],
      [t('field.Phone'), phoneText(current)],
      [t('field.PhoneTypeID'), lookupValue(label, lookups, LookupCategory.PhoneType, current.PhoneTypeID)],
      [t('field.Email'), current.Email ?? ''],
      [t('field.AddressTypeID'), lookupValue(label, lookups, LookupCategory.AddressType, current.AddressTypeID)],
      [t('field.Address1'), current.Address1 ?? ''],
      [t('field.Address2'), current.Address2 ?? ''],
      [t('field.City'), current.City ?? ''],
      [t('field.StateCodeID'), lookupValue(label, lookups, LookupCategory.StateCode, current.StateCodeID)],
      [t('field.Zip'), current.Zip ?? ''],
    ];
    content = (
      <Panel
        title={<span data-testid="contact-name">{shownName(t, current)}</span>}
        actions={
          <ButtonGroup>
            <Button
              variant="primary"
              onPress={() => {
                focus.want('form');
                setEditing(true);
              }}
            >
              {t('edit')}
            </Button>
            <Button onPress={() => onClose()}>{t('backToList')}</Button>
          </ButtonGroup>
        }
      >
        <dl className={detailsList}>
          {rows.map(([label, value]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt className={css.term}>{label}</dt>
              <dd className={css.value}>{value || t('none')}</dd>
            </div>
          ))}
        </dl>
      </Panel>
    );
  } else {
    content = (
      <Form
        // Reload takes the contact as it is now (a new Version): the form starts again from it.
        key={current?.Version ?? 'new'}
        schema={formSchema}
        defaultValues={toForm(current)}
        // The Version the edit started from: someone else's save meanwhile is a 409, never overwritten. A failed save
        // rejects (said by the toast or the notice): the form's values stay unsaved for the leave guard.
        onSubmit={(v) => save.mutateAsync({ values: v, version: current?.Version })}
        aria-label={isNew ? t('addNew') : t('editTitle')}
      >
        <Panel title={<LiveName />}>
          <div className={css.stack}>
            {stale.conflict && <StaleNotice message={stale.conflict} onReload={stale.reload} />}
            <div ref={focus.fieldsRef} className={css.fields}>
              <TextField name="FirstName" label={t('field.FirstName')} isRequired maxLength={50} autoComplete="off" />
              <TextField name="LastName" label={t('field.LastName')} isRequired maxLength={50} autoComplete="off" />
              <SelectField
                name="ContactTypeID"
                label={t('field.ContactTypeID')}
                options={CONTACT_TYPE_IDS.map((k) => ({ value: k, label: contactTypeName(t, k) }))}
              />
              <PhoneField name="Phone" label={t('field.Phone')} autoComplete="off" />
              <LookupSelectField name="PhoneTypeID" label={t('field.PhoneTypeID')} category={LookupCategory.PhoneType} items={lookups} />
              <EmailField name="Email" label={t('field.Email')} autoComplete="off" />
              <LookupSelectField name="AddressTypeID" label={t('field.AddressTypeID')} category={LookupCategory.AddressType} items={lookups} />
              <TextField name="Address1" label={t('field.Address1')} maxLength={100} autoComplete="off" />
              <TextField name="Address2" label={t('field.Address2')} maxLength={100} autoComplete="off" />
              <TextField name="City" label={t('field.City')} maxLength={60} autoComplete="off" />
              <LookupSelectField name="StateCodeID" label={t('field.StateCodeID')} category={LookupCategory.StateCode} items={lookups} />
              <TextField name="Zip" label={t('field.Zip')} maxLength={10} autoComplete="off" />
            </div>
            <ButtonGroup align="start">
              <Button type="submit" variant="primary" isPending={save.isPending}>
                {t('save')}
              </Button>
              <Button onPress={() => onClose()}>{t('cancel')}</Button>
            </ButtonGroup>
          </div>
        </Panel>
      </Form>
    );
  }
  return <div ref={focus.rootRef}>{content}</div>;
}
