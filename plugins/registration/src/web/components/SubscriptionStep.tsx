import { MEMBERSHIP_KEYS, type MembershipKey } from '@portal/plugin-billing/contract';
import { type CheckedCoupon, CouponField, planLabel } from '@portal/plugin-billing/coupon-field';
import { showToast } from '@portal/web';
import { Message, RadioOption } from '@portal/web/kit';
import { useState } from 'react';
import { Label, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { RegistrationPaths } from '../../steps';
import { WizardNav } from './WizardNav';
import * as css from './wizard.css';

/**
 * Subscription: a membership type or a valid coupon (spec 01 section 5). A valid coupon forces lifetime (0); an invalid
 * one clears the code. Nothing is charged here: in guided mode the subscription is submitted after the card is linked.
 */
export function SubscriptionStep() {
  const { t } = useTranslation('registration');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const initial = Number(params.get('type'));
  const [type, setType] = useState<MembershipKey | null>(
    MEMBERSHIP_KEYS.includes(initial as MembershipKey) && params.has('type') ? (initial as MembershipKey) : null,
  );
  const [coupon, setCoupon] = useState<CheckedCoupon | null>(null);
  const [submitted, setSubmitted] = useState(false);

  const valid = type !== null || coupon?.ok === true;
  const next = () => {
    setSubmitted(true);
    if (!valid) {
      showToast({ kind: 'error', message: t('subscription.fixErrors') });
      return;
    }
    const q = new URLSearchParams({ type: String(coupon?.ok ? 0 : type) });
    if (coupon?.ok) q.set('code', coupon.code);
    navigate(`${RegistrationPaths.card}?${q.toString()}`);
  };

  return (
    <div className={css.stack}>
      <p>{t('subscription.intro')}</p>
      <RadioGroup
        className={css.radios}
        value={type === null ? null : String(type)}
        onChange={(v) => setType(Number(v) as MembershipKey)}
        isDisabled={coupon?.ok === true}
        isRequired
        isInvalid={submitted && !valid}
      >
        <Label>{t('subscription.type')}</Label>
        {MEMBERSHIP_KEYS.map((k) => (
          <RadioOption key={k} value={String(k)}>
            {planLabel(t, k, 'subscription.prices')}
          </RadioOption>
        ))}
      </RadioGroup>
      {submitted && !valid && (
        <Message kind="error" data-testid="subscription-required">
          {t('subscription.required')}
        </Message>
      )}
      <CouponField
        coupon={coupon}
        onCoupon={setCoupon}
        onMembership={setType}
        label={t('subscription.coupon')}
        checkLabel={t('subscription.check')}
        validText={(message) => `${message} ${t('subscription.lifetime')}`}
      />
      <WizardNav previous={RegistrationPaths.contact} onNext={next} />
    </div>
  );
}
