import { Button, DatePickerField, Form, SelectField, TextField } from '@portal/web/kit';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { COUPON_STATUSES, type Coupon, DISCOUNT_TYPES, MEMBERSHIP_TYPES, PRODUCTS } from '../../contract';
import * as css from './coupons.css';

const required = 'validation.required';
export const couponFormSchema = z
  .object({
    Code: z
      .string()
      .trim()
      .min(1, required)
      .regex(/^[A-Za-z0-9_-]{3,40}$/, 'coupons:form.codeRule'),
    Product: z.enum(PRODUCTS, { error: required }),
    MembershipType: z.enum(MEMBERSHIP_TYPES, { error: required }),
    DiscountType: z.enum(DISCOUNT_TYPES, { error: required }),
    StartDate: z.string({ error: required }).min(1, required),
    EndDate: z.string().nullable(),
    Status: z.enum(COUPON_STATUSES),
  })
  .refine((v) => !v.EndDate || v.EndDate >= v.StartDate, { path: ['EndDate'], message: 'coupons:form.endBeforeStart' });
export type CouponFormValues = z.infer<typeof couponFormSchema>;

export function couponFormValues(c: Coupon | null): z.input<typeof couponFormSchema> {
  return {
    Code: c?.Code ?? '',
    Product: (c?.Product ?? undefined) as CouponFormValues['Product'],
    MembershipType: (c?.MembershipType ?? undefined) as CouponFormValues['MembershipType'],
    DiscountType: c?.DiscountType ?? 'Lifetime',
    StartDate: c?.StartDate ?? new Date().toISOString().slice(0, 10),
    EndDate: c?.EndDate ?? null,
    Status: c?.Status ?? 'Active',
  };
}

interface Props {
  initial: Coupon | null;
  busy: boolean;
  onSave: (v: CouponFormValues) => void;
  onCancel: () => void;
}

/** Create and edit share this form; the status is chosen on edit only (a new coupon's status follows its dates). */
export function CouponForm({ initial, busy, onSave, onCancel }: Props) {
  const { t } = useTranslation('coupons');
  const options = <T extends string>(values: readonly T[], group: string) => values.map((v) => ({ value: v, label: t(`${group}.${v}`) }));
  return (
    <Form schema={couponFormSchema} defaultValues={couponFormValues(initial)} onSubmit={onSave} aria-label={t(initial ? 'title.edit' : 'title.create')}>
      <div className={css.fields}>
        <TextField name="Code" label={t('fields.Code')} isRequired description={t('form.codeHelp')} />
        <SelectField name="Product" label={t('fields.Product')} isRequired options={options(PRODUCTS, 'product')} placeholder={t('form.choose')} />
        <SelectField
          name="MembershipType"
          label={t('fields.MembershipType')}
          isRequired
          options={options(MEMBERSHIP_TYPES, 'membership')}
          placeholder={t('form.choose')}
        />
        <SelectField name="DiscountType" label={t('fields.DiscountType')} isRequired options={options(DISCOUNT_TYPES, 'discount')} />
        <DatePickerField name="StartDate" label={t('fields.StartDate')} isRequired />
        <DatePickerField name="EndDate" label={t('fields.EndDate')} description={t('form.endHelp')} />
        {initial && <SelectField name="Status" label={t('fields.Status')} isRequired options={options(COUPON_STATUSES, 'status')} />}
      </div>
      <div className={css.row}>
        <Button type="submit" variant="primary" isPending={busy} pendingLabel={t('form.saving')}>
          {t('form.save')}
        </Button>
        <Button onPress={onCancel}>{t('form.cancel')}</Button>
      </div>
    </Form>
  );
}

/** The wire payload: an empty end date is absent. */
export const toCouponPayload = (v: CouponFormValues) => ({
  Code: v.Code.trim(),
  Product: v.Product,
  MembershipType: v.MembershipType,
  DiscountType: v.DiscountType,
  StartDate: v.StartDate,
  EndDate: v.EndDate || null,
});
