import { LANGUAGES, languageOf } from '@portal/core';
import { LANGUAGE_NAMES, newCreateKey, SubmissionKeys, useApi, useGoBack, useSwapFocus } from '@portal/web';
import { Button, detailsList, Form, SelectField, TextField, Toolbar, useKitForm } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { USERS_PATH, userDetailPath } from '../../access';
import { type User, UsersApi } from '../../contract';
import { loginStatus } from '../../rules';
import { StaleWarning } from './StaleWarning';
import { type DetailsValues, isStaleSave, type TabDraftHandle } from './tabDrafts';
import { refusalNote, useChangeRefusals } from './useCaller';
import * as css from './users.css';

const schema = z.object({
  FirstName: z.string().trim().min(1, 'users:validation.firstName').max(100, 'users:validation.tooLong'),
  LastName: z.string().trim().min(1, 'users:validation.lastName').max(100, 'users:validation.tooLong'),
  CompanyId: z.number({ error: 'users:validation.company' }),
  ContactId: z.number({ error: 'users:validation.contact' }),
  Language: z.enum(LANGUAGES),
});

/** Each language by its own name, marked as written in it. */
const languageOptions = LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l], lang: l }));

/**
 * Details: view, then edit (company and contact pickers) with cancel restoring; a new user opens in edit. The edit lives
 * on the user page (`draft`), so switching tabs keeps it; it saves against the Version it was opened with.
 */
export function DetailsTab({ user, draft: store }: { user: User | null; draft: TabDraftHandle<'details'> }) {
  const { t, i18n } = useTranslation('users');
  const refused = useChangeRefusals(user).details;
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Cancel on a new user: back where the user came from, or the user list when the page was opened directly.
  const goBack = useGoBack(USERS_PATH);
  const editing = user === null || store.draft !== undefined;
  const [sending, setSending] = useState(false);
  // A new user's IdempotencyKey, one per submission: saving it again after a failure (an answer lost) adds it once.
  const keys = useRef(new SubmissionKeys(() => newCreateKey('user'))).current;
  const valuesOf = (u: User | null): DetailsValues => ({
    FirstName: u?.FirstName ?? '',
    LastName: u?.LastName ?? '',
    CompanyId: u?.CompanyId ?? undefined,
    ContactId: u?.ContactId ?? undefined,
    // A new user's e-mails default to the language the administrator works in.
    Language: u?.Language ?? languageOf(i18n.language) ?? 'en',
  });
  const defaults = () => valuesOf(user);
  const form = useKitForm(schema, { defaultValues: store.draft?.value ?? defaults() });
  // Every change goes to the page's draft, which gives it back when the tab is opened again.
  const { edit } = store;
  useEffect(() => {
    if (!editing) return;
    const sub = form.watch((values) => edit((v) => ({ ...v, ...(values as Partial<DetailsValues>) })));
    return () => sub.unsubscribe();
  }, [editing, form, edit]);
  const companyId = form.watch('CompanyId');
  const contactId = form.watch('ContactId');
  const companies = useQuery({ queryKey: ['users', 'companies'], queryFn: () => api.call(UsersApi.companies), enabled: editing });
  const contacts = useQuery({
    queryKey: ['users', 'companies', companyId, 'contacts'],
    queryFn: () => api.call(UsersApi.companyContacts, { params: { companyId: companyId as number } }),
    enabled: editing && typeof companyId === 'number',
  });
  const contact = contacts.data?.find((c) => c.Id === contactId);
  // Edit puts focus on the form's first field (the company picker, once its choices are in: until then it is disabled);
  // a save that went through, or Cancel, back on Edit.
  const focus = useSwapFocus(editing ? 'form' : 'view', { ready: !editing || !companies.isPending });

  // A contact of another company is no choice: picking a company clears it.
  useEffect(() => {
    if (contacts.data && typeof contactId === 'number' && !contacts.data.some((c) => c.Id === contactId)) form.setValue('ContactId', undefined as never);
  }, [contacts.data, contactId, form]);

  const pickContact = (id: number) => {
    const c = contacts.data?.find((x) => x.Id === id);
    if (!c) return;
    if (!form.getValues('FirstName')) form.setValue('FirstName', c.FirstName, { shouldValidate: true, shouldDirty: true });
    if (!form.getValues('LastName')) form.setValue('LastName', c.LastName, { shouldValidate: true, shouldDirty: true });
  };

  const cancel = () => {
    if (!user) {
      // Back to the start first: a Cancel drops what was typed on purpose, so leaving asks nothing.
      form.reset(defaults());
      goBack();
      return;
    }
    focus.want('view');
    form.reset(defaults());
    store.drop();
  };
  const startEditing = () => {
    if (!user) return;
    focus.want('form');
    form.reset(defaults());
    store.start(defaults(), user.Version);
  };
  const reload = async () => {
    if (!user) return;
    const fresh = await api.call(UsersApi.getById, { params: { id: user.Id } });
    await queryClient.invalidateQueries({ queryKey: ['users'] });
    form.reset(valuesOf(fresh));
    store.start(valuesOf(fresh), fresh.Version);
  };

  const save = async (values: z.output<typeof schema>) => {
    const from = store.draft?.version ?? user?.Version;
    const pressed = document.activeElement;
    try {
      const payload = { Id: user?.Id ?? null, Version: from, IsNew: user === null, ...values };
      const saved = await api.call(UsersApi.save, { body: user ? payload : { ...payload, IdempotencyKey: keys.keyFor(payload) } });
      if (!user) keys.added();
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      if (!user) navigate(userDetailPath(saved.Id), { replace: true });
      else {
        focus.want('view', pressed);
        form.reset({
          FirstName: saved.FirstName,
          LastName: saved.LastName,
          CompanyId: saved.CompanyId ?? undefined,
          ContactId: saved.ContactId ?? undefined,
          Language: saved.Language,
        });
        if (from === undefined) store.drop();
        else store.saved(from, saved.Version);
      }
    } catch (e) {
      // The client showed the server's message; the form stays open with the user's input, and a stale save offers a reload.
      if (isStaleSave(e)) store.stale();
      // Rejected: the kit Form counts the input as unsaved (leaving asks).
      throw e;
    }
  };

  const sendActivation = async () => {
    if (!user) return;
    setSending(true);
    try {
      await api.call(UsersApi.activate, { body: { Id: user.Id } });
    } catch {
      // Shown as a toast by the client.
    } finally {
      setSending(false);
    }
  };

  if (!editing && user) {
    const facts: [string, ReactNode][] = [
      [t('fields.UserName'), user.UserName],
      [t('fields.FirstName'), user.FirstName],
      [t('fields.LastName'), user.LastName],
      [t('fields.CompanyName'), user.CompanyName ?? t('none')],
      [t('fields.Status'), { active: t('status.active'), inactive: t('status.inactive'), closed: t('status.closed') }[loginStatus(user)]],
      [t('fields.Language'), <span lang={user.Language}>{LANGUAGE_NAMES[user.Language]}</span>],
    ];
    return (
      <section className={css.stack} aria-label={t('tabs.details')}>
        <dl className={detailsList}>
          {facts.map(([term, value]) => (
            <div key={term} style={{ display: 'contents' }}>
              <dt className={css.term}>{term}</dt>
              <dd className={css.detail}>{value}</dd>
            </div>
          ))}
        </dl>
        <Toolbar aria-label={t('details.actions')}>
          {refused === null && (
            <Button ref={focus.editRef} onPress={startEditing}>
              {t('actions.edit')}
            </Button>
          )}
          {refused === 'outranked' && <span className={css.muted}>{refusalNote(t, refused, '')}</span>}
          {!user.IsActive && !user.IsClosed && (
            <Button onPress={sendActivation} isPending={sending} pendingLabel={t('details.sending')}>
              {t('details.sendActivation')}
            </Button>
          )}
        </Toolbar>
      </section>
    );
  }

  return (
    <Form form={form} onSubmit={save} aria-label={user ? t('details.editLabel') : t('details.newLabel')}>
      {store.draft?.stale && <StaleWarning onReload={reload} />}
      {/* Each picker stays disabled until its choices are in (the kit's SelectField with no options): the contacts until a company is chosen. */}
      <div ref={focus.fieldsRef} style={{ display: 'contents' }}>
        <SelectField
          name="CompanyId"
          label={t('fields.CompanyName')}
          isRequired
          options={(companies.data ?? []).map((c) => ({ value: c.Id, label: c.Name }))}
        />
        <SelectField
          name="ContactId"
          label={t('fields.Contact')}
          isRequired
          description={t('details.contactHelp')}
          options={(contacts.data ?? []).map((c) => ({ value: c.Id, label: `${c.LastName}, ${c.FirstName} (${c.Email})` }))}
        />
        <ContactWatcher id={contactId} onPick={pickContact} />
        <p>
          {t('fields.UserName')}: <strong data-testid="users-username">{contact?.Email ?? user?.UserName ?? t('details.fromContact')}</strong>
        </p>
        <TextField name="FirstName" label={t('fields.FirstName')} maxLength={100} isRequired />
        <TextField name="LastName" label={t('fields.LastName')} maxLength={100} isRequired />
        <SelectField name="Language" label={t('fields.Language')} isRequired description={t('details.languageHelp')} options={languageOptions} />
      </div>
      <Toolbar aria-label={t('details.actions')}>
        <Button type="submit" variant="primary" isPending={form.formState.isSubmitting}>
          {t('actions.save')}
        </Button>
        <Button onPress={cancel}>{t('actions.cancel')}</Button>
      </Toolbar>
    </Form>
  );
}

/** Calls onPick when the chosen contact changes (names are filled from the contact when still empty). */
function ContactWatcher({ id, onPick }: { id: number | undefined; onPick: (id: number) => void }) {
  const [last, setLast] = useState(id);
  useEffect(() => {
    if (id !== last) {
      setLast(id);
      if (typeof id === 'number') onPick(id);
    }
  }, [id, last, onPick]);
  return null;
}
