import { Button, CancelButton, DatePickerField, Form, SelectField, TextField } from '@portal/web/kit';
import { useTranslation } from 'react-i18next';
import { COUPON_STATUSES, type Coupon, type CouponDetail, DISCOUNT_TYPES, MEMBERSHIP_TYPES, PRODUCTS } from '../../contract';
import { type CouponFormValues, couponFormSchema, couponFormValues } from './couponFormValues';
import * as css from './coupons.css';

interface Props {
  /** The coupon edited (with UsedBy as its view reads it), or null for a new one. */
  initial: Coupon | CouponDetail | null;
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
        {/* A coupon in use keeps its code (the server refuses a new one): the help says so before a save is tried. */}
        <TextField
          name="Code"
          label={t('fields.Code')}
          isRequired
          description={initial && 'UsedBy' in initial && initial.UsedBy > 0 ? t('form.codeInUse', { count: initial.UsedBy }) : t('form.codeHelp')}
        />
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
        <CancelButton onCancel={onCancel}>{t('form.cancel')}</CancelButton>
      </div>
    </Form>
  );
}
