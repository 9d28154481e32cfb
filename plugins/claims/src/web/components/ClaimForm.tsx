import { hasAnyRole, LookupCategory, Roles } from '@portal/core';
import { useRoles } from '@portal/web';
import { DatePickerField, Form, type KitForm, lookupOptions, MoneyField, NumberField, SelectField, TextField } from '@portal/web/kit';
import { type ReactNode, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CLAIM_TYPE_IDS, type Claim } from '../../contract';
import * as css from './claims.css';
import { claimTypeName } from './format';
import { firstField } from './formFocus';
import { useClaimLookups } from './useClaimLookups';
import { VendorSearch } from './VendorSearch';

const required = 'validation.required';
export const claimFormSchema = z
  .object({
    MemberID: z.number().nullable(),
    ClaimNumber: z.string(),
    PayeeID: z.number().nullable(),
    PayeeName: z.string(),
    BillTypeID: z.number({ error: required }),
    ClaimTypeID: z.number({ error: required }),
    BilledAmount: z.string().min(1, required),
    SubmittedUNCAmount: z.string(),
    ServiceDateFrom: z.string({ error: required }).min(1, required),
    ServiceDateTo: z.string().nullable(),
    ReceivedDate: z.string().nullable(),
    PaidDate: z.string().nullable(),
    PaidAmount: z.string(),
    CheckNumber: z.string(),
  })
  .refine((v) => v.PayeeID !== null || v.PayeeName.trim() !== '', { path: ['PayeeName'], message: required });
export type ClaimFormValues = z.infer<typeof claimFormSchema>;

export function formValues(c: Claim | null): ClaimFormValues {
  return {
    MemberID: c?.MemberID ?? null,
    ClaimNumber: c?.ClaimNumber ?? '',
    PayeeID: c?.PayeeID ?? null,
    PayeeName: c?.PayeeID ? '' : (c?.PayeeName ?? ''),
    BillTypeID: c?.BillTypeID as number,
    ClaimTypeID: c?.ClaimTypeID ?? 5,
    BilledAmount: c ? c.BilledAmount.toFixed(2) : '',
    SubmittedUNCAmount: c?.SubmittedUNCAmount?.toFixed(2) ?? '',
    ServiceDateFrom: c?.ServiceDateFrom ?? '',
    ServiceDateTo: c?.ServiceDateTo ?? null,
    ReceivedDate: c?.ReceivedDate ?? null,
    PaidDate: c?.PaidDate ?? null,
    PaidAmount: c?.PaidAmount?.toFixed(2) ?? '',
    CheckNumber: c?.CheckNumber ?? '',
  };
}

/** The wire payload: empty text is absent. */
export function toPayload(v: ClaimFormValues, superUser: boolean) {
  const opt = (s: string) => (s.trim() === '' ? null : s.trim());
  return {
    MemberID: v.MemberID,
    ClaimNumber: opt(v.ClaimNumber),
    // A typed new payee name wins over a picked payee.
    PayeeID: opt(v.PayeeName) ? null : v.PayeeID,
    PayeeName: opt(v.PayeeName),
    BillTypeID: v.BillTypeID,
    ClaimTypeID: v.ClaimTypeID,
    BilledAmount: v.BilledAmount,
    SubmittedUNCAmount: opt(v.SubmittedUNCAmount),
    ServiceDateFrom: v.ServiceDateFrom,
    ServiceDateTo: v.ServiceDateTo,
    ReceivedDate: v.ReceivedDate,
    ...(superUser ? { PaidDate: v.PaidDate, PaidAmount: opt(v.PaidAmount), CheckNumber: opt(v.CheckNumber) } : {}),
  };
}

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
    <Form schema={claimFormSchema} defaultValues={formValues(initial)} onSubmit={onSave} aria-label={t('title.detail')}>
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
              options={CLAIM_TYPE_IDS.map((id) => ({ value: id, label: claimTypeName(t, id) }))}
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
