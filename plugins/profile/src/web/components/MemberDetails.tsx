import { DOB_AFTER_MASKED, formatPhone, hasAnyRole } from '@portal/core';
import { ApiCallError, queryKeys, useApi, useIdentity, useRoles, useSwapFocus } from '@portal/web';
import {
  Button,
  ButtonGroup,
  detailsList,
  EmailField,
  Form,
  MaskedDateField,
  Message,
  Panel,
  PhoneField,
  SelectField,
  StaleNotice,
  TextField,
} from '@portal/web/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PHONE_EDIT_ROLES, TERMINATE_ACCESS } from '../../access';
import { GENDERS, type Member, PBM_VENDORS, PREFERRED_CONTACTS, ProfileApi } from '../../contract';
import { draftKey, shownRecord } from './drafts';
import { memberQueryKey } from './keys';
import { Membership } from './Membership';
import { type FormValues, forcedNoteKey, formSchema, renamesViewer, saveBodyOf, toForm } from './memberForm';
import { PhoneVerification } from './PhoneVerification';
import * as css from './profile.css';
import { KeepTyped, useDraft, useDraftStore } from './useDraft';

/** The account page (plugins/account, AccountRoutes.account), whose "E-mail address" section changes a member's own address. */
const ACCOUNT_EMAIL_PATH = '/account';

/**
 * My Profile: the detail view, then edit, then save or cancel (cancel restores the stored values). `member` is the
 * live record; an open edit is kept in the page's draft store (see drafts.ts) with the record it started from, which
 * the form shows and whose Version the save sends until Reload, Cancel or a save that went through replaces it.
 */
export function MemberDetails({
  member: live,
  queryKey = memberQueryKey,
  forStaff = false,
}: {
  member: Member;
  queryKey?: readonly unknown[];
  forStaff?: boolean;
}) {
  const { t } = useTranslation('profile');
  const api = useApi();
  const queryClient = useQueryClient();
  const roles = useRoles();
  const viewerMemberId = useIdentity().data?.MemberID;
  const canEditPhones = hasAnyRole(roles, PHONE_EDIT_ROLES);
  const drafts = useDraftStore();
  const key = draftKey(forStaff ? 'support' : 'own', live.MemberID, 'member');
  const draft = useDraft<Member, FormValues>(key);
  const editing = draft !== undefined;
  const member = shownRecord(draft, live);
  // The member's rule (their own roles, answered by the server), not the signed-in user's: staff see it too.
  const forcedMobile = member.IsMobileRequired;
  const forcedNote = forcedNoteKey(member, viewerMemberId);
  const schema = useMemo(() => formSchema({ IsMobileRequired: forcedMobile }), [forcedMobile]);
  const [stale, setStale] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Edit puts focus on the form's first field; a save that went through, or Cancel, back on Edit.
  const focus = useSwapFocus(editing ? 'form' : 'view');

  const save = useMutation({
    mutationFn: (v: FormValues) => api.call(ProfileApi.save, { body: saveBodyOf(member, v) }, { notify: false }),
    // The control pressed (Save, or the field Enter was pressed in): focus returns to Edit only from there, or when lost.
    onMutate: () => {
      setError(null);
      setStale(false);
      return { pressed: document.activeElement };
    },
    onSuccess: (saved, _values, sent) => {
      queryClient.setQueryData(queryKey, saved);
      // The navigation bar shows the member's name: a member who renamed themself sees the new one there at once.
      if (renamesViewer(member, saved, viewerMemberId)) void queryClient.invalidateQueries({ queryKey: queryKeys.identity });
      focus.want('view', sent?.pressed ?? null);
      drafts.close(key);
    },
    onError: (e) => {
      if (e instanceof ApiCallError && e.status === 409) setStale(true);
      else setError(e instanceof Error ? e.message : String(e));
    },
  });
  // The record as it is now, and the edit opened again from it; a reload that failed keeps the edit and the notice.
  const reload = async () => {
    try {
      await queryClient.invalidateQueries({ queryKey }, { throwOnError: true });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    const fresh = queryClient.getQueryData<Member>(queryKey);
    if (fresh?.MemberID === member.MemberID) drafts.open(key, fresh, toForm(fresh));
    else drafts.close(key);
    setStale(false);
    setError(null);
  };

  const genderLabel = (g: string | null) => (g ? t(`gender.${g}`) : '');
  const preferredLabel = (p: string) => t(`preferred.${p}`);

  if (!editing) {
    const rows: [string, string][] = [
      [t('field.MemberNumber'), member.MemberNumber],
      [t('field.FirstName'), member.FirstName],
      [t('field.LastName'), member.LastName],
      [t('field.Email'), member.Email ?? ''],
      [t('field.DateOfBirth'), member.DOBStr ?? ''],
      [t('field.Gender'), genderLabel(member.Gender)],
      [t('field.HomePhone'), formatPhone(member.HomePhone)],
      [t('field.WorkPhone'), formatPhone(member.WorkPhone)],
      [t('field.MobilePhone'), formatPhone(member.MobilePhone)],
      [t('field.PreferredContactNumber'), preferredLabel(member.PreferredContactNumber)],
      [t('field.IsPhoneValidated'), member.IsPhoneValidated ? t('verified') : t('notVerified')],
      [t('field.PBMVendor'), member.PBMVendor ?? ''],
    ];
    return (
      <div className={css.stack}>
        <Panel
          title={t('detailsTitle')}
          headingLevel={2}
          actions={
            <Button
              ref={focus.editRef}
              variant="primary"
              onPress={() => {
                focus.want('form');
                drafts.open(key, live, toForm(live));
              }}
            >
              {t('edit')}
            </Button>
          }
        >
          <dl className={detailsList} data-testid="member-details">
            {rows.map(([label, value]) => (
              <div key={label} className={css.contents}>
                <dt className={css.term}>{label}</dt>
                <dd className={css.value}>{value || t('none')}</dd>
              </div>
            ))}
          </dl>
        </Panel>
        {/* Verifying a phone is the member's own act (the server takes a code for the signed-in member, or for the
            member a staff user acts for): support's screens of a member show the status and offer no code. */}
        {member.MobilePhone && !forStaff && <PhoneVerification member={member} />}
        {hasAnyRole(roles, TERMINATE_ACCESS) && <Membership member={member} />}
      </div>
    );
  }

  return (
    // Drawn anew for each opening of the edit (Edit, Reload), from the values as typed (a tab switch and back).
    <Form key={draft.id} leaveGuard="closing" schema={schema} defaultValues={draft.values} onSubmit={(v) => save.mutate(v)} aria-label={t('editTitle')}>
      {(form) => (
        <Panel title={t('editTitle')} headingLevel={2}>
          <KeepTyped form={form} draftKey={key} />
          <div className={css.stack}>
            {stale && <StaleNotice message={t('stale')} onReload={reload} />}
            {error && <Message kind="error">{error}</Message>}
            <div ref={focus.fieldsRef} className={css.fields}>
              <TextField name="FirstName" label={t('field.FirstName')} isRequired maxLength={100} autoComplete="given-name" />
              <TextField name="LastName" label={t('field.LastName')} isRequired maxLength={100} autoComplete="family-name" />
              {forStaff ? (
                <EmailField name="Email" label={t('field.Email')} isRequired />
              ) : (
                // A member's own address changes only on the account page (password, a link to the new address):
                // shown here as text, and the save sends it unchanged.
                <dl className={css.readOnlyField} data-testid="member-email">
                  <dt className={css.term}>{t('field.Email')}</dt>
                  <dd className={css.value}>
                    <span>{member.Email || t('none')}</span>{' '}
                    <a href={ACCOUNT_EMAIL_PATH} className={css.link}>
                      {t('emailChange')}
                    </a>
                  </dd>
                </dl>
              )}
              <MaskedDateField name="DOB" label={t('field.DateOfBirth')} after={DOB_AFTER_MASKED} autoComplete="bday" />
              <SelectField name="Gender" label={t('field.Gender')} options={GENDERS.map((g) => ({ value: g, label: genderLabel(g) }))} />
              <SelectField name="PBMVendor" label={t('field.PBMVendor')} options={PBM_VENDORS.map((v) => ({ value: v, label: v }))} />
              <PhoneField name="MobilePhone" label={t('field.MobilePhone')} isRequired={forcedMobile} isDisabled={!canEditPhones} />
              <PhoneField name="HomePhone" label={t('field.HomePhone')} isDisabled={!canEditPhones} />
              <PhoneField name="WorkPhone" label={t('field.WorkPhone')} isDisabled={!canEditPhones} />
              <SelectField
                name="PreferredContactNumber"
                label={t('field.PreferredContactNumber')}
                isRequired
                isDisabled={forcedMobile}
                description={forcedNote ? t(forcedNote) : undefined}
                options={PREFERRED_CONTACTS.map((p) => ({ value: p, label: preferredLabel(p) }))}
              />
            </div>
            <ButtonGroup align="start">
              <Button type="submit" variant="primary" isPending={save.isPending}>
                {t('save')}
              </Button>
              <Button
                onPress={() => {
                  focus.want('view');
                  drafts.close(key);
                  setStale(false);
                  setError(null);
                }}
              >
                {t('cancel')}
              </Button>
            </ButtonGroup>
          </div>
        </Panel>
      )}
    </Form>
  );
}
