import { hasAnyRole } from '@portal/core';
import { FORCED_MOBILE_ROLES } from '@portal/plugin-profile/access';
import { type Address, type Member, PREFERRED_CONTACTS, ProfileApi } from '@portal/plugin-profile/contract';
import { useApi, useRoles } from '@portal/web';
import { Button, EmailField, Form, Message, PhoneField, SelectField, StateSelectField, TextField } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { REGISTRATION_QUESTION_OPTIONS, RegistrationApi, type RegistrationQuestionOption } from '../../contract';
import { RegistrationPaths, STEP_SET_BY } from '../../steps';
import { type SaveFailure, saveFailureOf } from './failure';
import { afterProfileSaved, type PersonalStart, type PersonalValues, personalDefaults, personalSchema, personalStart, savePersonal } from './personalForm';
import { useRaiseStep } from './useStep';
import { WizardNav } from './WizardNav';
import * as css from './wizard.css';

export const MEMBER_KEY = ['registration', 'member'] as const;
export const ADDRESSES_KEY = ['registration', 'addresses'] as const;
const QUESTION_KEY = ['registration', 'question'] as const;

/** Personal Info: the member's names, e-mail, phones, preferred number and current address, plus the registration question. */
export function PersonalInfo() {
  const { t } = useTranslation('registration');
  const api = useApi();
  const member = useQuery({ queryKey: MEMBER_KEY, queryFn: () => api.call(ProfileApi.loadOwn, undefined, { notify: false }) });
  const addresses = useQuery({ queryKey: ADDRESSES_KEY, queryFn: () => api.call(ProfileApi.loadAddresses, undefined, { notify: false }) });
  const question = useQuery({ queryKey: QUESTION_KEY, queryFn: () => api.call(RegistrationApi.question, undefined, { notify: false }) });

  if (member.isPending || addresses.isPending || question.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (!member.data) return <Message kind="error">{member.error instanceof Error ? member.error.message : t('card.loadError')}</Message>;
  // The form takes what was loaded when it opens and keeps it (PersonalStart): later answers of these queries do not
  // reach it until Reload.
  return <PersonalForm initial={personalStart(member.data, addresses.data, question.data?.Question)} />;
}

function PersonalForm({ initial }: { initial: PersonalStart }) {
  const { t } = useTranslation('registration');
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const raise = useRaiseStep();
  const roles = useRoles();
  const forcedMobile = hasAnyRole(roles, FORCED_MOBILE_ROLES);
  const schema = useMemo(() => personalSchema(forcedMobile), [forcedMobile]);
  const [start, setStart] = useState(initial);
  // Which opening of the form this is: Reload draws it anew from the record as it is now.
  const [opening, setOpening] = useState(0);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [reloading, setReloading] = useState(false);

  const save = useMutation({
    mutationFn: (v: PersonalValues) =>
      savePersonal(start, v, forcedMobile, {
        saveProfile: (body) => api.call(ProfileApi.registrationSave, { body }, { notify: false }),
        // Stored before the question is sent: a failure after this point must not leave the old Versions to be sent.
        profileSaved: async (saved) => {
          queryClient.setQueryData(MEMBER_KEY, saved.Member);
          setStart((s) => afterProfileSaved(s, saved));
          await queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY });
        },
        saveQuestion: (q) => api.call(RegistrationApi.saveQuestion, { body: { Question: q } }, { notify: false }),
        raiseStep: () => raise(STEP_SET_BY.profile),
      }),
    onMutate: () => setFailure(null),
    onSuccess: () => navigate(RegistrationPaths.contact),
    // A stale save (409) reads nothing again: the form keeps what the member typed until they press Reload.
    onError: (e) => setFailure(saveFailureOf(e)),
  });
  // Reload: the stored profile again; the form starts over from it. A reload that failed keeps the typed values and
  // the notice.
  const reload = async () => {
    setReloading(true);
    try {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: MEMBER_KEY }, { throwOnError: true }),
        queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY }, { throwOnError: true }),
        queryClient.invalidateQueries({ queryKey: QUESTION_KEY }, { throwOnError: true }),
      ]);
      const member = queryClient.getQueryData<Member>(MEMBER_KEY);
      if (member) {
        const question = queryClient.getQueryData<{ Question: RegistrationQuestionOption | null }>(QUESTION_KEY);
        setStart(personalStart(member, queryClient.getQueryData<Address[]>(ADDRESSES_KEY), question?.Question));
        setOpening((n) => n + 1);
        setFailure(null);
      }
    } catch {
      // The notice stays, with its Reload.
    } finally {
      setReloading(false);
    }
  };

  return (
    <Form
      key={opening}
      schema={schema}
      defaultValues={personalDefaults(start, forcedMobile)}
      onSubmit={(v) => save.mutateAsync(v)}
      aria-label={t('title.profile')}
    >
      <div className={css.stack}>
        <p>{t('profile.intro')}</p>
        {failure?.stale && (
          <Message kind="warning" autoFocus data-testid="registration-stale">
            <span>{failure.message}</span>{' '}
            <Button size="small" onPress={() => void reload()} isPending={reloading}>
              {t('profile.reload')}
            </Button>
          </Message>
        )}
        {failure && !failure.stale && (
          <Message kind="error" data-testid="registration-error">
            {failure.message}
          </Message>
        )}
        <div className={css.fields}>
          <TextField name="FirstName" label={t('profile.FirstName')} isRequired maxLength={100} autoComplete="given-name" />
          <TextField name="LastName" label={t('profile.LastName')} isRequired maxLength={100} autoComplete="family-name" />
          {start.member.Email ? (
            // The address registered with: it changes only on the account page once registered (password, a link to
            // the new address, a notice to the old one); the save sends it unchanged and the server refuses another.
            <dl className={css.field} data-testid="registration-email">
              <dt className={css.term}>{t('profile.Email')}</dt>
              <dd className={css.value}>{start.member.Email}</dd>
            </dl>
          ) : (
            <EmailField name="Email" label={t('profile.Email')} isRequired />
          )}
          <PhoneField name="MobilePhone" label={t('profile.MobilePhone')} isRequired />
          <PhoneField name="HomePhone" label={t('profile.HomePhone')} />
          <PhoneField name="WorkPhone" label={t('profile.WorkPhone')} />
          <SelectField
            name="PreferredContactNumber"
            label={t('profile.PreferredContactNumber')}
            isRequired
            isDisabled={forcedMobile}
            options={PREFERRED_CONTACTS.map((p) => ({ value: p, label: t(`profile.preferred.${p}`) }))}
          />
          <TextField name="Address1" label={t('profile.Address1')} isRequired maxLength={200} autoComplete="address-line1" />
          <TextField name="Address2" label={t('profile.Address2')} maxLength={200} autoComplete="address-line2" />
          <TextField name="City" label={t('profile.City')} isRequired maxLength={100} autoComplete="address-level2" />
          <StateSelectField name="State" label={t('profile.State')} isRequired />
          <TextField name="Zip" label={t('profile.Zip')} isRequired maxLength={10} autoComplete="postal-code" />
          <SelectField
            name="Question"
            label={t('profile.question')}
            options={REGISTRATION_QUESTION_OPTIONS.map((o) => ({ value: o, label: t(`profile.questionOptions.${o}`) }))}
          />
        </div>
        <WizardNav previous={null} nextIsSubmit isPending={save.isPending} />
      </div>
    </Form>
  );
}
