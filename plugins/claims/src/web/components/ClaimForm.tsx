import { hasAnyRole, LookupCategory, Roles } from '@portal/core';
import { useRoles } from '@portal/web';
import { DatePickerField, Form, type KitForm, lookupOptions, MoneyField, NumberField, SelectField, TextField } from '@portal/web/kit';
import { type ReactNode, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { CLAIM_TYPE_IDS, type Claim } from '../../contract';
import { type ClaimFormValues, claimFormSchema, formValues, newClaimFormSchema } from './claimPayload';
import * as css from './claims.css';
import { claimTypeChoice } from './format';
import { firstField } from './formFocus';
import { useClaimLookups } from './useClaimLookups';
import { VendorSearch } from './VendorSearch';

export { type ClaimFormValues, claimFormSchema, formValues, toPayload } from './claimPayload';

interface Props {
  initial: Claim | null;
  /** New bills ask for the member unless acting for one. */
  askMember: boolean;
  busy: boolean;
  onSave: (v: ClaimFormValues) => void;
  onCancel: () => void;
  /** Shown above the fields: a save refused as stale, with its Reload. */
  conflict?: ReactNode;
  /**
   * The form's first field takes focus when it opens: the form replaced the control that opened it (Edit, or the Save
   * of the bill created before it). A refused save focuses the first invalid field (the kit's form does).
   */
  focusFirst?: boolean;
}

/** Focuses a field of the form once, when the form opens (the fields' refs are set by then). */
function FocusOnOpen({ form, name }: { form: KitForm<typeof claimFormSchema>; name: keyof ClaimFormValues }) {
  // Once, when the form opens: never again while the user types.
  useEffect(() => {
    form.setFocus(name);
  }, []);
  return null;
}

/** The bill editor: kit fields, payee search, payment fields for SuperUser only. */
export function ClaimForm({ initial, askMember, busy, onSave, onCancel, conflict, focusFirst = false }: Props) {
  const { t } = useTranslation('claims');
  const roles = useRoles();
  const superUser = hasAnyRole(roles, [Roles.SuperUser]);
  const { billTypes, label } = useClaimLookups();
  const [picked, setPicked] = useState<string | null>(initial?.PayeeID ? initial.PayeeName : null);
  return (
    <Form schema={askMember ? newClaimFormSchema : claimFormSchema} defaultValues={formValues(initial)} onSubmit={onSave} aria-label={t('title.detail')}>
      {(form) => (
        <div className={css.stack}>
          {conflict}
          <div className={css.fields}>
            {askMember && <NumberField name="MemberID" label={t('detail.memberId')} isRequired minValue={1} />}
            <TextField name="ClaimNumber" label={t('grid.ClaimNumber')} />
            <div>
              <p className={css.dt}>
                {t('detail.payee')}: <strong data-testid="picked-payee">{picked ?? t('detail.none')}</strong>
              </p>
              <VendorSearch
                onPick={(v) => {
                  setPicked(v.PayeeName);
                  form.setValue('PayeeID', v.PayeeID, { shouldDirty: true, shouldValidate: true });
                  form.setValue('PayeeName', '', { shouldDirty: true, shouldValidate: true });
                }}
              />
            </div>
            <TextField name="PayeeName" label={t('detail.newPayee')} />
            <SelectField name="BillTypeID" label={t('grid.BillTypeID')} isRequired options={lookupOptions(billTypes, LookupCategory.BillEntryType, label)} />
            <SelectField
              name="ClaimTypeID"
              label={t('grid.ClaimTypeID')}
              isRequired
              options={CLAIM_TYPE_IDS.map((id) => ({ value: id, label: claimTypeChoice(t, id) }))}
            />
            <MoneyField name="BilledAmount" label={t('grid.BilledAmount')} isRequired />
            <MoneyField name="SubmittedUNCAmount" label={t('grid.SubmittedUNCAmount')} />
            <DatePickerField name="ServiceDateFrom" label={t('grid.ServiceDateFrom')} isRequired />
            <DatePickerField name="ServiceDateTo" label={t('grid.ServiceDateTo')} />
            <DatePickerField name="ReceivedDate" label={t('grid.ReceivedDate')} />
            {superUser && (
              <>
                <DatePickerField name="PaidDate" label={t('grid.PaidDate')} />
                <MoneyField name="PaidAmount" label={t('grid.PaidAmount')} />
                <TextField name="CheckNumber" label={t('grid.CheckNumber')} />
              </>
            )}
          </div>
          {focusFirst && <FocusOnOpen form={form} name={firstField(askMember)} />}
          <div className={css.row}>
            {/* Pending keeps the pressed Save focused while the call runs (a disabled button drops focus) and ignores presses. */}
            <Button type="submit" className={css.primary} isPending={busy}>
              {t('detail.save')}
            </Button>
            <Button
              className={css.button}
              onPress={() => {
                form.reset(formValues(initial));
                setPicked(initial?.PayeeID ? initial.PayeeName : null);
                onCancel();
              }}
            >
              {t('detail.cancel')}
            </Button>
          </div>
        </div>
      )}
    </Form>
  );
}
