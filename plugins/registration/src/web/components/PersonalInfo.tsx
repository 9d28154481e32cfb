import { hasAnyRole, isEmail, validationMessages as m, zipSchema } from '@portal/core';
import { FORCED_MOBILE_ROLES } from '@portal/plugin-profile/access';
import { PREFERRED_CONTACTS, ProfileApi } from '@portal/plugin-profile/contract';
import { useApi, useRoles } from '@portal/web';
import { Button, EmailField, Form, Message, PhoneField, SelectField, StateSelectField, TextField } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { REGISTRATION_QUESTION_OPTIONS, RegistrationApi, type RegistrationQuestionOption } from '../../contract';
import { RegistrationPaths, STEP_SET_BY } from '../../steps';
import { type SaveFailure, saveFailureOf } from './failure';
import { useRaiseStep } from './useStep';
import { WizardNav } from './WizardNav';
import * as css from './wizard.css';

export const MEMBER_KEY = ['registration', 'member'] as const;
export const ADDRESSES_KEY = ['registration', 'addresses'] as const;
const QUESTION_KEY = ['registration', 'question'] as const;

const optionalPhone = z.string().refine((v) => v === '' || /^\d{10}$/.test(v), m.phone);
const required = (max: number) => z.string().trim().min(1, m.required).max(max);

/** Wizard step 1 (spec 01 section 5) with the member rules of the profile plugin. */
function formSchema(forcedMobile: boolean) {
  return z
    .object({
      FirstName: required(100),
      LastName: required(100),
      Email: z
        .string()
        .trim()
        .refine((v) => isEmail(v), m.email),
      MobilePhone: z
        .string()
        .refine((v) => v !== '', m.required)
        .refine((v) => v === '' || /^\d{10}$/.test(v), m.phone)
        .refine((v) => !v.startsWith('0'), m.mobileStartsWithZero),
      HomePhone: optionalPhone,
      WorkPhone: optionalPhone,
      PreferredContactNumber: z.enum(PREFERRED_CONTACTS, { error: m.required }),
      Address1: required(200),
      Address2: z.string().trim().max(200),
      City: required(100),
      State: z.string({ error: m.required }).min(1, m.required),
      Zip: zipSchema,
      Question: z.enum(REGISTRATION_QUESTION_OPTIONS).nullable(),
    })
    .superRefine((v, ctx) => {
      const preferred = forcedMobile ? 'Mobile' : v.PreferredContactNumber;
      if (preferred === 'Home' && v.HomePhone === '') ctx.addIssue({ code: 'custom', message: m.required, path: ['HomePhone'] });
      if (preferred === 'Work' && v.WorkPhone === '') ctx.addIssue({ code: 'custom', message: m.required, path: ['WorkPhone'] });
    });
}
type FormValues = z.infer<ReturnType<typeof formSchema>>;

/** Personal Info: the member's names, e-mail, phones, preferred number and current address, plus the registration question. */
export function PersonalInfo() {
  const { t } = useTranslation('registration');
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const raise = useRaiseStep();
  const roles = useRoles();
  const forcedMobile = hasAnyRole(roles, FORCED_MOBILE_ROLES);
  const schema = useMemo(() => formSchema(forcedMobile), [forcedMobile]);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [reloading, setReloading] = useState(false);
  const member = useQuery({ queryKey: MEMBER_KEY, queryFn: () => api.call(ProfileApi.loadOwn, undefined, { notify: false }) });
  const addresses = useQuery({ queryKey: ADDRESSES_KEY, queryFn: () => api.call(ProfileApi.loadAddresses, undefined, { notify: false }) });
  const question = useQuery({ queryKey: QUESTION_KEY, queryFn: () => api.call(RegistrationApi.question, undefined, { notify: false }) });

  const save = useMutation({
    mutationFn: async (v: FormValues) => {
      const current = member.data;
      if (!current) throw new Error(t('loading'));
      const saved = await api.call(
        ProfileApi.registrationSave,
        {
          body: {
            MemberID: current.MemberID,
            Version: current.Version,
            FirstName: v.FirstName,
            LastName: v.LastName,
            Email: v.Email,
            DateOfBirth: current.DateOfBirth,
            Gender: current.Gender as 'F' | 'M' | 'X' | null,
            PBMVendor: current.PBMVendor,
            MobilePhone: v.MobilePhone,
            HomePhone: v.HomePhone || null,
            WorkPhone: v.WorkPhone || null,
            PreferredContactNumber: forcedMobile ? 'Mobile' : v.PreferredContactNumber,
            Address1: v.Address1,
            Address2: v.Address2 || null,
            City: v.City,
            State: v.State,
            Zip: v.Zip,
            // The address the form showed: one changed since (by staff, another tab) is a 409, not overwritten. Addresses
            // that did not load are not checked (the form showed none of them).
            ...(addresses.data ? { AddressVersion: addresses.data.find((a) => a.IsCurrent)?.Version ?? null } : {}),
          },
        },
        { notify: false },
      );
      if (v.Question) await api.call(RegistrationApi.saveQuestion, { body: { Question: v.Question } }, { notify: false });
      queryClient.setQueryData(MEMBER_KEY, saved.Member);
      await queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY });
      await raise(STEP_SET_BY.profile);
    },
    onMutate: () => setFailure(null),
    onSuccess: () => navigate(RegistrationPaths.contact),
    // A stale save (409) reads nothing again: the form keeps what the member typed until they press Reload.
    onError: (e) => setFailure(saveFailureOf(e)),
  });
  // Reload: the stored profile again; the form starts over from it (its key is the member's Version).
  const reload = async () => {
    setReloading(true);
    try {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: MEMBER_KEY }),
        queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY }),
        queryClient.invalidateQueries({ queryKey: QUESTION_KEY }),
      ]);
      setFailure(null);
    } finally {
      setReloading(false);
    }
  };

  if (member.isPending || addresses.isPending || question.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (!member.data) return <Message kind="error">{member.error instanceof Error ? member.error.message : t('card.loadError')}</Message>;
  const x = member.data;
  const address = addresses.data?.find((a) => a.IsCurrent) ?? addresses.data?.[0];
  const defaults: FormValues = {
    FirstName: x.FirstName,
    LastName: x.LastName,
    Email: x.Email ?? '',
    MobilePhone: x.MobilePhone ?? '',
    HomePhone: x.HomePhone ?? '',
    WorkPhone: x.WorkPhone ?? '',
    PreferredContactNumber: forcedMobile ? 'Mobile' : x.PreferredContactNumber,
    Address1: address?.Address1 ?? '',
    Address2: address?.Address2 ?? '',
    City: address?.City ?? '',
    State: address?.State ?? '',
    Zip: address?.Zip ?? '',
    Question: (question.data?.Question as RegistrationQuestionOption | null | undefined) ?? null,
  };
  return (
    <Form key={x.Version} schema={schema} defaultValues={defaults} onSubmit={(v) => save.mutate(v)} aria-label={t('title.profile')}>
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
          <EmailField name="Email" label={t('profile.Email')} isRequired />
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
